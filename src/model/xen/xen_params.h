#pragma once
// The Xen HVM path's parameters (a config's `xen` section; systems.md
// section C): which variant of the EOI path runs, how the guest's EOIs
// reach Xen, the domain's pirqs, and the costs of Xen's code on the path.
// Every cost names its source in describe() (xen_params.cpp).
#include <cstdint>

#include "model/base/param_visitor.h"

namespace cidsim {

// The variants of systems.md C's breakdown and its fixes.
enum class XenVariant : int {
    NoEoiWork,       // the avoided EOI only clears the ISR bit (before 66bf4ef048)
    LockOnly,        // hvm_dpci_msi_eoi takes and drops event_lock, no walk
    LockInlineWalk,  // lock + the walk with an inlined callback that does nothing
    Full,            // the 2018 code: retpolined callback, __msi_pirq_eoi on a match
    Bitmap,          // Full behind the per-domain bitmap of unmaskable-MSI vectors
    RwLock,          // Full with Xen 4.17's rwlock (read on EOI, write on delivery)
    Intpost,         // iommu=intpost with VID: posted to the vCPU, no host IRQ, no EOI exit
};
extern const char* const kXenVariantNames[7];

// How a guest EOI reaches Xen (the table "Which guest EOIs reach
// hvm_dpci_msi_eoi()" of systems.md C).
enum class XenEoi : int { ApicAssist, TrapMsr, TrapMmio, Virtualised };
extern const char* const kXenEoiNames[4];

struct XenParams {
    XenVariant variant = XenVariant::Full;
    XenEoi eoi = XenEoi::ApicAssist;
    uint64_t vcpus = 32;             // the domain's vCPUs, one per pCPU
    static constexpr uint64_t kMaxXenVcpus = 62;
    uint64_t pirqs = 64;             // P: pirqs mapped in the domain
    uint64_t sockets = 2;            // the vCPUs' pCPUs are split evenly across them
    bool walk_stops_at_match = false;  // 9480a1a519 (XSA-395): a match ends the walk
    bool pirq_tree_on_lock_line = true;  // do_IRQ's pirq_info() reads event_lock's line

    sc_core::sc_time vmexit_hw = ns(120);
    sc_core::sc_time vmentry_hw = ns(100);
    sc_core::sc_time exit_dispatch = ns(150);
    sc_core::sc_time do_irq = ns(250);
    sc_core::sc_time host_eoi = ns(40);
    sc_core::sc_time softirq = ns(150);
    sc_core::sc_time deliver = ns(100);
    sc_core::sc_time dest_check = ns(4);
    sc_core::sc_time intr_assist = ns(200);
    sc_core::sc_time eoi_trap = ns(500);
    sc_core::sc_time vlapic_eoi = ns(60);
    sc_core::sc_time radix_batch = ns(40);
    sc_core::sc_time walk_entry = ns(10);
    sc_core::sc_time indirect_call = ns(12);
    sc_core::sc_time msi_pirq_eoi = ns(60);
    sc_core::sc_time bitmap_check = ns(5);
    sc_core::sc_time guest_irq_entry = ns(150);
    sc_core::sc_time guest_irq_exit = ns(100);
    sc_core::sc_time guest_eoi = ns(20);
    sc_core::sc_time pi_processing = ns(150);

    bool walks() const {
        return variant == XenVariant::LockInlineWalk || variant == XenVariant::Full ||
               variant == XenVariant::RwLock;
    }
    bool calls_back() const { return variant == XenVariant::Full || variant == XenVariant::RwLock; }
    void describe(ParamVisitor& v);
};

}  // namespace cidsim
