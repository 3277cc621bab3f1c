#pragma once
// Checks a sweep's metric paths before any point runs: simulates the first
// point, and with a path through an array index one point of each config
// shape (the sizes of its arrays), for a microsecond, each in a child
// process (SystemC elaborates once per process), and looks each path up in
// those results. A path through an array index (per_cpu.3.busy_fraction)
// must name a single value in at least one shape's result; its part before
// the index, in the first point's.
#include <vector>

#include "sweep/sweep_spec.h"

namespace cidsim {

// Throws ConfigError naming the metric ("metrics[1]: metrics.nope ...").
void check_metric_paths(const SweepSpec& spec, const std::vector<SweepPoint>& points);

}  // namespace cidsim
