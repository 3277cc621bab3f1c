#pragma once
// XenDomain: the state one HVM domain's vCPUs share on the pass-through
// interrupt path, and the Xen code that touches it (systems.md section C,
// "Delivery", "EOI path", "Lines", "Fixes"):
//  - d->event_lock, a SpinLock (ticket, or rw for Xen 4.17), taken by
//    hvm_dirq_assist on every delivery and by hvm_dpci_msi_eoi on every EOI
//    that reaches it;
//  - the domain's P pirqs, each `struct pirq` with its hvm_pirq_dpci on a
//    line of its own: delivery writes `state`/`masked` on the receiving
//    pCPU, the EOI walk reads `flags` (and the callback `gmsi`, same line)
//    from every pCPU;
//  - the host irq_desc line of each bound pirq (do_IRQ's and
//    __msi_pirq_eoi's desc lock);
//  - the bitmap fix's per-domain 256-bit vector bitmap (one read-mostly line);
//  - d->pirq_tree, on event_lock's line (xen.pirq_tree_on_lock_line): every
//    host interrupt's pirq_info() lookup loads it;
//  - d->refcnt, which every delivery increments (raise_softirq_for's
//    get_knownalive_domain) and decrements (dpci_softirq's put_domain) with
//    a locked RMW from its pCPU (xen/drivers/passthrough/io.c).
// The walk: pt_pirq_iterate looks up 8 pirqs at a time and calls back on
// each; the loads of one batch overlap (only the slowest is waited for),
// the batches do not.
// Not modelled: the radix tree's own lines (read-mostly, cached), the
// vlapic pages of other vCPUs beyond a per-vCPU check cost, level-triggered
// and non-MSI pirqs, the domain's other users of event_lock (the guest's
// timer and IPI EOIs, which also walk every pirq), the rest of struct
// domain on event_lock's line (read rarely on this path), HLT and the
// block/wake of idle vCPUs.
// Called from the pCPUs' SC_THREADs at the kernel's time; the costs are
// waited for here.
#include <cstdint>
#include <vector>

#include "model/coherence/shared_line.h"
#include "model/coherence/spin_lock.h"
#include "model/base/stats.h"
#include "model/xen/xen_params.h"

namespace cidsim {

struct XenDomainStats {
    uint64_t deliveries = 0;    // hvm_dirq_assist runs
    uint64_t eois = 0;          // hvm_dpci_msi_eoi calls
    uint64_t walks = 0;         // pt_pirq_iterate runs
    uint64_t walk_entries = 0;  // pirqs visited
    uint64_t pirq_misses = 0;   // walk loads that missed (the line dirty or absent)
    uint64_t matches = 0;       // callbacks that matched (__msi_pirq_eoi)
    Histogram walk_length;      // pirqs visited, per finished walk

    void describe(StatVisitor& v) const;
};

// One use of event_lock by a pCPU, or an EOI the bitmap fix let past it,
// for `cidsim explain` (kept only when asked).
struct XenLockUse {
    AgentId pcpu = 0;
    bool eoi = false;     // hvm_dpci_msi_eoi; else hvm_dirq_assist's delivery
    bool locked = true;   // false: the bitmap's bit was clear, no lock taken
    unsigned vector = 0;  // the guest vector delivered or EOId
    sc_core::sc_time asked, owned, released;
    unsigned walked = 0;  // pirqs the EOI walk visited
    unsigned misses = 0;  // ... whose line was not in this pCPU's cache
};

class XenDomain {
public:
    // vcpus: the domain's vCPUs, vCPU i on pCPU (agent) i of socket
    // node_of_pcpu[i]; line: the platform's cache-line costs.
    XenDomain(const XenParams& params, const SharedLineParams& line,
              std::vector<uint8_t> node_of_pcpu, uint64_t seed);

    // Binds the next free pirq to (vcpu, guest vector) and returns it. The
    // config checks refuse more queues than `pirqs` (check_xen_domain), so
    // running out is a programming error (std::logic_error).
    unsigned bind(unsigned vcpu, unsigned guest_vector);
    unsigned bound() const { return unsigned(m_binding.size()); }

    // hvm_do_IRQ_dpci on the receiving pCPU (in do_IRQ): desc lock, then
    // `masked` and STATE_SCHED set on the pirq.
    void dpci_irq(AgentId pcpu, unsigned pirq);
    // hvm_dirq_assist under event_lock: vmsi_deliver to the bound vCPU.
    void lock_for_delivery(AgentId pcpu, unsigned pirq);
    void unlock_after_delivery(AgentId pcpu);
    // hvm_dpci_msi_eoi for `guest_vector` EOId on vCPU `pcpu`, per variant.
    void msi_eoi(AgentId pcpu, unsigned guest_vector);

    const XenDomainStats& stats() const { return m_stats; }
    const SpinLock& event_lock() const { return m_lock; }
    uint64_t pirq_line_transfers() const;
    void reset_stats();
    // A window ends now: event_lock's holds under way count their part so far.
    void close_window() { m_lock.close_window(); }
    // Appends every use of event_lock from now on, with its hand-offs
    // (nullptr stops): nothing is kept, and nothing costs, unless asked.
    void record_lock_into(std::vector<XenLockUse>* uses, std::vector<LockHandoff>* handoffs);

    // Two pCPUs never act at one picosecond: pCPU `who` touches the domain's
    // lines, its lock and its devices only at times whose count of the
    // kernel's time unit is who modulo kActSlots. Otherwise which of two
    // pCPU threads due at one time runs first (SystemC's timed-event queue
    // decides it, and orders equal times differently in a stepwise and a
    // run-ahead run) would decide which is served first. It costs each wait
    // under kActSlots time units (picoseconds).
    static constexpr unsigned kActSlots = 64;
    static_assert(kActSlots > XenParams::kMaxXenVcpus, "two pCPUs would share act times");
    // Waits `t`, then on to `who`'s next act time.
    static void spend(AgentId who, const sc_core::sc_time& t);

private:
    struct Binding {
        unsigned vcpu;
        unsigned guest_vector;
    };
    sc_core::sc_time load(SharedLine& line, AgentId who, LineAccess kind) const;
    struct Walked {
        unsigned entries = 0, misses = 0;
    };
    Walked walk(AgentId pcpu, unsigned guest_vector);
    void record(const XenLockUse& u) {
        if (m_uses) m_uses->push_back(u);
    }

    XenParams m_params;
    unsigned m_vcpus;
    SpinLock m_lock;
    std::vector<SharedLine> m_pirq_line;  // per pirq
    std::vector<SharedLine> m_desc_line;  // per bound pirq: its host irq_desc
    SharedLine m_bitmap_line;
    SharedLine m_refcnt_line;  // d->refcnt
    SharedLineParams m_line;       // for the desc lines bound later
    std::vector<uint8_t> m_node;
    std::vector<Binding> m_binding;       // per bound pirq, the first ones
    XenDomainStats m_stats;
    std::vector<XenLockUse>* m_uses = nullptr;
    std::vector<XenLockUse> m_open;  // per pCPU: its delivery's use, until the unlock
};

}  // namespace cidsim
