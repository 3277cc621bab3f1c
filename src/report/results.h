#pragma once
// The result of one run as JSON: the cidsim version, the seed, the effective
// config, and every metric with its unit in its name; plus the short human
// summary `cidsim run` prints, and the all-or-nothing file writer.
#include <string>

#include <nlohmann/json.hpp>

#include "io/output_file.h"  // write_file_atomically, for every writer of results
#include "sim/system.h"

namespace cidsim {

nlohmann::json collect_results(const System& system);
// Runs the system as its config says and collects the result. With
// run.batches = B > 1 the duration is split into B equal windows measured
// separately: "metrics" and "workloads" hold the mean over the windows of
// every number, "ci95" the 95% half-width of each (Student t, B-1 degrees
// of freedom), "batches" each window's own metrics.
nlohmann::json run_and_collect(System& system);
std::string summary_text(const nlohmann::json& results);


}  // namespace cidsim
