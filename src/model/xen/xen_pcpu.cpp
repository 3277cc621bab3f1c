#include "model/xen/xen_pcpu.h"

#include <cstdarg>
#include <cstdio>

#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

const char* to_string(XenExit r) {
    switch (r) {
        case XenExit::ExternalInterrupt: return "EXTERNAL_INTERRUPT";
        case XenExit::InterruptWindow: return "PENDING_INTERRUPT";
        case XenExit::MsrWrite: return "MSR_WRITE";
        case XenExit::ApicAccess: return "APIC_ACCESS";
        case XenExit::Count: break;
    }
    return "?";
}

namespace {
const char* xen_exit_name(size_t i) { return to_string(XenExit(i)); }
}  // namespace

void XenPcpuStats::describe(StatVisitor& v) const {
    v.by_reason(in_block("exits"), exits.data(), exits.size(), xen_exit_name,
                "VM exits by basic exit reason");
    v.count(in_block("host_irqs"), host_irqs, "count",
            "device interrupts taken by Xen (do_IRQ) on the vCPU's pCPU");
    v.count(in_block("guest_interrupts"), guest_interrupts, "count",
            "virtual interrupts delivered to the guest's handler");
    v.count(in_block("avoided_eois"), avoided_eois, "count",
            "guest EOIs viridian APIC assist let the guest skip (completed later by Xen)");
    v.count(in_block("posted_in_guest"), posted_in_guest, "count",
            "intpost: notifications (0xF2) processed by the CPU in guest mode, no exit");
    v.histogram(in_block("exit_handling_ns"), exit_handling_ns, "ns",
                "EXTERNAL_INTERRUPT exits, from the hardware exit to the end of the VM entry");
    v.time(unreported("guest_time"), guest_time, "time in guest mode with work to do");
    v.time(unreported("root_time"), root_time,
           "Xen's CPU time on the pCPU (host_cpu_us_per_io divides it by the I/Os)");
    v.time(unreported("idle_time"), idle_time, "time the guest had nothing to run");
}

XenPcpu::XenPcpu(sc_core::sc_module_name name, const XenParams& params, unsigned vcpu,
                 AgentId pid_agent, LocalApic& apic, PostedDescriptor& pid, XenDomain& domain)
    : sc_module(name), m_params(params), m_agent(AgentId(vcpu)), m_apic(apic),
      m_gpid(pid, pid_agent), m_domain(domain) {
    SC_THREAD(run);
}

void XenPcpu::assign(Vector host_vector, unsigned pirq, Vector guest_vector,
                     IrqHandler& guest_handler, uint32_t cookie) {
    m_routes[host_vector] = {pirq, guest_vector, true};
    m_guest_slots[guest_vector] = {&guest_handler, cookie};
}

void XenPcpu::assign_posted(Vector guest_vector, IrqHandler& guest_handler, uint32_t cookie) {
    m_guest_slots[guest_vector] = {&guest_handler, cookie};
}

void XenPcpu::queue_task(const Work& w) {
    if (m_tasks.empty()) m_task_left = w.cost;
    m_tasks.push_back(w);
    m_task_queued.notify(SC_ZERO_TIME);
}

void XenPcpu::reset_stats() {
    m_stats = {};
    m_mode_since = sim_now();
}

void XenPcpu::close_window() {
    count_mode_time();
}

void XenPcpu::count_mode_time() {
    const sc_time d = sim_now() - m_mode_since;
    (m_mode == Mode::Guest ? m_stats.guest_time
     : m_mode == Mode::Root ? m_stats.root_time : m_stats.idle_time) += d;
    m_mode_since = sim_now();
}

void XenPcpu::set_mode(Mode m) {
    count_mode_time();
    m_mode = m;
    if (!m_states) return;
    const char* what = m == Mode::Guest ? "guest" : m == Mode::Idle ? "guest idle" : "xen";
    if (m_states->empty() || m_states->back().second != what) m_states->push_back({sim_now(), what});
}

void XenPcpu::note(const char* fmt, ...) {
    if (!m_steps) return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    m_steps->push_back({sim_now(), buf});
}

void XenPcpu::run() {
    spend(SC_ZERO_TIME);  // to this pCPU's first act time (XenDomain::kActSlots)
    m_mode_since = sim_now();
    if (posting()) {
        sc_time c;
        m_gpid.load(m_apic.apic_id(), c);  // vmx_pi_switch_to: NDST this pCPU, SN clear
        spend(c);
    }
    enter();
    for (;;) {
        settle_inputs();
        const int v = m_apic.deliverable();
        if (v == kPostedIntrVector && posting()) {
            posted_interrupt_processing();
        } else if (v >= 0) {
            external_interrupt_exit();
        } else if (m_injected >= 0) {
            const Vector iv = Vector(m_injected);
            m_injected = -1;
            guest_interrupt(iv);
        } else if (m_vapic.deliverable() >= 0) {
            if (virtual_delivery()) guest_interrupt(m_vapic.acknowledge());
            else interrupt_window_exit();
        } else if (!m_tasks.empty()) {
            run_guest_task();
        } else {
            set_mode(Mode::Idle);  // the guest's idle loop: no HLT exit modelled
            wait(m_apic.irq_event() | m_task_queued);
            spend(SC_ZERO_TIME);
            set_mode(Mode::Guest);
        }
    }
}

void XenPcpu::run_guest_task() {
    const sc_time start = sim_now();
    wait(m_task_left, m_apic.irq_event());
    m_task_left -= sim_now() - start;
    spend(SC_ZERO_TIME);
    if (m_task_left > SC_ZERO_TIME) return;  // an interrupt first; the rest after it
    const Work w = m_tasks.front();
    m_tasks.pop_front();
    if (!m_tasks.empty()) m_task_left = m_tasks.front().cost;
    w.fn(w.ctx, w.arg, sim_now());
}

void XenPcpu::posted_interrupt_processing() {
    // SDM 29.6: 0xF2 acknowledged, ON cleared, PIR ORed into the vIRR,
    // the LAPIC EOId; then virtual-interrupt delivery.
    m_apic.acknowledge();
    ++m_stats.posted_in_guest;
    note("0xF2 arrives in guest mode (intpost): PIR -> vIRR, no exit, no event_lock");
    sc_time c;
    m_gpid.sync_to(m_vapic.irr, c);
    m_apic.eoi();
    spend(m_params.pi_processing + c);
}

void XenPcpu::external_interrupt_exit() {
    const sc_time hw_exit = sim_now();
    if (m_steps) note("host vector 0x%02X pending in guest mode: VM exit EXTERNAL_INTERRUPT",
                      unsigned(m_apic.deliverable()));
    set_mode(Mode::Root);
    spend(m_params.vmexit_hw + m_params.exit_dispatch);
    host_irq();
    intr_assist();
    enter(XenExit::ExternalInterrupt);
    m_stats.exit_handling_ns.record(whole_ns(sim_now() - hw_exit));
}

void XenPcpu::host_irq() {
    settle_inputs();
    if (m_apic.deliverable() < 0) return;
    const Vector v = m_apic.acknowledge();
    spend(m_params.do_irq);
    const Route& r = m_routes[v];
    if (r.used) {
        ++m_stats.host_irqs;
        note("do_IRQ 0x%02X -> hvm_do_IRQ_dpci: pirq %u masked, STATE_SCHED, HVM_DPCI_SOFTIRQ raised",
             unsigned(v), r.pirq);
        m_domain.dpci_irq(m_agent, r.pirq);
    }
    spend(m_params.host_eoi);
    m_apic.eoi();
    if (!r.used) return;  // 0xF2 in root mode: the PIR is synced at entry
    // HVM_DPCI_SOFTIRQ on the way back to the guest.
    spend(m_params.softirq);
    note("softirq: hvm_dirq_assist for pirq %u, spin_lock(&d->event_lock)", r.pirq);
    m_domain.lock_for_delivery(m_agent, r.pirq);
    m_vapic.irr.set(r.guest_vector);  // vlapic_set_irq, under the lock
    m_domain.unlock_after_delivery(m_agent);
}

void XenPcpu::intr_assist() {
    // vlapic_has_pending_irq: an EOI APIC assist avoided is completed now
    // (66bf4ef048), before the next vector is injected.
    if (m_assisted_eoi >= 0 && m_vapic.irr.any()) {
        const Vector gv = Vector(m_assisted_eoi);
        m_assisted_eoi = -1;
        if (m_params.variant != XenVariant::NoEoiWork) {
            note("vlapic_has_pending_irq: the avoided EOI of 0x%02X completed now "
                 "(vlapic_EOI_set -> hvm_dpci_msi_eoi)", unsigned(gv));
            spend(m_params.vlapic_eoi);
            m_domain.msi_eoi(m_agent, gv);
        } else {
            note("vlapic_has_pending_irq: the avoided EOI of 0x%02X only clears its ISR bit "
                 "(no EOI work)", unsigned(gv));
        }
    }
    if (posting()) {
        sc_time c;
        m_gpid.sync_to(m_vapic.irr, c);
        spend(c);
    }
    if (virtual_delivery() || m_vapic.deliverable() < 0) return;
    // Event injection: the vector moves to the vISR at entry; into an empty
    // ISR, viridian's assist flags it "no EOI required".
    m_assist_flagged = m_params.eoi == XenEoi::ApicAssist && m_vapic.isr.highest() < 0;
    m_injected = m_vapic.acknowledge();
    note("vmx_intr_assist: injects 0x%02X%s", unsigned(m_injected),
         m_assist_flagged ? " into an empty ISR: APIC assist flags it \"no EOI required\"" : "");
    spend(m_params.intr_assist);
}

void XenPcpu::interrupt_window_exit() {
    note("VM exit PENDING_INTERRUPT (interrupt window: one injection per entry)");
    set_mode(Mode::Root);
    spend(m_params.vmexit_hw + m_params.exit_dispatch);
    intr_assist();
    enter(XenExit::InterruptWindow);
}

void XenPcpu::enter(XenExit ending) {
    note("VM entry");
    spend(m_params.vmentry_hw);
    // An exit belongs to the window in which it ends (its entry is done):
    // counted here, where exit_handling_ns times it.
    if (ending != XenExit::Count) ++m_stats.exits[size_t(ending)];
    set_mode(Mode::Guest);
}

void XenPcpu::guest_interrupt(Vector v) {
    ++m_stats.guest_interrupts;
    note("guest: virtual interrupt 0x%02X, the driver's handler runs", unsigned(v));
    spend(m_params.guest_irq_entry);
    const GuestSlot& s = m_guest_slots[v];
    if (s.handler) spend(s.handler->handle(s.cookie, index(), sim_now()));
    const XenEoi eoi = posting() ? XenEoi::Virtualised : m_params.eoi;
    if (eoi == XenEoi::Virtualised) {
        note("guest EOI of 0x%02X virtualised (VID): no exit", unsigned(v));
        m_vapic.end_of_interrupt();
        spend(m_params.guest_eoi);
    } else if (eoi == XenEoi::ApicAssist && m_assist_flagged) {
        // viridian: the vector went into an empty ISR, so the guest's EOI
        // write is skipped; Xen finds the avoided EOI later.
        ++m_stats.avoided_eois;
        note("guest EOI of 0x%02X avoided (APIC assist): no exit, Xen completes it later",
             unsigned(v));
        m_vapic.end_of_interrupt();
        m_assisted_eoi = v;
        m_assist_flagged = false;
    } else {
        eoi_exit(eoi == XenEoi::TrapMmio ? XenExit::ApicAccess : XenExit::MsrWrite, v);
    }
    spend(m_params.guest_irq_exit);
}

void XenPcpu::eoi_exit(XenExit reason, Vector guest_vector) {
    note("guest EOI of 0x%02X: VM exit %s -> vlapic_EOI_set -> hvm_dpci_msi_eoi",
         unsigned(guest_vector), to_string(reason));
    set_mode(Mode::Root);
    spend(m_params.vmexit_hw + m_params.eoi_trap + m_params.vlapic_eoi);
    m_vapic.end_of_interrupt();
    if (m_params.variant != XenVariant::NoEoiWork) m_domain.msi_eoi(m_agent, guest_vector);
    intr_assist();
    enter(reason);
}

}  // namespace cidsim
