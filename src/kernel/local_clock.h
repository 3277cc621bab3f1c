#pragma once
// LocalClock: an active block's own time, ahead of the kernel's by the work
// it has committed but not yet waited out (kernel/lookahead.h, glossary).
// The block spends time as it works; what it does next happens at its local
// time when run-ahead allows it, or after sync(), which ends the block's
// activation (SC_METHOD) until the kernel has caught up.
#include <systemc>

#include "kernel/event_count.h"
#include "kernel/sim_clock.h"

namespace cidsim {

class LocalClock {
public:
    sc_core::sc_time now() const { return sim_now() + m_ahead; }
    // Work of `d` committed: local time moves on.
    void spend(const sc_core::sc_time& d) { m_ahead += d; }
    // Local time set to `t` (not before the kernel's).
    void ahead_to(const sc_core::sc_time& t) { m_ahead = t - sim_now(); }
    const sc_core::sc_time& ahead() const { return m_ahead; }
    bool synced() const { return m_ahead == sc_core::SC_ZERO_TIME; }

    // True when local time is the kernel's; otherwise the calling SC_METHOD
    // waits (its activation must end) until it is, and false.
    bool sync() {
        if (synced()) return true;
        wait_out();
        return false;
    }
    // The calling SC_METHOD waits out its local lead; until then it acts
    // nowhere (waiting_until() says so to whoever asks).
    void wait_out() {
        count_timed_event();
        m_waiting_until = now();
        sc_core::next_trigger(m_ahead);
        m_ahead = sc_core::SC_ZERO_TIME;
    }
    // Waits out its local lead and `more`, or until `wake`, whichever comes
    // first: a wait that may end early, so waiting_until() is left alone.
    void wait_out_or(const sc_core::sc_time& more, const sc_core::sc_event_or_list& wake) {
        count_timed_event();
        sc_core::next_trigger(m_ahead + more, wake);
        m_ahead = sc_core::SC_ZERO_TIME;
    }
    // The end of the block's current timed wait.
    const sc_core::sc_time& waiting_until() const { return m_waiting_until; }

private:
    sc_core::sc_time m_ahead;
    sc_core::sc_time m_waiting_until;
};

}  // namespace cidsim
