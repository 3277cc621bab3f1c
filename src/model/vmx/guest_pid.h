#pragma once
// GuestPid: KVM's handling of one vCPU's posted-interrupt descriptor
// (struct pi_desc, arch/x86/kvm/vmx/posted_intr.c at 5.12) over a
// PostedDescriptor [VT-d 9.12] (systems.md section A).
//
// Modelled, as the state table of systems.md A:
//  - load (vmx_vcpu_pi_load, the vCPU scheduled in on its pCPU): nothing
//    when SN is clear and NDST is already this pCPU; else NDST = the pCPU,
//    SN cleared, then ON set if the PIR is not empty (a post made while SN
//    was set announced nothing; the load re-evaluates it);
//  - put (vmx_vcpu_pi_put): SN set when the vCPU is preempted (still
//    runnable), not when it blocks: a blocked vCPU must be woken;
//  - pre_block (pi_pre_block): NV = 0xF1 (POSTED_INTR_WAKEUP_VECTOR) and the
//    vCPU on its pCPU's blocked list; refused (the vCPU does not block)
//    when ON is already set;
//  - post_block (pi_post_block): NV = 0xF2 (POSTED_INTR_VECTOR), off the list;
//  - software posting (vmx_deliver_posted_interrupt): PIR bit, then ON;
//    whether ON was clear (a notification or kick is then due);
//  - the PIR moved into the virtual IRR (vmx_sync_pir_to_irr before entry,
//    or the CPU's own posted-interrupt processing [SDM 29.6]): ON cleared,
//    each non-empty PIR word swapped out.
// Every access is charged through the PID's SharedLine; the caller waits it.
// Not modelled: the cmpxchg64 retry loop (one writer at a time here: the
// IOMMU's RMW is atomic against it), the blocked list's spinlock cost
// beyond one locked RMW, 5.15+'s moved NV/SN switching.
#include <vector>

#include "model/x86/posted_descriptor.h"

namespace cidsim {

// arch/x86/include/asm/irq_vectors.h
constexpr Vector kPostedIntrVector = 0xF2;
constexpr Vector kPostedIntrWakeupVector = 0xF1;

class GuestPid;

// One pCPU's blocked_vcpu_on_cpu list (pi_wakeup_handler walks it).
struct BlockedList {
    std::vector<GuestPid*> vcpus;
};

class GuestPid {
public:
    GuestPid(PostedDescriptor& pid, AgentId cpu) : m_pid(pid), m_cpu(cpu) {}

    void load(uint32_t pcpu_apic_id, sc_core::sc_time& cost);
    void put(bool preempted, sc_core::sc_time& cost);
    // False (nothing changed) when ON is set: the vCPU must not block.
    bool pre_block(BlockedList& list, uint32_t pcpu_apic_id, sc_core::sc_time& cost);
    void post_block(BlockedList& list, sc_core::sc_time& cost);
    // Software posting; true when ON was clear (a notification is due).
    bool deliver(Vector vector, sc_core::sc_time& cost);
    // Moves the PIR into `virr` if ON is set; false when there was nothing.
    bool sync_to(VectorBits& virr, sc_core::sc_time& cost);

    PostedDescriptor& pid() { return m_pid; }
    const PostedDescriptor& pid() const { return m_pid; }
    bool blocked() const { return m_blocked; }

private:
    PostedDescriptor& m_pid;
    AgentId m_cpu;
    bool m_blocked = false;
};

}  // namespace cidsim
