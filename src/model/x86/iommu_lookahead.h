#pragma once
// What the remapping unit (iommu.h) keeps to answer its lookaheads: its
// senders' last answers (MsiSenders) and the times of the posts and
// messages it has scheduled for one LAPIC (EarliestFirst). The answers
// themselves are in iommu_lookahead.cpp.
#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

#include <systemc>

#include "kernel/sim_clock.h"
#include "model/x86/msi.h"

namespace cidsim {

// Some senders, each with its last answers: still true bounds later,
// so asked again only when they no longer help.
class MsiSenders {
public:
    // `lead`: the least time from one of the source's requests arriving
    // to the message it makes (remapped, or a notification) being ready.
    void add(const MsiSource& source, const sc_core::sc_time& lead);
    void clear();
    // The earliest a request of theirs not yet announced can arrive,
    // from the last answers beyond `at` and new ones for the rest.
    sc_core::sc_time earliest_arrival(const sc_core::sc_time& at) const {
        return earliest<true>(at, m_arrival, [](const MsiSource& s) { return s.earliest_arrival(); });
    }
    // The earliest a message made from such a request can be ready (a
    // bound led by the least lead), likewise.
    sc_core::sc_time earliest_ready(const sc_core::sc_time& at) const {
        const sc_core::sc_time& lead = m_least_lead;
        return saturating_add(earliest_arrival(lead < at ? at - lead : sc_core::SC_ZERO_TIME),
                              lead);
    }
    // The earliest one of them sends a request (and the DMA writes it
    // is ordered after), likewise.
    sc_core::sc_time earliest_send(const sc_core::sc_time& at) const {
        return earliest<false>(at, m_send, [](const MsiSource& s) { return s.earliest_send(); });
    }

private:
    struct Known {
        std::vector<sc_core::sc_time> each;  // per source
        sc_core::sc_time min;                // of them all
    };
    // Senders writing through one root port: none of their requests
    // arrives before the port is free and the shortest of their writes done.
    struct Port {
        const RootPort* port;
        sc_core::sc_time shortest;
        sc_core::sc_time floor;  // as last computed
    };
    // Each port's floor now; true when it lies beyond `at` for all of them
    // (`least`: the earliest floor).
    bool floors_beyond(const sc_core::sc_time& at, sc_core::sc_time& least) const;
    // The answers before `at` are asked again, unless every sender's root
    // port is busy beyond `at`: then the floors (bounds for all of them)
    // answer, since the ports' backlog, not the senders, holds them back
    // (each answer behind a busy port lies just beyond the last arrival,
    // so asking them all would pass every answer at every arrival).
    template <bool kArrival, class Ask>
    sc_core::sc_time earliest(const sc_core::sc_time& at, Known& known, Ask ask) const {
        if (at < known.min) return known.min;
        if (kArrival && m_use_floors) {
            sc_core::sc_time least;
            if (floors_beyond(at, least)) return least;
        }
        sc_core::sc_time t = never();
        for (size_t i = 0; i < m_sources.size(); ++i) {
            if (!(at < known.each[i])) known.each[i] = ask(*m_sources[i]);
            t = std::min(t, known.each[i]);
        }
        known.min = t;
        return t;
    }
    std::vector<const MsiSource*> m_sources;
    mutable std::vector<Port> m_ports;
    bool m_all_ported = true;  // every source writes through a port in m_ports
    // Every source is behind a port and there are more than 16 per port:
    // with fewer the scan is cheaper than the floors.
    bool m_use_floors = false;
    sc_core::sc_time m_least_lead;  // of all sources
    mutable Known m_arrival;
    mutable Known m_send;
};

// Times in order, the earliest first.
class EarliestFirst {
public:
    void push(const sc_core::sc_time& t) { m_heap.push(t); }
    void pop() { m_heap.pop(); }  // the earliest
    sc_core::sc_time next() const { return m_heap.empty() ? never() : m_heap.top(); }

private:
    std::priority_queue<sc_core::sc_time, std::vector<sc_core::sc_time>,
                        std::greater<sc_core::sc_time>>
        m_heap;
};

}  // namespace cidsim
