#include "report/stats_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <utility>
#include <vector>

#include "config/json_text.h"
#include "config/platforms.h"
#include "config/printable.h"
#include "report/metric_rows.h"
#include "report/metric_table.h"
#include "report/stat_json.h"

namespace cidsim {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// A value as gem5 prints one: digits and a point, never an exponent (its
// parsers read `[0-9.]+`), "nan" for a value the run could not define
// (null in the JSON), booleans as 1 and 0.
std::string value_text(const json& v) {
    if (v.is_null()) return "nan";
    if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
    if (!v.is_number_float()) return v.dump();
    const double x = v.get<double>();
    if (!std::isfinite(x)) return std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf");
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.6g", x);
    if (std::strchr(buf, 'e') == nullptr) return buf;
    // Six significant digits in fixed notation, trailing zeros dropped.
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(x))));
    std::snprintf(buf, sizeof buf, "%.*f", std::max(0, 5 - magnitude), x);
    std::string text = buf;
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') text.pop_back();
    }
    return text;
}

// What a histogram summary's fields are, in words.
const char* summary_word(const std::string& field) {
    if (field == "count") return "samples";
    if (field == "mean") return "mean";
    if (field == "max") return "maximum";
    if (field == "unit") return nullptr;  // said in each line's parentheses
    return nullptr;
}

// A stats file's two parts: gem5's stat lines, numbers only, and the
// labels (a device's name), which a gem5 parser would reject among them,
// as comments above the statistics.
struct Lines {
    std::ostringstream stats, labels;
};

// gem5's stat line: name, value, then "# meaning (unit)"; a text value is a
// label.
void line(Lines& out, const std::string& name, const json& value,
          const std::string& unit, const std::string& meaning) {
    if (value.is_string()) {
        out.labels << "# " << name << " = " << value.get<std::string>() << ": " << meaning << "\n";
        return;
    }
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-64s %16s", name.c_str(), value_text(value).c_str());
    out.stats << buf << "  # " << meaning << " (" << (unit.empty() ? "-" : unit) << ")\n";
}

// An object's values, a line each (objects of objects too: kvm_stat's
// reasons); an entry whose unit is kUnitInFieldNames gives each field the
// unit its name ends with.
void object_lines(Lines& out, const std::string& name, const json& v,
                  const std::string& unit, const std::string& meaning) {
    static const std::pair<const char*, const char*> kSuffixUnits[] = {
        {"_us", "us"}, {"_ns", "ns"}, {"_pct", "percent"}, {"_per_s", "1/s"}, {"samples", "count"}};
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (it.value().is_object()) {
            object_lines(out, name + "." + it.key(), it.value(), unit, meaning);
            continue;
        }
        std::string u = unit == kUnitInFieldNames ? "" : unit;
        for (const auto& [suffix, word] : kSuffixUnits) {
            const std::string k = it.key(), sfx = suffix;
            if (unit == kUnitInFieldNames && k.size() >= sfx.size() &&
                k.compare(k.size() - sfx.size(), sfx.size(), sfx) == 0)
                u = word;
        }
        line(out, name + "." + it.key(), it.value(), u, meaning);
    }
}

// One entry of the metric table at `at` (a result object): a value, an
// object of counts, or a histogram's summary, one line per field.
void entry_lines(Lines& out, const std::string& prefix, const json& at,
                 const ordered_json& e, const std::string& said) {
    const std::string key = e["key"].get<std::string>();
    const json::json_pointer p = key_pointer(key);
    if (!at.contains(p)) return;
    const json& v = at[p];
    const std::string type = e["type"].get<std::string>();
    const std::string unit = e["unit"].get<std::string>();
    const std::string meaning = said + e["description"].get<std::string>();
    const std::string name = prefix + key;
    if (type == "histogram" && v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (it.key() == "unit") continue;
            const char* word = summary_word(it.key());
            const std::string what = word ? word : it.key();  // p50, p99, ...
            line(out, name + "." + it.key(), it.value(), it.key() == "count" ? "samples" : unit,
                 what + " of: " + meaning);
        }
    } else if (v.is_object()) {
        object_lines(out, name, v, unit, meaning);
    } else if (v.is_array()) {
        line(out, name, json(v.size()), unit, meaning + " (entries; records in the JSON result)");
    } else {
        line(out, name, v, unit, meaning);
    }
}

// The objects a listing section describes in `at` (a result, or one
// window of batches[]), each with the name its lines start with:
// "xen.per_vcpu[]" is every element of at.xen.per_vcpu (named
// xen.per_vcpu.0, ...: gem5's names have no brackets, --set reads both),
// "xen" the object at.xen. Workload sections keep the elements of their type only (a
// workload's type is its config's: not every report writes it).
using Described = std::vector<std::pair<std::string, const json*>>;
Described described(const std::string& section, const json& at, const json& cfg,
                    const std::string& prefix) {
    std::string path = section, type;
    if (const size_t t = path.find(" (type "); t != std::string::npos) {
        type = path.substr(t + 7, path.size() - t - 8);
        path.resize(t);
    }
    const bool each = path.size() > 2 && path.compare(path.size() - 2, 2, "[]") == 0;
    if (each) path.resize(path.size() - 2);
    const json::json_pointer where = key_pointer(path);
    if (!at.contains(where)) return {};
    const json* node = &at[where];
    const std::string name = prefix + path;
    Described out;
    if (!each) {
        if (node->is_object()) out.push_back({name + ".", node});
        return out;
    }
    if (!node->is_array()) return out;
    for (size_t i = 0; i < node->size(); ++i) {
        const json& declared = path == "workloads" && cfg["workloads"].size() > i
                                   ? cfg["workloads"][i]
                                   : (*node)[i];
        if (!type.empty() && declared.value("type", std::string()) != type) continue;
        out.push_back({name + "." + std::to_string(i) + ".", &(*node)[i]});
    }
    return out;
}

// Every described value of `at` (a result, a window, or the windows'
// half-widths), its name prefixed; a section's entry for an object or
// array that a section of its own lists ("xen"'s event_lock) is left to it.
void section_lines(Lines& out, const ordered_json& table, const json& at,
                   const json& cfg, const std::string& prefix, const std::string& meaning) {
    for (auto section = table.begin(); section != table.end(); ++section) {
        const std::string s = section.key();
        if (s == "not in result files") continue;
        for (const auto& [name, object] : described(s, at, cfg, prefix))
            for (const ordered_json& e : *section) {
                const std::string key = e["key"].get<std::string>();
                if (table.contains(s + "." + key) || table.contains(s + "." + key + "[]")) continue;
                entry_lines(out, name, *object, e, meaning);
            }
    }
}

}  // namespace

std::string stats_text(const json& r, const std::string& source) {
    Lines lines;
    const json& cfg = r["config"];
    const ordered_json table = describe_metrics();
    section_lines(lines, table, r, cfg, "", "");
    if (r.contains("batches") && r["batches"].is_array())
        for (size_t b = 0; b < r["batches"].size(); ++b)
            section_lines(lines, table, r["batches"][b], cfg,
                          "batches." + std::to_string(b) + ".", "");
    if (r.contains("ci95"))
        section_lines(lines, table, r["ci95"], cfg, "ci95.",
                      "95% half-width of the batch means (Student t) of: ");
    std::ostringstream os;
    // A newline in the config's name would start a line that is no comment.
    os << "# cidsim " << r.value("cidsim_version", std::string("?")) << "; config "
       << (has_control_character(source) ? show_json(json(source)) : source)
       << "; platform " << config_platform_summary(cfg)
       << (cfg.contains("mode") ? "; mode " + cfg["mode"].get<std::string>() : "")
       << "; seed " << r.value("seed", json(0)).dump() << "\n";
    os << "# gem5's stats.txt layout: name, value, # meaning (unit), from cidsim params "
          "--metrics; with run.batches > 1 the values are the whole measured time's totals, "
          "then each window's (batches.i.) and the 95% half-width of the window means (ci95.); "
          "labels (name = text) here, numbers below\n"
       << lines.labels.str() << "\n---------- Begin Simulation Statistics ----------\n"
       << lines.stats.str() << "\n---------- End Simulation Statistics   ----------\n";
    return os.str();
}

}  // namespace cidsim
