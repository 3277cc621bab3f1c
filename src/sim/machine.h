#pragma once
// MachinePart: the blocks of one machine family that System builds, as one
// thing to reset at a measurement window's start and to trace. System
// builds its parts in a fixed order (the x86 host's CPUs, the guests, the
// devices and workloads, the POWER partition), which fixes the order of
// SystemC's processes and so of same-time acts; a part adds no processes
// after it is built.
#include "model/x86/trace_observer.h"

namespace cidsim {

class MachinePart {
public:
    virtual ~MachinePart() = default;
    // Forgets what its blocks counted (a new measurement window).
    virtual void reset_stats() = 0;
    // A measurement window ends now: what is under way counts its part so
    // far (a window's totals do not depend on where the windows fall).
    virtual void close_window() {}
    // Attaches `obs` to every block of the part that reports to a trace
    // observer (nullptr detaches); a part whose blocks do not trace keeps
    // the default.
    virtual void attach_observer(TraceObserver* /*obs*/) {}
};

}  // namespace cidsim
