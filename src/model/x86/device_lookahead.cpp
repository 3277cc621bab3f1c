// The device's lookahead (device.h): when it can next send an MSI, when
// that MSI can reach the remapping unit, and when a driver handler may run
// ahead of the kernel's time. Kept apart from the hardware in device.cpp.
#include "kernel/lookahead.h"
#include "kernel/sim_clock.h"
#include "model/x86/device.h"

namespace cidsim {

using sc_core::sc_time;

sc_time Device::earliest_send() const {
    return m_schedule ? m_schedule->earliest_completion() : sim_now();
}

sc_time Device::earliest_arrival() const {
    return m_port.earliest_write_done(earliest_send(), m_shortest_completion_write);
}

// Every MSI is ordered behind at least its completion entry's write.
sc_time Device::shortest_write() const { return m_port.write_duration(m_params.completion_entry_bytes); }

bool Device::may_handle_at(uint32_t queue, unsigned cpu, const sc_time& at) const {
    return m_handle_ahead && may_run_ahead_to(at) && at < earliest_send() &&
           (!m_sink || m_sink->reacts_only_on(queue, cpu));
}

}  // namespace cidsim
