// SharedLine: the coherence cost of a hot line shared by CPUs and the
// remapping hardware (mechanism.md section 2's table of line states,
// docs/specification.md).
#include <catch2/catch.hpp>

#include "expect_abort.h"
#include "model/coherence/shared_line.h"

using namespace cidsim;

namespace {

// Round numbers so each cost names the components it is made of.
SharedLineParams costs() {
    SharedLineParams p;
    p.hit = ns(1);
    p.locked_op = ns(10);
    p.upgrade = ns(30);
    p.miss = ns(100);
    p.snoop_modified = ns(40);
    p.hop = ns(200);
    p.device_rmw = ns(50);
    return p;
}

constexpr AgentId kCpu0 = 0, kCpu1 = 1, kIommu = 2;

}  // namespace

TEST_CASE("a CPU load after an IOMMU post misses, the next load hits", "[shared_line]") {
    SharedLine line(costs(), std::vector<uint8_t>{0, 0, 0});
    CHECK(line.access(kCpu0, LineAccess::Load) == ns(100));  // cold
    CHECK(line.access(kCpu0, LineAccess::Load) == ns(1));
    CHECK(line.holds_exclusive(kCpu0));
    CHECK(line.access(kIommu, LineAccess::DeviceRmw) == ns(50));  // clean copy: no snoop
    CHECK_FALSE(line.holds(kCpu0));
    CHECK(line.access(kCpu0, LineAccess::Load) == ns(100));
    CHECK(line.stats().misses == 2);
    CHECK(line.stats().device_rmws == 1);
    CHECK(line.stats().invalidations == 1);
    CHECK(line.misses_of(kCpu0) == 2);
    CHECK(line.misses_of(kIommu) == 0);  // device RMWs are not CPU misses
}

TEST_CASE("a locked xchg on a line held exclusively is a hit, on a shared line an upgrade",
          "[shared_line]") {
    SharedLine line(costs(), std::vector<uint8_t>{0, 0, 0});
    line.access(kCpu0, LineAccess::Load);  // E
    CHECK(line.access(kCpu0, LineAccess::LockedRmw) == ns(10 + 1));  // E -> M silently
    CHECK(line.stats().upgrades == 0);

    line.access(kCpu1, LineAccess::Load);  // now shared by both (cpu0's M supplies it)
    CHECK(line.holds(kCpu0));
    CHECK(line.holds(kCpu1));
    CHECK_FALSE(line.holds_exclusive(kCpu0));
    CHECK(line.access(kCpu0, LineAccess::LockedRmw) == ns(10 + 30));  // S -> M: upgrade
    CHECK(line.stats().upgrades == 1);
    CHECK(line.holds_exclusive(kCpu0));
    CHECK_FALSE(line.holds(kCpu1));  // invalidated
    CHECK(line.misses_of(kCpu0) == 2);  // cold load + upgrade
}

TEST_CASE("a locked xchg after an IOMMU post is a miss for ownership", "[shared_line]") {
    SharedLine line(costs(), std::vector<uint8_t>{0, 0, 0});
    line.access(kCpu0, LineAccess::LockedRmw);
    line.access(kIommu, LineAccess::DeviceRmw);
    CHECK(line.access(kCpu0, LineAccess::LockedRmw) == ns(10 + 100));
    CHECK(line.stats().misses == 2);
    CHECK(line.stats().locked_rmws == 2);
}

TEST_CASE("misses_of counts each agent's own misses and upgrades", "[shared_line]") {
    SharedLine line(costs(), std::vector<uint8_t>{0, 0, 0});
    line.access(kCpu0, LineAccess::Load);       // cpu0 miss
    line.access(kCpu1, LineAccess::Load);       // cpu1 miss
    line.access(kCpu1, LineAccess::LockedRmw);  // cpu1 upgrade
    line.access(kCpu0, LineAccess::Load);       // cpu0 miss (cpu1 has it modified)
    line.access(kCpu0, LineAccess::Load);       // hit
    CHECK(line.misses_of(kCpu0) == 2);
    CHECK(line.misses_of(kCpu1) == 2);
    line.reset_stats();
    CHECK(line.misses_of(kCpu0) == 0);
    CHECK(line.misses_of(kCpu1) == 0);
    CHECK(line.stats().loads == 0);
    CHECK(line.holds(kCpu0));  // resetting statistics keeps the line state
}

TEST_CASE("a modified line is snooped, and each socket hop to the supplier costs extra",
          "[shared_line]") {
    // cpu0 on socket 0, cpu1 on socket 1, the IOMMU on socket 0.
    SharedLine line(costs(), std::vector<uint8_t>{0, 1, 0});
    line.access(kCpu0, LineAccess::LockedRmw);  // M at cpu0
    CHECK(line.access(kCpu1, LineAccess::Load) == ns(100 + 40 + 200));  // remote, modified
    CHECK(line.access(kCpu0, LineAccess::LockedRmw) == ns(10 + 30 + 200));  // remote upgrade
    // The IOMMU's post snoops cpu0's modified copy on its own socket.
    CHECK(line.access(kIommu, LineAccess::DeviceRmw) == ns(50 + 40));
    line.access(kCpu1, LineAccess::Load);  // cpu1 holds it clean now (E)
    CHECK(line.access(kIommu, LineAccess::DeviceRmw) == ns(50 + 200));  // one hop to cpu1

    SharedLine same_socket(costs(), std::vector<uint8_t>{0, 0, 0});
    same_socket.access(kCpu0, LineAccess::LockedRmw);
    CHECK(same_socket.access(kCpu1, LineAccess::Load) == ns(100 + 40));
}

TEST_CASE("hop cost grows with the socket distance", "[shared_line]") {
    SharedLine line(costs(), std::vector<uint8_t>{0, 3});
    line.access(0, LineAccess::Load);
    CHECK(line.access(1, LineAccess::Load) == ns(100 + 3 * 200));
}


namespace {

// 352 CPUs as the P10 partition numbers them: 4 chips, SMT8 cores.
std::shared_ptr<const LineTopology> p10_like() {
    std::vector<uint8_t> node(352);
    std::vector<uint32_t> core(352);
    for (unsigned a = 0; a < 352; ++a) node[a] = uint8_t(a / 88), core[a] = a / 8;
    std::vector<uint8_t> hops(16, 1);
    for (unsigned k = 0; k < 4; ++k) hops[k * 4 + k] = 0;
    return std::make_shared<const LineTopology>(node, core, hops, SupplierRule::Nearest);
}

SharedLineParams scaled_costs() {
    SharedLineParams p = costs();
    p.same_core = ns(5);
    p.invalidate_per_sharer = ns(3);
    p.home_occupancy = ns(10);
    return p;
}

// The ownership hand-off after `readers` CPUs (of chip 0, from CPU 8 on)
// read the line CPU 0 wrote: the writer's upgrade.
sc_core::sc_time upgrade_after_readers(unsigned readers, AgentId writer) {
    SharedLine line(scaled_costs(), p10_like());
    line.access(0, LineAccess::Store);
    for (unsigned r = 0; r < readers; ++r) line.access(AgentId(8 + r), LineAccess::Load);
    line.access(writer, LineAccess::Load);
    return line.access(writer, LineAccess::Store);
}

}  // namespace

TEST_CASE("a line shared by 352 agents in 4 chips: the nearest copy supplies it",
          "[shared_line]") {
    SharedLine line(scaled_costs(), p10_like());
    line.access(100, LineAccess::Store);  // chip 1 owns it modified
    // From chip 0: a miss that snoops the modified copy one chip hop away.
    CHECK(line.access(0, LineAccess::Load) == ns(100 + 40 + 200));
    CHECK(line.stats().remote_supplies == 1);
    // CPU 1 is CPU 0's SMT sibling: its copy answers.
    CHECK(line.access(1, LineAccess::Load) == ns(5));
    // CPU 20 (chip 0, another core): CPU 0's copy on its chip, no hop.
    CHECK(line.access(20, LineAccess::Load) == ns(100));
    // CPU 300 (chip 3): no copy on its chip, one hop to the nearest.
    CHECK(line.access(300, LineAccess::Load) == ns(100 + 200));
    CHECK(line.sharers() == 5);
}

TEST_CASE("an ownership hand-off costs more the more copies it invalidates and the farther it "
          "goes", "[shared_line]") {
    // An upgrade in chip 0: upgrade_ns + 3 ns per copy it invalidates.
    CHECK(upgrade_after_readers(0, 40) == ns(30 + 1 * 3));    // CPU 0's copy
    CHECK(upgrade_after_readers(10, 40) == ns(30 + 11 * 3));  // CPU 0's and the 10 readers'
    CHECK(upgrade_after_readers(80, 9) == ns(30 + 80 * 3));   // CPU 9 is one of the 81 holders
    // From another chip: the nearest other copy is one hop away.
    CHECK(upgrade_after_readers(10, 200) == ns(30 + 200 + 11 * 3));
}

TEST_CASE("hand-offs of a serialised line queue one at a time", "[shared_line]") {
    SharedLine line(scaled_costs(), p10_like());
    const sc_core::sc_time t0 = ns(1000);
    line.access_serialised(0, LineAccess::Store, t0);
    // Three chips' CPUs ask for ownership at once: each waits for the one before.
    const sc_core::sc_time a = line.access_serialised(100, LineAccess::Store, t0);
    const sc_core::sc_time b = line.access_serialised(200, LineAccess::Store, t0);
    const sc_core::sc_time c = line.access_serialised(300, LineAccess::Store, t0);
    const sc_core::sc_time hand_off = ns(100 + 40 + 200 + 3);  // miss, snoop, hop, one copy
    CHECK(a - t0 > sc_core::SC_ZERO_TIME);
    CHECK(b - a == hand_off);
    CHECK(c - b == hand_off);
    CHECK(line.stats().queued_transfers == 3);
}

TEST_CASE("a serialised line refuses a request made before the kernel's time", "[shared_line]") {
    SharedLine line(scaled_costs(), p10_like());
    sc_core::sc_start(ns(500));  // the kernel's time is now 500 ns
    line.access_serialised(0, LineAccess::Store, ns(500));  // at it: served
    line.access_serialised(100, LineAccess::Store, ns(900));  // after it: served
    const std::string message = cidsim_test::expect_abort(
        [&] { line.access_serialised(200, LineAccess::Store, ns(499)); });
    CHECK_THAT(message, Catch::Contains("before the kernel's time"));
}
