#pragma once
// The pieces of `cidsim bench`: one measured model run and one SystemC
// floor measurement, each meant to run in a process of its own (SystemC
// elaborates once per process; a fresh process also gives each run its own
// peak RSS), and the child-process plumbing the benchmark uses to run them.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cidsim {

// A model run, measured in the process that simulates it.
struct BenchRun {
    uint64_t msis = 0;           // simulated MSIs, warm-up included
    double sim_seconds = 0;      // simulated time, warm-up included
    double wall_seconds = 0;     // wall time of sc_start (elaboration excluded)
    uint64_t timed_events = 0;   // g_kernel_events.timed over the run
    uint64_t delta_events = 0;
    long max_rss_kb = 0;         // this process's peak RSS
    nlohmann::json to_json() const;
};

// Builds the system of `config_path` (with `overrides`, key.path=value) and
// runs it; throws ConfigError on bad input.
BenchRun bench_model(const std::string& config_path, const std::vector<std::string>& overrides);

// The SystemC kernel's floor: one SC_METHOD re-arming itself with a 1 ns
// next_trigger, `events` times (the `method` mode of tools/sc-floor).
struct FloorRun {
    uint64_t events = 0;
    double wall_seconds = 0;
    long max_rss_kb = 0;
    nlohmann::json to_json() const;
};
FloorRun bench_floor(uint64_t events);

// Runs `args` as a child of this executable (/proc/self/exe), returns the
// JSON object it printed last on stdout, with "child_max_rss_kb" added from
// wait4's rusage. Throws std::runtime_error if the child fails.
nlohmann::json run_child(const std::vector<std::string>& args);

double median(std::vector<double> v);

}  // namespace cidsim
