#include "model/x86/cpu_core.h"

#include <algorithm>

#include "kernel/event_count.h"
#include "kernel/resumable.h"

namespace cidsim {

using sc_core::sc_time;

void CpuCoreParams::describe(ParamVisitor& v) {
    v.time("irq_entry_ns", irq_entry, 0, 1e6, "IDT vectoring, entry code and irq_enter");
    v.time("irq_exit_ns", irq_exit, 0, 1e6, "irq_exit and iret");
    v.time("eoi_ns", eoi, 0, 1e6, "x2APIC EOI (MSR write)");
    v.time("handler_call_ns", handler_call, 0, 1e6,
           "dispatch of one vector to its driver handler (generic_handle_irq, handle_edge_irq "
           "with its irq_desc lines in this CPU's cache)");
    v.time("timer_handler_ns", timer_handler, 0, 1e7, "local timer interrupt handler work");
    irq_thread.describe(v);
}

CpuCore::CpuCore(sc_core::sc_module_name name, const CpuCoreParams& params,
                 const NotificationHandlerParams& handler_params, unsigned index, AgentId agent,
                 InterruptController& controller, PostedDescriptor& pid)
    : sc_module(name),
      m_params(params),
      m_handler(handler_params),
      m_index(index),
      m_agent(agent),
      m_apic(controller),
      m_pid(pid),
      m_retrigger_eoi_fix(handler_params.retrigger_eoi_fix) {
    m_pid.attach_cpu(*this);
    m_apic.let_core_accept();
    m_irq_lookahead.record_into(&m_apic.promise());
    m_pid_lookahead.record_into(&m_pid.cpu_relied());
    SC_METHOD(step);  // initialised: runs at time 0 to pick up work queued at elaboration
}

void CpuCore::end_of_elaboration() {
    m_interrupt_wake |= m_apic.irq_event();
    if (m_apic.core_accepts()) m_interrupt_wake |= m_apic.message_event();
    m_wake |= m_interrupt_wake;
    m_wake |= m_work_queued;
    m_before_me.add(m_apic, 0);
    if (Participant* poster = m_pid.poster()) m_before_me.add(*poster, 1);
}

void CpuCore::register_handler(Vector vector, IrqHandler& handler, uint32_t cookie,
                               EdgeIrqDesc* desc) {
    m_handlers[vector] = {&handler, cookie, desc};
}

void CpuCore::set_observer(TraceObserver* obs) {
    m_obs = obs;
    m_handler.report_steps(obs != nullptr);
}

void CpuCore::queue_task(const Work& w) {
    m_tasks.push_back(w);
    // Only a sleeping core waits for it; a busy one looks at its queue next.
    if (m_activity != Activity::Idle) return;
    count_delta_event();
    m_work_queued.notify(sc_core::SC_ZERO_TIME);
}

void CpuCore::step() {
    forget_lookaheads();  // other processes have run since
    m_before_me.catch_up_before(nullptr);
    if (m_activity == Activity::Work) {
        if (sim_now() < m_work_start) {
            // An interrupt arrived during the last one's tail: it is taken
            // after iret, before the work starts.
            m_clock.ahead_to(m_work_start);
        } else {
            end_work();
        }
    } else if (m_activity == Activity::Interrupt && !interrupt()) {
        return;
    }
    for (;;) {
        // The last interrupt's tail may still be to run (the clock is ahead): the
        // next interrupt, a zero-cost work item or sleep come after it.
        if (m_apic.deliverable() >= 0) {
            if (!may_take_interrupt_ahead() && !settle()) return;
            m_activity = Activity::Interrupt;
            m_irq_resume = 0;
            if (!interrupt()) return;
        } else if (!m_tasks.empty()) {
            if (start_work()) return;
        } else {
            if (!settle()) return;
            m_activity = Activity::Idle;
            next_trigger(m_wake);
            return;
        }
    }
}

// Taking the pending interrupt in local time, at the end of the last one's
// tail, is exact when no message is accepted and no timer expires before.
bool CpuCore::may_take_interrupt_ahead() {
    return m_clock.synced() || irq_quiet_until(m_clock.now());
}

bool CpuCore::irq_quiet_until(const sc_time& t) {
    return may_run_ahead_to(t) &&
           m_irq_lookahead.is_before(t, [this](const sc_time& n) { return m_apic.earliest_next(n); });
}

bool CpuCore::pid_quiet_at(const sc_time& t) {
    return m_pid_lookahead.is_before(t, [this](const sc_time& n) { return m_pid.cpu_lookahead(n); });
}

bool CpuCore::settle() {
    if (m_clock.sync()) return true;
    m_activity = Activity::Settling;
    return false;
}

bool CpuCore::sync_for_pid() {
    if (m_clock.synced() || pid_quiet_at(m_clock.now())) return true;
    m_clock.wait_out();
    return false;
}

bool CpuCore::interrupt() {
    switch (m_irq_resume) {
        case 0:
            m_irq_start = m_clock.now();
            m_vector = m_apic.acknowledge(m_irq_start);
            m_in_interrupt = true;
            ++m_stats.interrupts;
            if (m_vector == m_pid.nv()) ++m_stats.notifications;
            report(IrqPhase::Entry);
            m_clock.spend(m_params.irq_entry);
            CIDSIM_UNTIL(m_irq_resume, sync_if_stepwise());
            report(IrqPhase::EntryDone);
            if (m_vector == m_pid.nv()) {
                m_handler.start();
                CIDSIM_UNTIL(m_irq_resume, m_handler.resume(*this));
                // The PID as it is after the last access's cost.
                CIDSIM_UNTIL(m_irq_resume, sync_for_pid());
                m_stats.harvest_passes.record(m_handler.passes());
                check_stranded();
            } else if (m_vector == kLocalTimerVector) {
                m_clock.spend(m_params.timer_handler);
            } else {  // remappable: the device vector itself
                // handle_edge_irq acks first: intel_ir_chip.irq_ack is
                // apic_ack_irq, the EOI, before the driver's handler
                // (kernel/irq/chip.c, drivers/iommu/intel/irq_remapping.c).
                // In posted mode the vector came through the IDT only as a
                // retrigger; before the late-2025 fix its ack sent no EOI.
                if (m_posted_msi && !m_retrigger_eoi_fix) {
                    ++m_stats.retriggers_without_eoi;
                } else {
                    CIDSIM_UNTIL(m_irq_resume, sync_if_stepwise());
                    report(IrqPhase::EoiBegin);
                    m_clock.spend(m_params.eoi);
                    // Only this core reads its ISR, as at the tail below.
                    CIDSIM_UNTIL(m_irq_resume, may_run_ahead_to(m_clock.now()) || m_clock.sync());
                    m_apic.end_of_interrupt();
                    report(IrqPhase::EoiDone);
                }
                CIDSIM_UNTIL(m_irq_resume, call_handler(m_vector));
                CIDSIM_UNTIL(m_irq_resume, sync_if_stepwise());
                if (m_obs) m_obs->handler_end(m_index, m_vector);
                if (!stepwise()) m_clock.spend(m_params.irq_exit);
                CIDSIM_UNTIL(m_irq_resume, may_run_ahead_to(m_clock.now()) || m_clock.sync());
                if (stepwise()) m_clock.spend(m_params.irq_exit);
                CIDSIM_UNTIL(m_irq_resume, sync_if_stepwise());
                break;
            }
            CIDSIM_UNTIL(m_irq_resume, sync_if_stepwise());
            report(IrqPhase::EoiBegin);
            m_clock.spend(m_params.eoi);
            // Run ahead, nothing this CPU does between the EOI and iret is
            // visible to another block (only this core reads its ISR), so the
            // EOI takes effect now and the handler's tail, the EOI and the
            // exit are waited out with what the core does next (step()),
            // unless the window ends first.
            if (!stepwise()) m_clock.spend(m_params.irq_exit);
            CIDSIM_UNTIL(m_irq_resume, may_run_ahead_to(m_clock.now()) || m_clock.sync());
            m_apic.end_of_interrupt();
            report(IrqPhase::EoiDone);
            if (stepwise()) m_clock.spend(m_params.irq_exit);
            CIDSIM_UNTIL(m_irq_resume, sync_if_stepwise());
    }
    m_in_interrupt = false;
    report(IrqPhase::Exit);
    const sc_time span = m_clock.now() - m_irq_start;
    const sc_time counted = m_clock.now() - std::max(m_irq_start, m_stats_from);
    m_stats.irq_time += counted;
    m_stats.busy += counted;
    m_stats.irq_off_ns.record(whole_ns(span));
    return true;
}

void CpuCore::check_stranded() {
    if (!m_pid.pir().any() || m_pid.on()) return;
    const sc_time at = m_clock.now();
    if (!m_stats.stranded) m_stats.first_stranded_at = at;
    ++m_stats.stranded;
    m_stranded_ever.note(at);
    if (m_obs) m_obs->stranded(m_index, m_pid.pir());
}

bool CpuCore::may_work_ahead(const sc_time& end) {
    return m_tasks.front().ahead && irq_quiet_until(end);
}

bool CpuCore::start_work() {
    const sc_time cost = m_tasks.front().cost;
    const sc_time end = m_clock.now() + cost;
    if (may_work_ahead(end)) {
        m_clock.spend(cost);
        m_stats.busy += cost;
        finish_work(end);
        forget_lookaheads();  // fn may set a process going
        return false;
    }
    if (cost > sc_core::SC_ZERO_TIME) {
        // It starts when the last interrupt's tail ends: one wait for both.
        m_activity = Activity::Work;
        m_work_start = m_clock.now();
        m_clock.wait_out_or(cost, m_interrupt_wake);
        return true;
    }
    if (!settle()) return true;
    finish_work(sim_now());
    return false;
}

void CpuCore::count_busy_until_now() {
    const sc_time now = sim_now();
    if (m_in_interrupt && m_irq_start < now) {
        const sc_time part = now - std::max(m_irq_start, m_stats_from);
        m_stats.irq_time += part;
        m_stats.busy += part;
    } else if (m_activity == Activity::Work && m_work_start < now) {
        m_stats.busy += now - std::max(m_work_start, m_stats_from);
    }
    m_stats_from = now;
}

void CpuCore::end_work() {
    const sc_time ran = sim_now() - m_work_start;
    m_stats.busy += sim_now() - std::max(m_work_start, m_stats_from);
    if (ran < m_tasks.front().cost) {  // interrupted: the rest runs after the interrupt
        m_tasks.front().cost -= ran;
        return;
    }
    finish_work(sim_now());
}

void CpuCore::finish_work(const sc_time& at) {
    const Work done = m_tasks.front();
    m_tasks.pop_front();
    ++m_stats.work_items;
    if (done.fn) done.fn(done.ctx, done.arg, at);
}

template <class Access>
bool CpuCore::access_pid(uint64_t& count, Access access) {
    if (!sync_for_pid()) return false;
    if (lookahead_checked()) m_pid.check_cpu_access_at(m_clock.now());
    sc_time cost;
    access(cost);
    // The remapping unit may be holding the line for its RMW.
    cost += m_pid.line_wait(m_clock.now());
    ++count;
    m_clock.spend(cost);
    return true;
}

bool CpuCore::read_pir(unsigned word, uint64_t& value) {
    return access_pid(m_stats.pid_reads,
                      [&](sc_time& cost) { value = m_pid.read_word(m_agent, word, cost); });
}

bool CpuCore::xchg_pir(unsigned word, uint64_t& value) {
    return access_pid(m_stats.pid_xchgs,
                      [&](sc_time& cost) { value = m_pid.xchg_word(m_agent, word, 0, cost); });
}

bool CpuCore::clear_on() {
    return access_pid(m_stats.pid_clear_on, [&](sc_time& cost) { m_pid.clear_on(m_agent, cost); });
}

bool CpuCore::call_handler(Vector vector) {
    const HandlerSlot& slot = m_handlers[vector];
    // The driver sees the device as it is at the core's local time.
    const bool ahead_ok =
        slot.handler && slot.handler->may_handle_at(slot.cookie, m_index, m_clock.now());
    if (!ahead_ok && !m_clock.sync()) return false;
    ++m_stats.handler_calls[vector];
    if (m_obs) m_obs->handler_begin(m_index, vector);
    sc_time cost = m_params.handler_call;
    if (slot.desc) cost += slot.desc->handle(m_agent);
    if (slot.handler)
        cost += slot.handler->handle(slot.cookie, m_index, m_clock.now());
    else
        ++m_stats.unhandled_vector_calls;
    m_clock.spend(cost);  // spent before this core's next visible action
    // The driver may have set another process going (task work on another
    // CPU, say), which may lead to a post sooner than the last answer.
    forget_lookaheads();
    return true;
}

// Observers see every step at its own time.
bool CpuCore::pass_begin(unsigned pass, bool final) {
    if (!m_clock.sync()) return false;
    m_obs->harvest_begin(m_index, pass, final);
    return true;
}

bool CpuCore::pass_end(unsigned pass, bool found) {
    if (!m_clock.sync()) return false;
    m_obs->harvest_end(m_index, pass, found);
    return true;
}

bool CpuCore::handler_returned(Vector vector) {
    if (!m_clock.sync()) return false;
    m_obs->handler_end(m_index, vector);
    return true;
}

void CpuCoreStats::describe(StatVisitor& v) const {
    v.count(in_block_and_total("interrupts", "interrupts"), interrupts, "count",
            "interrupts taken through the IDT, of any vector (device, posted-MSI notification, "
            "local timer)");
    v.count(in_block_and_total("notifications_handled", "notifications_handled"), notifications,
            "count", "interrupts taken on the posted-MSI notification vector (each one harvests "
            "the PIR)");
    v.per_vector(in_block("handler_calls"), handler_calls,
                 "device handler calls (generic_handle_irq) for the vector on its CPU, as "
                 "/proc/interrupts counts them");
    v.count(unreported("unhandled_vector_calls"), unhandled_vector_calls, "count",
            "handler calls for a vector with no handler registered");
    v.count(in_block_and_total("stranded", "stranded_interrupts"), stranded, "count",
            "notifications after whose handler the PIR still had a bit set with ON clear: an "
            "interrupt stranded until a later notification");
    v.count(unreported("retriggers_without_eoi"), retriggers_without_eoi, "count",
            "posted mode: device vectors taken through the IDT (a retrigger) whose ack sent no "
            "EOI (handler.retrigger_eoi_fix off): each leaves its ISR bit set");
    v.time(unreported("first_stranded_at"), first_stranded_at,
           "when the first stranded interrupt was found (0 when none was)");
    v.count(in_block_and_total("pid_reads", "pid_line.cpu_reads"), pid_reads, "count",
            "plain loads of a PIR word by the notification handler");
    v.count(in_block_and_total("pid_xchgs", "pid_line.cpu_xchgs"), pid_xchgs, "count",
            "locked exchanges of a PIR word with 0 (take and clear) by the notification handler");
    v.count(unreported("pid_clear_on"), pid_clear_on, "count",
            "atomic clears of the PID's ON bit by the notification handler");
    v.histogram(in_block_and_total("harvest_passes", "harvest_passes_per_notification"),
                harvest_passes, "passes",
                "PIR harvest passes the notification handler made, per notification (the one "
                "after clearing ON included)");
    v.histogram(in_total("irq_disabled_span_ns"), irq_off_ns, "ns",
                "per interrupt, from its acknowledge to iret: the span with interrupts disabled");
    v.time(unreported("busy"), busy,
           "time spent in interrupts and in task work (busy_fraction is it over the window)");
    v.time(unreported("irq_time"), irq_time,
           "the part of busy spent in interrupts (irq_fraction is it over the window)");
    v.count(unreported("work_items"), work_items, "count", "task work items finished");
}

}  // namespace cidsim
