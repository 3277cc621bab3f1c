#pragma once
// Counters behind the run invariants (sim/invariants.h). They count over the
// whole run, warm-up included (reset_stats leaves them alone), and remember
// when the first violation happened, so a failed run can say which and when.
// Recording is a compare and an increment: cheap enough to stay on.
#include <cstdint>

#include <systemc>

#include "kernel/sim_clock.h"

namespace cidsim {

struct ViolationCount {
    uint64_t count = 0;
    sc_core::sc_time first_at;  // simulated time of the first violation

    // `at`: when it happened, if not now (a core running ahead of the kernel).
    void note(const sc_core::sc_time& at = sc_core::sc_time_stamp()) {
        if (!count++) first_at = at;
    }
};

// Monotone simulated time: a block that schedules work at an absolute time
// reports it here; a time before now would wrap the unsigned sc_time
// difference into a jump to the far future. One process runs one System,
// so one counter per process suffices.
inline ViolationCount g_time_regressions;

inline void check_not_in_past(const sc_core::sc_time& at) {
    if (at < sim_now()) g_time_regressions.note();
}

}  // namespace cidsim
