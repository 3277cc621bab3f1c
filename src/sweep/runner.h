#pragma once
// Runs a sweep's points on this machine: skips points whose result is
// already complete, runs the rest with the local pool, shows a progress line
// (on a terminal), and reports each failure with its command and the tail of
// its stderr.
#include <iosfwd>
#include <string>
#include <vector>

#include "sweep/sweep_dir.h"

namespace cidsim {

struct SweepSummary {
    size_t points = 0;
    size_t skipped = 0;      // result already complete
    size_t unreadable = 0;   // a result that is not one (cut short, edited): rerun
    size_t replaced = 0;     // a result for another config/seed (no manifest kept it): rerun
    size_t ran = 0;
    size_t failed = 0;
    size_t temp_files_removed = 0;
    double seconds = 0;
};

struct SweepOptions {
    unsigned jobs = 1;
    std::ostream* progress = nullptr;  // progress line target (a terminal), or none
    std::ostream* report = nullptr;    // failures are written here
};

// Call with the directory prepared and locked.
SweepSummary run_sweep(const SweepDir& dir, const SweepSpec& spec,
                       const std::vector<SweepPoint>& points, const SweepOptions& options);

std::string summary_line(const SweepDir& dir, const SweepSummary& s);

}  // namespace cidsim
