// The device's lookahead (device.h): when it can next send an MSI, when
// that MSI can reach the remapping unit, and when a driver handler may run
// ahead of the kernel's time. Kept apart from the hardware in device.cpp.
#include "kernel/lookahead.h"
#include "kernel/sim_clock.h"
#include "model/x86/device.h"

namespace cidsim {

using sc_core::sc_time;

// A handler that runs while a completion's writes are in flight leaves it
// unacknowledged, and the queue's MSI is sent again.
bool Device::may_resignal() const {
    return m_params.msi_until_doorbell && m_last_visible > sim_now();
}

sc_time Device::earliest_send() const {
    if (!m_schedule || may_resignal()) return sim_now();
    return m_schedule->earliest_completion();
}

sc_time Device::earliest_arrival() const {
    if (may_resignal()) return m_port.earliest_write_done(sim_now(), sc_core::SC_ZERO_TIME);
    return m_port.earliest_write_done(earliest_send(), m_shortest_completion_write);
}

// Every MSI is ordered behind at least its completion entry's write, or,
// sent again at a doorbell, behind none of its own.
sc_time Device::shortest_write() const {
    return m_port.write_duration(m_params.msi_until_doorbell ? 0 : m_params.completion_entry_bytes);
}

bool Device::may_handle_at(uint32_t queue, unsigned cpu, const sc_time& at) const {
    return m_handle_ahead && may_run_ahead_to(at) && at < earliest_send() &&
           (!m_sink || m_sink->reacts_only_on(queue, cpu));
}

}  // namespace cidsim
