#pragma once
// Counts the kernel events the model itself causes, for `cidsim bench`'s
// "timed events per simulated MSI": every timed event that fires (a
// TimedQueue's event, a StepQueue step, a timed next_trigger, a CPU's
// timed wait) and every
// delta notification. SystemC 2.3 has no such statistic of its own
// (sc_delta_count() counts delta cycles, not timed events). Counted where
// the event fires or the process waits, not where it is (re)scheduled, so an
// event notified several times before it fires counts once. One increment
// each: cheap enough to stay on in every build.
#include <cstdint>

namespace cidsim {

struct KernelEventCount {
    uint64_t timed = 0;  // timed events fired / timed waits and next_triggers
    uint64_t delta = 0;  // SC_ZERO_TIME notifications
};

inline KernelEventCount g_kernel_events;

inline void count_timed_event() { ++g_kernel_events.timed; }
inline void count_delta_event() { ++g_kernel_events.delta; }

}  // namespace cidsim
