// SharedLine: the coherence cost of a hot line shared by CPUs and the
// remapping hardware (spec/mechanism.md section 2's table of line states).
#include <catch2/catch.hpp>

#include "model/shared_line.h"

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
    SharedLine line(costs(), {0, 0, 0});
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
    SharedLine line(costs(), {0, 0, 0});
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
    SharedLine line(costs(), {0, 0, 0});
    line.access(kCpu0, LineAccess::LockedRmw);
    line.access(kIommu, LineAccess::DeviceRmw);
    CHECK(line.access(kCpu0, LineAccess::LockedRmw) == ns(10 + 100));
    CHECK(line.stats().misses == 2);
    CHECK(line.stats().locked_rmws == 2);
}

TEST_CASE("misses_of counts each agent's own misses and upgrades", "[shared_line]") {
    SharedLine line(costs(), {0, 0, 0});
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
    SharedLine line(costs(), {0, 1, 0});
    line.access(kCpu0, LineAccess::LockedRmw);  // M at cpu0
    CHECK(line.access(kCpu1, LineAccess::Load) == ns(100 + 40 + 200));  // remote, modified
    CHECK(line.access(kCpu0, LineAccess::LockedRmw) == ns(10 + 30 + 200));  // remote upgrade
    // The IOMMU's post snoops cpu0's modified copy on its own socket.
    CHECK(line.access(kIommu, LineAccess::DeviceRmw) == ns(50 + 40));
    line.access(kCpu1, LineAccess::Load);  // cpu1 holds it clean now (E)
    CHECK(line.access(kIommu, LineAccess::DeviceRmw) == ns(50 + 200));  // one hop to cpu1

    SharedLine same_socket(costs(), {0, 0, 0});
    same_socket.access(kCpu0, LineAccess::LockedRmw);
    CHECK(same_socket.access(kCpu1, LineAccess::Load) == ns(100 + 40));
}

TEST_CASE("hop cost grows with the socket distance", "[shared_line]") {
    SharedLine line(costs(), {0, 3});
    line.access(0, LineAccess::Load);
    CHECK(line.access(1, LineAccess::Load) == ns(100 + 3 * 200));
}

TEST_CASE("more than 64 agents are refused", "[shared_line]") {
    CHECK_THROWS_AS(SharedLine(costs(), std::vector<uint8_t>(65, 0)), std::invalid_argument);
    CHECK_NOTHROW(SharedLine(costs(), std::vector<uint8_t>(64, 0)));
}
