// Links (kernel/link.h): a message reaches the receiver it was connected to,
// at the time it is sent for; an InPort's lookahead is the least over its
// senders (a sender without one counts as "may send now" plus the link's
// minimum latency); with the check on, a message sooner than the minimum
// latency or at a time the receiver already relied on aborts.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "expect_abort.h"
#include "kernel/link.h"
#include "model/base/param_visitor.h"  // ns()

using namespace cidsim;
using sc_core::sc_time;

namespace {

struct Log : Receiver<int> {
    std::vector<std::pair<sc_time, int>> seen;
    void receive(const sc_time& at, const int& msg) override { seen.push_back({at, msg}); }
};

// A sender's lookahead fixed by the test.
struct Fixed : Lookahead {
    sc_time next;
    explicit Fixed(sc_time t) : next(t) {}
    sc_time earliest_next(const sc_time&) const override { return next; }
};

}  // namespace

TEST_CASE("a message reaches the connected receiver at its time", "[link]") {
    Log log;
    InPort<int> in(log, "log");
    OutPort<int> out;
    CHECK_FALSE(in.connected());
    CHECK_FALSE(out.connected());
    connect(out, in);
    CHECK(in.connected());
    CHECK(out.connected());
    out.send(ns(7), 42);
    out.send(ns(9), 43);
    REQUIRE(log.seen.size() == 2);
    CHECK(log.seen[0] == std::make_pair(ns(7), 42));
    CHECK(log.seen[1] == std::make_pair(ns(9), 43));
    CHECK(in.name() == "log");
}

TEST_CASE("an InPort's lookahead is the least over its senders", "[link]") {
    Log log;
    InPort<int> in(log, "log");
    CHECK(in.earliest_next(never()) == never());  // no sender: nothing can arrive

    Fixed late(ns(100));
    OutPort<int> declared(&late);
    connect(declared, in, ns(3));
    CHECK(in.earliest_next(never()) == ns(100));  // one sender: its own answer
    late.next = ns(50);
    CHECK(in.earliest_next(never()) == ns(50));   // asked afresh each time

    OutPort<int> silent;  // no lookahead: may send now, plus the link's latency
    connect(silent, in, ns(20));
    CHECK(in.earliest_next(never()) == ns(20));
    late.next = ns(10);
    CHECK(in.earliest_next(never()) == ns(10));
}

TEST_CASE("a sender without a lookahead keeps its receiver at now", "[link]") {
    Log log;
    InPort<int> in(log, "log");
    OutPort<int> out;
    connect(out, in);
    CHECK(in.earliest_next(never()) == sim_now());
}

TEST_CASE("the check aborts on a message sooner than the link's minimum latency", "[link]") {
    Log log;
    InPort<int> in(log, "cpu1.lapic");
    OutPort<int> out;
    connect(out, in, ns(10));
    set_lookahead_check(true);
    out.send(ns(10), 1);  // exactly the minimum latency: fine
    CHECK(log.seen.size() == 1);
    const std::string message = cidsim_test::expect_abort([&] { out.send(ns(9), 2); });
    CHECK_THAT(message, Catch::Contains("link to cpu1.lapic"));
    CHECK_THAT(message, Catch::Contains("minimum latency"));
    set_lookahead_check(false);
    out.send(ns(9), 3);  // unchecked: delivered as sent
    CHECK(log.seen.size() == 2);
}

TEST_CASE("the check aborts on a message at or before what the receiver relied on", "[link]") {
    Log log;
    InPort<int> in(log, "iommu.port");
    OutPort<int> out;
    connect(out, in);
    set_lookahead_check(true);
    in.promise().relied_on(ns(30));
    out.send(ns(31), 1);  // after the promise: fine
    CHECK(log.seen.size() == 1);
    const std::string message = cidsim_test::expect_abort([&] { out.send(ns(30), 2); });
    CHECK_THAT(message, Catch::Contains("lookahead broken on link iommu.port"));
    set_lookahead_check(false);
}
