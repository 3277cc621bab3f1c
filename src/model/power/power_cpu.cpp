#include "model/power/power_cpu.h"

#include <algorithm>
#include <cstdio>

namespace cidsim {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

const char* const kPowerStates =
    "c the call (csd, enqueue, ipi_message, XIVE trigger), ~ csd_lock_wait, s usleep and the "
    "loop, . idle (polling), I IPI handler, t timer interrupt, p idle loop flushing a polled call";

namespace {

std::string cpu_name(unsigned c) { return "cpu" + std::to_string(c); }

std::string nanoseconds(const sc_time& t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", ns_of(t));
    return buf;
}

}  // namespace

void PowerCpuStats::describe(StatVisitor& v) const {
    v.count(in_block("ipis"), ipis, "count", "IPI interrupts taken");
    v.count(in_block("timer_interrupts"), timer_interrupts, "count", "decrementer interrupts taken");
    v.count(in_block("ipis_sent"), ipis_sent, "count", "IPIs this CPU's calls sent");
    v.count(in_block("polled"), polled, "count", "calls that found the target polling (no IPI)");
    v.count(in_block("iterations"), iterations, "count", "ipistorm loop iterations completed");
    v.count(in_block("cross_chip_sent"), cross_chip_sent, "count", "IPIs sent to another chip");
    v.time(unreported("spin"), spin,
           "time in csd_lock_wait, summed over the CPUs (in results as spin_us_per_iteration)");
}

PowerCpu::PowerCpu(sc_core::sc_module_name name, const PowerParams& params, unsigned cpu,
                   const ChipLayout& layout, const XiveParams& xive, std::vector<IpiLines>& lines,
                   IrqDesc& desc, uint64_t seed)
    : sc_module(name), m_params(params), m_cpu(cpu), m_layout(layout),
      m_chip(layout.chip_of(cpu)), m_xive(xive), m_lines(lines), m_desc(desc),
      m_in(*this, std::string(basename()) + ".in"), m_rng(seed) {
    SC_METHOD(run);
    sensitive << m_wake;
}

void PowerCpu::receive(const sc_time& at, const PowerCpuMsg& msg) {
    switch (msg) {
    case PowerCpuMsg::Ipi: raise_ipi(at); break;
    case PowerCpuMsg::PollKick: kick_poll(); break;
    case PowerCpuMsg::CsdReleased: csd_released(); break;
    }
}

bool PowerCpu::add_call(unsigned sender) {
    m_queued.push_back(sender);
    return m_queued.size() == 1;
}

void PowerCpu::bind_thread(const StormThread& t) {
    m_thread = t;
    m_has_thread = true;
}

void PowerCpu::raise_ipi(const sc_time& at) {
    m_ipi_at.push_back(at);
    m_wake.notify(at - sc_core::sc_time_stamp());
}

void PowerCpu::kick_poll() {
    m_poll_kicked = true;
    m_wake.notify(SC_ZERO_TIME);
}

void PowerCpu::csd_released() {
    m_released = true;
    m_wake.notify(SC_ZERO_TIME);
}

bool PowerCpu::polling() const {
    return m_params.idle_poll && !m_working && m_irq == Irq::None && !m_poll_kicked &&
           (!m_has_thread || m_step == Step::Asleep);
}

void PowerCpu::reset_stats() {
    m_stats = {};
    if (m_step == Step::Wait) m_spin_counted = std::max(m_spin_counted, sc_core::sc_time_stamp());
}

void PowerCpu::close_window() {
    const sc_time now = sc_core::sc_time_stamp();
    if (m_step != Step::Wait || m_spin_counted >= now) return;
    m_stats.spin += now - m_spin_counted;
    m_spin_counted = now;
}

void PowerCpu::run() {
    const sc_time now = sc_core::sc_time_stamp();
    if (m_working && !m_line_wait && now >= m_busy_until) {
        m_working = false;
        finish(now);
    }
    const auto due = [&] {
        return (m_timer_armed && m_timer_at <= now) ||
               std::any_of(m_ipi_at.begin(), m_ipi_at.end(), [&](const sc_time& t) { return t <= now; });
    };
    // Interrupts preempt the kthread's steps; a handler runs to its end.
    if (m_working && m_irq == Irq::None && due()) {
        m_step_left = m_busy_until - now;
        m_working = false;
    }
    while (!m_working && start(now)) {
    }
    bool have = false;
    sc_time next;
    const auto consider = [&](const sc_time& t) {
        if (!have || t < next) next = t, have = true;
    };
    if (m_working && !m_line_wait) consider(m_busy_until);
    if (!m_working || m_irq == Irq::None) {
        for (const sc_time& t : m_ipi_at) consider(t);
        if (m_timer_armed) consider(m_timer_at);
    }
    if (have) m_wake.notify(next > now ? next - now : SC_ZERO_TIME);
    if (m_log) log_state(now);
}

void PowerCpu::line_served(const sc_time& done) {
    m_line_wait = false;
    m_busy_until = done;
    m_wake.notify(done - sc_core::sc_time_stamp());
}

void PowerCpu::log_state(const sc_time& now) {
    const char s = state();
    if (m_log->states.empty() || m_log->states.back().second != s) m_log->states.emplace_back(now, s);
}

void PowerCpu::say(const sc_time& at, Said what, unsigned other) {
    std::string words;
    const unsigned chip = m_layout.chip_of(other);
    switch (what) {
    case Said::IpiTaken: words = "IPI exception: TIMA ack, handle_percpu_irq"; break;
    case Said::TimerTaken: words = "decrementer: usleep_range's hrtimer fires"; break;
    case Said::PollFlush: words = "leaves idle: flush_smp_call_function_queue"; break;
    case Said::Unlocked: words = "do_nothing_ipi done, csd_unlock: " + cpu_name(other) + "'s csd_lock_wait can end"; break;
    case Said::Polled: words = cpu_name(other) + " is polling in idle: set_nr_if_polling, no IPI"; break;
    case Said::Merged: words = cpu_name(other) + "'s call queue was not empty: its IPI is already on the way"; break;
    case Said::IpiSent:
        words = "IPI to " + cpu_name(other) + ": trigger store to chip " + std::to_string(chip) + "'s XIVE" +
                (chip != m_chip ? " (ACROSS CHIPS)" : "");
        break;
    case Said::SpinEnded: words = "csd_lock_wait ends after " + nanoseconds(at - m_spin_from) + " ns"; break;
    }
    m_log->steps.emplace_back(at, std::move(words));
}

char PowerCpu::state() const {
    if (m_working && m_irq != Irq::None) return m_irq == Irq::Ipi ? 'I' : m_irq == Irq::Timer ? 't' : 'p';
    if (!m_has_thread) return '.';
    if (m_step == Step::Wait) return '~';
    if (!m_working) return '.';
    return m_step == Step::Prep || m_step == Step::Enqueue || m_step == Step::Message ? 'c' : 's';
}

bool PowerCpu::start(const sc_time& now) {
    if (m_irq != Irq::None) {
        irq_phase(now);
        return true;
    }
    const auto ipi = std::min_element(m_ipi_at.begin(), m_ipi_at.end());
    if (ipi != m_ipi_at.end() && *ipi <= now) {
        m_ipi_at.erase(ipi);
        start_irq(Irq::Ipi, now);
        return true;
    }
    if (m_timer_armed && m_timer_at <= now) {
        m_timer_armed = false;
        start_irq(Irq::Timer, now);
        return true;
    }
    if (m_poll_kicked) {
        m_poll_kicked = false;
        start_irq(Irq::Poll, now);
        return true;
    }
    if (!m_has_thread) return false;
    if (m_step_running) {  // resumes after the handler that preempted it
        m_busy_until = now + m_step_left;
        m_working = true;
        return true;
    }
    if (m_step == Step::Asleep || (m_step == Step::Wait && !m_released)) return false;
    thread_step(now);
    return true;
}

void PowerCpu::start_irq(Irq kind, const sc_time& now) {
    if (m_log) say(now, kind == Irq::Ipi ? Said::IpiTaken : kind == Irq::Timer ? Said::TimerTaken : Said::PollFlush);
    m_irq = kind;
    // The idle loop's call-queue flush is the handler's phases 3 and 4.
    m_irq_pc = kind == Irq::Poll ? 3 : 0;
    irq_phase(now);
}

void PowerCpu::irq_phase(const sc_time& now) {
    const AgentId me = AgentId(m_cpu);
    sc_time end;
    if (m_irq == Irq::Timer) {
        end = now + m_params.timer_handler;
    } else {
        switch (m_irq_pc) {
        case 0: end = now + m_params.exception_entry + m_xive.tima_ack + m_params.kstat; break;
        case 1:
            m_working = m_line_wait = true;
            m_desc.dispatch(me, *this);
            return;
        case 2: end = lines(m_cpu).message.access_serialised(me, LineAccess::LockedRmw, now) + m_params.demux; break;
        case 3:
            end = lines(m_cpu).queue.access_serialised(me, LineAccess::LockedRmw, now) + m_params.flush +
                  (m_irq == Irq::Poll ? m_params.poll_exit : SC_ZERO_TIME);
            break;
        case 4:
            end = now;
            for (unsigned s : m_queued)
                end = std::max(end, lines(s).csd.access_serialised(me, LineAccess::Store, now));
            end += m_params.unlock;
            break;
        case 5:
            end = now + m_params.randomness +
                  (m_params.irqdebug == IrqDebug::Off ? SC_ZERO_TIME : m_params.note_interrupt);
            break;
        case 6:
            m_working = m_line_wait = true;
            m_desc.note_interrupt(me, *this);
            return;
        default: end = now + m_xive.esb_eoi + m_params.exception_exit; break;
        }
    }
    m_busy_until = end;
    m_working = true;
}

void PowerCpu::finish(const sc_time& now) {
    if (m_irq == Irq::None) {
        m_step_running = false;
        end_thread_step(now);
        return;
    }
    if (m_irq == Irq::Timer) {
        ++m_stats.timer_interrupts;
        m_irq = Irq::None;
        if (m_step == Step::Asleep) m_step = Step::Resume;  // the hrtimer woke the kthread
        return;
    }
    if (m_irq_pc == 4) {  // the csd_unlock stores have landed
        if (m_log)
            for (unsigned s : m_queued) say(now, Said::Unlocked, s);
        for (unsigned s : m_queued) m_release_out.at(s).send(now, PowerCpuMsg::CsdReleased);
        m_queued.clear();
    }
    ++m_irq_pc;
    if (m_irq == Irq::Poll ? m_irq_pc == 5 : m_irq_pc == 8) {
        if (m_irq == Irq::Ipi) ++m_stats.ipis;
        m_irq = Irq::None;
    }
}

void PowerCpu::thread_step(const sc_time& now) {
    const AgentId me = AgentId(m_cpu);
    const unsigned target = m_thread.target;
    sc_time end = now;
    switch (m_step) {
    case Step::Prep:
        m_released = false;
        end = lines(m_cpu).csd.access_serialised(me, LineAccess::Store, now + m_params.call_prep);
        break;
    case Step::Enqueue: {
        if (target == m_cpu) {  // generic_exec_single: the function runs here, no csd, no IPI
            end = now + m_params.flush;
            m_needs_ipi = false;
            m_released = true;
            break;
        }
        end = lines(target).queue.access_serialised(me, LineAccess::LockedRmw, now) + m_params.enqueue;
        CallTarget& t = *m_thread.target_queue;
        const bool first = t.add_call(m_cpu);
        m_needs_ipi = false;
        if (first) {
            if (t.polling()) {
                ++m_stats.polled;
                if (m_log) say(end, Said::Polled, target);
                m_kick_out.send(now, PowerCpuMsg::PollKick);
            } else {
                m_needs_ipi = true;
            }
        } else {
            if (m_log) say(end, Said::Merged, target);
        }
        break;
    }
    case Step::Message:
        end = lines(target).message.access_serialised(me, LineAccess::LockedRmw, now) +
              m_params.message + m_params.cause_ipi;
        break;
    case Step::Wait:  // csd_unlock has reached our line: the spin's next load sees it
        end = lines(m_cpu).csd.access_serialised(me, LineAccess::Load, now);
        break;
    case Step::Sleep: end = now + m_params.usleep_enter; break;
    case Step::Resume: {
        const uint64_t jitter = m_params.loop_jitter.value();
        end = now + m_params.usleep_exit + m_params.loop +
              sc_core::sc_time::from_value(jitter ? m_rng() % jitter : 0);
        break;
    }
    case Step::Asleep: break;
    }
    m_busy_until = end;
    m_working = true;
    m_step_running = true;
}

void PowerCpu::end_thread_step(const sc_time& now) {
    switch (m_step) {
    case Step::Prep: m_step = Step::Enqueue; break;
    case Step::Enqueue:
        m_step = m_needs_ipi ? Step::Message : Step::Wait;
        if (m_step == Step::Wait) m_spin_from = m_spin_counted = now;
        if (!m_thread.wait && m_step == Step::Wait) m_step = Step::Sleep;
        break;
    case Step::Message: {
        const unsigned target = m_thread.target;
        const unsigned chip = m_layout.chip_of(target);
        ++m_stats.ipis_sent;
        if (chip != m_chip) ++m_stats.cross_chip_sent;
        if (m_log) say(now, Said::IpiSent, target);
        m_trigger_out.send(now, XiveTrigger{m_chip, target});
        m_spin_from = m_spin_counted = now;
        m_step = m_thread.wait ? Step::Wait : Step::Sleep;
        break;
    }
    case Step::Wait:
        m_stats.spin += now - m_spin_counted;
        if (m_log) say(now, Said::SpinEnded);
        m_step = Step::Sleep;
        break;
    case Step::Sleep:
        m_timer_at = now + std::max(m_thread.delay, m_params.timer_delta);
        m_timer_armed = true;
        m_step = Step::Asleep;
        break;
    case Step::Resume:
        ++m_stats.iterations;
        m_step = Step::Prep;
        break;
    case Step::Asleep: break;
    }
}

}  // namespace cidsim
