#pragma once
// fio's own JSON output (fio --output-format=json, the fio 3.x layout) for
// a run's NVMe workloads: one fio job per NVMe job, its read figures as fio
// writes them (iops, bw in KiB/s, bw_bytes, io_bytes, runtime, total_ios;
// clat_ns with min, max, mean, stddev, N and percentile; lat_ns and slat_ns),
// so a tool that reads fio's JSON reads a simulated run.
//
// What differs from fio, said in the document's "cidsim" object: each
// completion latency is recorded in whole microseconds (the ns figures are
// us x 1000, within 500 ns), exact below 256 us and within 1/256 above
// (Histogram); percentiles are by nearest rank, fio's rule; submission is
// not timed apart (slat 0, lat = clat: from submission to reap); bandwidth
// and IOPS are over the measured time, with no per-interval samples
// (bw_min/bw_max/iops_min... are absent); write, trim and sync are zero.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/histogram_collector.h"

namespace cidsim {

// fio's default percentile list (fio's --percentile_list).
const std::vector<double>& fio_default_percentiles();
// "1:5:99.9" (fio's syntax: colon-separated percentages in (0, 100], at
// most 20, in any order, as fio sorts them); std::invalid_argument on
// anything else, a percentage twice (to fio's 6 decimals) too.
std::vector<double> parse_percentile_list(const std::string& text);

// `result` is a run's result; `histograms` the run's whole-time histograms
// (run_and_collect's), where each NVMe job's completion latency is
// "/workloads/<w>/jobs/<j>/completion_latency_us".
nlohmann::json fio_json(const nlohmann::json& result, const HistogramMap& histograms,
                        const std::vector<double>& percentiles);

}  // namespace cidsim
