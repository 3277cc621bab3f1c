// EdgeIrqDesc: an x86 device vector's irq_desc on handle_edge_irq's path.
// Its cost on the vector's own CPU is inside cpu.handler_call_ns; a CPU the
// vector moved to fetches both of its lines from the old CPU's cache once.
#include <catch2/catch.hpp>

#include "model/linux/edge_irq_desc.h"

using namespace cidsim;
using sc_core::sc_time;

namespace {

SharedLineParams costs() {
    SharedLineParams p;
    p.hit = ns(1);
    p.locked_op = ns(8);
    p.miss = ns(100);
    p.snoop_modified = ns(40);
    p.hop = ns(200);
    p.invalidate_per_sharer = ns(3);
    return p;
}

// CPUs 0-1 on socket 0, 2-3 on socket 1.
std::shared_ptr<const LineTopology> two_sockets() {
    return LineTopology::of_nodes({0, 0, 1, 1});
}

}  // namespace

TEST_CASE("irq_desc on its vector's CPU: no cost beyond handler_call, no line leaves",
          "[irq_desc]") {
    EdgeIrqDesc desc(costs(), two_sockets(), 1);
    for (int i = 0; i < 5; ++i) CHECK(desc.handle(1) == sc_core::SC_ZERO_TIME);
    CHECK(desc.lock_line().stats().misses == 0);
    CHECK(desc.state_line().stats().misses == 0);
    CHECK(desc.lock_line().holds_exclusive(1));
}

TEST_CASE("irq_desc after a move: the new CPU fetches both lines from the old one, once",
          "[irq_desc]") {
    // Each line's first access takes it from the old CPU's modified copy
    // (miss + snoop of the modified copy + one copy invalidated) instead of
    // a hit: 2 x (100 + 40 + 3 - 1) ns on a socket, plus a hop each across.
    EdgeIrqDesc desc(costs(), two_sockets(), 0);
    CHECK(desc.handle(1) == ns(284));
    CHECK(desc.handle(1) == sc_core::SC_ZERO_TIME);
    CHECK(desc.lock_line().stats().misses == 1);
    CHECK(desc.state_line().stats().misses == 1);
    CHECK(desc.handle(2) == ns(284 + 2 * 200));  // to the other socket
    CHECK(desc.handle(2) == sc_core::SC_ZERO_TIME);
    CHECK(desc.lock_line().stats().remote_supplies == 1);
}
