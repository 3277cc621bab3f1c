#include "sim/affinity_move.h"

#include <stdexcept>

#include "sim/system.h"

namespace cidsim {

AffinityMove::AffinityMove(sc_core::sc_module_name name, const AffinityMoveParams& params,
                           System& system, TraceObserver* obs)
    : sc_module(name), m_params(params), m_system(system), m_obs(obs) {
    const unsigned dev = system.host().view().device_index(params.device, "affinity_move.device");
    bool found = false;
    for (size_t r = 0; r < system.host().routes().size(); ++r)
        if (system.host().routes()[r].device == dev &&
            system.host().routes()[r].queue == params.queue) {
            m_route = r;
            found = true;
        }
    if (!found)
        throw std::invalid_argument("affinity_move.queue: " + params.device + " has no queue " +
                                    std::to_string(params.queue));
    system.host().prepare_route_moves();
    if (params.to_cpu >= system.host().cpu_count())
        throw std::invalid_argument("affinity_move.to_cpu: no CPU " + std::to_string(params.to_cpu));
    SC_METHOD(step);  // its first run, at time 0, only waits for `at`
}

void AffinityMove::step() {
    if (!m_started) {
        m_started = true;
        next_trigger(m_params.at);
        return;
    }
    if (!m_outcome.moved) {
        const VectorRoute old = m_system.host().move_route(m_route, unsigned(m_params.to_cpu));
        const VectorRoute& now = m_system.host().routes()[m_route];
        m_outcome.moved = true;
        m_outcome.from_cpu = old.cpu;
        m_outcome.from_vector = old.vector;
        m_outcome.to_cpu = now.cpu;
        m_outcome.to_vector = now.vector;
        if (m_obs)
            m_obs->irq_moved(old.device, old.queue, old.cpu, old.vector, now.cpu, now.vector);
        next_trigger(m_params.cleanup_after);
        return;
    }
    // The cleanup timer fires: its callback waits for the old CPU.
    m_timer_due = sc_core::sc_time_stamp();
    m_system.host().cpu(m_outcome.from_cpu).queue_task(
        Work{sc_core::SC_ZERO_TIME, &AffinityMove::cleanup_callback, this, 0, false});
    next_trigger(m_timer_rearmed);
}

void AffinityMove::cleanup_callback(void* self, uint64_t, const sc_core::sc_time& at) {
    static_cast<AffinityMove*>(self)->clean_up_old_vector(at);
}

void AffinityMove::clean_up_old_vector(const sc_core::sc_time& at) {
    const unsigned cpu = m_outcome.from_cpu;
    const Vector v = m_outcome.from_vector;
    const bool in_irr = m_system.host().apic(cpu).irr().test(v);
    const bool in_pir = m_system.host().pid(cpu).pir().test(v);
    ++m_outcome.cleanup_checks;
    m_outcome.found_pending_in_pir = m_outcome.found_pending_in_pir || in_pir;
    const bool pending = in_irr || (m_params.check_pir && in_pir);
    if (m_obs) m_obs->vector_cleanup(cpu, v, m_timer_due, in_irr, in_pir, !pending);
    if (pending) {
        m_timer_rearmed.notify(m_params.cleanup_retry);
        return;
    }
    m_system.host().cpu(cpu).unregister_handler(v);
    m_outcome.freed = true;
    m_outcome.freed_at = at;
}

}  // namespace cidsim
