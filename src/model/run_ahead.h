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
// returned (as things stand now: until another process runs).
// The asker may also have the other side first make the acts due at the
// kernel's time (act_due_now): at one picosecond, the other side's acts come
// before the asker's, whichever process SystemC runs first.
class AccessHorizon {
public:
    virtual ~AccessHorizon() = default;
    virtual sc_core::sc_time quiet_before() const = 0;
    virtual void act_due_now() {}
};

}  // namespace cidsim
