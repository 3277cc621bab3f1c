// The parameters of the VM path (a config's `vm` section and `vcpus[]`),
// described once: unit, default, range, meaning and source of each.
#include "model/kvm/vmx_cpu.h"

namespace cidsim {

// Every cost names its source; "guess" gives a plausible range.
void VmxCpuParams::describe(ParamVisitor& v) {
    v.time("vmexit_hw_ns", vmexit_hw, 0, 1e5,
           "hardware VM exit (state save, VMCS exit fields). Source: assumed, a few hundred "
           "cycles per round trip on Haswell (kvm-unit-tests x86/vmexit.c); range 50-300 ns");
    v.time("vmentry_hw_ns", vmentry_hw, 0, 1e5,
           "hardware VM entry (VMRESUME, state load). Source: assumed as vmexit_hw_ns; "
           "range 50-300 ns");
    v.time("exit_dispatch_ns", exit_dispatch, 0, 1e6,
           "vmx_handle_exit's dispatch (handle_external_interrupt returns 1), the vcpu_run "
           "loop and vcpu_enter_guest's checks before the entry, tracepoints apart. Source: "
           "guess, about a thousand instructions of arch/x86/kvm/x86.c and vmx.c (4.x) with "
           "the SRCU read lock and request checks; range 200-800 ns");
    v.time("trace_overhead_ns", trace_overhead, 0, 1e6,
           "what perf kvm stat's own tracepoints add inside every exit it measures: "
           "kvm_exit's record (its VMCS reads: exit qualification, interruption info, RIP) "
           "and kvm_entry's, each written into perf's ring buffer. Source: FITTED to E3's "
           "calibration figure, the EXTERNAL_INTERRUPT exits' mean kvm_exit -> kvm_entry "
           "time with the non-threaded handler, 2.2 us (systems.md B; "
           "scripts/calibrate_vm.sh)");
    v.real("host_tick_hz", host_tick_hz, "Hz", 0, 10000,
             "the scheduler tick on the vCPU's pCPU while the vCPU thread runs (isolated but "
             "not nohz_full; 0: nohz_full, no tick; else 1 Hz at least): each one an "
             "EXTERNAL_INTERRUPT exit. "
             "Source: assumed CONFIG_HZ=1000 (RHEL and Fedora kernels; 250 in Debian's); "
             "range 0-1000");
    v.time("host_tick_ns", host_tick, 0, 1e6,
           "the tick's handler in the exit: hrtimer_interrupt -> tick_sched_timer -> "
           "update_process_times (accounting, run_local_timers, the RCU check, "
           "scheduler_tick). Source: guess; range 0.5-3 us");
    v.real("guest_timer_hz", guest_timer_hz, "Hz", 0, 10000,
             "the guest's own tick through its TSC-deadline timer, which KVM emulates with a "
             "host hrtimer on this pCPU (no VMX preemption timer): each expiry an "
             "EXTERNAL_INTERRUPT exit whose timer interrupt KVM injects after kvm_exit "
             "(kvm_inject_pending_timer_irqs, as an MSI's injection: vm.msi_inject_ns). 0: a "
             "tickless guest; else 1 Hz at least. Source: assumed, a busy Linux guest with CONFIG_HZ=250; range "
             "0-1000");
    v.time("guest_timer_ns", guest_timer, 0, 1e6,
           "the host side of a guest timer expiry in the exit: hrtimer_interrupt -> "
           "apic_timer_fn (KVM_REQ_PENDING_TIMER, kick). Source: guess; range 0.1-1 us");
    v.time("host_irq_entry_ns", host_irq_entry, 0, 1e5,
           "KVM's call of the host IDT handler (handle_external_intr) and irq_enter. Source: "
           "guess, as cpu.irq_entry_ns; range 50-300 ns");
    v.time("edge_irq_ns", edge_irq, 0, 1e5,
           "handle_edge_irq: desc lock, ack, handle_irq_event. Source: guess from instruction "
           "count (kernel/irq/chip.c); range 30-150 ns");
    v.time("host_eoi_ns", host_eoi, 0, 1e5,
           "host x2APIC EOI MSR write. Source: guess, as cpu.eoi_ns; range 20-100 ns");
    v.time("host_irq_exit_ns", host_irq_exit, 0, 1e5,
           "irq_exit (no softirq) and return to KVM. Source: guess, as cpu.irq_exit_ns; "
           "range 40-200 ns");
    v.time("eventfd_signal_ns", eventfd_signal, 0, 1e5,
           "vfio_msihandler's eventfd_signal: wait-queue lock, count+1, wake_up_locked_poll, "
           "irqfd_wakeup's dispatch (fs/eventfd.c, virt/kvm/eventfd.c). Source: assumed, half "
           "of eventfd -> irqfd -> injection 0.3-0.5 us (systems.md B); range 100-300 ns");
    v.time("msi_inject_ns", msi_inject, 0, 1e5,
           "kvm_set_msi_inatomic -> __apic_accept_irq -> vmx_deliver_posted_interrupt (PID "
           "line costs apart). Source: assumed, the other half of 0.3-0.5 us (systems.md B); "
           "range 100-300 ns");
    v.time("vcpu_kick_ns", vcpu_kick, 0, 1e5,
           "kvm_vcpu_kick after every injection (the vCPU is never in guest mode on its own "
           "CPU then: no IPI; wakes it if blocked). Source: guess (virt/kvm/kvm_main.c); "
           "range 20-200 ns");
    v.time("fifo_wakeup_ns", fifo_wakeup, 0, 1e5,
           "__irq_wake_thread -> wake_up_process of the SCHED_FIFO IRQ thread, NEED_RESCHED "
           "(kernel/sched/core.c try_to_wake_up). Source: assumed, not fitted; range 0.2-1 us");
    v.time("context_switch_ns", context_switch, 0, 1e6,
           "one context switch between pinned threads (__schedule, switch_mm, switch_to). "
           "Source: assumed, about 1 us on Haswell (tools/perf/bench/sched-pipe.c, "
           "systems.md B); range 0.5-3 us");
    v.time("vcpu_put_ns", vcpu_put, 0, 1e6,
           "kvm_sched_out -> kvm_arch_vcpu_put -> vmx_vcpu_put (host state, pi put). Source: "
           "assumed (arch/x86/kvm/vmx); range 0.1-0.5 us");
    v.time("vcpu_load_ns", vcpu_load, 0, 1e6,
           "kvm_sched_in -> kvm_arch_vcpu_load -> vmx_vcpu_load (same pCPU: no VMPTRLD; pi "
           "load). Source: assumed (arch/x86/kvm/vmx); range 0.1-0.8 us");
    v.time("irq_thread_ns", irq_thread, 0, 1e6,
           "irq_thread loop and irq_forced_thread_fn around the handler (local_bh_disable, "
           "oneshot finalize). Source: guess from kernel/irq/manage.c; range 50-400 ns");
    v.time("pir_sync_ns", pir_sync, 0, 1e5,
           "vmx_sync_pir_to_irr before entry, besides the PID line accesses. Source: guess; "
           "range 20-150 ns");
    v.time("event_inject_ns", event_inject, 0, 1e5,
           "without APICv: KVM_REQ_EVENT handling and VM-entry event injection. Source: guess; "
           "range 50-300 ns");
    v.time("pi_processing_ns", pi_processing, 0, 1e5,
           "the CPU's posted-interrupt processing in guest mode (ack 0xF2, PIR -> vIRR, EOI), "
           "besides PID line accesses. Source: assumed 0.1-0.2 us (systems.md A)");
    v.time("eoi_exit_ns", eoi_exit, 0, 1e6,
           "handling a trapped guest EOI (APIC_WRITE or MSR_WRITE exit: kvm_lapic_reg_write, "
           "apic_set_eoi) between exit and entry. Source: assumed 0.5-1 us for exit + entry "
           "(systems.md C) less the hardware costs; range 0.2-0.8 us");
    v.time("hlt_exit_ns", hlt_exit, 0, 1e6,
           "HLT exit: kvm_emulate_halt to kvm_vcpu_block's schedule(). Source: guess; "
           "range 0.1-1 us");
    v.time("wakeup_handler_ns", wakeup_handler, 0, 1e6,
           "pi_wakeup_handler: blocked-list lock and walk, kvm_vcpu_kick -> wake_up_process. "
           "Source: assumed, part of the several-us wake-up path (systems.md A); range "
           "0.1-1 us");
    v.time("guest_irq_entry_ns", guest_irq_entry, 0, 1e5,
           "the guest's interrupt entry (virtual IDT delivery, irq_enter). Source: guess, as "
           "cpu.irq_entry_ns; range 50-300 ns");
    v.time("guest_irq_exit_ns", guest_irq_exit, 0, 1e5,
           "the guest's irq_exit and iret. Source: guess, as cpu.irq_exit_ns; range 40-200 ns");
    v.time("guest_eoi_ns", guest_eoi, 0, 1e5,
           "a virtualised guest EOI (VID: no exit). Source: guess; range 5-50 ns");
    visit_choice(v, "kvm_exit_trace", kvm_exit_trace, kKvmExitTraceNames,
                 "where perf kvm stat's kvm_exit tracepoint sits: after_irq (4.x: opens "
                 "vmx_handle_exit, after the host IRQ handler and preempt_enable) | at_exit "
                 "(5.12: in vmx_vcpu_run, right after the exit). Source: 4.x arch/x86/kvm/vmx.c, "
                 "5.12 vmx/vmx.c");
    v.flag("preempt_full",
           preempt_full,
           "CONFIG_PREEMPT: a woken IRQ thread preempts at preempt_enable(), before kvm_exit "
           "(false: at the vcpu_run loop's cond_resched(), after it). Source: systems.md B");
    v.flag("irq_posting", irq_posting,
           "VT-d posting to guests: IRQ_POSTING_CAP and the irq-bypass pairing (pi_update_irte); "
           "an assigned device's IRTE is posted when its vCPU has APICv. Source: systems.md A");
}

void VcpuConfig::describe(ParamVisitor& v) {
    v.flag("apicv", apicv,
           "APICv: posted-interrupt processing and APIC-register virtualisation (false: "
           "injection through the vIRR, KVM_REQ_EVENT and event injection; EOIs exit as "
           "MSR_WRITE). Source: SDM 29; systems.md B (\"HSW\" may be a client part)");
    v.flag("vid", vid,
           "virtual-interrupt delivery: edge-MSI EOIs virtualised, no exit (false: each guest "
           "EOI exits as APIC_WRITE). Needs apicv. Source: SDM 29.1.2");
    visit_choice(v, "guest_idle", guest_idle, kGuestIdleNames,
                 "what the guest does between interrupts: run (stays in guest mode) | halt "
                 "(HLT exit, the vCPU blocks; halt_poll_ns = 0)");
}

namespace {
const char* exit_reason_name(size_t i) { return to_string(ExitReason(i)); }
}  // namespace

void VmxCpuStats::describe(StatVisitor& v) const {
    v.by_reason(in_block("exits"), exits.data(), exits.size(), exit_reason_name,
                "VM exits by basic exit reason (exits_per_s divides them by the window)");
    v.by_reason(unreported("exit_ns"), exit_ns.data(), exit_ns.size(), exit_reason_name,
                "exit handling time by reason, kvm_exit to kvm_entry, summed (kvm_stat divides "
                "it)");
    v.by_reason(unreported("exit_min_ns"), exit_min_ns.data(), exit_min_ns.size(),
                exit_reason_name, "the shortest exit of each reason, kvm_exit to kvm_entry");
    v.by_reason(unreported("exit_max_ns"), exit_max_ns.data(), exit_max_ns.size(),
                exit_reason_name, "the longest exit of each reason, kvm_exit to kvm_entry");
    v.histogram(in_block("exit_handling_ns"), exit_handling_ns, "ns",
                "EXTERNAL_INTERRUPT exit handling time as perf kvm stat reports it: the "
                "kvm_exit tracepoint (vm.kvm_exit_trace) to the next kvm_entry");
    v.histogram(in_block("hw_exit_to_entry_ns"), hw_exit_to_entry_ns, "ns",
                "EXTERNAL_INTERRUPT exits from the hardware exit to the end of the next VM entry");
    v.count(in_block("posted_in_guest"), posted_in_guest, "count",
            "posted-interrupt notifications (0xF2) processed by the CPU in guest mode, no exit");
    v.count(in_block("pin"), pin, "count",
            "PIN: posted-interrupt notifications (0xF2) taken by the host in root mode");
    v.count(in_block("piw"), piw, "count",
            "PIW: posted-interrupt wake-up notifications (0xF1) taken by the host");
    v.count(in_block("host_device_irqs"), host_device_irqs, "count",
            "device interrupts of assigned devices taken by the host (remapped IRTE)");
    v.count(in_block("host_tick_exits"), host_tick_exits, "count",
            "EXTERNAL_INTERRUPT exits for the host tick (vm.host_tick_hz)");
    v.count(in_block("guest_timer_exits"), guest_timer_exits, "count",
            "EXTERNAL_INTERRUPT exits for the guest timer's hrtimer (vm.guest_timer_hz)");
    v.count(in_block("guest_interrupts"), guest_interrupts, "count",
            "virtual interrupts delivered to the guest's handlers");
    v.per_vector(unreported("guest_handler_calls"), guest_handler_calls,
                 "guest handler calls per guest vector (the guest's /proc/interrupts)");
    v.count(in_block("context_switches"), context_switches, "count",
            "host context switches on the pCPU");
    v.count(in_block("injections"), injections, "count",
            "MSIs injected by KVM (irqfd or bypass_inject)");
    v.time(unreported("guest_time"), guest_time, "time in guest mode");
    v.time(unreported("root_time"), root_time,
           "host CPU time on the pCPU: root mode and host threads (host_cpu_ns_per_interrupt "
           "divides it by the device interrupts)");
    v.time(unreported("idle_time"), idle_time, "time in the host's idle thread");
}

}  // namespace cidsim
