#pragma once
// VmxCpu: one physical CPU in VMX operation, isolated and hosting one KVM
// vCPU thread, the forced IRQ threads of the devices assigned to that vCPU,
// and the idle thread (systems.md sections A and B, table E "E3 KVM").
//
// Modelled, all at the kernel's time (no run-ahead of its own):
//  - guest (non-root) and root mode; VM exit and VM entry with hardware
//    costs; exits for EXTERNAL_INTERRUPT, HLT, and the guest's EOI when it
//    is not virtualised (APIC_WRITE with APIC-register virtualisation,
//    MSR_WRITE for x2APIC without APICv; EOI_INDUCED for EOI-exit-bitmap
//    vectors under VID, none for edge MSIs);
//  - a virtual APIC (virtual_apic.h) with virtual-interrupt delivery on or
//    off; without APICv an injected vector goes to the vIRR with
//    KVM_REQ_EVENT and is injected at entry;
//  - the vCPU's posted-interrupt descriptor through GuestPid: the CPU's own
//    posted-interrupt processing when 0xF2 arrives in guest mode (no exit),
//    SN while preempted and ON re-evaluated at load, NV 0xF1 and the
//    pCPU's blocked list while halted, pi_wakeup_handler on 0xF1;
//  - the host IRQ inside an EXTERNAL_INTERRUPT exit: KVM calls the host IDT
//    handler (handle_external_intr, 4.x) -> handle_edge_irq -> the driver
//    handler: hard (IRQF_NO_THREAD: vfio_msihandler -> eventfd_signal ->
//    irqfd_wakeup -> MSI injection), bypass_inject (the injection called
//    straight from the hard handler, Bonzini's idea), or threaded (forced
//    threading: irq_default_primary_handler wakes the SCHED_FIFO IRQ thread,
//    which preempts the vCPU thread at cond_resched(), or at
//    preempt_enable() with full preemption; kvm_sched_out/in put and load
//    the vCPU around it);
//  - the perf kvm stat measurement: kvm_exit -> kvm_entry with kvm_exit
//    after the host IRQ handler (4.x, default) or at the exit (5.12), and
//    the hardware exit -> entry span.
//  - the other EXTERNAL_INTERRUPT exits perf kvm stat averages in: the host
//    tick on a pCPU that is isolated but not nohz_full (vm.host_tick_hz),
//    and the hrtimer that emulates a busy guest's TSC-deadline timer
//    (vm.guest_timer_hz), whose interrupt KVM injects after kvm_exit; and
//    perf's own tracepoints inside every measured exit
//    (vm.trace_overhead_ns).
// Not modelled: halt polling (halt_poll_ns = 0), other pCPUs' IPIs to this
// vCPU (one vCPU per pCPU and every injection runs here), a timer taken
// in root mode or idle (one that comes due there exits at the next entry,
// however many of its periods passed), the guest's side of its timer
// interrupt, timer jitter; a host interrupt arriving while the guest
// handler runs is taken when it ends; the guest's own scheduler.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/x86/cpu_core.h"
#include "model/vmx/guest_pid.h"
#include "model/linux/host_scheduler.h"
#include "model/x86/local_apic.h"
#include "model/base/param_visitor.h"
#include "model/base/stat_visitor.h"
#include "model/base/stats.h"
#include "model/vmx/virtual_apic.h"

namespace cidsim {

enum class HostHandler : int { Hard, Threaded, BypassInject };
extern const char* const kHostHandlerNames[3];
enum class GuestIdle : int { Run, Halt };
extern const char* const kGuestIdleNames[2];
enum class KvmExitTrace : int { AfterIrq, AtExit };
extern const char* const kKvmExitTraceNames[2];
enum class ExitReason : int { ExternalInterrupt, Hlt, EoiInduced, ApicWrite, MsrWrite, Count };
const char* to_string(ExitReason r);

// The host and KVM costs on this path (section "vm" of a config).
struct VmxCpuParams {
    sc_core::sc_time vmexit_hw = ns(120);
    sc_core::sc_time vmentry_hw = ns(100);
    sc_core::sc_time exit_dispatch = ns(400);
    sc_core::sc_time trace_overhead = ns(1748);  // fitted: scripts/calibrate_vm.sh
    double host_tick_hz = 1000;
    sc_core::sc_time host_tick = ns(1000);
    double guest_timer_hz = 250;
    sc_core::sc_time guest_timer = ns(300);
    sc_core::sc_time host_irq_entry = ns(120);
    sc_core::sc_time edge_irq = ns(60);
    sc_core::sc_time host_eoi = ns(40);
    sc_core::sc_time host_irq_exit = ns(80);
    sc_core::sc_time eventfd_signal = ns(200);
    sc_core::sc_time msi_inject = ns(200);
    sc_core::sc_time vcpu_kick = ns(50);
    sc_core::sc_time fifo_wakeup = ns(300);
    sc_core::sc_time context_switch = ns(1000);
    sc_core::sc_time vcpu_put = ns(200);
    sc_core::sc_time vcpu_load = ns(300);
    sc_core::sc_time irq_thread = ns(150);
    sc_core::sc_time pir_sync = ns(50);
    sc_core::sc_time event_inject = ns(100);
    sc_core::sc_time pi_processing = ns(150);
    sc_core::sc_time eoi_exit = ns(300);
    sc_core::sc_time hlt_exit = ns(300);
    sc_core::sc_time wakeup_handler = ns(150);
    sc_core::sc_time guest_irq_entry = ns(120);
    sc_core::sc_time guest_irq_exit = ns(80);
    sc_core::sc_time guest_eoi = ns(20);
    KvmExitTrace kvm_exit_trace = KvmExitTrace::AfterIrq;
    bool preempt_full = false;
    bool irq_posting = false;

    void describe(ParamVisitor& v);
};

// One vCPU (an element of a config's `vcpus`).
struct VcpuConfig {
    bool apicv = true;  // posted-interrupt processing and APIC-register virtualisation
    bool vid = true;    // virtual-interrupt delivery (needs apicv)
    GuestIdle guest_idle = GuestIdle::Run;

    void describe(ParamVisitor& v);
};

struct VmxCpuStats {
    std::array<uint64_t, size_t(ExitReason::Count)> exits{};
    // perf kvm stat's time per exit reason: kvm_exit to kvm_entry, in ns
    // (a HLT exit's includes the time blocked); min and max are 0 until
    // the first exit of the reason.
    std::array<uint64_t, size_t(ExitReason::Count)> exit_ns{};
    std::array<uint64_t, size_t(ExitReason::Count)> exit_min_ns{};
    std::array<uint64_t, size_t(ExitReason::Count)> exit_max_ns{};
    Histogram exit_handling_ns;    // EXTERNAL_INTERRUPT: kvm_exit -> kvm_entry
    Histogram hw_exit_to_entry_ns; // EXTERNAL_INTERRUPT: hardware exit -> entry
    uint64_t posted_in_guest = 0;  // 0xF2 processed in guest mode, no exit
    uint64_t pin = 0;              // 0xF2 taken by the host (root mode)
    uint64_t piw = 0;              // 0xF1 wake-up notifications
    uint64_t host_device_irqs = 0; // device interrupts taken by the host
    uint64_t host_tick_exits = 0;  // EXTERNAL_INTERRUPT exits for the host tick
    uint64_t guest_timer_exits = 0;  // ... for the guest timer's hrtimer
    uint64_t guest_interrupts = 0; // virtual interrupts delivered to the guest
    std::array<uint64_t, 256> guest_handler_calls{};
    uint64_t context_switches = 0;
    uint64_t injections = 0;       // MSIs injected by KVM (irqfd or bypass)
    sc_core::sc_time guest_time;
    sc_core::sc_time root_time;    // host CPU time: root mode and host threads
    sc_core::sc_time idle_time;

    void describe(StatVisitor& v) const;
};

// One step of the pCPU, for `cidsim explain` (kept only when asked).
struct VmStep {
    sc_core::sc_time at;
    std::string what;
};

// A change of one state track, for trace outputs: track "vcpu" (guest,
// root, preempted, blocked) or an IRQ thread's name (running, runnable,
// sleeping).
struct VmTrackChange {
    sc_core::sc_time at;
    std::string track;
    std::string state;
};

class VmxCpu : public sc_core::sc_module, private PreemptNotifier {
public:
    SC_HAS_PROCESS(VmxCpu);
    VmxCpu(sc_core::sc_module_name name, const VmxCpuParams& params, const VcpuConfig& vcpu,
           unsigned index, AgentId agent, LocalApic& apic, PostedDescriptor& pid);

    // A device queue assigned to this vCPU, remapped to the host: its host
    // vector on this pCPU and the guest vector KVM injects.
    void assign(Vector host_vector, Vector guest_vector, HostHandler handler,
                IrqHandler& guest_handler, uint32_t cookie);
    // A device queue posted straight into this vCPU's PID (VT-d posting).
    void assign_posted(Vector guest_vector, IrqHandler& guest_handler, uint32_t cookie);

    unsigned index() const { return m_index; }
    uint32_t apic_id() const { return m_apic.apic_id(); }
    const VmxCpuStats& stats() const { return m_stats; }
    // Time in guest mode / in root mode and host threads since the last
    // reset, the stretch in progress included (stats() has it only once
    // the mode changes; a window ends in the middle of one).
    sc_core::sc_time guest_time() const;
    sc_core::sc_time root_time() const;
    void reset_stats();
    const PostedDescriptor& pid() const { return m_gpid.pid(); }
    const HostScheduler& scheduler() const { return m_sched; }
    const VirtualApic& vapic() const { return m_vapic; }
    bool in_guest() const { return m_mode == Mode::Guest; }
    bool vcpu_loaded() const { return m_loaded; }
    // Records every step into `log` (nullptr stops); a narration, not a trace.
    void record_steps_into(std::vector<VmStep>* log) { m_log = log; }
    // Records what the pCPU runs from each change on ("guest", "root: vcpu",
    // "root: irq/36-vfio", "idle"), for trace tracks (nullptr stops).
    void record_states_into(std::vector<VmStep>* log) { m_states = log; }
    // Records the vCPU's state and each IRQ thread's from each change on
    // (nullptr stops). "preempted" is descheduled while runnable (KVM's
    // vcpu->preempted), "blocked" asleep in kvm_vcpu_block.
    void record_tracks_into(std::vector<VmTrackChange>* log);

private:
    enum class Mode : uint8_t { Guest, Root, Idle };
    struct Route {
        Vector guest_vector = 0;
        HostHandler handler = HostHandler::Hard;
        int irq_thread = -1;
        bool irq_pending = false;  // the IRQ thread has a run to make
        bool used = false;
    };
    struct GuestSlot {
        IrqHandler* handler = nullptr;
        uint32_t cookie = 0;
    };

    void run();  // the SC_THREAD: the vCPU thread's vcpu_run loop
    void spend(const sc_core::sc_time& t) {
        if (t > sc_core::SC_ZERO_TIME) wait(t);
    }
    void set_mode(Mode m);
    // Guest mode until an exit; returns its reason.
    ExitReason guest();
    void guest_interrupt();
    void posted_interrupt_processing();
    // The EXTERNAL_INTERRUPT exit, from the hardware exit to the entry.
    void external_interrupt_exit();
    void hlt_exit();
    void eoi_exit(ExitReason reason);
    // The host takes the LAPIC's deliverable vector (IRQs off throughout).
    void host_irq();
    // The local timer interrupts this pCPU takes besides the device's: the
    // host tick and the guest timer's hrtimer, each at its own period.
    enum class Timer : uint8_t { None, HostTick, GuestTimer };
    Timer due_timer() const;
    // The local timer interrupt of `t` inside an exit (before kvm_exit in 4.x).
    void timer_irq(Timer t);
    // A timer that came due outside guest mode stays due once, its missed
    // periods dropped.
    void skip_missed_timers();
    sc_core::sc_time next_timer() const { return std::min(m_next_host_tick, m_next_guest_timer); }
    void inject(Vector guest_vector);
    // schedule() called by the vCPU thread; returns once it runs again.
    void schedule_from_vcpu(bool preempted);
    bool posting_to_pid() const;
    void irq_thread_run(int thread);
    void idle_until_irq();
    // vcpu_enter_guest's last steps: PIR -> vIRR or event injection; then entry.
    void prepare_entry();
    // VM entry after an exit of `reason` (ExitReason::Count: the first entry),
    // which a local timer `timer` raised (Timer::None: not a timer's). The
    // exit is counted, timed and its histograms filled here, at kvm_entry:
    // an exit belongs to the measurement window in which it ends.
    void enter(const sc_core::sc_time& exit_trace, const sc_core::sc_time& hw_exit,
               ExitReason reason, Timer timer = Timer::None);
    // Messages and posts due now, before this CPU looks at its LAPIC or PID.
    void settle_inputs() {
        if (Participant* poster = m_gpid.pid().poster()) poster->catch_up();
        m_apic.catch_up();
    }
    // PreemptNotifier (the vCPU thread's): kvm_sched_out / kvm_sched_in.
    void sched_out(bool preempted) override;
    void sched_in() override;
    // A step for the log, printf-style; nothing without a log.
    void note(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
    const char* thread_name(int id) const;
    // wake_up_process, with the tracks noted.
    bool wake(int thread);
    // Appends the tracks whose state changed; nothing without a log.
    void note_tracks();

    VmxCpuParams m_params;
    VcpuConfig m_vcpu;
    unsigned m_index;
    AgentId m_agent;
    LocalApic& m_apic;
    GuestPid m_gpid;
    BlockedList m_blocked;
    VirtualApic m_vapic;
    HostScheduler m_sched;
    int m_vcpu_thread;
    std::array<Route, 256> m_routes{};          // by host vector
    std::array<GuestSlot, 256> m_guest_slots{}; // by guest vector
    std::vector<Vector> m_thread_vector;        // host vector of each IRQ thread (by id)
    Mode m_mode = Mode::Root;
    sc_core::sc_time m_mode_since;
    bool m_loaded = false;
    bool m_req_event = false;
    bool m_irq_from_idle = false;  // host_irq() called from the idle loop  // KVM_REQ_EVENT: inject at the next entry (no APICv)
    sc_core::sc_time m_notifier_cost;  // put/load of the switch being made
    sc_core::sc_time m_next_host_tick, m_next_guest_timer;  // never() when off
    VmxCpuStats m_stats;
    std::vector<VmStep>* m_log = nullptr;
    std::vector<VmStep>* m_states = nullptr;
    std::vector<VmTrackChange>* m_tracks = nullptr;
    std::vector<std::string> m_track_state;  // last noted, by thread id
};

}  // namespace cidsim
