#include "sim/retrigger.h"

#include <algorithm>
#include <stdexcept>

#include "sim/system.h"

namespace cidsim {

Retrigger::Retrigger(sc_core::sc_module_name name, const RetriggerParams& params, System& system)
    : sc_module(name), m_params(params), m_system(system) {
    std::sort(m_params.at.begin(), m_params.at.end());
    const unsigned dev = system.host().view().device_index(params.device, "retrigger.device");
    bool found = false;
    for (const VectorRoute& r : system.host().routes())
        if (r.device == dev && r.queue == params.queue) {
            m_cpu = r.cpu;
            m_vector = r.vector;
            found = true;
        }
    if (!found)
        throw std::invalid_argument("retrigger.queue: " + params.device + " has no queue " +
                                    std::to_string(params.queue));
    connect(m_ipi, system.host().apic(m_cpu).messages_in());
    SC_METHOD(step);  // its first run, at time 0, waits for the first send
}

void Retrigger::step() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (m_next < m_params.at.size() && m_params.at[m_next] <= now) {
        m_ipi.send(now, m_vector);
        ++m_sent;
        ++m_next;
    }
    if (m_next < m_params.at.size()) next_trigger(m_params.at[m_next] - now);
}

RetriggerOutcome Retrigger::outcome() const {
    RetriggerOutcome o;
    o.cpu = m_cpu;
    o.vector = m_vector;
    o.sent = m_sent;
    o.stale_isr_at_end = m_system.host().apic(m_cpu).isr().test(m_vector);
    o.pending_at_end = m_system.host().apic(m_cpu).irr().test(m_vector);
    return o;
}

}  // namespace cidsim
