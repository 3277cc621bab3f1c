#pragma once
// A self-describing statistics file in gem5's stats.txt layout, so a gem5
// stats parser reads it: between the "Begin/End Simulation Statistics"
// markers one line per value of a result, its name (the result's key path,
// array elements as .i), the value (digits, never an exponent; nan where
// the JSON has null) and "# meaning (unit)", all from the one metric table
// (report/metric_table.h), so a reader needs neither the JSON nor the docs.
// `cidsim run --stats FILE` writes it.
#include <string>

#include <nlohmann/json.hpp>

namespace cidsim {

// The text of the stats file of `result` (a run's result JSON); `source`
// names the config in its header.
std::string stats_text(const nlohmann::json& result, const std::string& source);

}  // namespace cidsim
