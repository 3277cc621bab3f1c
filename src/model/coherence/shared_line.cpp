#include "model/coherence/shared_line.h"

#include <cstdio>
#include <cstdlib>

namespace cidsim {

void SharedLine::served_in_the_past(const sc_core::sc_time& now) {
    std::fprintf(stderr,
                 "cidsim: a serialised line served from %s, before the kernel's time %s: its "
                 "caller runs ahead of the kernel, and the line's home would serve it out of "
                 "order\n",
                 now.to_string().c_str(), sim_now().to_string().c_str());
    std::abort();
}

void SharedLineParams::describe(ParamVisitor& v) {
    v.time("hit_ns", hit, 0, 1e6, "load or locked op on a line already held exclusively");
    v.time("locked_op_ns", locked_op, 0, 1e6, "extra cost of a locked read-modify-write");
    v.time("upgrade_ns", upgrade, 0, 1e6,
           "shared -> exclusive ownership upgrade. Not used by the PID line: only its CPU and "
           "the remapping unit touch it, and the unit's RMW leaves no copy, so the CPU never "
           "holds a copy another cache shares (nor by the irq_desc lines the pid_line section "
           "also prices: no CPU loads them)");
    v.time("miss_ns", miss, 0, 1e6, "fetch of a line the requester does not hold");
    v.time("snoop_modified_ns", snoop_modified, 0, 1e6,
           "extra when another agent holds the line modified");
    v.time("hop_ns", hop, 0, 1e6, "extra per node (socket or chip) hop between requester and supplier");
    v.time("same_core_ns", same_core, 0, 1e6,
           "a fetch an SMT sibling of the requester supplies (the core's shared L1/L2), in place "
           "of miss_ns; only topologies with threads_per_core > 1 have siblings. Not used by the "
           "PID line (no sibling holds it); in the pid_line section it prices an irq_desc's "
           "lines, fetched from the sibling a vector moved from. Source: guess, an L2 hit; "
           "range 1-10 ns");
    v.time("device_rmw_ns", device_rmw, 0, 1e6, "device atomic RMW of a line no core owns");
    v.time("invalidate_per_sharer_ns", invalidate_per_sharer, 0, 1e5,
           "extra per cached copy an ownership request (or device RMW) invalidates: the home "
           "sends an invalidation to each sharer and collects every acknowledgement. Source: "
           "guess, 0 where at most two agents share the line (the PID line: the remapping "
           "unit's RMW invalidates the CPU's one copy within device_rmw_ns), a few ns per "
           "sharer on a 2-socket directory; range 0-20 ns");
    v.time("home_occupancy_ns", home_occupancy, 0, 1e5,
           "lines every CPU fights over (locks): how long the line's home (its caching agent) "
           "is busy per read of a clean copy it serves (pipelined; an ownership request or a "
           "snoop of a modified copy keeps it busy for its whole latency); requests to the "
           "line queue for it (per-address serialisation). Not used by the PID line. Source: "
           "guess, a few uncore cycles per request; range 2-20 ns");
}

SharedLine::SharedLine(const SharedLineParams& params, std::shared_ptr<const LineTopology> topology)
    : m_params(params), m_topology(std::move(topology)), m_agent_misses(m_topology->agents(), 0),
      m_invalidate_ps(params.invalidate_per_sharer.value()),
      m_holders((m_topology->agents() + 63) / 64 + (m_topology->agents() == 0), 0) {}

AgentId SharedLine::supplier_for(AgentId who) const {
    if (m_count == 1) return m_owner;
    // Shared by several: the topology's rule picks the copy that answers.
    const LineTopology& topo = *m_topology;
    const bool nearest = topo.supplier_rule() == SupplierRule::Nearest;
    AgentId best = who;
    unsigned best_rank = ~0u;
    for (size_t w = 0; w < m_holders.size(); ++w) {
        for (uint64_t bits = m_holders[w]; bits; bits &= bits - 1) {
            const AgentId a = AgentId(w * 64 + unsigned(__builtin_ctzll(bits)));
            if (a == who) continue;
            if (!nearest) return a;
            const LineDistance d = topo.distance(who, a);
            const unsigned rank = d == LineDistance::OtherNode ? 1 + topo.hops(who, a) : unsigned(d);
            if (rank == 0) return a;
            if (rank < best_rank) best_rank = rank, best = a;
        }
    }
    return best;
}

sc_core::sc_time SharedLine::transfer(AgentId who, AgentId supplier) {
    switch (m_topology->distance(who, supplier)) {
    case LineDistance::SameCore: return m_params.same_core;
    case LineDistance::SameNode: return m_params.miss + (m_modified ? m_params.snoop_modified : sc_core::SC_ZERO_TIME);
    case LineDistance::OtherNode: break;
    }
    return m_params.miss + (m_modified ? m_params.snoop_modified : sc_core::SC_ZERO_TIME) +
           hops_to(who, supplier);
}

void SharedLine::invalidate_all_but(AgentId keep, sc_core::sc_time& cost) {
    const bool kept = keep < m_topology->agents() && holds(keep);
    const unsigned dropped = m_count - unsigned(kept);
    m_stats.invalidations += dropped;
    if (m_invalidate_ps) cost += sc_core::sc_time::from_value(m_invalidate_ps * dropped);
    if (m_count == 1) {
        if (!kept) m_holders[m_owner >> 6] = 0;
    } else {
        std::fill(m_holders.begin(), m_holders.end(), 0);
        if (kept) m_holders[keep >> 6] = uint64_t(1) << (keep & 63);
    }
    m_count = unsigned(kept);
    if (kept) m_owner = keep;
}

sc_core::sc_time SharedLine::access_slow(AgentId who, LineAccess kind) {
    const bool mine = holds(who);
    const bool others = m_count > unsigned(mine);
    sc_core::sc_time cost;

    if (kind == LineAccess::DeviceRmw) {
        // The remapping hardware reads the line for ownership, updates it and
        // makes it globally observable: every cached copy is invalidated and
        // the line ends up in memory/LLC, owned by nobody [5.2.3].
        ++m_stats.device_rmws;
        cost = m_params.device_rmw;
        if (m_count) {
            if (m_modified) cost += m_params.snoop_modified;
            cost += hops_to(who, supplier_for(who));
            invalidate_all_but(AgentId(~0), cost);
        }
        m_exclusive = m_modified = false;
        return cost;
    }

    if (kind == LineAccess::Load) {
        ++m_stats.loads;
        if (mine) return m_params.hit;
        ++m_stats.misses;
        ++m_agent_misses[who];
        if (others) {
            cost = transfer(who, supplier_for(who));
            m_exclusive = m_modified = false;  // the line becomes shared
        } else {
            cost = m_params.miss;
            m_exclusive = true;  // sole copy: E state
            m_modified = false;
            m_owner = who;
        }
        add_holder(who);
        return cost;
    }

    // Locked RMW or store by a core: needs the line exclusive, ends modified.
    if (kind == LineAccess::LockedRmw) {
        ++m_stats.locked_rmws;
        cost = m_params.locked_op;
    } else {
        ++m_stats.stores;
    }
    if (mine && !others) {
        cost += m_params.hit;
    } else if (mine) {
        ++m_stats.upgrades;
        ++m_agent_misses[who];
        cost += m_params.upgrade + hops_to(who, supplier_for(who));
        invalidate_all_but(who, cost);
    } else {
        ++m_stats.misses;
        ++m_agent_misses[who];
        if (others) {
            cost += transfer(who, supplier_for(who));
            invalidate_all_but(AgentId(~0), cost);
        } else {
            cost += m_params.miss;
        }
        add_holder(who);
        m_owner = who;
    }
    m_exclusive = m_modified = true;
    return cost;
}

void SharedLineStats::describe(StatVisitor& v) const {
    v.count(unreported("loads"), loads, "count", "loads of the line by a CPU, hits included");
    v.count(unreported("locked_rmws"), locked_rmws, "count", "locked RMWs of the line by a CPU");
    v.count(unreported("device_rmws"), device_rmws, "count",
            "atomic RMWs of the line by the remapping unit (posts)");
    v.count(unreported("stores"), stores, "count", "plain stores to the line by a CPU (ownership, no lock)");
    v.count(unreported("misses"), misses, "count",
            "CPU accesses that found no valid copy in the requester's cache");
    v.count(unreported("upgrades"), upgrades, "count",
            "locked RMWs by a CPU holding a shared copy (ownership request)");
    v.count(unreported("invalidations"), invalidations, "count",
            "copies in other caches invalidated by an access");
    v.count(unreported("remote_supplies"), remote_supplies, "count",
            "misses and upgrades whose supplier sat on another node (socket or chip)");
    v.count(unreported("transfers"), transfers, "count",
            "serialised use (locks): accesses the line's home served, one at a time");
    v.count(unreported("queued_transfers"), queued_transfers, "count",
            "serialised use: transfers that waited for an earlier one");
}

}  // namespace cidsim
