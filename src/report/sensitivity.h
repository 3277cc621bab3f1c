#pragma once
// `cidsim reproduce TABLE --sensitivity`: how each figure depends on the
// numbers it rests on. Every fitted, assumed and guessed value of the
// platform and the device profiles (config/provenance.h) is set to the low
// and then the high end of its plausible range, one at a time (a tornado),
// and a small Latin-hypercube sample moves all of them together (the
// assumption interval). docs/predictions.md shows the result.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/tables.h"

namespace cidsim {

struct Assumption {
    std::string name;  // the provenance key: "cpu.irq_entry_ns", "dsa.device.per_completion_ns"
    std::string kind;  // fitted, assumed or guess
    double value = 0, low = 0, high = 0;
    bool integer = false;  // the parameter takes whole numbers: samples are rounded
    std::string platform;  // its platform, or "" for a device profile
};

// The uncertain numbers of the default platform and of the device profiles
// in `devices_file` (its JSON is returned in `profiles` for matching).
std::vector<Assumption> load_assumptions(const std::string& devices_file, nlohmann::json& profiles);

// The --set assignments that put `a` at `x` in a row's config (read with its
// includes, before the row's own overrides): a platform value when the row
// runs on that platform, a profile's value on every device (and its
// workload) the profile made. None when the row does not use it, or when the
// row's own overrides set it.
std::vector<std::string> assignments(const nlohmann::json& config, const nlohmann::json& profiles,
                                     const std::vector<std::string>& row_overrides,
                                     const Assumption& a, double x);

// n points of a Latin hypercube over every assumption's range (one stratum
// per point in each, strata shuffled independently, the point at a random
// place within its stratum): points[k][i] is assumption i's value.
std::vector<std::vector<double>> latin_hypercube(const std::vector<Assumption>& as, unsigned n,
                                                 uint64_t seed);

// One row's runs beside its baseline: for assumption i, its results at the
// low and high ends (null when the row does not use it or the run failed);
// and the Latin-hypercube points' results.
struct RowSensitivity {
    std::vector<nlohmann::json> low, high;
    std::vector<nlohmann::json> lhs;
};

// {"table", "lhs_points", "rows": [{"key", "metric", "simulated", "ci95",
//   "interval": [lo, hi] | null, "interval_points", "tornado": [{"parameter", "kind",
//   "low", "high", "at_low", "at_high", "swing_pct"}]}]}, tornado rows by |swing| first.
nlohmann::json sensitivity_json(const Table& t, const std::vector<nlohmann::json>& baseline,
                                const std::vector<RowSensitivity>& runs,
                                const std::vector<Assumption>& as, unsigned lhs_points);
// Per figure its `top` strongest dependences and the assumption interval.
std::string sensitivity_text(const nlohmann::json& s, size_t top);
// table,key,metric,parameter,low,high,at_low,at_high,swing_pct
std::string sensitivity_csv(const nlohmann::json& tables);

}  // namespace cidsim
