#pragma once
// A queue of items due at absolute simulated times, driven by one sc_event
// (notified for the earliest item): one kernel event per item, however many
// are in flight, and no allocation once the heap has grown to its peak.
// Items due at the same time come out by their tie key (the least first),
// then in the order they were pushed.
#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

#include <systemc>

#include "kernel/event_count.h"
#include "kernel/sim_clock.h"
#include "kernel/violation.h"

namespace cidsim {

template <class T>
class TimedQueue {
public:
    void push(const sc_core::sc_time& at, const T& item, uint16_t tie_key = 0) {
        check_not_in_past(at);
        // The event is pending for the earliest item (or pop_due re-arms it):
        // only a new earliest item moves it.
        const bool earliest = m_heap.empty() || at < m_heap.top().at;
        m_heap.push(Entry{at, uint64_t(tie_key) << 48 | m_seq++, item});
        if (earliest) m_event.notify(at - sim_now());
    }

    // Calls f(item) for every item due now, then re-arms the event.
    template <class F>
    void pop_due(F&& f) {
        count_timed_event();
        take_due(f);
    }

    // Whether an item is due at or before `t`.
    bool due_by(const sc_core::sc_time& t) const { return !m_heap.empty() && m_heap.top().at <= t; }
    // pop_due() for a process that counts the event's firing itself, or for
    // another that takes the items due now first (with none due, the event
    // is already armed for the earliest item).
    template <class F>
    void take_due(F&& f) {
        const sc_core::sc_time now = sim_now();
        if (!due_by(now)) return;
        while (!m_heap.empty() && m_heap.top().at <= now) {
            T item = m_heap.top().item;
            m_heap.pop();
            f(item);
        }
        if (!m_heap.empty()) m_event.notify(m_heap.top().at - now);
    }

    // The earliest item (the queue must not be empty), and taking it off
    // before it is due (the event moves to the next one).
    const T& front() const { return m_heap.top().item; }
    void pop_front() {
        m_heap.pop();
        m_event.cancel();
        if (!m_heap.empty()) m_event.notify(m_heap.top().at - sim_now());
    }

    const sc_core::sc_event& event() const { return m_event; }
    // When the earliest item is due (the queue must not be empty).
    const sc_core::sc_time& next_at() const { return m_heap.top().at; }
    // The earlier of next_at() and `bound` (`bound` when empty).
    sc_core::sc_time next_at_min(const sc_core::sc_time& bound) const {
        return m_heap.empty() ? bound : std::min(m_heap.top().at, bound);
    }
    bool empty() const { return m_heap.empty(); }
    size_t size() const { return m_heap.size(); }

private:
    struct Entry {
        sc_core::sc_time at;
        uint64_t seq;  // tie key, then push order (2^48 pushes per run are plenty)
        T item;
        bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> m_heap;
    uint64_t m_seq = 0;
    sc_core::sc_event m_event;
};

}  // namespace cidsim
