#pragma once
// XenPcpu: one physical CPU under Xen running one vCPU of an HVM guest with
// a passed-through device's queue, and the guest's I/O thread on that vCPU
// (systems.md section C, table E "E1 Xen").
//
// Modelled, at the kernel's time:
//  - guest mode: the guest's interrupt handler (the assigned device's
//    driver: Device::handle) and the guest's threads' work (TaskRunner:
//    diskspd-like I/O threads, the NVMe workload's jobs), which interrupts
//    preempt; root mode for exits;
//  - delivery (section C "Delivery"): EXTERNAL_INTERRUPT exit, do_IRQ ->
//    hvm_do_IRQ_dpci (XenDomain), the host EOI, the softirq's
//    hvm_dirq_assist under event_lock setting the vIRR, vmx_intr_assist and
//    event injection at entry: without VID one vector per entry, the next
//    one after an interrupt-window exit;
//  - the guest's EOI per xen.eoi: avoided by viridian APIC assist (and
//    completed by vlapic_EOI_set at the next pending interrupt, unless the
//    variant is no_eoi_work), trapped (MSR-write or APIC-access exit,
//    vlapic_EOI_set at once), or virtualised (VID: no exit, and an edge
//    vector never reaches hvm_dpci_msi_eoi);
//  - intpost: the device posts into the vCPU's PID (NV 0xF2, NDST this
//    pCPU); the CPU's posted-interrupt processing in guest mode, no exit.
// Not modelled: other exits (timer, I/O emulation), Xen's scheduler (the
// vCPU never blocks or migrates: one vCPU per pCPU, always runnable), the
// guest's own scheduler beyond running its I/O thread after interrupts,
// interrupts arriving in root mode before the entry (taken in guest mode
// after it).
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "model/x86/cpu_core.h"
#include "model/vmx/guest_pid.h"
#include "model/x86/local_apic.h"
#include "model/base/stat_visitor.h"
#include "model/base/stats.h"
#include "model/base/task_runner.h"
#include "model/vmx/virtual_apic.h"
#include "model/xen/xen_domain.h"
#include "model/xen/xen_params.h"

namespace cidsim {

enum class XenExit : int { ExternalInterrupt, InterruptWindow, MsrWrite, ApicAccess, Count };
const char* to_string(XenExit r);

struct XenPcpuStats {
    std::array<uint64_t, size_t(XenExit::Count)> exits{};
    uint64_t host_irqs = 0;          // device interrupts taken by Xen
    uint64_t guest_interrupts = 0;   // virtual interrupts delivered to the guest
    uint64_t avoided_eois = 0;       // EOIs APIC assist let the guest skip
    uint64_t posted_in_guest = 0;    // intpost: 0xF2 processed in guest mode
    Histogram exit_handling_ns;      // EXTERNAL_INTERRUPT: hardware exit -> entry done
    sc_core::sc_time guest_time;
    sc_core::sc_time root_time;      // Xen's CPU time on this pCPU
    sc_core::sc_time idle_time;      // the guest with nothing to run

    void describe(StatVisitor& v) const;
};

class XenPcpu : public sc_core::sc_module, public TaskRunner {
public:
    SC_HAS_PROCESS(XenPcpu);
    // vcpu: its index, and its pCPU's agent on the domain's lines;
    // pid_agent: the pCPU's agent on the PID line (the remapping unit's
    // line of agents).
    XenPcpu(sc_core::sc_module_name name, const XenParams& params, unsigned vcpu,
            AgentId pid_agent, LocalApic& apic, PostedDescriptor& pid, XenDomain& domain);

    // A device queue remapped to this pCPU's `host_vector`, bound to `pirq`
    // and injected as `guest_vector`.
    void assign(Vector host_vector, unsigned pirq, Vector guest_vector, IrqHandler& guest_handler,
                uint32_t cookie);
    // intpost: a device queue posted straight into this vCPU's PID.
    void assign_posted(Vector guest_vector, IrqHandler& guest_handler, uint32_t cookie);

    // TaskRunner: the guest's threads on this vCPU.
    void queue_task(const Work& w) override;
    unsigned index() const override { return m_apic.apic_id(); }

    const XenPcpuStats& stats() const { return m_stats; }
    void reset_stats();
    // A window ends now: the mode under way counts its time so far in this
    // window, the rest in the next (the fractions do not depend on where
    // the windows fall).
    void close_window();
    // Records what the pCPU runs from each change on ("guest", "xen",
    // "guest idle"), for trace tracks (nullptr stops). Its spins on and
    // holds of event_lock are in the domain's log (XenDomain::record_lock_into):
    // the moment the lock is granted is known only to the lock.
    void record_states_into(std::vector<std::pair<sc_core::sc_time, std::string>>* log) {
        m_states = log;
    }
    // Records each step of the path (exit, do_IRQ, softirq, entry, the
    // guest's handler and EOI), for `cidsim explain` (nullptr stops); the
    // lock's waits and holds are the domain's log (XenDomain::record_lock_into).
    void record_steps_into(std::vector<std::pair<sc_core::sc_time, std::string>>* log) {
        m_steps = log;
    }

private:
    enum class Mode : uint8_t { Guest, Root, Idle };
    struct Route {
        unsigned pirq = 0;
        Vector guest_vector = 0;
        bool used = false;
    };
    struct GuestSlot {
        IrqHandler* handler = nullptr;
        uint32_t cookie = 0;
    };

    void run();  // the SC_THREAD: the vCPU in guest mode, and its exits
    void spend(const sc_core::sc_time& t) { XenDomain::spend(m_agent, t); }
    void set_mode(Mode m);
    // The current mode's time since m_mode_since, counted up to now.
    void count_mode_time();
    void settle_inputs() {
        if (Participant* poster = m_gpid.pid().poster()) poster->catch_up();
        m_apic.catch_up();
    }
    // The guest's thread work, interrupted by any interrupt for this pCPU.
    void run_guest_task();
    void external_interrupt_exit();
    void host_irq();
    // The guest's handler for `v` (injected, or delivered by VID).
    void guest_interrupt(Vector v);
    void interrupt_window_exit();
    bool virtual_delivery() const {
        return posting() || m_params.eoi == XenEoi::Virtualised;
    }
    void eoi_exit(XenExit reason, Vector guest_vector);
    void posted_interrupt_processing();
    // vmx_intr_assist: the avoided EOI completed, PIR synced, injection.
    void intr_assist();
    // VM entry; `ending`: the exit it ends (Count: none), counted when done.
    void enter(XenExit ending = XenExit::Count);
    bool posting() const { return m_params.variant == XenVariant::Intpost; }
    // A narration step, formatted only when steps are recorded.
    void note(const char* fmt, ...) __attribute__((format(printf, 2, 3)));

    XenParams m_params;
    AgentId m_agent;
    LocalApic& m_apic;
    GuestPid m_gpid;
    XenDomain& m_domain;
    VirtualApic m_vapic;
    std::array<Route, 256> m_routes{};           // by host vector
    std::array<GuestSlot, 256> m_guest_slots{};  // by guest vector
    std::deque<Work> m_tasks;
    sc_core::sc_time m_task_left;  // of the front task
    sc_core::sc_event m_task_queued;
    int m_injected = -1;      // the vector the last entry injected, not yet taken
    bool m_assist_flagged = false;  // ... into an empty ISR: its EOI write is skipped
    int m_assisted_eoi = -1;  // APIC assist: the vector whose EOI was avoided
    Mode m_mode = Mode::Root;
    sc_core::sc_time m_mode_since;
    XenPcpuStats m_stats;
    std::vector<std::pair<sc_core::sc_time, std::string>>* m_states = nullptr;
    std::vector<std::pair<sc_core::sc_time, std::string>>* m_steps = nullptr;
};

}  // namespace cidsim
