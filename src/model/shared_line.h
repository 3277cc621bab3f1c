#pragma once
// SharedLine: the coherence cost of one hot 64-byte cache line shared by
// several agents (CPU cores, the IOMMU's remapping hardware, later
// descriptors and locks shared across NUMA nodes).
//
// Modelled: a MESI-like state per line: the set of agents holding a valid
// copy and whether one of them holds it modified/exclusive; the cost of an
// access given that state and the topology distance (in socket hops) between
// the requester and the agent that must supply or give up the line. Three
// access kinds: a plain load, a locked read-modify-write by a core (xchg,
// cmpxchg, lock btr/bts), and a device atomic RMW (the remapping hardware's
// post of a PID [5.2.3]) that invalidates every cached copy.
// Not modelled: the accessing core's pipeline, memory bandwidth, snoop
// filters and directory caches, false sharing with other data, timing of the
// coherence messages themselves (an access takes effect at its issue time and
// its latency is then paid by the requester).
// Serialised use (access_serialised, for lines every CPU fights over: locks,
// systems.md C): the line's home serves one request at a time, an ownership
// request or a snoop of a modified copy for its whole latency, a read of a
// clean copy for home_occupancy (pipelined), so requests queue behind each
// other and a hand-off waits for the transfers ahead of it (Boyd-Wickizer et al.,
// "Non-scalable locks are dangerous", Linux Symposium 2012, section 3);
// valid only when every access to the line is made at the kernel's time,
// in time order.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/param_visitor.h"
#include "model/stat_visitor.h"

namespace cidsim {

using AgentId = uint16_t;

struct SharedLineParams {
    sc_core::sc_time hit = ns(1);             // load or locked op on a line held exclusively
    sc_core::sc_time locked_op = ns(8);       // extra cost of a locked RMW (pipeline drain)
    sc_core::sc_time upgrade = ns(30);        // shared -> exclusive ownership request
    sc_core::sc_time miss = ns(80);           // fetch of a line no cache of the requester holds
    sc_core::sc_time snoop_modified = ns(30); // extra when the line is modified in another cache
    sc_core::sc_time hop = ns(60);            // extra per socket hop to the supplier
    sc_core::sc_time device_rmw = ns(40);     // device atomic RMW on an unowned line
    sc_core::sc_time invalidate_per_sharer = ns(0);  // extra per copy an ownership request invalidates
    sc_core::sc_time home_occupancy = ns(5);   // serialised use: the home's busy time per request

    void describe(ParamVisitor& v);
};

enum class LineAccess : int { Load, LockedRmw, DeviceRmw };

struct SharedLineStats {
    uint64_t loads = 0;
    uint64_t locked_rmws = 0;
    uint64_t device_rmws = 0;
    uint64_t misses = 0;         // requester had no valid copy
    uint64_t upgrades = 0;       // requester had a shared copy and needed ownership
    uint64_t invalidations = 0;  // copies in other agents invalidated by an access
    uint64_t transfers = 0;         // serialised use: accesses the line's home served
    uint64_t queued_transfers = 0;  // ... that waited for an earlier transfer

    void describe(StatVisitor& v) const;
};

class SharedLine {
public:
    // node_of_agent[a] is the socket of agent a; distance = |node difference|.
    SharedLine(const SharedLineParams& params, std::vector<uint8_t> node_of_agent);

    // Applies the access to the line state and returns its latency.
    sc_core::sc_time access(AgentId who, LineAccess kind) {
        // A load that hits (most of a CPU's PIR scan) changes only a counter.
        if (kind == LineAccess::Load && holds(who)) {
            ++m_stats.loads;
            return m_params.hit;
        }
        return access_slow(who, kind);
    }

    // The access as its line's home serves it: one transfer at a time, this
    // one after those already queued. Returns when it completes.
    sc_core::sc_time access_serialised(AgentId who, LineAccess kind, const sc_core::sc_time& now) {
        const bool local = kind == LineAccess::Load ? holds(who)
                         : kind == LineAccess::LockedRmw && m_holders == (uint64_t(1) << who);
        // A read of a clean line is pipelined in the home; one that must
        // snoop a modified copy, or take ownership, holds it to the end.
        const bool whole = kind != LineAccess::Load || (m_modified && m_holders);
        const sc_core::sc_time cost = access(who, kind);
        if (local) return now + cost;
        const sc_core::sc_time start = now > m_free_at ? now : m_free_at;
        m_free_at = start + (whole ? cost : m_params.home_occupancy);
        ++m_stats.transfers;
        if (start > now) ++m_stats.queued_transfers;
        return start + cost;
    }

    bool holds(AgentId who) const { return (m_holders >> who) & 1u; }
    bool holds_exclusive(AgentId who) const { return m_exclusive && holds(who); }
    const SharedLineStats& stats() const { return m_stats; }
    // Misses and upgrades of one agent (the "PID line misses" a CPU pays).
    uint64_t misses_of(AgentId who) const { return m_agent_misses[who]; }
    void reset_stats() {
        m_stats = {};
        std::fill(m_agent_misses.begin(), m_agent_misses.end(), 0);
    }

private:
    sc_core::sc_time access_slow(AgentId who, LineAccess kind);
    unsigned distance(AgentId a, AgentId b) const;
    // Adds the invalidation cost of `copies` to `cost`: on the PID line's
    // per-MSI path, where it is zero.
    void invalidate(uint64_t copies, sc_core::sc_time& cost) {
        const uint64_t n = uint64_t(__builtin_popcountll(copies));
        m_stats.invalidations += n;
        if (m_invalidate_ps) cost += sc_core::sc_time::from_value(m_invalidate_ps * n);
    }

    SharedLineParams m_params;
    std::vector<uint8_t> m_node;
    std::vector<uint64_t> m_agent_misses;
    uint64_t m_invalidate_ps;    // invalidate_per_sharer, in the time resolution's units
    sc_core::sc_time m_free_at;  // serialised use: when the home serves the next request
    uint64_t m_holders = 0;  // bit per agent with a valid copy (at most 64 agents)
    bool m_exclusive = false;  // the single holder owns it (E/M)
    bool m_modified = false;   // ... and has written it
    SharedLineStats m_stats;
};

}  // namespace cidsim
