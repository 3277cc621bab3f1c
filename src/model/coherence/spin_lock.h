#pragma once
// SpinLock: a lock word on a serialised SharedLine that CPUs spin on
// (systems.md section C, "Lines"; table E "E1 Xen": queued ownership,
// spinners). Two kinds, as Xen has them:
//  - ticket (xen/common/spinlock.c, 2018): acquire is a fetch-and-add of
//    head_tail, then a spin on head; release adds 1 to head;
//  - rw (xen/include/xen/rwlock.h, the queued rwlock of Xen 4.17's
//    event_lock): readers add to the count and exclude only writers;
//    waiters queue in arrival order behind the internal spin lock, a run of
//    readers at the front enters together, a writer waits for the readers
//    to drain.
// Modelled: every acquire and release is a locked RMW of the lock's line;
// each write to the line invalidates every spinner's copy and each spinner
// re-reads it, in random order (the home serves them one at a time, so the
// next owner's read is on average the middle one: Boyd-Wickizer et al.,
// "Non-scalable locks are dangerous", Linux Symposium 2012); a waiter
// enters when its re-read shows the lock free for it. The hand-off time and
// its growth with spinners and distance are the line's (shared_line.h).
// The release is a store the releaser does not wait for (x86-TSO's store
// buffer: SDM vol. 3 8.2); its transfer still occupies the line.
// Not modelled: pause-loop timing between re-reads (a spinner re-reads only
// when its copy is invalidated), the internal spin lock of the rw kind as a
// second line (it shares the lock's line), lock elision, interrupts taken
// while spinning (the callers spin with interrupts off).
// Callers are SC_THREADs at the kernel's time: acquire() returns when the
// caller owns the lock.
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "model/coherence/shared_line.h"
#include "model/base/stats.h"

namespace cidsim {

enum class LockKind : int { Ticket, Rw };
extern const char* const kLockKindNames[2];

struct SpinLockStats {
    uint64_t acquisitions = 0;
    uint64_t contended = 0;               // found the lock taken and spun (counted when granted)
    uint64_t handoffs = 0;                // granted to a spinner at a release
    uint64_t cross_socket_handoffs = 0;   // ... on another socket than the releaser
    Histogram wait_ns;                    // acquire called -> owner (uncontended included)
    sc_core::sc_time held;                // held by anyone (readers' holds overlap)
    sc_core::sc_time owner_time;          // sum of hold times (writers and readers)

    void describe(StatVisitor& v) const;
};

// One hand-off, for `cidsim explain` (kept only when asked): the lock's
// line travels from the releaser's cache to the new owner's.
struct LockHandoff {
    sc_core::sc_time at;  // the new owner's re-read shows the lock free for it
    AgentId from = 0;
    AgentId to = 0;
    bool cross_socket = false;
};

class SpinLock {
public:
    // node_of_agent[a]: the socket of CPU a; seed orders the re-reads.
    SpinLock(LockKind kind, const SharedLineParams& line, std::vector<uint8_t> node_of_agent,
             uint64_t seed);

    // Exclusive (a ticket lock's only mode; a rw lock's write_lock).
    void acquire(AgentId who) { enter(who, true); }
    void release(AgentId who) { leave(who, true); }
    // Shared (a rw lock's read_lock); a ticket lock takes it exclusive.
    void acquire_shared(AgentId who) { enter(who, m_kind == LockKind::Ticket); }
    void release_shared(AgentId who) { leave(who, m_kind == LockKind::Ticket); }

    // A plain load of the lock's line by a CPU after another field on it
    // (not the lock word): returns when the value is in. It queues at the
    // line's home like the spinners' re-reads, and makes one more copy for
    // the next write to invalidate.
    sc_core::sc_time read_line(AgentId who, const sc_core::sc_time& now) {
        return m_line.access_serialised(who, LineAccess::Load, now);
    }

    LockKind kind() const { return m_kind; }
    bool held() const { return m_writer || m_readers; }
    size_t spinners() const { return m_queue.size(); }
    const SpinLockStats& stats() const { return m_stats; }
    const SharedLineStats& line_stats() const { return m_line.stats(); }
    void reset_stats();
    // A window ends now: a hold under way counts its part up to now in this
    // window's held time, the rest in the next.
    void close_window();
    // Appends every hand-off from now on (nullptr stops): nothing is kept,
    // and nothing costs, unless asked.
    void record_handoffs_into(std::vector<LockHandoff>* log) { m_handoffs = log; }

private:
    struct Waiter {
        AgentId who;
        bool writer;
        sc_core::sc_time since;
    };
    void enter(AgentId who, bool writer);
    void leave(AgentId who, bool writer);
    bool may_enter_now(bool writer) const;
    // After a write to the line that completes at `done`: the waiters the
    // lock now lets in, in queue order, enter; every spinner re-reads.
    void after_write(const sc_core::sc_time& done);
    void grant(const Waiter& w, const sc_core::sc_time& at, bool handoff);
    // Adds to stats.held the time up to `now` that some owner held the lock.
    void count_held_to(const sc_core::sc_time& now);
    // The caller owns the lock from now, its grant time: O(1), for stats.held.
    void start_holding();

    LockKind m_kind;
    SharedLine m_line;
    std::vector<uint8_t> m_node;
    std::deque<Waiter> m_queue;  // spinners in arrival (ticket) order
    std::vector<std::unique_ptr<sc_core::sc_event>> m_granted;  // per agent
    std::vector<sc_core::sc_time> m_since_grant;                // per agent
    std::vector<uint8_t> m_holds;  // per agent: granted and not yet released
    sc_core::sc_time m_held_counted_to;  // stats.held counts the lock's holds up to here
    unsigned m_owners = 0;  // owners whose grant time has come (m_holds counts ahead)
    std::vector<size_t> m_order;  // scratch: the re-read order
    std::mt19937_64 m_rng;
    bool m_writer = false;
    unsigned m_readers = 0;
    AgentId m_last_releaser = 0;
    SpinLockStats m_stats;
    std::vector<LockHandoff>* m_handoffs = nullptr;
};

}  // namespace cidsim
