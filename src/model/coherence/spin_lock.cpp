#include "model/coherence/spin_lock.h"

#include <algorithm>

#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;

const char* const kLockKindNames[2] = {"ticket", "rw"};

void SpinLockStats::describe(StatVisitor& v) const {
    v.count(in_block("acquisitions"), acquisitions, "count", "times the lock was taken (shared or exclusive)");
    v.count(in_block("contended"), contended, "count",
            "acquisitions that found the lock taken and spun (counted when granted, as "
            "acquisitions are)");
    v.count(in_block("handoffs"), handoffs, "count", "grants to a spinner at a release");
    v.count(in_block("cross_socket_handoffs"), cross_socket_handoffs, "count",
            "hand-offs to a CPU on another socket than the releaser's");
    v.histogram(in_block("wait_ns"), wait_ns, "ns", "per acquisition, from the first RMW to owning the lock");
    v.time(unreported("held"), held, "time the lock was held by anyone (overlapping readers once)");
    v.time(unreported("owner_time"), owner_time,
           "time held, summed over the owners (readers each count)");
}

SpinLock::SpinLock(LockKind kind, const SharedLineParams& line, std::vector<uint8_t> node_of_agent,
                   uint64_t seed)
    : m_kind(kind), m_line(line, node_of_agent), m_node(std::move(node_of_agent)),
      m_since_grant(m_node.size()), m_holds(m_node.size(), 0), m_rng(seed) {
    for (size_t a = 0; a < m_node.size(); ++a)
        m_granted.push_back(std::make_unique<sc_core::sc_event>());
}

void SpinLock::reset_stats() {
    m_stats = {};
    m_line.reset_stats();
    // An owner's hold is counted from the start of the measured time.
    for (sc_time& t : m_since_grant) t = std::max(t, sim_now());
    m_held_counted_to = std::max(m_held_counted_to, sim_now());
}

void SpinLock::close_window() {
    const sc_time now = sim_now();
    count_held_to(now);
    for (size_t a = 0; a < m_holds.size(); ++a)
        if (m_holds[a] && m_since_grant[a] < now) {
            m_stats.owner_time += now - m_since_grant[a];
            m_since_grant[a] = now;
        }
}

void SpinLock::count_held_to(const sc_time& now) {
    // While anyone owns the lock, some owner has held it since
    // m_held_counted_to at the latest (start_holding moves it up to the grant
    // of an owner that found no other), so all of the time up to now is held.
    if (m_owners && m_held_counted_to < now) m_stats.held += now - m_held_counted_to;
    m_held_counted_to = std::max(m_held_counted_to, now);
}

void SpinLock::start_holding() {
    // Called at the grant time (a grant may be made ahead, the owner's
    // re-read still on the way). With no other owner, nobody held the lock
    // since m_held_counted_to: the time up to now is counted, as not held.
    if (m_owners++ == 0) m_held_counted_to = std::max(m_held_counted_to, sim_now());
}

bool SpinLock::may_enter_now(bool writer) const {
    return writer ? !m_writer && m_readers == 0 : !m_writer;
}

void SpinLock::enter(AgentId who, bool writer) {
    const sc_time now = sim_now();
    // fetch_and_add of the ticket (ticket), or of the reader count / the
    // writer's cmpxchg (rw): one locked RMW whatever the lock's state.
    const sc_time done = m_line.access_serialised(who, LineAccess::LockedRmw, now);
    const bool free = m_queue.empty() && may_enter_now(writer);
    if (free) (writer ? m_writer = true : ++m_readers);
    after_write(done);  // the RMW invalidated every spinner's copy
    if (free) {
        grant({who, writer, now}, done, false);
        sc_core::wait(done - now);
    } else {
        m_queue.push_back({who, writer, now});
        sc_core::wait(*m_granted[who]);
    }
    start_holding();
}

void SpinLock::leave(AgentId who, bool writer) {
    const sc_time now = sim_now();
    writer ? m_writer = false : --m_readers;
    count_held_to(now);  // `who` is still among the owners
    --m_owners;
    m_stats.owner_time += now - m_since_grant[who];
    m_holds[who] = 0;
    m_last_releaser = who;
    after_write(m_line.access_serialised(who, LineAccess::LockedRmw, now));
}

void SpinLock::after_write(const sc_time& done) {
    // Who the lock now lets in is decided in queue order (a ticket's turn,
    // a run of readers at the front); when each learns it, by the order in
    // which the line's home serves their re-reads.
    size_t admitted = 0;
    while (admitted < m_queue.size() && may_enter_now(m_queue[admitted].writer)) {
        const bool w = m_queue[admitted].writer;
        (w ? m_writer = true : ++m_readers);
        ++admitted;
        if (w) break;
    }
    if (m_queue.empty()) return;
    m_order.resize(m_queue.size());
    for (size_t i = 0; i < m_order.size(); ++i) m_order[i] = i;
    std::shuffle(m_order.begin(), m_order.end(), m_rng);
    for (size_t i : m_order) {
        const sc_time seen = m_line.access_serialised(m_queue[i].who, LineAccess::Load, done);
        if (i < admitted) grant(m_queue[i], seen, true);
    }
    m_queue.erase(m_queue.begin(), m_queue.begin() + std::ptrdiff_t(admitted));
}

void SpinLock::grant(const Waiter& w, const sc_time& at, bool handoff) {
    // An acquisition, its wait and whether it spun are counted together,
    // when it is granted: a spinner still waiting at a window's end belongs
    // to the window that grants it (contended <= acquisitions in each).
    ++m_stats.acquisitions;
    if (handoff) {
        ++m_stats.contended;  // only a spinner is handed the lock
        ++m_stats.handoffs;
        const bool cross = m_node[w.who] != m_node[m_last_releaser];
        if (cross) ++m_stats.cross_socket_handoffs;
        if (m_handoffs) m_handoffs->push_back({at, m_last_releaser, w.who, cross});
        m_granted[w.who]->notify(at - sim_now());
    }
    m_stats.wait_ns.record(whole_ns(at - w.since));
    m_since_grant[w.who] = at;
    m_holds[w.who] = 1;
}

}  // namespace cidsim
