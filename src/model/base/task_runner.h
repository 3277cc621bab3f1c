#pragma once
// TaskRunner: a CPU that runs software work queued on it: a host core
// (cpu_core.h) or a guest's vCPU (xen_pcpu.h), so a workload's threads
// (fio jobs, diskspd threads) run wherever their queue interrupts.
#include <cstdint>

#include <systemc>

namespace cidsim {

// A piece of software work queued on a CPU: `fn(ctx, arg, at)` runs once
// `cost` of CPU time has been spent on it, as at time `at` (now, or later
// when `ahead` allowed the core to run it in its local time).
struct Work {
    sc_core::sc_time cost;
    void (*fn)(void* ctx, uint64_t arg, const sc_core::sc_time& at) = nullptr;
    void* ctx = nullptr;
    uint64_t arg = 0;
    // fn changes only what this CPU's own activity looks at (its job, a
    // disk it alone submits to), and wakes nothing before its own time.
    bool ahead = false;
};

class TaskRunner {
public:
    virtual ~TaskRunner() = default;
    virtual void queue_task(const Work& w) = 0;
    // The CPU's number as a device's handler sees it (the `cpu` of
    // IrqHandler::handle).
    virtual unsigned index() const = 0;
};

}  // namespace cidsim
