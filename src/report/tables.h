#pragma once
// Published-experiment tables (configs/rfc/tables.json): which configs to
// run for each row, which metrics to read from the results, and the
// published figure where one is given. Used by `cidsim reproduce`.
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cidsim {

struct TableRow {
    nlohmann::json key;                // e.g. {"disks": 4, "mode": "posted"}
    std::string config;                // run config, absolute path
    std::vector<std::string> overrides;  // --set assignments
    nlohmann::json published;          // metric -> number (absent: not published)
    std::vector<std::string> metrics;  // this row's own metrics (empty: the table's)
    std::string at;                    // where it is, for messages: "t.json: tables[0].rows[1]"
};

struct Table {
    std::string name;
    std::string title;
    std::string set;  // "calibration" or "prediction"
    std::string note;
    std::vector<std::string> metrics;
    std::vector<TableRow> rows;
};

// The metrics of row `r`: its own, or else the table's.
inline const std::vector<std::string>& row_metrics(const Table& t, size_t r) {
    return t.rows[r].metrics.empty() ? t.metrics : t.rows[r].metrics;
}

// Reads and checks the table file (errors are ConfigError naming the path).
std::vector<Table> load_tables(const std::string& path);
// Names of the metrics a table may ask for.
const std::vector<std::string>& table_metric_names();
// One metric's value from one measurement window {"metrics", "workloads"}.
double table_metric(const std::string& metric, const nlohmann::json& window);

// A measured figure from a result's windows (run.batches): the ratio
// estimate over all windows and the 95% half-width of batch means, with
// adjacent windows merged into batches while their means look serially
// correlated (report/confidence.h). `independent` is false when even
// kMinBatches batches look correlated: the run is too short to trust the
// half-width. A result without windows has one batch and no half-width.
// For a quantile, `tail_samples` is the fewest samples beyond it in any
// window (n (1 - q)); a window's quantile is trusted from kMinTailSamples.
constexpr size_t kMinBatches = 10;
constexpr double kMinTailSamples = 1000;
struct Figure {
    double mean = 0;
    double ci95 = 0;
    size_t batches = 0;
    size_t windows = 1;          // the result's windows, the figure defined in them or not
    size_t defined_windows = 0;  // those that define it
    bool independent = true;
    double tail_samples = std::numeric_limits<double>::infinity();
};
Figure measure(const std::string& metric, const nlohmann::json& result);
// A figure's half-width as the tables write it: null when it came from one
// window (no spread to estimate it by), never a 0 that reads as exact.
nlohmann::json ci95_json(const Figure& f);
// A table's value (a half-width, a figure) as text: "n/a" for null
// (undefined), else printf's `format` of it.
std::string number_text(const nlohmann::json& value, const char* format);
// Why `result` cannot give `metric` (another machine family's), or "".
std::string metric_missing(const std::string& metric, const nlohmann::json& result);

// {"table", "rows": [{"key", "metric", "simulated", "ci95", "published"}]}
nlohmann::json table_json(const Table& t, const std::vector<nlohmann::json>& results);
std::string table_text(const Table& t, const nlohmann::json& rows);
std::string table_csv(const nlohmann::json& tables);
// A row's key as text: "disks=4 mode=posted".
std::string key_text(const nlohmann::json& key);

}  // namespace cidsim
