#pragma once
// Exact run-ahead: a block may act ahead of the kernel's time (a CPU on its
// PID, in a driver handler or in its own job's work; the remapping unit
// fetching, posting or sending early) when nothing can see the difference
// before then. Never at or past the end of
// the current sc_start, though: there the caller reads the statistics, and
// an act counted early would land in the wrong measurement window.
#include <systemc>

#include "model/sim_clock.h"

namespace cidsim {

namespace run_ahead_detail {
inline bool limited = false;  // no limit: a testbench that runs to its own end
inline sc_core::sc_time limit;
}  // namespace run_ahead_detail

// Set before each sc_start to the time it ends (System does).
inline void set_run_ahead_limit(const sc_core::sc_time& end) {
    run_ahead_detail::limited = true;
    run_ahead_detail::limit = end;
}

// Acts due before this may be made before the kernel reaches them.
inline sc_core::sc_time run_ahead_limit() {
    return run_ahead_detail::limited ? run_ahead_detail::limit : never();
}

// May an act due at `at` be made before the kernel reaches it?
inline bool may_run_ahead_to(const sc_core::sc_time& at) { return at < run_ahead_limit(); }

// One side of a link (the CPU that owns a descriptor and the remapping unit
// that posts to it; the remapping unit sending to a LAPIC), asked by the
// other side: no act of mine that you could see happens before the time
// returned (as things stand now: until another process runs). The asker
// says how far it needs to look (`needed`): parts of the answer known to
// lie beyond it may be earlier answers, still true but looser. So the time
// returned may be earlier than a fresh answer, but a time up to `needed`
// comes before it exactly when it comes before a fresh one.
// The asker may also have the other side first make the acts due at the
// kernel's time (act_due_now): at one picosecond, the other side's acts come
// before the asker's, whichever process SystemC runs first.
class AccessHorizon {
public:
    virtual ~AccessHorizon() = default;
    virtual sc_core::sc_time quiet_before(const sc_core::sc_time& needed) const = 0;
    virtual void act_due_now() {}
};

// The asker's copy of a horizon, kept until forgotten (another process may
// have run, or the asker set one going). Asked again only when the copy
// cannot tell: it is exact up to the time it was asked for.
class KeptHorizon {
public:
    void forget() { m_known = false; }
    // Does `t` come before the horizon? ask(needed) gives it.
    template <class Ask>
    bool is_before(const sc_core::sc_time& t, Ask&& ask) {
        if (!m_known || (!(t < m_at) && m_asked_for < t)) {
            m_at = ask(t);
            m_asked_for = t;
            m_known = true;
        }
        return t < m_at;
    }

private:
    sc_core::sc_time m_at;
    sc_core::sc_time m_asked_for;
    bool m_known = false;
};

}  // namespace cidsim
