#include "report/sensitivity.h"
#include "report/columns.h"
#include "report/csv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

#include "config/config_loader.h"
#include "config/platforms.h"
#include "config/provenance.h"

namespace cidsim {

using nlohmann::json;

namespace {

Assumption assumption_of(const Provenance& p, const json& params, const json& profiles,
                         const std::string& platform) {
    const json* d = described_parameter(params, profiles, p);
    if (!d) throw BadInput(p.file + ": provenance." + p.key + ": names no parameter of cidsim");
    Assumption a;
    a.name = p.key;
    a.kind = p.kind;
    a.value = p.value.get<double>();
    a.low = p.low;
    a.high = p.high;
    a.integer = (*d)["type"] == "integer";
    a.platform = platform;
    return a;
}

std::string number(double x) {
    char b[64];
    std::snprintf(b, sizeof b, "%.10g", x);
    return b;
}

bool overridden(const std::vector<std::string>& overrides, const std::string& path) {
    return std::any_of(overrides.begin(), overrides.end(),
                       [&](const std::string& s) { return s.rfind(path + "=", 0) == 0; });
}

std::string fmt(const char* f, double x) {
    char b[64];
    std::snprintf(b, sizeof b, f, x);
    return b;
}

}  // namespace

std::vector<Assumption> load_assumptions(const std::string& devices_file, json& profiles) {
    const json params = describe_parameters();
    std::vector<Assumption> out;
    for (const Provenance& p : platform_provenance(kDefaultPlatform))
        if (p.uncertain()) out.push_back(assumption_of(p, params, nullptr, kDefaultPlatform));
    profiles = read_json_file(devices_file);
    for (const Provenance& p : read_provenance(profiles, devices_file))
        if (p.uncertain()) out.push_back(assumption_of(p, params, profiles, ""));
    return out;
}

std::vector<std::string> assignments(const json& config, const json& profiles,
                                     const std::vector<std::string>& row_overrides,
                                     const Assumption& a, double x) {
    std::vector<std::string> out;
    const std::string value = number(a.integer ? std::round(x) : x);
    if (!a.platform.empty()) {
        json c = config;
        for (const std::string& s : row_overrides) apply_override(c, s);
        if (!takes_platform_value(c, a.name) ||
            c.value("platform", std::string(kDefaultPlatform)) != a.platform)
            return out;
        if (overridden(row_overrides, a.name)) return out;
        return {a.name + "=" + value};
    }
    const size_t dot = a.name.find('.'), dot2 = a.name.find('.', dot + 1);
    const std::string profile = a.name.substr(0, dot);
    const std::string part = a.name.substr(dot + 1, dot2 - dot - 1), key = a.name.substr(dot2 + 1);
    const json& prof = profiles[profile];
    // The profile made a device when the device has every one of its values.
    const auto has_all = [](const json& obj, const json& values) {
        for (auto it = values.begin(); it != values.end(); ++it)
            if (!obj.contains(it.key()) || obj[it.key()] != it.value()) return false;
        return true;
    };
    std::vector<std::string> made;
    const json devices = config.value("devices", json::array());
    for (size_t i = 0; i < devices.size(); ++i)
        if (has_all(devices[i], prof["device"])) {
            made.push_back(devices[i].value("name", ""));
            if (part == "device") out.push_back("devices." + std::to_string(i) + "." + key);
        }
    const json workloads = config.value("workloads", json::array());
    for (size_t j = 0; part == "workload" && j < workloads.size(); ++j)
        if (std::count(made.begin(), made.end(), workloads[j].value("device", "")) &&
            has_all(workloads[j], prof["workload"]))
            out.push_back("workloads." + std::to_string(j) + "." + key);
    for (const std::string& path : out)
        if (overridden(row_overrides, path)) return {};
    for (std::string& path : out) path += "=" + value;
    return out;
}

std::vector<std::vector<double>> latin_hypercube(const std::vector<Assumption>& as, unsigned n,
                                                 uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<std::vector<double>> points(n, std::vector<double>(as.size()));
    for (size_t i = 0; i < as.size(); ++i) {
        std::vector<unsigned> strata(n);
        for (unsigned k = 0; k < n; ++k) strata[k] = k;
        std::shuffle(strata.begin(), strata.end(), rng);
        for (unsigned k = 0; k < n; ++k) {
            const double f = (strata[k] + u(rng)) / n;
            const double x = as[i].low + f * (as[i].high - as[i].low);
            points[k][i] = as[i].integer ? std::round(x) : x;
        }
    }
    return points;
}

json sensitivity_json(const Table& t, const std::vector<json>& baseline,
                      const std::vector<RowSensitivity>& runs, const std::vector<Assumption>& as,
                      unsigned lhs_points) {
    json rows = json::array();
    for (size_t r = 0; r < t.rows.size(); ++r)
        for (const std::string& m : row_metrics(t, r)) {
            const Figure base = measure(m, baseline[r]);
            json tornado = json::array();
            for (size_t i = 0; i < as.size(); ++i) {
                if (runs[r].low[i].is_null() || runs[r].high[i].is_null()) continue;
                const double lo = measure(m, runs[r].low[i]).mean;
                const double hi = measure(m, runs[r].high[i]).mean;
                const double swing = base.mean != 0 ? 100 * (hi - lo) / std::fabs(base.mean) : 0;
                tornado.push_back({{"parameter", as[i].name}, {"kind", as[i].kind},
                                   {"value", as[i].value}, {"low", as[i].low},
                                   {"high", as[i].high}, {"at_low", lo}, {"at_high", hi},
                                   {"swing_pct", swing}});
            }
            std::stable_sort(tornado.begin(), tornado.end(), [](const json& a, const json& b) {
                return std::fabs(a["swing_pct"].get<double>()) > std::fabs(b["swing_pct"].get<double>());
            });
            json points = json::array();
            for (const json& res : runs[r].lhs)
                if (!res.is_null()) points.push_back(measure(m, res).mean);
            json interval = nullptr;
            if (!points.empty())
                interval = {*std::min_element(points.begin(), points.end()),
                            *std::max_element(points.begin(), points.end())};
            rows.push_back({{"key", t.rows[r].key}, {"metric", m}, {"simulated", base.mean},
                            {"ci95", ci95_json(base)}, {"interval", interval},
                            {"interval_points", points}, {"tornado", tornado}});
        }
    return {{"table", t.name}, {"lhs_points", lhs_points}, {"rows", rows}};
}

std::string sensitivity_text(const json& s, size_t top) {
    std::ostringstream os;
    os << s["table"].get<std::string>()
       << " sensitivity: each fitted, assumed or guessed value at the low and the high end of its "
          "range, one at a time (the "
       << top << " largest swings per figure); the assumption interval is the range over "
       << s["lhs_points"].get<unsigned>() << " Latin-hypercube points moving all of them\n";
    for (const json& r : s["rows"]) {
        const double sim = r["simulated"];
        std::string interval = "-";
        if (!r["interval"].is_null())
            interval = "[" + fmt("%.4g", r["interval"][0]) + ", " + fmt("%.4g", r["interval"][1]) + "]";
        // The key and metric in full: a row's key has no length limit.
        os << "  " << key_text(r["key"]) << " " << r["metric"].get<std::string>() << ": "
           << fmt("%.4g", sim) << " +-" << number_text(r["ci95"], "%.2g")
           << " (ci95), assumption interval " << interval << "\n";
        size_t shown = 0;
        for (const json& d : r["tornado"]) {
            if (shown++ == top) break;
            const std::string range = "[" + fmt("%.4g", d["low"]) + ", " + fmt("%.4g", d["high"]) + "]";
            os << "      " << left_in(d["parameter"].get<std::string>(), 40) << " "
               << left_in(d["kind"].get<std::string>(), 8) << " " << left_in(range, 18)
               << " at low " << left_in(fmt("%.4g", d["at_low"].get<double>()), 10)
               << " at high " << left_in(fmt("%.4g", d["at_high"].get<double>()), 10)
               << " swing " << fmt("%+.1f", d["swing_pct"].get<double>()) << "%\n";
        }
    }
    return os.str();
}

std::string sensitivity_csv(const json& tables) {
    std::ostringstream os;
    os << "table,key,metric,parameter,low,high,at_low,at_high,swing_pct\n";
    for (const json& t : tables)
        for (const json& r : t["rows"])
            for (const json& d : r["tornado"])
                os << csv_field(t["table"].get<std::string>()) << ","
                   << csv_field(key_text(r["key"])) << ","
                   << csv_field(r["metric"].get<std::string>()) << ","
                   << csv_field(d["parameter"].get<std::string>()) << "," << d["low"].get<double>() << "," << d["high"].get<double>() << ","
                   << d["at_low"].get<double>() << "," << d["at_high"].get<double>() << ","
                   << d["swing_pct"].get<double>() << "\n";
    return os.str();
}

}  // namespace cidsim
