#include "sweep/metric_probe.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>
#include <stdexcept>

#include "config/config_loader.h"
#include "config/json_text.h"
#include "io/cleanup.h"
#include "report/results.h"
#include "sim/system.h"
#include "sweep/collect.h"

namespace cidsim {

using nlohmann::json;

namespace {

constexpr double kProbeNs = 1000;

// The probe only learns the result's shape: a trace replay keeps the
// events inside the probe's run (at least one, moved to its start), and a
// periodic workload's first completion moves to 0: either past the probe's
// 1 us end would be refused by the loader.
void keep_workloads_inside_probe(json& config) {
    if (!config.contains("workloads") || !config["workloads"].is_array()) return;
    for (json& w : config["workloads"]) {
        if (w.is_object() && w.value("type", "") == "periodic") w["phase_ns"] = 0;
        if (!w.is_object() || w.value("type", "") != "trace" || !w.contains("events") ||
            !w["events"].is_array() || w["events"].empty())
            continue;
        json inside = json::array();
        for (const json& e : w["events"])
            if (e.is_array() && !e.empty() && e[0].is_number() && e[0].get<double>() < kProbeNs)
                inside.push_back(e);
        if (inside.empty()) {
            inside.push_back(w["events"][0]);
            if (inside[0].is_array() && !inside[0].empty()) inside[0][0] = 0;
        }
        w["events"] = inside;
    }
}

json simulate_probe(json probe_config) {
    probe_config["run"]["duration_ns"] = kProbeNs;
    probe_config["run"]["warmup_ns"] = 0;
    keep_workloads_inside_probe(probe_config);
    System system(load_config(probe_config));
    system.run();
    return collect_results(system);
}

// SystemC elaborates one system per process: each probe runs in a child of
// its own, which sends back its result, or its error's kind and text.
json probe_result(const SweepSpec& spec, const SweepPoint& point) {
    int fds[2];
    if (::pipe(fds) != 0)
        throw std::runtime_error(std::string("metric probe: pipe: ") + std::strerror(errno));
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0)
        throw std::runtime_error(std::string("metric probe: fork: ") + std::strerror(errno));
    if (pid == 0) {
        become_child_of(parent);  // the parent's files are not the probe's to remove
        ::close(fds[0]);
        std::string out;
        try {
            out = "R" + simulate_probe(point_config(spec, point)).dump();
        } catch (const BadInput& e) {
            out = std::string("C") + e.what();
        } catch (const std::invalid_argument& e) {
            out = std::string("I") + e.what();
        } catch (const std::exception& e) {
            out = std::string("E") + e.what();
        }
        for (size_t done = 0; done < out.size();) {
            const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += size_t(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string got;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got.append(buffer, size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (got.empty() || !WIFEXITED(status))
        throw std::runtime_error("the metric probe of point " + point.name + " ended without a " +
                                 "result" + (WIFSIGNALED(status) ? " (signal " +
                                 std::to_string(WTERMSIG(status)) + ")" : std::string()));
    const std::string text = got.substr(1);
    switch (got[0]) {
    case 'R': return json::parse(text);
    case 'C': throw ConfigError(text);
    case 'I': throw std::invalid_argument(text);
    default: throw std::runtime_error(text);
    }
}


}  // namespace

void check_metric_paths(const SweepSpec& spec, const std::vector<SweepPoint>& points) {
    // One probe per shape of config (usually one) when a path has an index:
    // an index past an array in every shape names nothing any point will have.
    const bool any_indexed = std::any_of(spec.metrics.begin(), spec.metrics.end(), indexed_path);
    std::vector<json> results;
    std::set<std::string> shapes;
    for (const SweepPoint& point : points) {
        if (shapes.insert(point.shape_digest).second) results.push_back(probe_result(spec, point));
        if (!any_indexed) break;
    }
    const json& result = results.front();

    for (size_t m = 0; m < spec.metrics.size(); ++m) {
        const std::string& path = spec.metrics[m];
        const std::string at = "metrics[" + std::to_string(m) + "]: " + path;
        if (has_empty_key(path))
            throw ConfigError(at + ": an empty key in the path (expected a result path like "
                                   "metrics.msi_to_handler_ns.p99)");
        // The part before the first array index, which every point has.
        std::string fixed;
        bool indexed = false;
        for (const std::string& k : key_segments(path)) {
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
        const json* whole = indexed ? json_at_path(result, path) : v;
        if (whole && whole->is_structured()) {
            const std::string leaf = first_single_value_path(*whole, path);
            throw ConfigError(at + ": is not a single value (" +
                              (leaf.empty() ? std::string("it holds no field to name")
                                            : "name a field inside it, e.g. " + leaf) +
                              ")");
        }
        if (indexed && std::none_of(results.begin(), results.end(), [&](const json& r) {
                const json* leaf = json_at_path(r, path);
                return leaf && !leaf->is_object() && !leaf->is_array();
            }))
            throw ConfigError(at + ": no point's result has a single value there (" + fixed +
                              " holds " + std::to_string(v->size()) + " element(s) in the first point)");
    }
}

}  // namespace cidsim
