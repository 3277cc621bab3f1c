// GuestPid: KVM's state machine for a vCPU's posted-interrupt descriptor
// (systems.md A): SN while preempted, ON re-evaluated at load, NV 0xF1 and
// the blocked list while halted, software posting, the PIR sync.
#include <catch2/catch.hpp>

#include "model/vmx/guest_pid.h"

using namespace cidsim;
using sc_core::sc_time;

namespace {
SharedLine line() { return SharedLine(SharedLineParams{}, std::vector<uint8_t>{0, 0}); }
}  // namespace

TEST_CASE("SN set while preempted suppresses notifications; the load sets ON for the PIR",
          "[guest_pid]") {
    PostedDescriptor pid(0x20000000, kPostedIntrVector, 1, line());
    GuestPid g(pid, 0);
    sc_time c;
    g.load(1, c);
    CHECK_FALSE(pid.sn());
    g.put(true, c);  // preempted
    REQUIRE(pid.sn());
    // The remapping unit's post: PIR set, nothing sent, ON stays clear.
    CHECK_FALSE(pid.post(1, 0x41, false, c));
    CHECK_FALSE(pid.on());
    CHECK(pid.pir().test(0x41));
    g.load(1, c);  // scheduled in again
    CHECK_FALSE(pid.sn());
    CHECK(pid.on());
    VectorBits virr;
    CHECK(g.sync_to(virr, c));
    CHECK(virr.test(0x41));
    CHECK_FALSE(pid.pir().any());
    CHECK_FALSE(pid.on());
}

TEST_CASE("a blocking vCPU keeps SN clear, switches NV to 0xF1 and joins the blocked list",
          "[guest_pid]") {
    PostedDescriptor pid(0x20000000, kPostedIntrVector, 1, line());
    GuestPid g(pid, 0);
    BlockedList list;
    sc_time c;
    g.put(false, c);  // switched out because it blocks
    CHECK_FALSE(pid.sn());
    REQUIRE(g.pre_block(list, 1, c));
    CHECK(pid.nv() == kPostedIntrWakeupVector);
    CHECK(list.vcpus.size() == 1);
    CHECK(pid.post(1, 0x41, false, c));  // notification on 0xF1
    g.post_block(list, c);
    CHECK(pid.nv() == kPostedIntrVector);
    CHECK(list.vcpus.empty());
    // With ON already set, pi_pre_block refuses: the vCPU must not sleep.
    CHECK_FALSE(g.pre_block(list, 1, c));
    CHECK(list.vcpus.empty());
    CHECK(pid.nv() == kPostedIntrVector);
}

TEST_CASE("software posting sets PIR then ON and says when ON was clear", "[guest_pid]") {
    PostedDescriptor pid(0x20000000, kPostedIntrVector, 1, line());
    GuestPid g(pid, 0);
    sc_time c;
    CHECK(g.deliver(0x41, c));
    CHECK(c > sc_core::SC_ZERO_TIME);
    CHECK_FALSE(g.deliver(0x42, c));  // ON already set
    CHECK(pid.pir().test(0x41));
    CHECK(pid.pir().test(0x42));
    // The post finds ON set: suppressed.
    CHECK_FALSE(pid.post(1, 0x43, false, c));
}
