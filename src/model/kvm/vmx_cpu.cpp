#include "model/kvm/vmx_cpu.h"

#include <cstdarg>
#include <cstdio>

namespace cidsim {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

const char* const kHostHandlerNames[3] = {"hard", "threaded", "bypass_inject"};
const char* const kGuestIdleNames[2] = {"run", "halt"};
const char* const kKvmExitTraceNames[2] = {"after_irq", "at_exit"};

const char* to_string(ExitReason r) {
    switch (r) {
        case ExitReason::ExternalInterrupt: return "EXTERNAL_INTERRUPT";
        case ExitReason::Hlt: return "HLT";
        case ExitReason::EoiInduced: return "EOI_INDUCED";
        case ExitReason::ApicWrite: return "APIC_WRITE";
        case ExitReason::MsrWrite: return "MSR_WRITE";
        case ExitReason::Count: break;
    }
    return "?";
}

VmxCpu::VmxCpu(sc_core::sc_module_name name, const VmxCpuParams& params,
               const VcpuConfig& vcpu, unsigned index, AgentId agent, LocalApic& apic,
               PostedDescriptor& pid)
    : sc_module(name), m_params(params), m_vcpu(vcpu), m_index(index), m_agent(agent),
      m_apic(apic), m_gpid(pid, agent) {
    if (!m_vcpu.apicv) m_vcpu.vid = false;
    HostThread t;
    t.name = "vcpu";
    t.notifier = this;
    m_vcpu_thread = m_sched.add(t);
    SC_THREAD(run);
}

void VmxCpu::assign(Vector host_vector, Vector guest_vector, HostHandler handler,
                    IrqHandler& guest_handler, uint32_t cookie) {
    Route& r = m_routes[host_vector];
    r.used = true;
    r.guest_vector = guest_vector;
    r.handler = handler;
    if (handler == HostHandler::Threaded) {
        HostThread t;
        t.name = "irq/" + std::to_string(host_vector) + "-vfio";
        t.policy = SchedPolicy::Fifo;
        t.rt_priority = 50;  // kernel/irq/manage.c: MAX_USER_RT_PRIO/2
        r.irq_thread = m_sched.add(t);
        m_thread_vector.resize(size_t(r.irq_thread) + 1);
        m_thread_vector[size_t(r.irq_thread)] = host_vector;
    }
    m_guest_slots[guest_vector] = {&guest_handler, cookie};
}

void VmxCpu::assign_posted(Vector guest_vector, IrqHandler& guest_handler, uint32_t cookie) {
    m_guest_slots[guest_vector] = {&guest_handler, cookie};
}

void VmxCpu::reset_stats() {
    m_stats = {};
    m_sched.reset_stats();
    m_mode_since = sim_now();
}

sc_time VmxCpu::guest_time() const {
    return m_stats.guest_time + (m_mode == Mode::Guest ? sim_now() - m_mode_since : SC_ZERO_TIME);
}

sc_time VmxCpu::root_time() const {
    return m_stats.root_time + (m_mode == Mode::Root ? sim_now() - m_mode_since : SC_ZERO_TIME);
}

void VmxCpu::set_mode(Mode m) {
    const sc_time d = sim_now() - m_mode_since;
    (m_mode == Mode::Guest ? m_stats.guest_time
     : m_mode == Mode::Root ? m_stats.root_time : m_stats.idle_time) += d;
    m_mode = m;
    m_mode_since = sim_now();
    note_tracks();
    if (!m_states) return;
    const std::string what = m == Mode::Guest ? "guest"
                           : m == Mode::Idle  ? "idle"
                                              : std::string("root: ") + thread_name(m_sched.current());
    if (m_states->empty() || m_states->back().what != what) m_states->push_back({sim_now(), what});
}

void VmxCpu::note(const char* fmt, ...) {
    if (!m_log) return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    m_log->push_back({sim_now(), buf});
}

const char* VmxCpu::thread_name(int id) const {
    return id == HostScheduler::kIdle ? "idle" : m_sched.thread(id).name.c_str();
}

void VmxCpu::record_tracks_into(std::vector<VmTrackChange>* log) {
    m_tracks = log;
    m_track_state.clear();
    note_tracks();
}

bool VmxCpu::wake(int thread) {
    const bool resched = m_sched.wake(thread);
    note_tracks();
    return resched;
}

void VmxCpu::note_tracks() {
    if (!m_tracks) return;
    const int current = m_sched.current();
    m_track_state.resize(size_t(m_sched.thread_count()));
    for (int id = 0; id < m_sched.thread_count(); ++id) {
        const HostThread& t = m_sched.thread(id);
        const char* state;
        if (id == m_vcpu_thread)
            state = current == id ? (m_mode == Mode::Guest ? "guest" : "root")
                                  : (t.runnable ? "preempted" : "blocked");
        else
            state = current == id ? "running" : t.runnable ? "runnable" : "sleeping";
        if (m_track_state[size_t(id)] == state) continue;
        m_track_state[size_t(id)] = state;
        const std::string track = id == m_vcpu_thread ? "vcpu" : t.name;
        // A state that lasted no time is replaced, not kept as an empty slice.
        auto same = m_tracks->rbegin();
        while (same != m_tracks->rend() && same->at == sim_now() && same->track != track) ++same;
        if (same != m_tracks->rend() && same->at == sim_now()) same->state = state;
        else m_tracks->push_back({sim_now(), track, state});
    }
}

// vmx_vcpu_pi_put and vmx_vcpu_pi_load return at once unless the VM's
// interrupts are posted to this vCPU (IRQ_POSTING_CAP, APICv).
bool VmxCpu::posting_to_pid() const { return m_params.irq_posting && m_vcpu.apicv; }

void VmxCpu::sched_out(bool preempted) {
    sc_time c;
    if (!posting_to_pid())
        note("  kvm_sched_out -> vcpu_put (no VT-d posting: the PID is left alone)");
    else {
        m_gpid.put(preempted, c);
        note("  kvm_sched_out -> vcpu_put: %s",
             preempted ? "preempted, SN=1 (posts now send nothing)" : "blocking, SN stays 0");
    }
    m_notifier_cost += m_params.vcpu_put + c;
    m_loaded = false;
}

void VmxCpu::sched_in() {
    sc_time c;
    if (!posting_to_pid())
        note("  kvm_sched_in -> vcpu_load (no VT-d posting: the PID is left alone)");
    else {
        m_gpid.load(m_apic.apic_id(), c);
        note("  kvm_sched_in -> vcpu_load: SN=0, NDST=%u%s", m_apic.apic_id(),
             m_gpid.pid().on() ? ", ON=1 (PIR not empty)" : "");
    }
    m_notifier_cost += m_params.vcpu_load + c;
    m_loaded = true;
}

// The timers' first expiries fall between the device's periodic MSIs of the
// E3 configs (1 us into each 1 ms) so that no exit overlaps another: the
// tick 0.5 ms in, the guest timer 0.37 ms in, whatever their periods.
namespace {
sc_time first_expiry(double hz, double offset_ms) {
    return hz > 0 ? sc_time(offset_ms, sc_core::SC_MS) : never();
}
sc_time period_of(double hz) { return sc_time(1.0 / hz, sc_core::SC_SEC); }
}  // namespace

void VmxCpu::run() {
    m_next_host_tick = first_expiry(m_params.host_tick_hz, 0.5);
    m_next_guest_timer = first_expiry(m_params.guest_timer_hz, 0.37);
    // The vCPU thread is running and loaded; it enters the guest.
    m_mode_since = sim_now();
    wake(m_vcpu_thread);
    m_sched.switch_to(m_vcpu_thread);
    note_tracks();
    spend(m_notifier_cost);
    m_notifier_cost = SC_ZERO_TIME;
    prepare_entry();
    enter(sim_now(), sim_now(), ExitReason::Count);
    for (;;) {
        const ExitReason r = guest();
        if (r == ExitReason::ExternalInterrupt) external_interrupt_exit();
        else if (r == ExitReason::Hlt) hlt_exit();
        else eoi_exit(r);
    }
}

ExitReason VmxCpu::guest() {
    skip_missed_timers();
    for (;;) {
        settle_inputs();
        const int v = m_apic.deliverable();
        if (v >= 0) {
            if (v == kPostedIntrVector && m_vcpu.apicv) {
                posted_interrupt_processing();
                continue;
            }
            note("vector 0x%02X pending in guest mode: VM exit EXTERNAL_INTERRUPT", v);
            return ExitReason::ExternalInterrupt;  // pin-based external-interrupt exiting
        }
        if (due_timer() != Timer::None) {
            note("local timer interrupt (%s) in guest mode: VM exit EXTERNAL_INTERRUPT",
                 due_timer() == Timer::HostTick ? "the host tick" : "the guest timer's hrtimer");
            return ExitReason::ExternalInterrupt;
        }
        if (m_vapic.deliverable() >= 0) {
            guest_interrupt();
            if (!m_vcpu.vid) return m_vcpu.apicv ? ExitReason::ApicWrite : ExitReason::MsrWrite;
            continue;
        }
        if (m_vcpu.guest_idle == GuestIdle::Halt) {
            note("guest idle: HLT, VM exit HLT");
            return ExitReason::Hlt;
        }
        if (next_timer() == never()) wait(m_apic.irq_event());
        else wait(next_timer() - sim_now(), m_apic.irq_event());
    }
}

VmxCpu::Timer VmxCpu::due_timer() const {
    if (m_next_host_tick <= sim_now()) return Timer::HostTick;
    if (m_next_guest_timer <= sim_now()) return Timer::GuestTimer;
    return Timer::None;
}

void VmxCpu::skip_missed_timers() {
    const auto fold = [&](sc_time& next, double hz) {
        if (next == never()) return;
        const sc_time period = period_of(hz);
        while (next + period <= sim_now()) next += period;
    };
    fold(m_next_host_tick, m_params.host_tick_hz);
    fold(m_next_guest_timer, m_params.guest_timer_hz);
}

void VmxCpu::timer_irq(Timer t) {
    spend(m_params.host_irq_entry);
    if (t == Timer::HostTick) {
        note("host IDT: local timer: tick_sched_timer (the pCPU is isolated, not nohz_full)");
        m_next_host_tick += period_of(m_params.host_tick_hz);
        spend(m_params.host_tick);
    } else {
        note("host IDT: local timer: apic_timer_fn, the guest's TSC deadline passed "
             "(KVM_REQ_PENDING_TIMER)");
        m_next_guest_timer += period_of(m_params.guest_timer_hz);
        spend(m_params.guest_timer);
    }
    spend(m_params.host_eoi + m_params.host_irq_exit);
}

void VmxCpu::posted_interrupt_processing() {
    // SDM 29.6: the notification vector is acknowledged, ON cleared, the
    // local APIC's EOI written, PIR ORed into the vIRR; then delivery.
    m_apic.acknowledge();
    ++m_stats.posted_in_guest;
    sc_time c;
    m_gpid.sync_to(m_vapic.irr, c);
    m_apic.eoi();
    note("0xF2 arrives in guest mode: the CPU's posted-interrupt processing clears ON, moves "
         "PIR into the vIRR (vector 0x%02X), EOIs the LAPIC: no VM exit", m_vapic.irr.highest());
    spend(m_params.pi_processing + c);
}

void VmxCpu::guest_interrupt() {
    const Vector v = m_vapic.acknowledge();
    ++m_stats.guest_interrupts;
    ++m_stats.guest_handler_calls[v];
    note("guest: virtual interrupt 0x%02X delivered, the guest driver's handler runs%s", v,
         m_vcpu.vid ? "; EOI virtualised (VID), no exit"
                    : m_vcpu.apicv ? "; its EOI traps (APIC_WRITE exit)" : "; its EOI traps (MSR_WRITE exit)");
    spend(m_params.guest_irq_entry);
    const GuestSlot& s = m_guest_slots[v];
    // The device sees the pCPU (its APIC id) as the CPU that ran the handler.
    if (s.handler) spend(s.handler->handle(s.cookie, m_apic.apic_id(), sim_now()));
    // The EOI: virtualised with VID (an EOI-exit-bitmap vector exits);
    // without it the write traps and is completed in eoi_exit().
    if (m_vcpu.vid) {
        if (m_vapic.eoi_exit_bitmap.test(v)) ++m_stats.exits[size_t(ExitReason::EoiInduced)];
        m_vapic.end_of_interrupt();
        spend(m_params.guest_eoi);
    }
    spend(m_params.guest_irq_exit);
}

void VmxCpu::eoi_exit(ExitReason reason) {
    const sc_time hw_exit = sim_now();
    set_mode(Mode::Root);
    spend(m_params.vmexit_hw);
    const sc_time trace = sim_now();
    m_vapic.end_of_interrupt();
    spend(m_params.eoi_exit + m_params.trace_overhead);
    prepare_entry();
    enter(trace, hw_exit, reason);
}

void VmxCpu::external_interrupt_exit() {
    const sc_time hw_exit = sim_now();
    set_mode(Mode::Root);
    spend(m_params.vmexit_hw);
    sc_time trace = sim_now();  // 5.12: trace_kvm_exit in vmx_vcpu_run
    settle_inputs();
    const Timer timer = m_apic.deliverable() >= 0 ? Timer::None : due_timer();
    if (timer == Timer::None) host_irq();  // IRQs off, in vcpu_enter_guest
    else timer_irq(timer);
    // local_irq_enable(); preempt_enable(): with full preemption a woken
    // IRQ thread runs here, before 4.x's kvm_exit.
    if (m_params.preempt_full && m_sched.need_resched()) schedule_from_vcpu(true);
    if (m_params.kvm_exit_trace == KvmExitTrace::AfterIrq) trace = sim_now();
    note("kvm_exit tracepoint (%s); vmx_handle_exit, the vcpu_run loop",
         m_params.kvm_exit_trace == KvmExitTrace::AfterIrq ? "4.x: after the host IRQ" : "5.12: at the exit");
    spend(m_params.exit_dispatch + m_params.trace_overhead);
    if (timer == Timer::GuestTimer) {
        note("kvm_inject_pending_timer_irqs: the guest's timer vector into its vAPIC");
        spend(m_params.msi_inject);
    }
    // vcpu_run's loop: cond_resched() before the next entry.
    if (m_sched.need_resched()) schedule_from_vcpu(true);
    prepare_entry();
    enter(trace, hw_exit, ExitReason::ExternalInterrupt, timer);
}

void VmxCpu::hlt_exit() {
    const sc_time hw_exit = sim_now();
    set_mode(Mode::Root);
    spend(m_params.vmexit_hw);
    const sc_time trace = sim_now();
    spend(m_params.hlt_exit + m_params.trace_overhead);
    // kvm_vcpu_block: pi_pre_block refuses when ON is set; a pending vIRR
    // vector (no APICv) keeps the vCPU runnable too.
    settle_inputs();
    bool block = m_vapic.deliverable() < 0;
    if (block && m_vcpu.apicv) {
        sc_time c;
        block = m_gpid.pre_block(m_blocked, m_apic.apic_id(), c);
        spend(c);
    }
    if (block) {
        note("kvm_vcpu_block: pi_pre_block sets NV=0xF1 and puts the vCPU on pCPU%u's blocked list",
             m_apic.apic_id());
        schedule_from_vcpu(false);
        if (m_vcpu.apicv) {
            sc_time c;
            m_gpid.post_block(m_blocked, c);
            note("pi_post_block: NV=0xF2, off the blocked list");
            spend(c);
        }
    }
    prepare_entry();
    enter(trace, hw_exit, ExitReason::Hlt);
}

void VmxCpu::host_irq() {
    settle_inputs();
    if (m_apic.deliverable() < 0) return;
    const Vector v = m_apic.acknowledge();
    spend(m_params.host_irq_entry);
    note("host IDT: vector 0x%02X taken (%s)", v,
         m_irq_from_idle                             ? "the pCPU was idle"
         : m_sched.current() == m_vcpu_thread ? "inside the exit, IRQs off"
                                              : "in a host thread");
    if (v == kPostedIntrVector) {
        ++m_stats.pin;  // sysvec_kvm_posted_intr_ipi: only the EOI; PIR synced at entry
    } else if (v == kPostedIntrWakeupVector) {
        ++m_stats.piw;
        note("  pi_wakeup_handler: blocked-list lock, kick each vCPU with ON set");
        spend(m_params.wakeup_handler);
        settle_inputs();
        for (GuestPid* g : m_blocked.vcpus)
            if (g->pid().on() && wake(m_vcpu_thread)) spend(m_params.vcpu_kick);
    } else if (m_routes[v].used) {
        Route& r = m_routes[v];
        ++m_stats.host_device_irqs;
        spend(m_params.edge_irq);
        switch (r.handler) {
            case HostHandler::Hard:
                note("  handle_edge_irq -> vfio_msihandler (IRQF_NO_THREAD) -> eventfd_signal -> "
                     "irqfd_wakeup");
                spend(m_params.eventfd_signal);
                inject(r.guest_vector);
                break;
            case HostHandler::BypassInject:
                note("  handle_edge_irq -> vfio_msihandler -> the bypass consumer's inject");
                inject(r.guest_vector);
                break;
            case HostHandler::Threaded:
                // irq_default_primary_handler -> __irq_wake_thread
                note("  handle_edge_irq -> irq_default_primary_handler: wakes %s (SCHED_FIFO), "
                     "NEED_RESCHED", thread_name(r.irq_thread));
                spend(m_params.fifo_wakeup);
                r.irq_pending = true;
                wake(r.irq_thread);
                break;
        }
    }
    spend(m_params.host_eoi);
    m_apic.eoi();
    spend(m_params.host_irq_exit);
}

void VmxCpu::inject(Vector gv) {
    ++m_stats.injections;
    spend(m_params.msi_inject);
    settle_inputs();
    if (m_vcpu.apicv) {
        sc_time c;
        m_gpid.deliver(gv, c);  // PIR, ON; the vCPU is not in guest mode: no IPI
        note("  KVM injects guest vector 0x%02X: PIR bit and ON in the vCPU's PID (not in "
             "guest mode: no IPI)", gv);
        spend(c);
    } else {
        m_vapic.irr.set(gv);
        m_req_event = true;
        note("  KVM injects guest vector 0x%02X: vIRR and KVM_REQ_EVENT (no APICv)", gv);
    }
    // The vCPU is never in guest mode here (it runs on this CPU), so
    // kvm_vcpu_trigger_posted_interrupt fails and KVM kicks it: a blocked
    // vCPU thread is woken; a runnable one is left as it is (no IPI either way).
    spend(m_params.vcpu_kick);
    if (!m_sched.thread(m_vcpu_thread).runnable) wake(m_vcpu_thread);
}

void VmxCpu::schedule_from_vcpu(bool preempted) {
    if (!preempted) m_sched.sleep_current();
    for (;;) {
        const int next = m_sched.pick();
        if (next != m_sched.current()) {
            note("context switch %s -> %s", thread_name(m_sched.current()), thread_name(next));
            m_notifier_cost = SC_ZERO_TIME;
            m_sched.switch_to(next);
            ++m_stats.context_switches;
            set_mode(Mode::Root);  // the switch is host CPU time, also into idle
            spend(m_params.context_switch + m_notifier_cost);
        }
        if (m_sched.current() == m_vcpu_thread) {
            set_mode(Mode::Root);
            return;
        }
        if (m_sched.current() == HostScheduler::kIdle) idle_until_irq();
        else irq_thread_run(m_sched.current());
    }
}

void VmxCpu::irq_thread_run(int thread) {
    Route& r = m_routes[m_thread_vector[size_t(thread)]];
    if (r.irq_pending) {
        r.irq_pending = false;
        // irq_forced_thread_fn -> vfio_msihandler -> eventfd_signal -> irqfd
        note("%s: irq_forced_thread_fn -> vfio_msihandler -> eventfd_signal -> irqfd_wakeup",
             thread_name(thread));
        spend(m_params.irq_thread + m_params.eventfd_signal);
        inject(r.guest_vector);
    }
    settle_inputs();
    if (m_apic.deliverable() >= 0) {
        host_irq();  // IRQs are on in the thread
        return;
    }
    if (!r.irq_pending) {
        note("%s sleeps", thread_name(thread));
        m_sched.sleep_current();
    }
}

void VmxCpu::idle_until_irq() {
    set_mode(Mode::Idle);
    settle_inputs();
    while (m_apic.deliverable() < 0) {
        wait(m_apic.irq_event());
        settle_inputs();
    }
    set_mode(Mode::Root);
    m_irq_from_idle = true;  // for the narration: set_mode made it root already
    host_irq();
    m_irq_from_idle = false;
}

void VmxCpu::prepare_entry() {
    settle_inputs();
    if (m_vcpu.apicv) {
        sc_time c;
        if (m_gpid.sync_to(m_vapic.irr, c)) {
            note("vmx_sync_pir_to_irr: ON cleared, PIR -> vIRR");
            spend(m_params.pir_sync + c);
        }
    } else if (m_req_event) {
        m_req_event = false;
        spend(m_params.event_inject);
    }
}

void VmxCpu::enter(const sc_time& exit_trace, const sc_time& hw_exit, ExitReason reason,
                   Timer timer) {
    const bool timed = reason == ExitReason::ExternalInterrupt;
    if (reason != ExitReason::Count) {  // kvm_entry: perf kvm stat's time of the exit
        const uint64_t t = whole_ns(sim_now() - exit_trace);
        const size_t r = size_t(reason);
        ++m_stats.exits[r];
        if (timer == Timer::HostTick) ++m_stats.host_tick_exits;
        if (timer == Timer::GuestTimer) ++m_stats.guest_timer_exits;
        m_stats.exit_ns[r] += t;
        if (m_stats.exit_min_ns[r] == 0 || t < m_stats.exit_min_ns[r]) m_stats.exit_min_ns[r] = t;
        if (t > m_stats.exit_max_ns[r]) m_stats.exit_max_ns[r] = t;
    }
    if (timed) {
        m_stats.exit_handling_ns.record(whole_ns(sim_now() - exit_trace));
        // To the end of the entry below (spend waits exactly that long).
        m_stats.hw_exit_to_entry_ns.record(whole_ns(sim_now() + m_params.vmentry_hw - hw_exit));
    }
    if (timed)
        note("kvm_entry tracepoint: %.0f ns after kvm_exit; VM entry",
             ns_of(sim_now() - exit_trace));
    else
        note("VM entry");
    spend(m_params.vmentry_hw);
    set_mode(Mode::Guest);
}

}  // namespace cidsim
