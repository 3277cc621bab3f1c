#include "model/xen/xen_domain.h"

#include <algorithm>
#include <stdexcept>

#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

void XenDomainStats::describe(StatVisitor& v) const {
    v.count(in_block("deliveries"), deliveries, "count",
            "hvm_dirq_assist runs (each under event_lock)");
    v.count(in_block("eois"), eois, "count", "guest EOIs reaching hvm_dpci_msi_eoi");
    v.count(in_block("walks"), walks, "count", "pt_pirq_iterate walks of the domain's pirqs");
    v.count(in_block("walk_entries"), walk_entries, "count", "pirqs visited by the walks");
    v.count(in_block("pirq_misses"), pirq_misses, "count",
            "walk loads of a pirq line that missed (dirtied by a delivery elsewhere)");
    v.count(in_block("matches"), matches, "count",
            "callbacks that matched the EOId vector (__msi_pirq_eoi, irq_desc lock)");
    v.histogram(in_block("walk_length"), walk_length, "pirqs",
                "pirqs visited by each walk, counted when it ends");
}

XenDomain::XenDomain(const XenParams& params, const SharedLineParams& line,
                     std::vector<uint8_t> node_of_pcpu, uint64_t seed)
    : m_params(params), m_vcpus(unsigned(node_of_pcpu.size())),
      m_lock(params.variant == XenVariant::RwLock ? LockKind::Rw : LockKind::Ticket, line,
             node_of_pcpu, seed),
      m_pirq_line(params.pirqs, SharedLine(line, node_of_pcpu)),
      m_bitmap_line(line, node_of_pcpu), m_refcnt_line(line, node_of_pcpu), m_line(line), m_node(std::move(node_of_pcpu)) {
    m_desc_line.reserve(params.pirqs);
}

unsigned XenDomain::bind(unsigned vcpu, unsigned guest_vector) {
    if (m_binding.size() >= m_params.pirqs)
        throw std::logic_error("XenDomain::bind: every pirq is bound; check_xen_domain lets "
                               "no more queues than xen.pirqs through");
    m_binding.push_back({vcpu, guest_vector});
    m_desc_line.emplace_back(m_line, m_node);
    return unsigned(m_binding.size() - 1);
}

void XenDomain::spend(AgentId who, const sc_time& t) {
    const sc_time unit = sc_core::sc_get_time_resolution();
    const uint64_t at = (sim_now() + t).value();
    const uint64_t slot = who % kActSlots;
    const uint64_t act = at + (slot + kActSlots - at % kActSlots) % kActSlots;
    if (act > sim_now().value()) sc_core::wait(unit * double(act - sim_now().value()));
}

sc_time XenDomain::load(SharedLine& line, AgentId who, LineAccess kind) const {
    return line.access_serialised(who, kind, sim_now()) - sim_now();
}

void XenDomain::dpci_irq(AgentId pcpu, unsigned pirq) {
    // do_IRQ's spin_lock(&desc->lock), __do_IRQ_guest's pirq_info() (the
    // radix tree's root, d->pirq_tree), then hvm_do_IRQ_dpci's set_bit()s
    // and raise_softirq_for's get_knownalive_domain.
    spend(pcpu, load(m_desc_line[pirq], pcpu, LineAccess::LockedRmw));
    if (m_params.pirq_tree_on_lock_line)
        spend(pcpu, m_lock.read_line(pcpu, sim_now()) - sim_now());
    spend(pcpu, load(m_pirq_line[pirq], pcpu, LineAccess::LockedRmw));
    spend(pcpu, load(m_refcnt_line, pcpu, LineAccess::LockedRmw));
}

void XenDomain::lock_for_delivery(AgentId pcpu, unsigned pirq) {
    ++m_stats.deliveries;
    const sc_time asked = sim_now();
    m_lock.acquire(pcpu);  // write_lock with the rw kind
    if (m_uses) {
        XenLockUse& u = m_open[pcpu];
        u = {};
        u.pcpu = pcpu;
        u.vector = pirq < m_binding.size() ? m_binding[pirq].guest_vector : 0;
        u.asked = asked;
        u.owned = sim_now();
    }
    spend(pcpu, SC_ZERO_TIME);
    // test_and_clear_bool(masked), then vmsi_deliver's walk of the vCPUs.
    spend(pcpu, load(m_pirq_line[pirq], pcpu, LineAccess::LockedRmw) + m_params.deliver +
          m_params.dest_check * double(m_vcpus));
}

void XenDomain::unlock_after_delivery(AgentId pcpu) {
    m_lock.release(pcpu);
    if (m_uses) {
        m_open[pcpu].released = sim_now();
        record(m_open[pcpu]);
    }
    spend(pcpu, load(m_refcnt_line, pcpu, LineAccess::LockedRmw));  // dpci_softirq's put_domain
}

void XenDomain::record_lock_into(std::vector<XenLockUse>* uses, std::vector<LockHandoff>* handoffs) {
    m_uses = uses;
    m_open.assign(uses ? m_vcpus : 0, XenLockUse{});
    m_lock.record_handoffs_into(handoffs);
}

void XenDomain::msi_eoi(AgentId pcpu, unsigned guest_vector) {
    ++m_stats.eois;
    XenLockUse u;
    u.pcpu = pcpu;
    u.eoi = true;
    u.vector = guest_vector;
    u.asked = sim_now();
    if (m_params.variant == XenVariant::Bitmap) {
        // No maskable MSI's vector is in the bitmap: return before the lock.
        spend(pcpu, load(m_bitmap_line, pcpu, LineAccess::Load) + m_params.bitmap_check);
        u.locked = false;
        u.owned = u.released = sim_now();
        record(u);
        return;
    }
    m_lock.acquire_shared(pcpu);  // spin_lock, or read_lock with the rw kind
    u.owned = sim_now();
    spend(pcpu, SC_ZERO_TIME);
    if (m_params.walks()) {
        const Walked w = walk(pcpu, guest_vector);
        u.walked = w.entries;
        u.misses = w.misses;
    }
    m_lock.release_shared(pcpu);
    u.released = sim_now();
    record(u);
}

XenDomain::Walked XenDomain::walk(AgentId pcpu, unsigned guest_vector) {
    ++m_stats.walks;
    Walked out;
    const unsigned p = unsigned(m_params.pirqs);
    for (unsigned first = 0; first < p; first += 8) {
        const unsigned end = std::min(p, first + 8);
        sc_time slowest, work = m_params.radix_batch;
        bool rc = false;  // 2018: overwritten by every entry's callback
        bool matched = false;
        for (unsigned i = first; i < end; ++i) {
            ++m_stats.walk_entries;
            ++out.entries;
            const bool held = m_pirq_line[i].holds(pcpu);
            const sc_time t = load(m_pirq_line[i], pcpu, LineAccess::Load);
            if (!held) ++m_stats.pirq_misses, ++out.misses;
            slowest = std::max(slowest, t);
            work += m_params.walk_entry;
            if (!m_params.calls_back()) continue;  // the inlined callback does nothing
            work += m_params.indirect_call;
            rc = i < m_binding.size() && m_binding[i].vcpu == unsigned(pcpu) &&
                 m_binding[i].guest_vector == guest_vector;
            if (rc) {
                ++m_stats.matches;
                matched = true;
                work += m_params.msi_pirq_eoi;
                work += load(m_desc_line[i], pcpu, LineAccess::LockedRmw);
            }
        }
        spend(pcpu, slowest + work);
        if (rc || (matched && m_params.walk_stops_at_match)) break;
    }
    m_stats.walk_length.record(out.entries);
    return out;
}

uint64_t XenDomain::pirq_line_transfers() const {
    uint64_t n = 0;
    for (const SharedLine& l : m_pirq_line) n += l.stats().transfers;
    return n;
}

void XenDomain::reset_stats() {
    m_stats = {};
    m_lock.reset_stats();
    for (SharedLine& l : m_pirq_line) l.reset_stats();
}

}  // namespace cidsim
