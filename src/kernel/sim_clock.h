#pragma once
// The kernel's time and nanosecond conversions for the per-MSI path, inline:
// sc_time_stamp() and sc_time(double, SC_NS) are out-of-line library calls,
// made several times per simulated MSI. Same values as theirs, bit for bit.
#include <cstdint>

#include <systemc>

namespace cidsim {

// While the StepQueue (kernel/step_queue.h) runs the steps due now, its
// kernel event is not armed, so the kernel's own answers below leave its
// queued steps out: `next` is the earliest of them (never() when none).
struct StepBatch {
    bool running = false;
    sc_core::sc_time next;
};
inline StepBatch g_step_batch;

// sc_time_stamp() without the call (it returns the current context's time).
inline const sc_core::sc_time& sim_now() {
    return sc_core::sc_get_curr_simcontext()->time_stamp();
}

// sc_time_to_pending_activity(): the same steps as the library's
// (sysc/kernel/sc_simcontext.cpp) without its out-of-line wrapper and the
// sc_time_stamp() call inside; the lookaheads ask it several times per MSI.
inline sc_core::sc_time time_to_pending_activity() {
    const sc_core::sc_simcontext* c = sc_core::sc_get_curr_simcontext();
    const sc_core::sc_time& now = c->time_stamp();
    if (c->pending_activity_at_current_time()) return sc_core::SC_ZERO_TIME;
    if (g_step_batch.running && g_step_batch.next <= now) return sc_core::SC_ZERO_TIME;
    sc_core::sc_time next = c->max_time();
    c->next_time(next);  // leaves max_time when nothing is scheduled
    if (g_step_batch.running && g_step_batch.next < next) next = g_step_batch.next;
    return next - now;
}

// Is another process to run at the kernel's time (runnable now, or notified
// for a delta cycle), or a queued step? Without one, no other block acts at
// this picosecond.
inline bool others_act_now() {
    const sc_core::sc_simcontext* c = sc_core::sc_get_curr_simcontext();
    return (g_step_batch.running && g_step_batch.next <= c->time_stamp()) ||
           c->pending_activity_at_current_time();
}

// sc_max_time() without the call, for bounds that mean "never". Read at
// the first use, during the simulation (the time resolution is fixed by then).
inline const sc_core::sc_time& never() {
    static const sc_core::sc_time max = sc_core::sc_max_time();
    return max;
}

// a + b, or never() when that would not fit.
inline sc_core::sc_time saturating_add(const sc_core::sc_time& a, const sc_core::sc_time& b) {
    return a > never() - b ? never() : a + b;
}

// sc_time(v, SC_NS): the library computes int64(ticks_per_ns * v + 0.5)
// (sysc/kernel/sc_time.cpp); here one tick times (ticks_per_ns * v), which
// sc_time::operator*= (inline) rounds the same way (1.0 * x == x). Exact
// for any resolution of 1 ns or finer; a coarser one takes the library's path.
inline sc_core::sc_time ns_fast(double v) {
    static const double ticks_per_ns = double(sc_core::sc_time(1.0, sc_core::SC_NS).value());
    static const sc_core::sc_time one_tick = sc_core::sc_time::from_value(1);
    if (ticks_per_ns < 1.0) return sc_core::sc_time(v, sc_core::SC_NS);
    sc_core::sc_time t(one_tick);
    t *= ticks_per_ns * v;
    return t;
}

}  // namespace cidsim
