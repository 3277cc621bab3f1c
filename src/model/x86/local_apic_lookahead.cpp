// The LAPIC's lookahead towards its core (local_apic.h): when a vector can
// next become pending. Kept apart from the APIC's registers in local_apic.cpp.
#include <algorithm>

#include "kernel/sim_clock.h"
#include "model/x86/local_apic.h"

namespace cidsim {

// Unconnected, a testbench may accept() a message at any time.
sc_core::sc_time LocalApic::earliest_next(const sc_core::sc_time& needed) const {
    if (!m_messages_in.connected()) return sim_now();
    const sc_core::sc_time t = m_incoming.next_at_min(m_messages_in.earliest_next(needed));
    return std::min(t, m_next_expiry);
}

}  // namespace cidsim
