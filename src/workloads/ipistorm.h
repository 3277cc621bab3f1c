#pragma once
// The ipistorm workload (systems.md D; antonblanchard/ipistorm): one
// kthread bound to each CPU of `cpulist`, each looping
// smp_call_function_single((cpu + offset) % n, do_nothing_ipi, NULL, wait)
// then usleep_range(delay, delay + 1), n being the list's CPU count. The
// loop itself runs on PowerCpu (model/power/power_cpu.h); this is its setup.
#include <cstdint>
#include <string>
#include <vector>

#include "model/base/param_visitor.h"

namespace cidsim {

struct IpistormParams {
    std::string cpulist = "0-15";
    uint64_t offset = 8;
    bool wait = true;
    uint64_t delay_us = 0;

    void describe(ParamVisitor& v);
    // The CPUs of cpulist ("0-15,32,40-47"), ascending; throws
    // std::invalid_argument naming what is wrong.
    std::vector<unsigned> cpus() const;
};

}  // namespace cidsim
