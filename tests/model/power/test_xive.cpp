// Xive: one chip's interrupt controller on the IPI path (systems.md D):
// the trigger-to-exception latency, the cross-chip extra and the router's
// one event at a time.
#include <catch2/catch.hpp>

#include "model/power/xive.h"

using namespace cidsim;

namespace {
XiveParams costs() {
    XiveParams p;
    p.trigger = ns(400);
    p.cross_chip = ns(250);
    p.occupancy = ns(30);
    return p;
}
}  // namespace

TEST_CASE("an IPI from the target's chip takes the trigger latency, one from another chip the "
          "chip latency more", "[xive]") {
    const XiveParams p = costs();
    Xive chip1(p, 1);
    CHECK(chip1.trigger(1, ns(1000)) == ns(1000 + 400));
    CHECK(chip1.trigger(0, ns(5000)) == ns(5000 + 250 + 400));
    CHECK(chip1.stats().triggers == 2);
    CHECK(chip1.stats().cross_chip_triggers == 1);
    CHECK(chip1.stats().queued == 0);
}

TEST_CASE("the router serves one event at a time", "[xive]") {
    const XiveParams p = costs();
    Xive chip0(p, 0);
    CHECK(chip0.trigger(0, ns(1000)) == ns(1400));
    CHECK(chip0.trigger(0, ns(1000)) == ns(1430));
    CHECK(chip0.trigger(0, ns(1010)) == ns(1460));
    CHECK(chip0.stats().queued == 2);
}
