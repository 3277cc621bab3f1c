#pragma once
// SharedLine: the coherence cost of one hot cache line (64 or 128 bytes, the
// size only decides which fields share it) shared by any number of agents
// (CPU threads, the IOMMU's remapping hardware, descriptors and locks shared
// across NUMA nodes and chips).
//
// Modelled: a MESI-like state per line: the set of agents holding a valid
// copy and whether one of them holds it modified/exclusive; the cost of an
// access given that state and the distance (LineTopology: same core, same
// node, or so many node hops) between the requester and the nearest agent
// that can supply the line; an ownership request pays per copy it
// invalidates (systems.md D: why a fixed transfer cost gives a flat
// plateau where the ipistorm tables fall). Three
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
#include <memory>
#include <vector>

#include "kernel/sim_clock.h"
#include "model/coherence/line_topology.h"
#include "model/base/param_visitor.h"
#include "model/base/stat_visitor.h"

namespace cidsim {

struct SharedLineParams {
    sc_core::sc_time hit = ns(1);             // load or locked op on a line held exclusively
    sc_core::sc_time locked_op = ns(8);       // extra cost of a locked RMW (pipeline drain)
    sc_core::sc_time upgrade = ns(30);        // shared -> exclusive ownership request
    sc_core::sc_time miss = ns(80);           // fetch of a line no cache of the requester holds
    sc_core::sc_time snoop_modified = ns(30); // extra when the line is modified in another cache
    sc_core::sc_time hop = ns(60);            // extra per node hop to the supplier
    sc_core::sc_time same_core = ns(3);       // a fetch an SMT sibling supplies (instead of miss)
    sc_core::sc_time device_rmw = ns(40);     // device atomic RMW on an unowned line
    sc_core::sc_time invalidate_per_sharer = ns(0);  // extra per copy an ownership request invalidates
    sc_core::sc_time home_occupancy = ns(5);   // serialised use: the home's busy time per request

    void describe(ParamVisitor& v);
};

// Store: a plain store (irq_count++), which needs ownership like a locked
// RMW but has no locked op's cost.
enum class LineAccess : int { Load, LockedRmw, DeviceRmw, Store };

struct SharedLineStats {
    uint64_t loads = 0;
    uint64_t locked_rmws = 0;
    uint64_t device_rmws = 0;
    uint64_t stores = 0;
    uint64_t misses = 0;         // requester had no valid copy
    uint64_t upgrades = 0;       // requester had a shared copy and needed ownership
    uint64_t invalidations = 0;  // copies in other agents invalidated by an access
    uint64_t remote_supplies = 0;  // fetches or upgrades served from another node
    uint64_t transfers = 0;         // serialised use: accesses the line's home served
    uint64_t queued_transfers = 0;  // ... that waited for an earlier transfer

    void describe(StatVisitor& v) const;
};

class SharedLine {
public:
    SharedLine(const SharedLineParams& params, std::shared_ptr<const LineTopology> topology);
    // node_of_agent[a] is the socket of agent a, each agent a core of its
    // own; hops = |node difference|.
    SharedLine(const SharedLineParams& params, std::vector<uint8_t> node_of_agent)
        : SharedLine(params, LineTopology::of_nodes(std::move(node_of_agent))) {}

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
        return access_serialised(who, kind, now, now);
    }
    // The same, served no earlier than `now` for a request made at `asked`
    // (a ContendedLine's pick among waiting requests).
    // A request is served from the kernel's time or after it (a hand-off
    // the caller has already timed), never before: the home serves requests
    // in the order they come, which is time order only for callers that act
    // at the kernel's time; one served in the past came from a block running
    // ahead of it, and aborts.
    sc_core::sc_time access_serialised(AgentId who, LineAccess kind, const sc_core::sc_time& now,
                                       const sc_core::sc_time& asked) {
        if (now < sim_now()) served_in_the_past(now);
        const bool local = served_locally(who, kind);
        // A read of a clean line is pipelined in the home; one that must
        // snoop a modified copy, or take ownership, holds it to the end.
        const bool whole = kind != LineAccess::Load || (m_modified && m_count);
        const sc_core::sc_time cost = access(who, kind);
        if (local) return now + cost;
        const sc_core::sc_time start = now > m_free_at ? now : m_free_at;
        m_free_at = start + (whole ? cost : m_params.home_occupancy);
        ++m_stats.transfers;
        if (start > asked) ++m_stats.queued_transfers;
        return start + cost;
    }

    // The requester's own cache serves the access (a load of a held copy, a
    // core's store or RMW to the only copy): the line's home is not asked.
    bool served_locally(AgentId who, LineAccess kind) const {
        return kind == LineAccess::Load ? holds(who)
                                        : kind != LineAccess::DeviceRmw && m_count == 1 && holds(who);
    }
    // Serialised use: when the line's home serves the next request.
    const sc_core::sc_time& free_at() const { return m_free_at; }
    bool holds(AgentId who) const { return (m_holders[who >> 6] >> (who & 63)) & 1u; }
    // Agents holding a valid copy.
    unsigned sharers() const { return m_count; }
    bool holds_exclusive(AgentId who) const { return m_exclusive && holds(who); }
    // `who` holds the only copy and has written it (M): its stores and
    // locked ops are hits that change nothing.
    bool owns_modified(AgentId who) const { return m_modified && holds_exclusive(who); }
    const SharedLineStats& stats() const { return m_stats; }
    const LineTopology& topology() const { return *m_topology; }
    // The holder other than `who` that would supply it the line (the owner
    // when one agent holds it); `who` itself when no other holds it.
    AgentId supplier_for(AgentId who) const;
    // Misses and upgrades of one agent (the "PID line misses" a CPU pays).
    uint64_t misses_of(AgentId who) const { return m_agent_misses[who]; }
    void reset_stats() {
        m_stats = {};
        std::fill(m_agent_misses.begin(), m_agent_misses.end(), 0);
    }

private:
    [[noreturn]] static void served_in_the_past(const sc_core::sc_time& now);
    sc_core::sc_time access_slow(AgentId who, LineAccess kind);
    // The cost of fetching the line from `supplier` instead of memory.
    sc_core::sc_time transfer(AgentId who, AgentId supplier);
    sc_core::sc_time hops_to(AgentId who, AgentId supplier) {
        const unsigned h = m_topology->hops(who, supplier);
        if (h) ++m_stats.remote_supplies;
        return m_params.hop * h;
    }
    // Drops every copy but `keep`'s (none when keep is out of range),
    // charging each dropped copy to `cost`: on the PID line's per-MSI path
    // the per-copy cost is zero.
    void invalidate_all_but(AgentId keep, sc_core::sc_time& cost);
    void add_holder(AgentId who) {
        m_holders[who >> 6] |= uint64_t(1) << (who & 63);
        ++m_count;
    }

    SharedLineParams m_params;
    std::shared_ptr<const LineTopology> m_topology;
    std::vector<uint64_t> m_agent_misses;
    uint64_t m_invalidate_ps;    // invalidate_per_sharer, in the time resolution's units
    sc_core::sc_time m_free_at;  // serialised use: when the home serves the next request
    std::vector<uint64_t> m_holders;  // bit per agent with a valid copy
    unsigned m_count = 0;             // agents with a valid copy
    AgentId m_owner = 0;              // the single holder while m_count == 1
    bool m_exclusive = false;  // the single holder owns it (E/M)
    bool m_modified = false;   // ... and has written it
    SharedLineStats m_stats;
};

}  // namespace cidsim
