#pragma once
// A self-describing statistics file, in the spirit of gem5's stats.txt: one
// line per value of a result, its name (the result's key path), the value,
// its unit and its meaning, all from the one metric table
// (report/metric_table.h), so a reader needs neither the JSON nor the docs.
// `cidsim run --stats FILE` writes it.
#include <string>

#include <nlohmann/json.hpp>

namespace cidsim {

// The text of the stats file of `result` (a run's result JSON); `source`
// names the config in its header.
std::string stats_text(const nlohmann::json& result, const std::string& source);

}  // namespace cidsim
