#pragma once
// A pool of at most N child processes on this machine: each job is one
// fork/exec, its stdout discarded and its stderr written to a log file.
// Children die with the pool (PR_SET_PDEATHSIG), so a killed runner leaves
// no orphan still writing results behind it; what a killed child leaves
// (temp files) is cleaned up by the next run (sweep_dir.h).
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cidsim {

struct PoolJob {
    std::vector<std::string> argv;  // argv[0] is the executable's path
    std::string stderr_path;        // the child's stderr goes here (truncated first)
};

struct PoolOutcome {
    int exit_code = -1;  // valid when signal == 0
    int signal = 0;      // the signal that ended the child, if any
    double seconds = 0;
    bool ok() const { return signal == 0 && exit_code == 0; }
};

// How a child ended, in the words sweep and reproduce both print after a
// failed run: "killed by signal Killed" or "exit status 1".
std::string outcome_text(const PoolOutcome& o);

// Runs every job with at most `width` at a time. `on_done(i, outcome)` is
// called as job i ends; `on_tick()` at least every `tick` while waiting.
void run_pool(const std::vector<PoolJob>& jobs, unsigned width,
              const std::function<void(size_t, const PoolOutcome&)>& on_done,
              const std::function<void()>& on_tick,
              std::chrono::milliseconds tick = std::chrono::milliseconds(250));

// The same, but `on_done` may append jobs to `jobs` (a job that reruns
// itself longer starts as soon as a slot is free, not after a barrier).
void run_pool_growing(std::vector<PoolJob>& jobs, unsigned width,
                      const std::function<void(size_t, const PoolOutcome&)>& on_done,
                      const std::function<void()>& on_tick,
                      std::chrono::milliseconds tick = std::chrono::milliseconds(250));

// The CPUs this process may run on (the default pool width).
unsigned available_cpus();

}  // namespace cidsim
