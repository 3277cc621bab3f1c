#pragma once
// Totals over the whole measured time of a run measured in windows
// (run.batches > 1): what `metrics`, `per_*` and `workloads` of the result
// hold, while `batches` keeps each window's own figures. Counts are summed,
// histograms merged bucket by bucket (so percentiles and maxima are the
// run's, not a mean of the windows'), rates and fractions averaged over the
// windows weighted by their lengths (which is their value over the whole
// time), ratios recomputed from the summed counts (each machine family's
// ResultSection::write_totals its own), and "at the end" states taken from
// the last window.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/base/stats.h"
#include "report/result_section.h"
#include "sim/system.h"

namespace cidsim {

// The workloads' own histograms of the current window (NVMe completion
// latency, of each disk and job) merged into `into`.
void add_workload_histograms(const System& system, HistogramMap& into);

class RunTotals {
public:
    // One window: its result (collect_results) and, from the system before
    // its statistics are reset, every histogram at the place of its summary.
    void add_window(const System& system, const nlohmann::json& window);
    // `result` (the last window's) with metrics, per_cpu, per_vector,
    // per_device, root_ports, workloads and the machine families' sections
    // replaced by the run's totals.
    void write(nlohmann::json& result) const;
    // Every histogram of the windows, merged (a place's whole measured time).
    const HistogramMap& histograms() const { return m_histograms; }

private:
    std::vector<nlohmann::json> m_windows;
    HistogramMap m_histograms;
    // Each machine family's section, with what it sums over the windows.
    std::vector<std::unique_ptr<ResultSection>> m_sections = result_sections();
};

}  // namespace cidsim
