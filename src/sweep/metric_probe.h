#pragma once
// Checks a sweep's metric paths before any point runs: simulates the first
// point for a few nanoseconds in this process (the sweep runner elaborates
// nothing else; its points are separate processes) and looks each path up
// in that result. A path through an array index (per_cpu.3.busy_fraction)
// may exist only for some points, so only its non-indexed part is checked.
#include <vector>

#include "sweep/sweep_spec.h"

namespace cidsim {

// Throws ConfigError naming the metric ("metrics[1]: metrics.nope ...").
void check_metric_paths(const SweepSpec& spec, const SweepPoint& first);

}  // namespace cidsim
