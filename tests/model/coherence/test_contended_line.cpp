// ContendedLine: a line every CPU fights over, served one transfer at a time
// in the fabric's order (systems.md D, "SharedLine needs": serialised
// ownership); random order picks uniformly among the waiting requests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <functional>

#include "model/coherence/contended_line.h"

using namespace cidsim;
using sc_core::sc_time;

namespace {

SharedLineParams costs() {
    SharedLineParams p;
    p.hit = ns(1);
    p.upgrade = ns(30);
    p.miss = ns(100);
    p.snoop_modified = ns(40);
    p.hop = ns(200);
    p.invalidate_per_sharer = ns(3);
    p.home_occupancy = ns(10);
    return p;
}

// 8 CPUs, one core each: 0-3 on chip 0, 4-7 on chip 1.
std::shared_ptr<const LineTopology> two_chips() {
    std::vector<uint8_t> node{0, 0, 0, 0, 1, 1, 1, 1};
    std::vector<uint32_t> core{0, 1, 2, 3, 4, 5, 6, 7};
    return std::make_shared<const LineTopology>(node, core, std::vector<uint8_t>{0, 1, 1, 0},
                                                SupplierRule::Nearest);
}

struct Served : LineRequester {
    AgentId cpu = 0;
    std::vector<std::pair<AgentId, sc_time>>* log = nullptr;
    void line_served(const sc_time& done) override { log->emplace_back(cpu, done); }
};

// One requester per CPU, every served access logged as (cpu, done).
struct Requesters {
    std::vector<std::pair<AgentId, sc_time>> log;
    std::array<Served, 8> who;
    Requesters() {
        for (AgentId c = 0; c < 8; ++c) who[c].cpu = c, who[c].log = &log;
    }
};

// Runs `script` in a thread of its own, then the simulation to its end.
struct Bench : sc_core::sc_module {
    SC_HAS_PROCESS(Bench);
    std::function<void()> script;
    Bench(sc_core::sc_module_name n, std::function<void()> s) : sc_module(n), script(std::move(s)) {
        SC_THREAD(body);
    }
    // The thread stays suspended to the end: when it returned, LeakSanitizer's
    // scan at exit crashed (signal 11) in about a third of the runs.
    void body() {
        script();
        sc_core::wait(m_never);
    }
    sc_core::sc_event m_never;
};

}  // namespace

TEST_CASE("random order: waiting ownership requests are served one hand-off at a time, each "
          "once", "[contended_line]") {
    ContendedLine line("line", costs(), two_chips(), LineOrder::Random, 7);
    Requesters r;
    auto& [log, who] = r;
    Bench bench("bench", [&] {
        sc_core::wait(ns(1000));
        line.request(0, LineAccess::Store, who[0]);  // a free line: served at once
        REQUIRE(log.size() == 1);
        for (AgentId c = 1; c < 4; ++c) line.request(c, LineAccess::Store, who[c]);
        CHECK(log.size() == 1);  // they wait for CPU 0's transfer
    });
    sc_core::sc_start();
    REQUIRE(log.size() == 4);
    CHECK(log[0].second == ns(1000 + 100));  // from memory
    const sc_time hand_off = ns(100 + 40 + 3);  // miss, snoop of the modified copy, one copy dropped
    for (size_t i = 1; i < 4; ++i) CHECK(log[i].second - log[i - 1].second == hand_off);
    std::vector<AgentId> served;
    for (const auto& [c, t] : log) served.push_back(c);
    std::sort(served.begin(), served.end());
    CHECK(served == std::vector<AgentId>{0, 1, 2, 3});
    CHECK(line.line().stats().transfers == 4);
    CHECK(line.line().stats().queued_transfers == 3);
}

TEST_CASE("random order: each waiting request is as likely as any other to be served first",
          "[contended_line]") {
    ContendedLine line("line", costs(), two_chips(), LineOrder::Random, 11);
    Requesters r;
    auto& [log, who] = r;
    std::array<int, 8> first{};
    constexpr int kRounds = 600;
    Bench bench("bench", [&] {
        for (int r = 0; r < kRounds; ++r) {
            sc_core::wait(ns(10000));
            log.clear();
            line.request(0, LineAccess::Store, who[0]);
            // CPUs 1, 2 (chip 0) and 5 (chip 1) ask in that order.
            for (AgentId c : {1, 2, 5}) line.request(c, LineAccess::Store, who[c]);
            sc_core::wait(ns(5000));
            REQUIRE(log.size() == 4);
            ++first[log[1].first];
        }
    });
    sc_core::sc_start();
    // 200 each expected; a binomial standard deviation is about 11.5.
    for (AgentId c : {1, 2, 5}) {
        CHECK(first[c] > 150);
        CHECK(first[c] < 250);
    }
}

TEST_CASE("a load of a copy the requester holds never waits behind ownership requests",
          "[contended_line]") {
    ContendedLine line("line", costs(), two_chips(), LineOrder::Random, 3);
    Requesters r;
    auto& [log, who] = r;
    Bench bench("bench", [&] {
        sc_core::wait(ns(1000));
        line.request(0, LineAccess::Store, who[0]);
        sc_core::wait(ns(1000));  // CPU 0 holds it modified
        log.clear();
        line.request(4, LineAccess::Load, who[4]);   // chip 1 reads it: the line is busy
        line.request(5, LineAccess::Store, who[5]);  // waits
        REQUIRE(log.size() == 1);
        line.request(0, LineAccess::Load, who[0]);   // CPU 0's shared copy: a hit, at once
        REQUIRE(log.size() == 2);
        CHECK(log[1] == std::make_pair(AgentId(0), ns(2000 + 1)));
    });
    sc_core::sc_start();
    REQUIRE(log.size() == 3);
    CHECK(log[2].first == 5);
}

TEST_CASE("fifo order serves as SharedLine::access_serialised does, at the request",
          "[contended_line]") {
    ContendedLine line("line", costs(), two_chips(), LineOrder::Fifo, 1);
    SharedLine reference(costs(), two_chips());
    Requesters r;
    auto& [log, who] = r;
    std::vector<sc_time> expected;
    Bench bench("bench", [&] {
        sc_core::wait(ns(1000));
        for (AgentId c : {0, 4, 1, 5, 2}) {
            const LineAccess kind = c % 2 ? LineAccess::Load : LineAccess::Store;
            line.request(c, kind, who[c]);
            expected.push_back(reference.access_serialised(c, kind, ns(1000)));
            CHECK(log.size() == expected.size());  // answered at the request
        }
    });
    sc_core::sc_start();
    REQUIRE(log.size() == expected.size());
    for (size_t i = 0; i < log.size(); ++i) CHECK(log[i].second == expected[i]);
    CHECK(line.line().stats().queued_transfers == reference.stats().queued_transfers);
}
