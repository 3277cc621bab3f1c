#pragma once
// The costs of Linux's threaded-IRQ path (irq_thread.h), part of the CPU's
// parameters because they are kernel paths on the CPU that runs the thread.
#include "model/base/param_visitor.h"

namespace cidsim {

// Costs of the threaded-IRQ path, on the CPU that runs it (platform "cpu").
struct IrqThreadParams {
    sc_core::sc_time wakeup = ns(300);          // __irq_wake_thread -> try_to_wake_up
    sc_core::sc_time context_switch = ns(1000); // switch into the IRQ thread
    sc_core::sc_time loop = ns(150);            // irq_thread loop around the thread function

    void describe(ParamVisitor& v);
};

}  // namespace cidsim
