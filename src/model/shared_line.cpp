#include "model/shared_line.h"

#include <cstdlib>
#include <stdexcept>

namespace cidsim {

void SharedLineParams::describe(ParamVisitor& v) {
    v.time("hit_ns", hit, 0, 1e6, "load or locked op on a line already held exclusively");
    v.time("locked_op_ns", locked_op, 0, 1e6, "extra cost of a locked read-modify-write");
    v.time("upgrade_ns", upgrade, 0, 1e6, "shared -> exclusive ownership upgrade");
    v.time("miss_ns", miss, 0, 1e6, "fetch of a line the requester does not hold");
    v.time("snoop_modified_ns", snoop_modified, 0, 1e6,
           "extra when another agent holds the line modified");
    v.time("hop_ns", hop, 0, 1e6, "extra per socket hop between requester and supplier");
    v.time("device_rmw_ns", device_rmw, 0, 1e6, "device atomic RMW of a line no core owns");
    v.time("invalidate_per_sharer_ns", invalidate_per_sharer, 0, 1e5,
           "extra per cached copy an ownership request (or device RMW) invalidates: the home "
           "sends an invalidation to each sharer and collects every acknowledgement. Source: "
           "guess, 0 where at most two agents share the line (the PID line: upgrade_ns holds "
           "the one invalidation), a few ns per sharer on a 2-socket directory; range 0-20 ns");
    v.time("home_occupancy_ns", home_occupancy, 0, 1e5,
           "lines every CPU fights over (locks): how long the line's home (its caching agent) "
           "is busy per read of a clean copy it serves (pipelined; an ownership request or a "
           "snoop of a modified copy keeps it busy for its whole latency); requests to the "
           "line queue for it (per-address serialisation). Not used by the PID line. Source: "
           "guess, a few uncore cycles per request; range 2-20 ns");
}

SharedLine::SharedLine(const SharedLineParams& params, std::vector<uint8_t> node_of_agent)
    : m_params(params), m_node(std::move(node_of_agent)), m_agent_misses(m_node.size(), 0),
      m_invalidate_ps(params.invalidate_per_sharer.value()) {
    if (m_node.size() > 64) throw std::invalid_argument("SharedLine supports at most 64 agents");
}

unsigned SharedLine::distance(AgentId a, AgentId b) const {
    return unsigned(std::abs(int(m_node[a]) - int(m_node[b])));
}

sc_core::sc_time SharedLine::access_slow(AgentId who, LineAccess kind) {
    const uint64_t me = uint64_t(1) << who;
    const bool mine = m_holders & me;
    const uint64_t others = m_holders & ~me;
    sc_core::sc_time cost;

    if (kind == LineAccess::DeviceRmw) {
        // The remapping hardware reads the line for ownership, updates it and
        // makes it globally observable: every cached copy is invalidated and
        // the line ends up in memory/LLC, owned by nobody [5.2.3].
        ++m_stats.device_rmws;
        cost = m_params.device_rmw;
        if (m_holders) {
            AgentId supplier = AgentId(__builtin_ctzll(m_holders));
            if (m_modified) cost += m_params.snoop_modified;
            cost += m_params.hop * distance(who, supplier);
            invalidate(m_holders, cost);
        }
        m_holders = 0;
        m_exclusive = m_modified = false;
        return cost;
    }

    const AgentId supplier = others ? AgentId(__builtin_ctzll(others)) : who;
    if (kind == LineAccess::Load) {
        ++m_stats.loads;
        if (mine) return m_params.hit;
        ++m_stats.misses;
        ++m_agent_misses[who];
        cost = m_params.miss;
        if (others) {
            if (m_modified) cost += m_params.snoop_modified;
            cost += m_params.hop * distance(who, supplier);
            m_exclusive = m_modified = false;  // the line becomes shared
        } else {
            m_exclusive = true;  // sole copy: E state
            m_modified = false;
        }
        m_holders |= me;
        return cost;
    }

    // Locked RMW by a core: needs the line exclusive, ends modified.
    ++m_stats.locked_rmws;
    cost = m_params.locked_op;
    if (mine && !others) {
        cost += m_params.hit;
    } else if (mine) {
        ++m_stats.upgrades;
        ++m_agent_misses[who];
        cost += m_params.upgrade + m_params.hop * distance(who, supplier);
        invalidate(others, cost);
    } else {
        ++m_stats.misses;
        ++m_agent_misses[who];
        cost += m_params.miss;
        if (others) {
            if (m_modified) cost += m_params.snoop_modified;
            cost += m_params.hop * distance(who, supplier);
            invalidate(others, cost);
        }
    }
    m_holders = me;
    m_exclusive = m_modified = true;
    return cost;
}

}  // namespace cidsim
