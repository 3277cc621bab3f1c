#include "report/stats_text.h"

#include <cstdio>
#include <sstream>

#include "config/platforms.h"
#include "report/metric_table.h"
#include "report/stat_json.h"

namespace cidsim {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

std::string value_text(const json& v) {
    if (v.is_number_float()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
        return buf;
    }
    return v.dump();
}

// What a histogram summary's fields are, in words.
const char* summary_word(const std::string& field) {
    if (field == "count") return "samples";
    if (field == "mean") return "mean";
    if (field == "max") return "maximum";
    if (field == "unit") return nullptr;  // said by the unit column
    return nullptr;
}

void line(std::ostringstream& os, const std::string& name, const json& value,
          const std::string& unit, const std::string& meaning) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%-56s %16s  %-14s", name.c_str(), value_text(value).c_str(),
                  unit.empty() ? "-" : unit.c_str());
    os << buf << " # " << meaning << "\n";
}

// One entry of the metric table at `at` (a result object): a value, an
// object of counts, or a histogram's summary, one line per field.
void entry_lines(std::ostringstream& os, const std::string& prefix, const json& at,
                 const ordered_json& e) {
    const std::string key = e["key"].get<std::string>();
    const json::json_pointer p = key_pointer(key);
    if (!at.contains(p)) return;
    const json& v = at[p];
    const std::string type = e["type"].get<std::string>();
    const std::string unit = e["unit"].get<std::string>();
    const std::string meaning = e["description"].get<std::string>();
    const std::string name = prefix + key;
    if (type == "histogram" && v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (it.key() == "unit") continue;
            const char* word = summary_word(it.key());
            const std::string what = word ? word : it.key();  // p50, p99, ...
            line(os, name + "." + it.key(), it.value(), it.key() == "count" ? "samples" : unit,
                 what + " of: " + meaning);
        }
    } else if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it)
            line(os, name + "." + it.key(), it.value(), unit, meaning);
    } else if (v.is_array()) {
        line(os, name, json(v.size()), unit, meaning + " (entries; records in the JSON result)");
    } else {
        line(os, name, v, unit, meaning);
    }
}

}  // namespace

std::string stats_text(const json& r, const std::string& source) {
    std::ostringstream os;
    const json& cfg = r["config"];
    os << "---------- Begin cidsim statistics ----------\n";
    os << "# cidsim " << r.value("cidsim_version", std::string("?")) << "; config " << source
       << "; platform " << platform_summary(cfg.value("platform", std::string(kGenericPlatform)))
       << "; mode " << cfg.value("mode", std::string("?")) << "; seed " << r.value("seed", json(0)).dump()
       << "\n";
    os << "# name, value, unit, meaning (cidsim params --metrics); with run.batches > 1 the "
          "values are the whole measured time's totals\n";
    const ordered_json table = describe_metrics();
    for (auto section = table.begin(); section != table.end(); ++section) {
        const std::string s = section.key();
        if (s == "metrics") {
            for (const ordered_json& e : *section) entry_lines(os, "metrics.", r["metrics"], e);
            continue;
        }
        // "per_cpu[]" and "workloads[] (type nvme)": every element (of that type).
        const size_t bracket = s.find("[]");
        if (bracket == std::string::npos) continue;  // "not in result files"
        const std::string array = s.substr(0, bracket);
        std::string type;
        if (const size_t t = s.find("(type "); t != std::string::npos)
            type = s.substr(t + 6, s.size() - t - 7);
        if (!r.contains(array) || !r[array].is_array()) continue;
        for (size_t i = 0; i < r[array].size(); ++i) {
            const json& el = r[array][i];
            // A workload's type is its config's (not every report writes it).
            const json& declared = array == "workloads" && cfg["workloads"].size() > i
                                       ? cfg["workloads"][i]
                                       : el;
            if (!type.empty() && declared.value("type", std::string()) != type) continue;
            for (const ordered_json& e : *section)
                entry_lines(os, array + "[" + std::to_string(i) + "].", el, e);
        }
    }
    os << "---------- End cidsim statistics ----------\n";
    return os.str();
}

}  // namespace cidsim
