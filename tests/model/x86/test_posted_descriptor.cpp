// PostedDescriptor: the PID's post semantics [5.2.3] (PIR, ON, SN, URG),
// the CPU's accesses, their costs through SharedLine, and the access log.
#include <catch2/catch.hpp>

#include "expect_abort.h"

#include "model/x86/posted_descriptor.h"

using namespace cidsim;

namespace {

constexpr AgentId kCpu = 0, kIommu = 1;

SharedLine line() {
    SharedLineParams p;
    p.hit = ns(1);
    p.locked_op = ns(10);
    p.miss = ns(100);
    p.device_rmw = ns(50);
    p.snoop_modified = ns(40);
    return SharedLine(p, std::vector<uint8_t>{0, 0});
}

}  // namespace

TEST_CASE("the first post sets ON and notifies, posts while ON is set are suppressed",
          "[pid]") {
    PostedDescriptor pid(0x1000, kPostedMsiNotificationVector, 3, line());
    CHECK(pid.nv() == 0xEB);
    CHECK(pid.ndst() == 3);
    sc_core::sc_time cost;
    CHECK(pid.post(kIommu, 0x24, false, cost));
    CHECK(pid.on());
    CHECK_FALSE(pid.post(kIommu, 0x25, false, cost));
    CHECK_FALSE(pid.post(kIommu, 0x24, false, cost));  // merges into the set bit
    CHECK_FALSE(pid.post(kIommu, 0x26, true, cost));   // URG does not override ON
    CHECK(pid.pir().test(0x24));
    CHECK(pid.pir().test(0x25));
    CHECK(pid.pir().test(0x26));
    CHECK(pid.pir().count() == 3);
    CHECK(pid.posts() == 4);
    CHECK(pid.notifications() == 1);

    pid.clear_on(kCpu, cost);
    CHECK_FALSE(pid.on());
    CHECK(pid.post(kIommu, 0x27, false, cost));  // ON clear again: notifies
    CHECK(pid.notifications() == 2);
}

TEST_CASE("SN suppresses notifications unless the IRTE is urgent", "[pid]") {
    PostedDescriptor pid(0x1000, 0xF2, 0, line());
    sc_core::sc_time cost;
    pid.set_sn(true);
    CHECK_FALSE(pid.post(kIommu, 0x40, false, cost));
    CHECK_FALSE(pid.on());  // X = 0: ON stays clear
    CHECK(pid.pir().test(0x40));
    CHECK(pid.post(kIommu, 0x41, true, cost));  // URG: notify despite SN
    CHECK(pid.on());
}

TEST_CASE("CPU reads and xchgs see and take PIR words", "[pid]") {
    PostedDescriptor pid(0x1000, 0xEB, 0, line());
    sc_core::sc_time cost;
    pid.post(kIommu, 0x24, false, cost);
    pid.post(kIommu, 0x81, false, cost);
    CHECK(pid.read_word(kCpu, 0, cost) == uint64_t(1) << 0x24);
    CHECK(pid.read_word(kCpu, 1, cost) == 0);
    CHECK(pid.xchg_word(kCpu, 2, 0, cost) == uint64_t(1) << 1);
    CHECK(pid.read_word(kCpu, 2, cost) == 0);
    CHECK(pid.pir().test(0x24));
    CHECK_FALSE(pid.pir().test(0x81));
}

TEST_CASE("each PID access is charged through the shared line", "[pid]") {
    PostedDescriptor pid(0x1000, 0xEB, 0, line());
    sc_core::sc_time cost;
    pid.post(kIommu, 0x24, false, cost);
    CHECK(cost == ns(50));
    pid.read_word(kCpu, 0, cost);
    CHECK(cost == ns(100));  // the post invalidated the CPU's copy
    pid.read_word(kCpu, 1, cost);
    CHECK(cost == ns(1));
    pid.xchg_word(kCpu, 0, 0, cost);
    CHECK(cost == ns(10 + 1));  // E -> M
    pid.post(kIommu, 0x25, false, cost);
    CHECK(cost == ns(50 + 40));  // snoops the CPU's modified copy
    pid.clear_on(kCpu, cost);
    CHECK(cost == ns(10 + 100));
    CHECK(pid.line().misses_of(kCpu) == 2);
    pid.reset_stats();
    CHECK(pid.posts() == 0);
    CHECK(pid.line().misses_of(kCpu) == 0);
}

TEST_CASE("record_into logs every access in order, nullptr stops", "[pid]") {
    PostedDescriptor pid(0x1000, 0xEB, 0, line());
    std::vector<PidAccess> log;
    sc_core::sc_time cost;
    pid.post(kIommu, 0x30, false, cost);  // before recording
    pid.record_into(&log);
    pid.read_word(kCpu, 0, cost);
    pid.post(kIommu, 0x31, false, cost);
    pid.xchg_word(kCpu, 0, 0, cost);
    pid.clear_on(kCpu, cost);
    pid.post(kIommu, 0x32, false, cost);
    pid.record_into(nullptr);
    pid.read_word(kCpu, 0, cost);

    REQUIRE(log.size() == 5);
    CHECK(log[0].op == PidOp::Read);
    CHECK(log[0].agent == kCpu);
    CHECK(log[0].word == 0);
    CHECK(log[0].value == uint64_t(1) << 0x30);
    CHECK(log[1].op == PidOp::Post);
    CHECK(log[1].agent == kIommu);
    CHECK(log[1].value == 0x31);
    CHECK_FALSE(log[1].notify);  // ON still set by the first post
    CHECK(log[2].op == PidOp::Xchg);
    CHECK(log[2].value == (uint64_t(1) << 0x30 | uint64_t(1) << 0x31));
    CHECK(log[3].op == PidOp::ClearOn);
    CHECK(log[3].word == -1);
    CHECK(log[4].op == PidOp::Post);
    CHECK(log[4].notify);
    CHECK(std::string(to_string(PidOp::Xchg)) == "xchg");
}

namespace {
struct QuietCpu : Lookahead {
    sc_core::sc_time earliest_next(const sc_core::sc_time&) const override { return ns(1000); }
};
}  // namespace

TEST_CASE("the lookahead check aborts on a post before what the CPU relied on", "[pid][lookahead]") {
    const std::string message = cidsim_test::expect_abort([] {
        set_lookahead_check(true);
        PostedDescriptor pid(0x1000, kPostedMsiNotificationVector, 3, SharedLine(SharedLineParams(), std::vector<uint8_t>{0, 0}));
        pid.check_post_at(ns(400));  // nothing relied on yet: fine
        pid.cpu_relied().relied_on(ns(500));
        pid.check_post_at(ns(501));  // after: fine
        pid.check_post_at(ns(500));  // at: the post would have come first
    });
    CHECK(message.find("PID of APIC 3, posts seen by its CPU") != std::string::npos);
    CHECK(message.find("seen at 500 ns") != std::string::npos);
}

TEST_CASE("the lookahead check aborts on a CPU access before a post made ahead on its lookahead",
          "[pid][lookahead]") {
    const std::string message = cidsim_test::expect_abort([] {
        set_lookahead_check(true);
        PostedDescriptor pid(0x1000, kPostedMsiNotificationVector, 3, SharedLine(SharedLineParams(), std::vector<uint8_t>{0, 0}));
        QuietCpu cpu;
        pid.attach_cpu(cpu);
        REQUIRE(pid.poster_may_access_at(ns(300)));  // posts at 300, ahead
        pid.check_cpu_access_at(ns(300));  // the same picosecond: the post comes first
        pid.check_cpu_access_at(ns(299));  // before it: the CPU would not have seen it
    });
    CHECK(message.find("CPU accesses seen by the remapping unit") != std::string::npos);
    CHECK(message.find("seen at 299 ns") != std::string::npos);
}

TEST_CASE("the remapping unit's RMW holds the PID line: posts serialise, CPU accesses wait",
          "[pid]") {
    // device_rmw is 50 ns on an unowned line here (line() above).
    PostedDescriptor pid(0x1000, kPostedMsiNotificationVector, 3, line());
    sc_core::sc_time cost;
    CHECK(pid.post_held(kIommu, 0x24, false, ns(1000), cost));
    CHECK(cost == ns(50));
    // A CPU access during the RMW waits for its end; after it, none.
    CHECK(pid.line_wait(ns(1020)) == ns(30));
    CHECK(pid.line_wait(ns(1050)) == sc_core::SC_ZERO_TIME);
    // A second post ready during the first waits for the line: it starts at
    // 1050 and ends a line cost later, its cost counted from its readiness.
    sc_core::sc_time second;
    CHECK_FALSE(pid.post_held(kIommu, 0x25, false, ns(1010), second));
    CHECK(second > ns(40));
    CHECK(pid.line_wait(ns(1050)) == ns(1010) + second - ns(1050));
    // Posts that do not overlap do not wait.
    sc_core::sc_time third;
    pid.post_held(kIommu, 0x26, false, ns(5000), third);
    CHECK(third < second);
}
