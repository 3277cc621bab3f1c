// HostScheduler: FIFO over normal, wake-up preemption, the preempt
// notifiers KVM hangs on a vCPU thread (systems.md B).
#include <catch2/catch.hpp>

#include <string>

#include "model/linux/host_scheduler.h"

using namespace cidsim;

namespace {
struct Log : PreemptNotifier {
    std::string s;
    void sched_out(bool preempted) override { s += preempted ? "out(preempted) " : "out "; }
    void sched_in() override { s += "in "; }
};
}  // namespace

TEST_CASE("a woken FIFO IRQ thread preempts the vCPU thread; notifiers put and load it",
          "[scheduler]") {
    HostScheduler s;
    Log log;
    HostThread vcpu{"vcpu", SchedPolicy::Normal, 0, false, &log};
    HostThread irq{"irq/36-vfio", SchedPolicy::Fifo, 50, false, nullptr};
    const int v = s.add(vcpu), t = s.add(irq);
    CHECK(s.pick() == HostScheduler::kIdle);
    CHECK(s.wake(v));  // over idle
    CHECK(s.switch_to(s.pick()));
    CHECK(s.current() == v);
    CHECK(log.s == "in ");
    CHECK_FALSE(s.need_resched());
    CHECK(s.wake(t));  // FIFO over normal: NEED_RESCHED
    CHECK(s.need_resched());
    CHECK(s.switch_to(s.pick()));
    CHECK(s.current() == t);
    CHECK(log.s == "in out(preempted) ");
    s.sleep_current();
    CHECK(s.pick() == v);
    s.switch_to(v);
    CHECK(log.s == "in out(preempted) in ");
    CHECK(s.stats().context_switches == 3);
    CHECK(s.stats().preemptions == 1);
    // A normal thread does not preempt a FIFO one, nor an equal one.
    CHECK_FALSE(s.wake(v));  // already runnable
    s.sleep_current();
    s.switch_to(s.pick());
    CHECK(s.current() == HostScheduler::kIdle);
    CHECK(log.s == "in out(preempted) in out ");
}

TEST_CASE("a higher FIFO priority outranks a lower one, never the reverse", "[scheduler]") {
    HostScheduler s;
    const int lo = s.add({"lo", SchedPolicy::Fifo, 10, false, nullptr});
    const int hi = s.add({"hi", SchedPolicy::Fifo, 60, false, nullptr});
    s.wake(lo);
    s.switch_to(s.pick());
    CHECK(s.wake(hi));
    s.switch_to(s.pick());
    CHECK(s.current() == hi);
    s.sleep_current();
    CHECK(s.pick() == lo);
}
