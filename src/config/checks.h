#pragma once
// The checks a config passes after every section is read: what the keys
// refer to exists, and settings each in range work together.
#include "config/sim_config.h"

namespace cidsim {

// Whole cores, and a core at least in every socket.
void check_topology(const TopologyParams& t);
// Ids that must exist (root ports, CPUs, vCPUs, devices, trace queues),
// names that must be unique.
void check_references(const SimConfig& c);
// Settings that are each in range but cannot work together (a TPR masking
// a vector, a timer no longer than its interrupt, more vectors than IRTEs).
void check_consistency(const SimConfig& c);
// The most windows (run.batches) whose records fit the memory a run promises
// (config_error.h, kMaxWindowBytes): reproduce grows a row's windows up to it.
uint64_t most_batches(const SimConfig& c);

}  // namespace cidsim
