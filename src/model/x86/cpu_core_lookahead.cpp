// The core's lookahead towards its PID's poster (cpu_core.h): when it can
// next touch the PID. Kept apart from the core's work in cpu_core.cpp.
#include <algorithm>

#include "kernel/sim_clock.h"
#include "model/x86/cpu_core.h"

namespace cidsim {

using sc_core::sc_time;

// In an interrupt the core acts next when its wait ends (or now, if it is
// about to run); outside one, an interrupt's entry comes before any access.
sc_time CpuCore::earliest_next(const sc_time&) const {
    const sc_time now = sim_now();
    if (m_in_interrupt) return std::max(m_clock.waiting_until(), now);
    return now + m_params.irq_entry;
}

}  // namespace cidsim
