#include "model/cpu_core.h"

#include "model/event_count.h"

namespace cidsim {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

void CpuCoreParams::describe(ParamVisitor& v) {
    v.time("irq_entry_ns", irq_entry, 0, 1e6, "IDT vectoring, entry code and irq_enter");
    v.time("irq_exit_ns", irq_exit, 0, 1e6, "irq_exit and iret");
    v.time("eoi_ns", eoi, 0, 1e6, "x2APIC EOI (MSR write)");
    v.time("handler_call_ns", handler_call, 0, 1e6,
           "dispatch of one vector to its driver handler (generic_handle_irq)");
    v.time("timer_handler_ns", timer_handler, 0, 1e7, "local timer interrupt handler work");
}

CpuCore::CpuCore(sc_core::sc_module_name name, const CpuCoreParams& params,
                 const NotificationHandlerParams& handler_params, unsigned index, AgentId agent,
                 LocalApic& apic, PostedDescriptor& pid)
    : sc_module(name),
      m_params(params),
      m_handler(handler_params),
      m_index(index),
      m_agent(agent),
      m_apic(apic),
      m_pid(pid) {
    m_pid.attach_cpu(*this);
    SC_THREAD(main);
}

void CpuCore::register_handler(Vector vector, IrqHandler& handler, uint32_t cookie) {
    m_handlers[vector] = {&handler, cookie};
}

void CpuCore::set_observer(TraceObserver* obs) {
    m_obs = obs;
    m_handler.set_listener(obs ? this : nullptr);
}

// Observers see every step at its own time.
void CpuCore::pass_begin(unsigned pass, bool final) {
    flush();
    m_obs->harvest_begin(m_index, pass, final);
}
void CpuCore::pass_end(unsigned pass, bool found) {
    flush();
    m_obs->harvest_end(m_index, pass, found);
}

void CpuCore::queue_task(const Work& w) {
    m_tasks.push_back(w);
    count_delta_event();
    m_work_queued.notify(sc_core::SC_ZERO_TIME);
}

void CpuCore::main() {
    for (;;) {
        if (m_apic.deliverable() >= 0)
            take_interrupt();
        else if (!m_tasks.empty())
            run_work();
        else
            wait(m_apic.irq_event() | m_work_queued);
    }
}

void CpuCore::spend(const sc_time& t) {
    m_pending += t;
    flush();
}

void CpuCore::flush() {
    if (m_pending > sc_core::SC_ZERO_TIME) {
        count_timed_event();
        m_waiting_until = local_now();
        wait(m_pending);
        m_pending = sc_core::SC_ZERO_TIME;
    }
}

void CpuCore::sync_for_pid() {
    if (m_pending > sc_core::SC_ZERO_TIME && !m_pid.cpu_may_access_at(local_now())) flush();
}

// In an interrupt the core acts next when its wait ends (or now, if it is
// about to run); outside one, an interrupt's entry comes before any access.
bool CpuCore::quiet_through(const sc_time& at) const {
    const sc_time now = sc_time_stamp();
    if (m_in_interrupt) return at < std::max(m_waiting_until, now);
    return at < now + m_params.irq_entry;
}

void CpuCore::take_interrupt() {
    const sc_time start = sc_time_stamp();
    const Vector v = m_apic.acknowledge();
    m_in_interrupt = true;
    ++m_stats.interrupts;
    m_pending += m_params.irq_entry;
    if (m_obs) {
        m_obs->irq_phase(m_index, IrqPhase::Entry, v);
        flush();
        m_obs->irq_phase(m_index, IrqPhase::EntryDone, v);
    }
    if (v == m_pid.nv()) {
        ++m_stats.notifications;
        m_stats.harvest_passes.record(m_handler.run(*this));
        sync_for_pid();  // the PID as it is after the last access's cost
        if (m_pid.pir().any() && !m_pid.on()) {
            const sc_time at = local_now();
            if (!m_stats.stranded) m_stats.first_stranded_at = at;
            ++m_stats.stranded;
            m_stranded_ever.note(at);
            if (m_obs) m_obs->stranded(m_index, m_pid.pir());
        }
    } else if (v == kLocalTimerVector) {
        m_pending += m_params.timer_handler;
    } else {
        call_handler(v);
    }
    if (m_obs) {
        flush();
        m_obs->irq_phase(m_index, IrqPhase::EoiBegin, v);
        spend(m_params.eoi);
        m_apic.eoi();
        m_obs->irq_phase(m_index, IrqPhase::EoiDone, v);
        spend(m_params.irq_exit);
    } else {
        // Nothing this CPU does between the EOI and iret is visible to
        // another block (only this core reads its ISR), so the handler's
        // tail, the EOI and the exit are one wait and the EOI takes effect
        // at its end.
        m_pending += m_params.eoi + m_params.irq_exit;
        flush();
        m_apic.eoi();
    }
    m_in_interrupt = false;
    if (m_obs) m_obs->irq_phase(m_index, IrqPhase::Exit, v);
    const sc_time span = sc_time_stamp() - start;
    m_stats.irq_time += span;
    m_stats.busy += span;
    m_stats.irq_off_ns.record(whole_ns(span));
}

void CpuCore::run_work() {
    const sc_time start = sc_time_stamp();
    const sc_time cost = m_tasks.front().cost;
    if (cost > sc_core::SC_ZERO_TIME) {
        count_timed_event();
        wait(cost, m_apic.irq_event());
    }
    const sc_time ran = sc_time_stamp() - start;
    m_stats.busy += ran;
    if (ran < cost) {  // interrupted: the rest runs after the interrupt
        m_tasks.front().cost -= ran;  // re-read: the ring may have grown meanwhile
        return;
    }
    const Work done = m_tasks.front();
    m_tasks.pop_front();
    ++m_stats.work_items;
    if (done.fn) done.fn(done.ctx, done.arg);
}

uint64_t CpuCore::read_pir(unsigned word) {
    sync_for_pid();
    sc_time cost;
    const uint64_t v = m_pid.read_word(m_agent, word, cost);
    ++m_stats.pid_reads;
    m_pending += cost;
    return v;
}

uint64_t CpuCore::xchg_pir(unsigned word) {
    sync_for_pid();
    sc_time cost;
    const uint64_t v = m_pid.xchg_word(m_agent, word, 0, cost);
    ++m_stats.pid_xchgs;
    m_pending += cost;
    return v;
}

void CpuCore::clear_on() {
    sync_for_pid();
    sc_time cost;
    m_pid.clear_on(m_agent, cost);
    ++m_stats.pid_clear_on;
    m_pending += cost;
}

void CpuCore::call_handler(Vector vector) {
    flush();  // the driver drains what is visible now
    ++m_stats.handler_calls[vector];
    if (m_obs) m_obs->handler_begin(m_index, vector);
    const HandlerSlot& slot = m_handlers[vector];
    sc_time cost = m_params.handler_call;
    if (slot.handler)
        cost += slot.handler->handle(slot.cookie, m_index);
    else
        ++m_stats.unhandled_vector_calls;
    m_pending += cost;  // spent before this core's next visible action
    if (m_obs) {
        flush();
        m_obs->handler_end(m_index, vector);
    }
}

}  // namespace cidsim
