#pragma once
// A testbench workload: completes a device's queue 0 at set times from its
// own process, as the NVMe and DSA workloads do (the devices before it at
// its root port first, at one picosecond).
#include <cstdint>

#include "model/x86/device.h"
#include "kernel/timed_queue.h"

struct TimedSchedule : sc_core::sc_module, cidsim::CompletionSchedule {
    SC_HAS_PROCESS(TimedSchedule);
    cidsim::Device& device;
    cidsim::TimedQueue<uint64_t> due;  // tags, at their completion times
    TimedSchedule(sc_core::sc_module_name n, cidsim::Device& d) : sc_module(n), device(d) {
        device.add_schedule(*this);
        SC_METHOD(on_due);
        sensitive << due.event();
        dont_initialize();
    }
    sc_core::sc_time earliest_completion() const override {
        return due.next_at_min(cidsim::never());
    }
    void on_due() {
        device.complete_in_port_order(*this);
    }
    void catch_up() override {
        due.take_due([this](uint64_t tag) { device.complete(0, tag, 4096); });
    }
};
