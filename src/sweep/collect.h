#pragma once
// Merges a sweep directory's point results into one table: one row per point
// (a combination of varied values and a seed) with the point name, the
// varied parameters, the seed and the chosen metrics; or, aggregated over
// seeds, one row per combination with each metric's mean and the 95%
// confidence interval of the mean (Student's t with n-1 degrees of freedom).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cidsim {

struct SweepTable {
    std::vector<std::string> columns;
    std::vector<std::vector<nlohmann::json>> rows;  // null = empty cell
    std::vector<std::string> missing;               // points without a result
    // What a reader of the table should know, a line each: an indexed
    // metric (per_cpu.3.busy_fraction) past the arrays of some points'
    // results (fewer CPUs there: their cells are empty), results made by
    // more than one cidsim version.
    std::vector<std::string> notes;
};

// `metrics` empty: the metrics named in the sweep's manifest. Throws
// ConfigError (bad input: no manifest, unknown metric path, a result that is
// for another config) naming the point and the path.
SweepTable collect_sweep(const std::string& dir, std::vector<std::string> metrics,
                         bool aggregate_seeds);

std::string table_csv(const SweepTable& t);
// [{column: value}, ...] in row order.
nlohmann::json table_json(const SweepTable& t);

// The value at a dotted path ("metrics.msi_to_handler_ns.p99", array
// elements by index); nullptr when absent.
const nlohmann::json* json_at_path(const nlohmann::json& j, const std::string& path);
// Whether a metric path goes through an array index (per_cpu.3.busy_fraction,
// per_cpu[3].busy_fraction): an element only results of some shapes hold.
bool indexed_path(const std::string& path);

// Why a metric path would be a second column of collect's table, one named as
// its own (the point, its seed, a varied parameter in `params`): what the
// table "has ...", or "".
std::string table_column_clash(const std::string& metric, const std::vector<std::string>& params);

// A short fingerprint of an effective config (FNV-1a over its JSON text,
// keys sorted), kept per point in the manifest: collect takes a result only
// if it was made for the point's whole config, not just its varied values.
std::string config_digest(const nlohmann::json& effective_config);
// The same over the sizes of every array in a config, not its values:
// points of one shape have results of one shape (per_device, per_cpu arrays).
std::string config_shape_digest(const nlohmann::json& effective_config);

}  // namespace cidsim
