// LocalApic: IRR/ISR, priority classes, TPR/PPR, merging, EOI, the local
// timer (Intel SDM vol. 3 ch. 11; mechanism.md section 3,
// docs/specification.md). The tester plays the core: it calls
// accept()/acknowledge()/eoi() directly, or runs as a small SC_THREAD
// taking interrupts after a chosen delay.
#include <catch2/catch.hpp>

#include <vector>

#include "model/x86/local_apic.h"

using namespace cidsim;
using sc_core::sc_time;

namespace {

LocalApicParams no_timer() {
    LocalApicParams p;
    p.timer_period = sc_core::SC_ZERO_TIME;
    return p;
}

// A core that takes each deliverable interrupt `latency` after the APIC
// signals it, and EOIs it right away.
struct Core : sc_core::sc_module {
    SC_HAS_PROCESS(Core);
    Core(sc_core::sc_module_name n, LocalApic& apic, sc_time latency)
        : sc_module(n), m_apic(apic), m_latency(latency) {
        SC_THREAD(run);
    }
    void run() {
        for (;;) {
            if (m_apic.deliverable() < 0) wait(m_apic.irq_event());
            if (m_apic.deliverable() < 0) continue;
            wait(m_latency);
            taken_at.push_back(sc_core::sc_time_stamp());
            taken.push_back(m_apic.acknowledge());
            m_apic.eoi();
        }
    }
    LocalApic& m_apic;
    sc_time m_latency;
    std::vector<sc_time> taken_at;
    std::vector<Vector> taken;
};

}  // namespace

TEST_CASE("the highest IRR vector whose class exceeds PPR is dispatched", "[lapic]") {
    LocalApic apic("apic", no_timer(), 0);
    CHECK(apic.deliverable() == -1);
    apic.accept(0x31);
    apic.accept(0x45);
    apic.accept(0x41);
    CHECK(apic.deliverable() == 0x45);
    CHECK(apic.acknowledge() == 0x45);
    CHECK(apic.isr().test(0x45));
    CHECK_FALSE(apic.irr().test(0x45));
    CHECK(apic.stats().dispatched[0x45] == 1);
    // 0x41 is in the same class as the in-service 0x45: not deliverable.
    CHECK(apic.deliverable() == -1);
    apic.eoi();
    CHECK(apic.deliverable() == 0x41);
    CHECK(apic.acknowledge() == 0x41);
    apic.eoi();
    CHECK(apic.acknowledge() == 0x31);
    apic.eoi();
    CHECK(apic.deliverable() == -1);
    CHECK(apic.stats().eois == 3);
}

TEST_CASE("TPR blocks vectors whose class does not exceed it", "[lapic]") {
    LocalApicParams p = no_timer();
    p.tpr = 0x40;
    LocalApic apic("apic", p, 0);
    apic.accept(0x4F);
    CHECK(apic.deliverable() == -1);  // class 4 is not above TPR class 4
    apic.accept(0x3A);
    CHECK(apic.deliverable() == -1);
    apic.accept(0x50);
    CHECK(apic.deliverable() == 0x50);
    apic.acknowledge();
    apic.eoi();
    apic.set_tpr(0x30);  // lowered: class 4 is deliverable now
    CHECK(apic.deliverable() == 0x4F);
    apic.set_tpr(0);
    CHECK(apic.deliverable() == 0x4F);
}

TEST_CASE("a higher class preempts an in-service vector, the same or a lower class does not",
          "[lapic]") {
    LocalApic apic("apic", no_timer(), 0);
    apic.accept(0x45);
    CHECK(apic.acknowledge() == 0x45);
    apic.accept(0x4A);  // same class, higher vector
    apic.accept(0x33);  // lower class
    CHECK(apic.deliverable() == -1);
    apic.accept(0xEC);  // the local timer's class 0xE
    CHECK(apic.deliverable() == 0xEC);
    CHECK(apic.acknowledge() == 0xEC);
    CHECK(apic.isr().test(0x45));
    CHECK(apic.isr().test(0xEC));
    apic.accept(0xEB);  // posted-MSI notification: same class as the timer
    CHECK(apic.deliverable() == -1);
    // EOI clears the highest ISR bit (the nested timer), leaving 0x45 in service.
    apic.eoi();
    CHECK_FALSE(apic.isr().test(0xEC));
    CHECK(apic.isr().test(0x45));
    CHECK(apic.deliverable() == 0xEB);  // class 0xE > class 4
    CHECK(apic.acknowledge() == 0xEB);
    apic.eoi();
    CHECK(apic.deliverable() == -1);  // 0x4A still blocked by 0x45
    apic.eoi();
    CHECK(apic.isr().highest() == -1);
    CHECK(apic.deliverable() == 0x4A);
}

TEST_CASE("a message to a vector already pending in IRR merges and is counted", "[lapic]") {
    LocalApic apic("apic", no_timer(), 0);
    apic.accept(0x30);
    apic.accept(0x30);
    apic.accept(0x30);
    CHECK(apic.stats().accepted[0x30] == 3);
    CHECK(apic.stats().merged[0x30] == 2);
    CHECK(apic.acknowledge() == 0x30);
    CHECK(apic.deliverable() == -1);  // one delivery for the three messages
    // Once in service, a new message sets IRR again: not a merge.
    apic.accept(0x30);
    CHECK(apic.stats().merged[0x30] == 2);
    CHECK(apic.irr().test(0x30));
    CHECK(apic.isr().test(0x30));
    apic.eoi();
    CHECK(apic.deliverable() == 0x30);
}

TEST_CASE("an EOI with an empty ISR is counted as an error", "[lapic]") {
    LocalApic apic("apic", no_timer(), 0);
    apic.eoi();
    CHECK(apic.stats().eois == 1);
    CHECK(apic.stats().eoi_with_empty_isr == 1);
    apic.accept(0x30);
    apic.acknowledge();
    apic.eoi();
    apic.eoi();
    CHECK(apic.stats().eois == 3);
    CHECK(apic.stats().eoi_with_empty_isr == 2);
}

TEST_CASE("a message on a link sets IRR at its time and signals the core", "[lapic]") {
    LocalApic apic("apic", no_timer(), 7);
    CHECK(apic.apic_id() == 7);
    Core core("core", apic, ns(10));
    OutPort<Vector> sender;
    connect(sender, apic.messages_in());
    sender.send(ns(300), 0x50);
    sender.send(ns(100), 0x40);
    sc_core::sc_start(ns(99));
    CHECK_FALSE(apic.irr().test(0x40));
    sc_core::sc_start(ns(2));
    CHECK(apic.irr().test(0x40));
    sc_core::sc_start(ns(400));
    REQUIRE(core.taken.size() == 2);
    CHECK(core.taken[0] == 0x40);
    CHECK(core.taken_at[0] == ns(110));
    CHECK(core.taken[1] == 0x50);
    CHECK(core.taken_at[1] == ns(310));
    CHECK(apic.stats().eoi_with_empty_isr == 0);
}

TEST_CASE("the local timer fires at its period and its dispatch delay is recorded",
          "[lapic][timer]") {
    LocalApicParams p;
    p.timer_period = ns(1000);
    LocalApic apic("apic", p, 0);
    Core core("core", apic, ns(50));  // interrupts taken 50 ns late
    sc_core::sc_start(ns(3500));
    CHECK(apic.stats().timer_expiries == 3);
    REQUIRE(core.taken.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(core.taken[i] == kLocalTimerVector);
        CHECK(core.taken_at[i] == ns(1000.0 * double(i + 1) + 50));
    }
    CHECK(apic.stats().dispatched[kLocalTimerVector] == 3);
    CHECK(apic.stats().timer_delay_ns.count() == 3);
    CHECK(apic.stats().timer_delay_ns.max() == 50);
    CHECK(apic.stats().timer_delay_ns.mean() == Approx(50));
}

TEST_CASE("a timer expiry that finds the previous one pending merges, the delay counts from "
          "the older expiry",
          "[lapic][timer]") {
    LocalApicParams p;
    p.timer_period = ns(1000);
    LocalApic apic("apic", p, 0);
    Core core("core", apic, ns(1500));  // interrupts off for 1.5 periods
    sc_core::sc_start(ns(2600));
    CHECK(apic.stats().timer_expiries == 2);
    CHECK(apic.stats().merged[kLocalTimerVector] == 1);
    REQUIRE(core.taken.size() == 1);
    CHECK(core.taken_at[0] == ns(2500));
    CHECK(apic.stats().timer_delay_ns.max() == 1500);
}

TEST_CASE("timer_period 0 disables the timer", "[lapic][timer]") {
    LocalApic apic("apic", no_timer(), 0);
    sc_core::sc_start(ns(1e6));
    CHECK(apic.stats().timer_expiries == 0);
    CHECK(apic.deliverable() == -1);
}

namespace {
struct FixedLookahead : Lookahead {
    sc_time at;
    sc_time earliest_next(const sc_time&) const override { return at; }
};
}  // namespace

TEST_CASE("a LAPIC's lookahead is the least of its links', its queue's and its timer's",
          "[lapic][lookahead]") {
    LocalApicParams p;
    p.timer_period = ns(5000);
    LocalApic apic("apic", p, 0);
    // No link: a testbench may accept() at any time.
    CHECK(apic.earliest_next(never()) == sc_core::SC_ZERO_TIME);
    FixedLookahead iommu;
    iommu.at = ns(700);
    OutPort<Vector> from_iommu(&iommu);
    connect(from_iommu, apic.messages_in());
    CHECK(apic.earliest_next(never()) == ns(700));
    iommu.at = ns(9000);  // then the timer comes first
    CHECK(apic.earliest_next(never()) == ns(5000));
    // A sender that declares no lookahead may send at once, plus its link's
    // minimum latency.
    OutPort<Vector> ipi;
    connect(ipi, apic.messages_in(), ns(40));
    CHECK(apic.earliest_next(never()) == ns(40));
    from_iommu.send(ns(20), 0x33);  // a message already on its way comes first
    CHECK(apic.earliest_next(never()) == ns(20));
}
