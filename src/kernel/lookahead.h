#pragma once
// The scheduling layer: how blocks run ahead of the SystemC kernel's time
// and stay exact. It knows SystemC and nothing of hardware; blocks (src/model)
// use it, never the other way round.
//
// Glossary (the words of conservative parallel discrete-event simulation):
//  - kernel time: SystemC's sc_time_stamp(); every block's acts are exact at it.
//  - local time: a block's own clock, ahead of kernel time by the work it has
//    committed but not yet waited out (LocalClock, kernel/local_clock.h).
//  - link: the one way a message goes from a sender to a receiver
//    (OutPort -> InPort, kernel/link.h), with an optional minimum latency.
//  - lookahead: the earliest time a sender's next message (or act) could be
//    seen by the other side, as things stand now (until another process
//    runs). A sender that declares none has lookahead "now": the receiver
//    then never runs ahead of it, which is always exact.
//  - run ahead: a block acts in local time, before kernel time reaches it,
//    because every sender it could see has a lookahead beyond that time.
//  - same-picosecond order: acts due at one kernel time go in a fixed rank
//    order, not SystemC's process order (TieOrder, kernel/tie_order.h).
//  - stepwise: run-ahead switched off (run.run_ahead=false, --stepwise):
//    every act at kernel time. It must never change a result.
//  - lookahead check: with run.check_lookahead (on by default in the
//    sanitizer build) a message earlier than a lookahead already relied on
//    aborts the run, naming the link, the promise and the delivery.
//
// A new producer connects a link and need do nothing else: with no
// lookahead of its own its receivers stay at kernel time while it could send.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include <systemc>

#include "kernel/sim_clock.h"

namespace cidsim {

namespace run_ahead_policy {
inline bool stepwise = false;
inline bool windowed = false;  // false: a testbench that runs to its own end
inline sc_core::sc_time window_end;
// run_ahead_limit()'s answer, kept ready: it is asked several times per MSI.
inline bool limited = false;
inline sc_core::sc_time limit;
inline void update_limit() {
    limited = stepwise || windowed;
    limit = stepwise ? sc_core::SC_ZERO_TIME : window_end;
}
#ifdef CIDSIM_CHECK_LOOKAHEAD_DEFAULT
inline bool check = true;
#else
inline bool check = false;
#endif
}  // namespace run_ahead_policy

// Run-ahead on (the default) or off (stepwise), for the whole simulation.
// Set before elaboration ends: some blocks choose their processes by it.
inline void set_stepwise(bool stepwise) {
    run_ahead_policy::stepwise = stepwise;
    run_ahead_policy::update_limit();
}
inline bool stepwise() { return run_ahead_policy::stepwise; }
// Abort when a message breaks a lookahead already relied on.
inline void set_lookahead_check(bool on) { run_ahead_policy::check = on; }
inline bool lookahead_checked() { return run_ahead_policy::check; }

// Set before each sc_start to the time it ends (System does): nothing runs
// ahead to or past it, since the caller reads the statistics there and an
// act counted early would land in the wrong measurement window.
inline void set_run_ahead_window_end(const sc_core::sc_time& end) {
    run_ahead_policy::windowed = true;
    run_ahead_policy::window_end = end;
    run_ahead_policy::update_limit();
}

// Acts due before this may be made before the kernel reaches them.
inline sc_core::sc_time run_ahead_limit() {
    return run_ahead_policy::limited ? run_ahead_policy::limit : never();
}

// May an act due at `at` be made before the kernel reaches it?
inline bool may_run_ahead_to(const sc_core::sc_time& at) { return at < run_ahead_limit(); }

// One side of a link, asked by the other side: no act of mine that you
// could see happens before the time returned (as things stand now: until
// another process runs). The asker says how far it needs to look
// (`needed`): parts of the answer known to lie beyond it may be earlier
// answers, still true but looser. So the time returned may be earlier than
// a fresh answer, but a time up to `needed` comes before it exactly when it
// comes before a fresh one.
class Lookahead {
public:
    virtual ~Lookahead() = default;
    virtual sc_core::sc_time earliest_next(const sc_core::sc_time& needed) const = 0;
};

// What a receiver has relied on: the latest time up to which it acted
// ahead because a sender's lookahead allowed it. A message from that sender
// at or before it arrives too late (one at the same picosecond would have
// come first); with the check on, that aborts.
class Promise {
public:
    explicit Promise(std::string link) : m_link(std::move(link)) {}
    void relied_on(const sc_core::sc_time& t) {
        if (!m_relied_any || m_relied < t) m_relied = t;
        m_relied_any = true;
    }
    // A message of the link's sender, seen by the receiver at `at`.
    void check(const sc_core::sc_time& at) const {
        if (!lookahead_checked() || !m_relied_any || m_relied < at) return;
        broken(at);
    }
    // An act the receiver may see at the picosecond it relied on, since by
    // the tie order it comes after the receiver's (not before it).
    void check_not_before(const sc_core::sc_time& at) const {
        if (!lookahead_checked() || !m_relied_any || !(at < m_relied)) return;
        broken(at);
    }
    const sc_core::sc_time& relied() const { return m_relied; }

private:
    [[noreturn]] void broken(const sc_core::sc_time& at) const {
        std::fprintf(stderr,
                     "cidsim: lookahead broken on link %s: a message seen at %s, but the "
                     "receiver already ran ahead to %s on the sender's lookahead (now %s)\n",
                     m_link.c_str(), at.to_string().c_str(), m_relied.to_string().c_str(),
                     sim_now().to_string().c_str());
        std::abort();
    }
    std::string m_link;
    sc_core::sc_time m_relied;
    bool m_relied_any = false;
};

// The asker's copy of a lookahead, kept until forgotten (another process may
// have run, or the asker set one going). Asked again only when the copy
// cannot tell: it is exact up to the time it was asked for.
class KeptLookahead {
public:
    void forget() { m_known = false; }
    // What the asker relies on is recorded in `promise` when the lookahead
    // check is on (set before elaboration ends, as the policy is).
    void record_into(Promise* promise) { m_promise = lookahead_checked() ? promise : nullptr; }
    // Does `t` come before the lookahead? ask(needed) gives it.
    template <class Ask>
    bool is_before(const sc_core::sc_time& t, Ask&& ask) {
        if (!m_known || (!(t < m_at) && m_asked_for < t)) {
            m_at = ask(t);
            m_asked_for = t;
            m_known = true;
        }
        const bool before = t < m_at;
        if (before && m_promise) m_promise->relied_on(t);
        return before;
    }

private:
    sc_core::sc_time m_at;
    sc_core::sc_time m_asked_for;
    Promise* m_promise = nullptr;
    bool m_known = false;
};

}  // namespace cidsim
