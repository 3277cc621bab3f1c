#pragma once
// The result of one run as JSON: the cidsim version, the seed, the effective
// config, and every metric with its unit in its name; plus the short human
// summary `cidsim run` prints, and the all-or-nothing file writer.
#include <string>

#include <nlohmann/json.hpp>

#include "io/output_file.h"
#include "report/histogram_collector.h"
#include "report/progress.h"  // write_file_atomically, for every writer of results
#include "sim/system.h"

namespace cidsim {

nlohmann::json collect_results(const System& system);
// Runs the system as its config says and collects the result. With
// run.batches = B > 1 the duration is split into B equal windows measured
// separately: "metrics", "per_*" and "workloads" hold the totals over the
// whole measured time (report/run_totals.h: counts summed, histograms
// merged), "batches" each window's own metrics and workloads, and "ci95"
// the 95% half-width of the window means of each number (Student t, B-1
// degrees of freedom).
// With `progress` (enabled on a terminal) the simulated and wall time are
// shown as the run goes; the result is the same.
// `workload_histograms`, when given, gets the whole measured time's
// histograms (each NVMe disk's and job's completion latency, run_totals.h).
nlohmann::json run_and_collect(System& system, ProgressLine* progress = nullptr,
                               HistogramMap* workload_histograms = nullptr);
std::string summary_text(const nlohmann::json& results);


}  // namespace cidsim
