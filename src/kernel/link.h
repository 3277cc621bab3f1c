#pragma once
// Links: the one way a message goes from a sender's OutPort to a receiver's
// InPort (kernel/lookahead.h has the glossary). Each link carries the
// sender's lookahead: the receiver asks its InPort how long no message can
// arrive (the least over its links) and may run ahead until then. A sender
// that declares no lookahead counts as "may send now" (plus the link's
// minimum latency, which is what gives a CPU-to-CPU link a positive
// lookahead), so a new producer is exact without knowing any of this.
// With the lookahead check on, a message earlier than the receiver has
// already run ahead to, or sooner than its link's minimum latency, aborts.
#include <algorithm>
#include <string>
#include <vector>

#include <systemc>

#include "kernel/lookahead.h"
#include "kernel/sim_clock.h"

namespace cidsim {

// What a receiving block does with a message seen at `at` (not before now).
template <class Msg>
class Receiver {
public:
    virtual ~Receiver() = default;
    virtual void receive(const sc_core::sc_time& at, const Msg& msg) = 0;
};

template <class Msg>
class OutPort;

template <class Msg>
class InPort {
public:
    InPort(Receiver<Msg>& owner, std::string name)
        : m_owner(owner), m_name(std::move(name)), m_promise(m_name) {}
    InPort(const InPort&) = delete;
    InPort& operator=(const InPort&) = delete;

    // No message of a connected sender arrives before this (exact up to
    // `needed`, as Lookahead answers are); never() with no sender.
    sc_core::sc_time earliest_next(const sc_core::sc_time& needed) const {
        if (m_only) return m_only->earliest_next(needed);
        sc_core::sc_time t = never();
        for (const Sender& s : m_senders)
            t = std::min(t, s.lookahead ? s.lookahead->earliest_next(needed)
                                        : saturating_add(sim_now(), s.min_latency));
        return t;
    }
    bool connected() const { return !m_senders.empty(); }
    // What the receiver relied on, for the lookahead check.
    Promise& promise() { return m_promise; }
    const std::string& name() const { return m_name; }

private:
    friend class OutPort<Msg>;
    template <class M>
    friend void connect(OutPort<M>&, InPort<M>&, const sc_core::sc_time&);
    struct Sender {
        const Lookahead* lookahead;
        sc_core::sc_time min_latency;
    };
    Receiver<Msg>& m_owner;
    std::string m_name;
    Promise m_promise;
    std::vector<Sender> m_senders;
    const Lookahead* m_only = nullptr;  // the one sender, when it is alone and declares one
};

template <class Msg>
class OutPort {
public:
    // `lookahead`: when the sender's next message could be seen (nullptr: now).
    explicit OutPort(const Lookahead* lookahead = nullptr) : m_lookahead(lookahead) {}
    OutPort(const OutPort&) = delete;
    OutPort& operator=(const OutPort&) = delete;

    // The message is seen by the receiver at `at`.
    void send(const sc_core::sc_time& at, const Msg& msg) {
        if (lookahead_checked()) check(at);
        m_peer->m_owner.receive(at, msg);
    }
    bool connected() const { return m_peer != nullptr; }

private:
    template <class M>
    friend void connect(OutPort<M>&, InPort<M>&, const sc_core::sc_time&);
    void check(const sc_core::sc_time& at) const {
        if (at < saturating_add(sim_now(), m_min_latency)) {
            std::fprintf(stderr,
                         "cidsim: link to %s: a message seen at %s, sooner than the link's "
                         "minimum latency %s after now (%s)\n",
                         m_peer->m_name.c_str(), at.to_string().c_str(),
                         m_min_latency.to_string().c_str(), sim_now().to_string().c_str());
            std::abort();
        }
        m_peer->m_promise.check(at);
    }
    const Lookahead* m_lookahead;
    InPort<Msg>* m_peer = nullptr;
    sc_core::sc_time m_min_latency;
};

// Connects a sender to a receiver, before the simulation starts. A message
// takes at least `min_latency` from the sender's kernel time to the receiver.
template <class Msg>
void connect(OutPort<Msg>& out, InPort<Msg>& in,
             const sc_core::sc_time& min_latency = sc_core::SC_ZERO_TIME) {
    sc_assert(!out.m_peer);
    out.m_peer = &in;
    out.m_min_latency = min_latency;
    in.m_senders.push_back({out.m_lookahead, min_latency});
    in.m_only = in.m_senders.size() == 1 ? out.m_lookahead : nullptr;
}

}  // namespace cidsim
