#include "sweep/metric_probe.h"

#include <cctype>
#include <sstream>

#include "config/config_loader.h"
#include "report/results.h"
#include "sim/system.h"
#include "sweep/collect.h"

namespace cidsim {

using nlohmann::json;

void check_metric_paths(const SweepSpec& spec, const SweepPoint& first) {
    json probe_config = first.effective_config;
    probe_config["run"]["duration_ns"] = 1000;
    probe_config["run"]["warmup_ns"] = 0;
    System system(load_config(probe_config));
    system.run();
    const json result = collect_results(system);

    for (size_t m = 0; m < spec.metrics.size(); ++m) {
        const std::string& path = spec.metrics[m];
        const std::string at = "metrics[" + std::to_string(m) + "]: " + path;
        // The part before the first array index, which every point has.
        std::string fixed;
        std::stringstream parts(path);
        bool indexed = false;
        for (std::string k; std::getline(parts, k, '.');) {
            if (!k.empty() && std::isdigit(static_cast<unsigned char>(k[0]))) {
                indexed = true;
                break;
            }
            fixed += (fixed.empty() ? "" : ".") + k;
        }
        const json* v = json_at_path(result, fixed);
        if (!v) {
            std::string known;
            const size_t dot = fixed.rfind('.');
            const json* parent = dot == std::string::npos ? &result : json_at_path(result, fixed.substr(0, dot));
            if (parent && parent->is_object())
                for (auto it = parent->begin(); it != parent->end(); ++it)
                    known += (known.empty() ? "" : ", ") + it.key();
            throw ConfigError(at + ": not in a cidsim result" +
                              (known.empty() ? "" : "; keys there: " + known));
        }
        if (!indexed && (v->is_object() || v->is_array()))
            throw ConfigError(at + ": is not a single value (name a field inside it, e.g. " + path +
                              "." + (v->is_object() && !v->empty() ? v->begin().key() : "0") + ")");
    }
}

}  // namespace cidsim
