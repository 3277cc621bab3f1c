#include "model/linux/irq_thread.h"

namespace cidsim {

using sc_core::sc_time;

void IrqThreadParams::describe(ParamVisitor& v) {
    v.time("irq_thread_wakeup_ns", wakeup, 0, 1e5,
           "threaded IRQ: __irq_wake_thread -> try_to_wake_up of the SCHED_FIFO thread, in the "
           "hard handler (kernel/irq/handle.c, kernel/sched/core.c). Source: assumed as "
           "vm.fifo_wakeup_ns; range 0.2-1 us");
    v.time("irq_thread_switch_ns", context_switch, 0, 1e6,
           "threaded IRQ: context switch into the IRQ thread (wake-up from sleep, or after "
           "another thread's pass): a switch between kernel threads, no switch_mm (lazy TLB) "
           "and no user return. Source: assumed, below sched-pipe's ~1 us user-process "
           "switch (vm.context_switch_ns); range 200-1500 ns (platform spr's provenance)");
    v.time("irq_thread_loop_ns", loop, 0, 1e6,
           "threaded IRQ: one pass of the irq_thread loop around the thread function "
           "(irq_wait_for_interrupt, irq_thread_fn, wake_threads_waitq; kernel/irq/manage.c). "
           "Source: guess as vm.irq_thread_ns; range 50-400 ns");
}

sc_time IrqThread::handle(uint32_t, unsigned cpu, const sc_time&) {
    // test_and_set_bit(IRQTF_RUNTHREAD): only a sleeping thread is woken.
    if (m_state != State::Sleeping) {
        m_run_thread = true;
        ++m_stats.merged;
        return sc_core::SC_ZERO_TIME;
    }
    m_run_thread = true;
    ++m_stats.wakeups;
    queue_pass(cpu, true);
    return m_params.wakeup;
}

void IrqThread::queue_pass(unsigned cpu, bool woken) {
    m_state = State::Queued;
    sc_time overhead = m_params.loop;
    if (m_rq.switch_needed(cpu, this) || woken) {
        overhead += m_params.context_switch;
        ++m_stats.switches;
    }
    // The thread function notifies other CPUs' work (a submitter): it runs
    // at the kernel's time, never ahead.
    m_rq.cpu(cpu).queue_task(Work{overhead, &start_pass, this, cpu, false});
}

void IrqThread::start_pass(void* self, uint64_t cpu, const sc_time& at) {
    auto& t = *static_cast<IrqThread*>(self);
    t.m_state = State::Running;
    t.m_run_thread = false;  // irq_wait_for_interrupt's test_and_clear_bit
    ++t.m_stats.passes;
    const sc_time cost = t.m_thread_fn.handle(t.m_cookie, unsigned(cpu), at);
    // The rest of the pass: its completions are consumed as it starts, as a
    // hard handler's are, and the CPU time follows.
    t.m_rq.cpu(unsigned(cpu)).queue_task(Work{cost, &end_pass, self, cpu, false});
}

void IrqThread::end_pass(void* self, uint64_t cpu, const sc_time&) {
    auto& t = *static_cast<IrqThread*>(self);
    if (t.m_run_thread) {
        t.queue_pass(unsigned(cpu), false);
    } else {
        t.m_state = State::Sleeping;
    }
}

}  // namespace cidsim
