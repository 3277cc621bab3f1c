#pragma once
// StepQueue: the timed steps of many blocks (a traffic source's next
// completion, a LAPIC's periodic timer) on one kernel event. Each such block
// as its own process holding a timed next_trigger puts one entry per block
// in SystemC's timed-event heap, and every timed event of the model (not
// only theirs) pays for that heap's depth: at 352 devices and LAPICs, most
// of the growth of a simulated MSI's cost with system size
// (docs/performance.md). Here they wait in one heap of plain entries, and
// only the earliest is SystemC's.
//
// While the queue calls the steps due now, its kernel event is not armed:
// others_act_now() and time_to_pending_activity() (kernel/sim_clock.h) see
// the steps still queued through g_step_batch instead, so the tie order
// (kernel/tie_order.h) and the lookaheads still see them.
//
// A step runs inside the queue's process: it must not wait or call
// next_trigger; it pushes its next step instead. Pushed for the current
// time, it runs again in the same activation (where a process's
// next_trigger(SC_ZERO_TIME) would run in the next delta cycle; the tie
// order makes both the same). The queue's process is a child of the module
// whose constructor first asks for the queue.
#include <cstdint>
#include <queue>
#include <vector>

#include <systemc>
#include <sysc/kernel/sc_dynamic_processes.h>  // sc_spawn

#include "kernel/sim_clock.h"
#include "kernel/violation.h"

namespace cidsim {

class TimedStep {
public:
    virtual ~TimedStep() = default;
    // Runs at the time the step was pushed for.
    virtual void step_due() = 0;
};

class StepQueue {
public:
    // The simulation's queue, created at its first use (one simulation per
    // process, as SystemC allows).
    static StepQueue& instance() {
        static StepQueue queue;
        return queue;
    }

    // `step` runs at `at` (not in the past); steps due at one time run in
    // the order they were pushed.
    void push(const sc_core::sc_time& at, TimedStep& step) {
        check_not_in_past(at);
        const sc_core::sc_time& now = sim_now();
        const sc_core::sc_time when = at < now ? now : at;
        const bool earliest = m_heap.empty() || when < m_heap.top().at;
        m_heap.push(Entry{when, m_seq++, &step});
        if (!earliest) return;
        // run_due() arms the event when it ends, and so does the process's
        // first run for steps pushed before the simulation starts.
        if (g_step_batch.running)
            g_step_batch.next = when;
        else if (sc_core::sc_is_running()) {
            m_event.cancel();
            m_event.notify(when - now);
        }
    }

private:
    StepQueue() {
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.set_sensitivity(&m_event);
        sc_core::sc_spawn([this] { run_due(); }, "cidsim_step_queue", &opts);
    }

    void run_due() {
        const sc_core::sc_time now = sim_now();
        g_step_batch.running = true;
        while (!m_heap.empty() && m_heap.top().at <= now) {
            TimedStep* step = m_heap.top().step;
            m_heap.pop();
            g_step_batch.next = m_heap.empty() ? never() : m_heap.top().at;
            step->step_due();
        }
        g_step_batch.running = false;
        m_event.cancel();
        if (!m_heap.empty()) m_event.notify(m_heap.top().at - now);
    }

    struct Entry {
        sc_core::sc_time at;
        uint64_t seq;  // push order among entries due at one time
        TimedStep* step;
        bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> m_heap;
    uint64_t m_seq = 0;
    sc_core::sc_event m_event;
};

}  // namespace cidsim
