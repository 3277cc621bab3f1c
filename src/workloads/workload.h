#pragma once
// What every traffic source shares: the part of the system it drives, and a
// report of its own metrics. Workloads are data-driven (configs/), so the
// same traffic lists drive tests and experiments.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "model/x86/cpu_core.h"
#include "model/x86/device.h"

namespace cidsim {

// The built system as a workload sees it.
struct SystemView {
    std::vector<Device*> devices;
    std::vector<std::string> device_names;
    std::vector<CpuCore*> cpus;
    // Which CPU handles each queue's interrupt: irq_cpu[device][queue].
    std::vector<std::vector<unsigned>> irq_cpu;

    Device& device(const std::string& name, const std::string& key_path) const;
    unsigned device_index(const std::string& name, const std::string& key_path) const;
};

class Workload : public sc_core::sc_module {
public:
    using sc_core::sc_module::sc_module;
    // Adds this workload's own metrics (rates, in-flight work) to `out`.
    virtual void report(nlohmann::json& out, double seconds) const = 0;
    // Forgets what happened during the warm-up.
    virtual void reset_stats() {}
    // I/Os completed (reaped) since, for per-I/O figures; 0 for non-I/O traffic.
    virtual uint64_t completed_ios() const { return 0; }
};

// Exponential variate with the given mean, from a seeded engine.
inline double exponential(std::mt19937_64& rng, double mean) {
    return std::exponential_distribution<double>(1.0 / mean)(rng);
}

}  // namespace cidsim
