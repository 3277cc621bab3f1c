// SpinLock (systems.md C "Lines"): CPUs contending for a ticket or rw lock
// whose every acquire and release goes through a serialised SharedLine.
// Each contender is a thread that takes the lock, holds it, drops it and
// comes back; the log of who held it when is checked.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "config/sim_config.h"
#include "model/coherence/spin_lock.h"

using namespace cidsim;
using sc_core::sc_time;

namespace {

struct Hold {
    AgentId who;
    bool shared;
    sc_time asked, entered, left;
};

// A CPU taking `lock` `rounds` times, from `start`, holding it `hold`,
// then away for `away`.
struct Contender : sc_core::sc_module {
    SC_HAS_PROCESS(Contender);
    Contender(sc_core::sc_module_name n, SpinLock& lock, AgentId who, sc_time start, sc_time hold,
              sc_time away, unsigned rounds, bool shared, std::vector<Hold>& log)
        : sc_module(n), m_lock(lock), m_who(who), m_start(start), m_hold(hold), m_away(away),
          m_rounds(rounds), m_shared(shared), m_log(log) {
        SC_THREAD(run);
    }
    void run() {
        wait(m_start);
        for (unsigned r = 0; r < m_rounds; ++r) {
            Hold h{m_who, m_shared, sc_core::sc_time_stamp(), {}, {}};
            m_shared ? m_lock.acquire_shared(m_who) : m_lock.acquire(m_who);
            h.entered = sc_core::sc_time_stamp();
            wait(m_hold);
            h.left = sc_core::sc_time_stamp();
            m_shared ? m_lock.release_shared(m_who) : m_lock.release(m_who);
            m_log.push_back(h);
            wait(m_away);
        }
        // Suspended, not finished: SystemC frees a finished thread's stack,
        // which LeakSanitizer would then scan at exit (test_cpu_core.cpp).
        wait(m_never);
    }
    SpinLock& m_lock;
    AgentId m_who;
    sc_time m_start, m_hold, m_away;
    unsigned m_rounds;
    bool m_shared;
    std::vector<Hold>& m_log;
    sc_core::sc_event m_never;
};

// The Xen experiment's box (two sockets): config xen_line's defaults.
SharedLineParams line() { return xen_line_defaults(); }

// n CPUs, the first `on_socket0` of them on socket 0, the rest on socket 1.
std::vector<uint8_t> sockets(unsigned n, unsigned on_socket0) {
    std::vector<uint8_t> s(n, 1);
    std::fill(s.begin(), s.begin() + std::min(n, on_socket0), 0);
    return s;
}

struct Group {
    std::unique_ptr<SpinLock> lock;
    std::vector<std::unique_ptr<Contender>> cpus;
    std::vector<Hold> log;
};

// n CPUs that keep coming back at once: the lock always has n-1 spinners.
// `contenders` of them (0: every CPU of `node`) take the lock; the rest are
// free for a test's other agents.
Group saturated(const std::string& name, LockKind kind, std::vector<uint8_t> node, unsigned rounds,
                bool shared = false, unsigned contenders = 0) {
    Group g;
    const unsigned n = contenders ? contenders : unsigned(node.size());
    g.lock = std::make_unique<SpinLock>(kind, line(), node, 7);
    for (unsigned i = 0; i < n; ++i)
        g.cpus.push_back(std::make_unique<Contender>((name + std::to_string(i)).c_str(), *g.lock,
                                                     AgentId(i), ns(i), ns(100), ns(1), rounds,
                                                     shared, g.log));
    return g;
}

// Mean time from one owner's release to the next owner's entry.
double mean_handoff_ns(std::vector<Hold> log) {
    std::sort(log.begin(), log.end(), [](const Hold& a, const Hold& b) { return a.entered < b.entered; });
    double sum = 0;
    unsigned n = 0;
    for (size_t i = 1; i < log.size(); ++i)
        if (log[i].asked < log[i - 1].left) {  // it was waiting: a hand-off
            sum += ns_of(log[i].entered - log[i - 1].left);
            ++n;
        }
    return n ? sum / n : 0;
}

// A CPU that reads another field on the lock's line (Xen's d->pirq_tree
// beside event_lock) every `every`, `reads` times, from `start`, and logs
// how long each load took.
struct LineReader : sc_core::sc_module {
    SC_HAS_PROCESS(LineReader);
    LineReader(sc_core::sc_module_name n, SpinLock& lock, AgentId who, sc_time start,
               sc_time every, unsigned reads)
        : sc_module(n), m_lock(lock), m_who(who), m_start(start), m_every(every), m_reads(reads) {
        SC_THREAD(run);
    }
    void run() {
        wait(m_start);
        for (unsigned r = 0; r < m_reads; ++r) {
            const sc_time now = sc_core::sc_time_stamp();
            const sc_time done = m_lock.read_line(m_who, now);
            latency_ns.push_back(ns_of(done - now));
            wait(done - now + m_every);
        }
        wait(m_never);
    }
    SpinLock& m_lock;
    AgentId m_who;
    sc_time m_start, m_every;
    unsigned m_reads;
    std::vector<double> latency_ns;
    sc_core::sc_event m_never;
};

void check_serialised(std::vector<Hold> log) {
    std::sort(log.begin(), log.end(), [](const Hold& a, const Hold& b) { return a.entered < b.entered; });
    for (size_t i = 1; i < log.size(); ++i) {
        INFO("hold " << i << " by CPU " << log[i].who);
        CHECK(log[i].entered >= log[i - 1].left);
    }
}

}  // namespace

TEST_CASE("a ticket lock: one owner at a time, every acquisition granted once, in ticket order",
          "[spin_lock]") {
    Group g = saturated("cpu", LockKind::Ticket, sockets(8, 4), 25);
    sc_core::sc_start(ns(1e6));
    REQUIRE(g.log.size() == 8 * 25);
    CHECK(g.lock->stats().acquisitions == 8 * 25);
    check_serialised(g.log);
    // Ticket order: the lock is entered in the order it was asked for.
    std::vector<Hold> by_entry = g.log;
    std::sort(by_entry.begin(), by_entry.end(),
              [](const Hold& a, const Hold& b) { return a.entered < b.entered; });
    for (size_t i = 1; i < by_entry.size(); ++i) {
        INFO("CPU " << by_entry[i].who << " entered after CPU " << by_entry[i - 1].who);
        CHECK(by_entry[i].asked >= by_entry[i - 1].asked);
    }
    CHECK(g.lock->stats().handoffs > 0);
    CHECK(g.lock->stats().cross_socket_handoffs > 0);
    CHECK(g.lock->stats().contended == g.lock->stats().handoffs);
}

TEST_CASE("a hand-off takes longer with more spinners and across sockets", "[spin_lock]") {
    Group two = saturated("two", LockKind::Ticket, sockets(2, 2), 40);
    Group eight = saturated("eight", LockKind::Ticket, sockets(8, 8), 40);
    Group thirty_two = saturated("many", LockKind::Ticket, sockets(32, 32), 40);
    Group across = saturated("across", LockKind::Ticket, sockets(2, 1), 40);
    sc_core::sc_start(ns(1e7));
    const double h2 = mean_handoff_ns(two.log), h8 = mean_handoff_ns(eight.log),
                 h32 = mean_handoff_ns(thirty_two.log), hx = mean_handoff_ns(across.log);
    INFO("hand-off ns: 2 spinners " << h2 << ", 8: " << h8 << ", 32: " << h32
                                    << "; 2 across sockets: " << hx);
    CHECK(h2 > 0);
    CHECK(h8 > h2);
    CHECK(h32 > h8);
    // One socket hop more on both transfers of a hand-off (the release's
    // ownership request and the next owner's read): 2 x hop_ns, plus what
    // the longer transfers make the arrivals' traffic queue.
    CHECK(hx - h2 >= 2 * 80 - 5);
    CHECK(hx - h2 <= 2 * 80 + 20);
    check_serialised(thirty_two.log);
    check_serialised(across.log);
}

TEST_CASE("an uncontended ticket lock costs one RMW and no hand-off", "[spin_lock]") {
    std::vector<Hold> log;
    SpinLock lock(LockKind::Ticket, line(), sockets(2, 2), 1);
    Contender a("a", lock, 0, ns(0), ns(100), ns(1000), 5, false, log);
    sc_core::sc_start(ns(1e5));
    REQUIRE(log.size() == 5);
    CHECK(lock.stats().handoffs == 0);
    CHECK(lock.stats().contended == 0);
    // The first RMW misses (miss_ns 25 + locked_op_ns 8); later ones hit (hit_ns 1 + 8).
    CHECK(ns_of(log[0].entered - log[0].asked) == Approx(33));
    CHECK(ns_of(log[1].entered - log[1].asked) == Approx(9));
}

TEST_CASE("a rw lock: readers share it, a writer has it alone and is not starved",
          "[spin_lock]") {
    std::vector<Hold> log;
    SpinLock lock(LockKind::Rw, line(), sockets(5, 3), 3);
    std::vector<std::unique_ptr<Contender>> readers;
    for (unsigned i = 0; i < 4; ++i)
        readers.push_back(std::make_unique<Contender>(("reader" + std::to_string(i)).c_str(), lock,
                                                      AgentId(i), ns(i * 7), ns(300), ns(5), 30,
                                                      true, log));
    Contender writer("writer", lock, 4, ns(50), ns(100), ns(200), 10, false, log);
    sc_core::sc_start(ns(1e6));
    REQUIRE(log.size() == 4 * 30 + 10);
    bool readers_overlapped = false;
    for (const Hold& w : log)
        for (const Hold& o : log) {
            if (&w == &o) continue;
            const bool overlap = o.entered < w.left && w.entered < o.left;
            if (!w.shared && overlap) {
                INFO("CPU " << o.who << " held the lock while the writer did");
                CHECK_FALSE(overlap);
            }
            if (w.shared && o.shared && overlap) readers_overlapped = true;
        }
    CHECK(readers_overlapped);
    // Readers keep coming back, yet the writer gets every one of its turns.
    CHECK(std::count_if(log.begin(), log.end(), [](const Hold& h) { return !h.shared; }) == 10);
}

TEST_CASE("a load of another field on an idle lock's line fetches it from the last owner",
          "[spin_lock]") {
    // The line is in the last owner's cache, modified; a load from the same
    // socket costs miss_ns 25 + snoop_modified_ns 15.
    std::vector<Hold> log;
    SpinLock lock(LockKind::Ticket, line(), sockets(5, 5), 3);
    Contender owner("owner", lock, 0, ns(0), ns(100), ns(1e6), 1, false, log);
    LineReader reader("reader", lock, 4, ns(1000), ns(1000), 1);
    sc_core::sc_start(ns(1e4));
    REQUIRE(reader.latency_ns.size() == 1);
    CHECK(reader.latency_ns[0] == Approx(40));
    CHECK(lock.line_stats().loads == 1);
    CHECK(lock.stats().acquisitions == 1);
}

TEST_CASE("a load of another field on the lock's line queues behind the spinners' re-reads",
          "[spin_lock]") {
    // Four CPUs on socket 0 keep the lock busy (three spin); the reader's
    // loads wait at the line's home behind their re-reads: longer on
    // average than on the idle line (40 ns), and every one is served.
    Group g = saturated("cpu", LockKind::Ticket, sockets(5, 5), 400, false, 4);
    SpinLock& lock = *g.lock;
    LineReader reader("busy_reader", lock, 4, ns(2000), ns(173), 100);
    sc_core::sc_start(ns(1e5));
    REQUIRE(reader.latency_ns.size() == 100);
    double sum = 0;
    for (double l : reader.latency_ns) sum += l;
    const auto waited = std::count_if(reader.latency_ns.begin(), reader.latency_ns.end(),
                                      [](double l) { return l > 40.5; });
    INFO("mean " << sum / 100 << " ns, " << waited << " of 100 waited");
    CHECK(waited >= 5);
    CHECK(sum / 100 > 40);
    CHECK(*std::max_element(reader.latency_ns.begin(), reader.latency_ns.end()) > 60);
    CHECK(lock.stats().contended > 100);
    check_serialised(g.log);
}

TEST_CASE("a rw lock's held time is the union of its holds, its owner time their sum",
          "[spin_lock]") {
    // Readers that hold the lock a few ns are let in together behind a
    // writer, each when its re-read is served: one may leave before another
    // is in, a gap the held time must not count. The stats are reset while
    // holds are under way; only their part after the reset counts.
    std::vector<Hold> log;
    SpinLock lock(LockKind::Rw, line(), sockets(7, 3), 5);
    std::vector<std::unique_ptr<Contender>> readers;
    for (unsigned i = 0; i < 6; ++i)
        readers.push_back(std::make_unique<Contender>(("reader" + std::to_string(i)).c_str(), lock,
                                                      AgentId(i), ns(i * 3), ns(2 + i), ns(40),
                                                      40, true, log));
    Contender writer("writer", lock, 6, ns(20), ns(150), ns(90), 30, false, log);
    const sc_time reset = ns(2003);
    sc_core::sc_start(reset);
    lock.reset_stats();
    sc_core::sc_start(ns(1e6));
    lock.close_window();
    REQUIRE(log.size() == 6 * 40 + 30);
    std::sort(log.begin(), log.end(), [](const Hold& a, const Hold& b) { return a.entered < b.entered; });
    sc_time held, owner_time, covered = reset;
    bool gap_between_readers = false;
    for (size_t i = 0; i < log.size(); ++i) {
        const sc_time from = std::max(log[i].entered, reset);
        if (log[i].left > from) owner_time += log[i].left - from;
        const sc_time start = std::max(from, covered);
        if (log[i].left > start) held += log[i].left - start;
        covered = std::max(covered, log[i].left);
        if (i && log[i].shared && log[i - 1].shared && log[i].entered > log[i - 1].left &&
            log[i].asked < log[i - 1].left)
            gap_between_readers = true;
    }
    CHECK(gap_between_readers);
    CHECK(lock.stats().held == held);
    CHECK(lock.stats().owner_time == owner_time);
    CHECK(held < owner_time);  // readers overlapped
}
