// CpuCore: one CPU taking interrupts from its LocalApic and running the
// notification handler against its PostedDescriptor in simulated time.
// Testbench: a tester SC_THREAD plays the remapping hardware (posts to the
// PID, sends the notification to the APIC) -> CpuCore -> stub driver
// handlers that record when they run.
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/x86/cpu_core.h"
#include "model/x86/local_apic.h"
#include "kernel/event_count.h"
#include "report/trace_recorder.h"
#include "expect_abort.h"

using namespace cidsim;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

constexpr AgentId kCpu = 0, kIommu = 1;

struct StubDriver : IrqHandler {
    sc_time cost = ns(100);
    std::vector<std::pair<uint32_t, sc_time>> calls;  // cookie, when
    sc_time handle(uint32_t cookie, unsigned, const sc_time& at) override {
        calls.push_back({cookie, at});
        return cost;
    }
};

LocalApicParams no_timer() {
    LocalApicParams p;
    p.timer_period = sc_core::SC_ZERO_TIME;
    return p;
}

// Round costs (whole ns) so every access lands on a whole nanosecond.
CpuCoreParams cpu_params() {
    CpuCoreParams p;
    p.irq_entry = ns(100);
    p.irq_exit = ns(50);
    p.eoi = ns(20);
    p.handler_call = ns(10);
    p.timer_handler = ns(500);
    return p;
}

struct Bench {
    explicit Bench(const NotificationHandlerParams& h = {}, LocalApicParams a = no_timer())
        : apic("apic", a, 0),
          pid(0x1000, kPostedMsiNotificationVector, 0, SharedLine(SharedLineParams(), std::vector<uint8_t>{0, 0})),
          cpu("cpu", cpu_params(), h, 0, kCpu, apic, pid) {
        for (Vector v : {0x30, 0x31, 0x50, 0x90})
            cpu.register_handler(v, driver, v);  // cookie = vector
    }
    // The remapping hardware's post [5.2.3], with an immediate notification.
    bool post(Vector v) {
        sc_time cost;
        const bool notify = pid.post(kIommu, v, false, cost);
        if (notify) apic.accept(pid.nv());
        return notify;
    }
    unsigned calls_of(Vector v) const {
        unsigned n = 0;
        for (const auto& c : driver.calls) n += c.first == v;
        return n;
    }

    LocalApic apic;
    PostedDescriptor pid;
    CpuCore cpu;
    StubDriver driver;
};

// Runs `body` as an SC_THREAD (the tester), which then stays suspended:
// SystemC frees a finished thread's stack, and LeakSanitizer, which takes
// the last coroutine stack it saw for the main thread's, would then scan
// freed memory at exit (the core itself is an SC_METHOD, with no stack).
struct Tester : sc_core::sc_module {
    SC_HAS_PROCESS(Tester);
    Tester(sc_core::sc_module_name n, std::function<void()> body)
        : sc_module(n), m_body(std::move(body)) {
        SC_THREAD(run);
    }
    void run() {
        m_body();
        wait(m_never);
    }
    std::function<void()> m_body;
    sc_core::sc_event m_never;
};

}  // namespace

TEST_CASE("a device vector is one IDT delivery: entry, handler, EOI, exit", "[cpu]") {
    Bench b;
    Tester t("tester", [&] {
        sc_core::wait(ns(1000));
        b.apic.accept(0x30);  // remappable mode: the device vector itself
    });
    sc_start(ns(3000));
    REQUIRE(b.driver.calls.size() == 1);
    // After irq_entry and the EOI: handle_edge_irq acks (apic_ack_irq) first.
    CHECK(b.driver.calls[0].second == ns(1000 + 100 + 20));
    const CpuCoreStats& s = b.cpu.stats();
    CHECK(s.interrupts == 1);
    CHECK(s.notifications == 0);
    CHECK(s.handler_calls[0x30] == 1);
    CHECK(b.apic.stats().eois == 1);
    CHECK(b.apic.stats().eoi_with_empty_isr == 0);
    CHECK(b.apic.isr().highest() == -1);
    // entry 100 + dispatch 10 + driver 100 + EOI 20 + exit 50
    CHECK(s.irq_off_ns.max() == 280);
    CHECK(s.irq_time == ns(280));
    CHECK(s.pid_reads + s.pid_xchgs + s.pid_clear_on == 0);
}

TEST_CASE("a posted notification calls every pending vector's handler with a single EOI",
          "[cpu][posted]") {
    Bench b;
    Tester t("tester", [&] {
        CHECK(b.post(0x30));
        CHECK_FALSE(b.post(0x50));  // ON set: suppressed
        CHECK_FALSE(b.post(0x90));
    });
    sc_start(ns(5000));
    const CpuCoreStats& s = b.cpu.stats();
    CHECK(s.notifications == 1);  // PMN
    CHECK(s.interrupts == 1);
    CHECK(s.handler_calls[0x30] == 1);
    CHECK(s.handler_calls[0x50] == 1);
    CHECK(s.handler_calls[0x90] == 1);
    CHECK(b.driver.calls.size() == 3);
    CHECK(b.apic.stats().dispatched[kPostedMsiNotificationVector] == 1);
    CHECK(b.apic.stats().dispatched[0x30] == 0);  // no IDT delivery of the device vector
    CHECK(b.apic.stats().eois == 1);
    CHECK_FALSE(b.pid.on());
    CHECK_FALSE(b.pid.pir().any());
    CHECK(s.stranded == 0);
    CHECK(s.harvest_passes.count() == 1);
    CHECK(s.harvest_passes.max() == 3);  // merged: found, nothing, final
    // read_then_xchg: 4 + 4 + 4 reads, xchg of words 0, 1, 2.
    CHECK(s.pid_reads == 12);
    CHECK(s.pid_xchgs == 3);
    CHECK(s.pid_clear_on == 1);
}

TEST_CASE("PID accesses take their SharedLine cost in simulated time", "[cpu][posted]") {
    // read_then_xchg with one bit: the first read misses (the post
    // invalidated the line), the rest hit the now exclusive/modified line.
    Bench b;
    std::vector<PidAccess> log;
    b.pid.record_into(&log);
    Tester t("tester", [&] { b.post(0x30); });
    sc_start(ns(5000));
    const SharedLineParams line;  // the defaults the bench uses
    std::vector<sc_time> cpu_at;
    for (const PidAccess& a : log)
        if (a.agent == kCpu) cpu_at.push_back(a.at);
    REQUIRE(cpu_at.size() == 4 + 1 + 4 + 1 + 4);
    CHECK(cpu_at[0] == ns(100));              // after irq_entry
    CHECK(cpu_at[1] - cpu_at[0] == line.miss);  // R0 missed
    CHECK(cpu_at[2] - cpu_at[1] == line.hit);
    CHECK(cpu_at[5] - cpu_at[4] == line.locked_op + line.hit + ns(10) + ns(100));  // X0, handler
    CHECK(b.pid.line().misses_of(kCpu) == 1);
}

TEST_CASE("interrupts stay disabled for the whole notification: the timer waits",
          "[cpu][timer]") {
    LocalApicParams a;
    a.timer_period = ns(1000);
    Bench b({}, a);
    b.driver.cost = ns(3000);
    Tester t("tester", [&] {
        sc_core::wait(ns(500));
        b.post(0x30);  // handler runs from ~600 to ~3600: the 1000 ns expiry waits
    });
    sc_start(ns(4500));
    const LocalApicStats& s = b.apic.stats();
    CHECK(s.timer_expiries == 4);
    CHECK(s.merged[kLocalTimerVector] >= 1);  // 1000, 2000, 3000 expiries collapse
    CHECK(s.timer_delay_ns.max() > 2500);
    CHECK(b.cpu.stats().interrupts == 1 + s.dispatched[kLocalTimerVector]);
}

TEST_CASE("task work is interrupted by an interrupt and resumes afterwards", "[cpu]") {
    Bench b;
    sc_time done_at;
    struct Ctx {
        sc_time* at;
    } ctx{&done_at};
    Tester t("tester", [&] {
        b.cpu.queue_task(Work{ns(1000), [](void* c, uint64_t, const sc_time&) {
                                  *static_cast<Ctx*>(c)->at = sc_time_stamp();
                              },
                              &ctx, 0});
        sc_core::wait(ns(300));
        b.apic.accept(0x31);
    });
    sc_start(ns(5000));
    CHECK(b.cpu.stats().work_items == 1);
    CHECK(b.driver.calls.size() == 1);
    CHECK(b.driver.calls[0].second == ns(300 + 100 + 20));  // entry, EOI
    CHECK(done_at == ns(1000 + 280));  // 1000 of work + the 280 ns interrupt
    CHECK(b.cpu.stats().busy == ns(1280));
}

namespace {

// The remapping unit's answer to the LAPIC: no message it has not sent yet
// reaches the LAPIC before `at`.
struct SenderStub : Lookahead {
    sc_time at;
    sc_time earliest_next(const sc_time&) const override { return at; }
};

// Work items that may run ahead, each recording (when it was done, the
// kernel's time when its function ran).
struct AheadWork {
    std::vector<std::pair<sc_time, sc_time>> done;
    void queue(CpuCore& cpu, sc_time cost, unsigned n) {
        for (unsigned i = 0; i < n; ++i)
            cpu.queue_task(Work{cost,
                                [](void* c, uint64_t, const sc_time& at) {
                                    auto* work = static_cast<AheadWork*>(c);
                                    work->done.push_back({at, sc_time_stamp()});
                                },
                                this, 0, true});
    }
};

}  // namespace

TEST_CASE("a kept lookahead is asked again only when its answer cannot tell", "[cpu][speed]") {
    KeptLookahead horizon;
    int asks = 0;
    sc_time fresh = ns(100);  // what the other side would answer now
    auto ask = [&](const sc_time&) {
        ++asks;
        return fresh;
    };
    CHECK(horizon.is_before(ns(10), ask));
    CHECK(horizon.is_before(ns(99), ask));  // before the kept 100
    CHECK(asks == 1);
    fresh = ns(300);
    CHECK(horizon.is_before(ns(150), ask));  // past 100, asked for 10: asked again
    CHECK(asks == 2);
    CHECK_FALSE(horizon.is_before(ns(400), ask));  // past 300: asked again, for 400
    CHECK(asks == 3);
    CHECK_FALSE(horizon.is_before(ns(350), ask));  // exact up to 400: no need to ask
    CHECK(asks == 3);
    horizon.forget();
    CHECK_FALSE(horizon.is_before(ns(350), ask));
    CHECK(asks == 4);
}

TEST_CASE("work runs ahead in local time only until an interrupt could arrive", "[cpu][speed]") {
    Bench b;
    SenderStub sender;
    sender.at = ns(701);  // the remapping unit may send a message reaching the LAPIC from here
    OutPort<Vector> link(&sender);
    connect(link, b.apic.messages_in());
    AheadWork work;
    Tester t("tester", [&] {
        sc_core::wait(ns(1));
        work.queue(b.cpu, ns(400), 3);
        sc_core::wait(ns(749));
        b.apic.accept(0x31);  // at 750: cuts the second item
    });
    sc_start(ns(5000));
    REQUIRE(work.done.size() == 3);
    CHECK(work.done[0] == std::make_pair(ns(401), ns(1)));  // done ahead, at 1 ns
    // The second would end at 801, past the sender's 701: it runs in kernel
    // time and the interrupt at 750 cuts it (280 ns: entry, call, driver, EOI, exit).
    CHECK(b.driver.calls.size() == 1);
    CHECK(b.driver.calls[0].second == ns(750 + 100 + 20));  // entry, EOI
    CHECK(work.done[1] == std::make_pair(ns(801 + 280), ns(801 + 280)));
    CHECK(work.done[2].first == ns(1201 + 280));
    CHECK(b.cpu.stats().busy == ns(1200 + 280));
}

TEST_CASE("work running ahead stops at the LAPIC timer's next expiry", "[cpu][speed]") {
    LocalApicParams timer = no_timer();
    timer.timer_period = ns(1000);
    Bench b({}, timer);
    SenderStub sender;
    sender.at = sc_core::sc_max_time();  // nothing will be sent
    OutPort<Vector> link(&sender);
    connect(link, b.apic.messages_in());
    AheadWork work;
    Tester t("tester", [&] {
        sc_core::wait(ns(1));
        work.queue(b.cpu, ns(400), 3);
    });
    sc_start(ns(5000));
    REQUIRE(work.done.size() == 3);
    CHECK(work.done[0] == std::make_pair(ns(401), ns(1)));
    CHECK(work.done[1] == std::make_pair(ns(801), ns(1)));
    // The third spans the expiry at 1000: the timer interrupt (670 ns) cuts
    // it, taken on time; the rest then runs ahead to the next expiry.
    CHECK(b.apic.stats().timer_delay_ns.max() == 0);
    CHECK(b.cpu.stats().interrupts == 4);  // one per expiry, 1 to 4 us
    CHECK(work.done[2] == std::make_pair(ns(1201 + 670), ns(1000)));
}

TEST_CASE("a message reaching the LAPIC is accepted by the core as it wakes, with no delta cycle",
          "[cpu][speed]") {
    Bench b;
    OutPort<Vector> link;
    connect(link, b.apic.messages_in());
    g_kernel_events = {};
    Tester t("tester", [&] {
        sc_core::wait(ns(1));
        link.send(ns(500), 0x31);
    });
    sc_start(ns(2000));
    REQUIRE(b.driver.calls.size() == 1);
    CHECK(b.driver.calls[0].second == ns(500 + 100 + 20));  // taken as it arrived; entry, EOI
    CHECK(b.apic.stats().accepted[0x31] == 1);
    CHECK(g_kernel_events.delta == 0);
}

TEST_CASE("stepwise, each message is accepted at its arrival, also while the core is busy",
          "[cpu][trace]") {
    set_stepwise(true);
    Bench b;
    OutPort<Vector> link;
    connect(link, b.apic.messages_in());
    b.driver.cost = ns(3000);
    TraceRecorder recorder;
    b.apic.set_observer(&recorder);
    b.cpu.set_observer(&recorder);
    Tester t("tester", [&] {
        sc_core::wait(ns(1));
        b.apic.accept(0x31);  // its handler runs until after 3000
        link.send(ns(1000), 0x30);
    });
    sc_start(ns(10000));
    std::vector<sc_time> accepted_0x30;
    for (const TraceRecord& r : recorder.events())
        if (r.kind == TraceKind::ApicAccept && r.vector == 0x30) accepted_0x30.push_back(r.at);
    REQUIRE(accepted_0x30.size() == 1);
    CHECK(accepted_0x30[0] == ns(1000));
    CHECK(b.calls_of(0x30) == 1);
}

TEST_CASE("run ahead, a message reaching the LAPIC is accepted only when its core wakes",
          "[cpu][trace]") {
    Bench b;
    OutPort<Vector> link;
    connect(link, b.apic.messages_in());
    b.driver.cost = ns(3000);
    Tester t("tester", [&] {
        sc_core::wait(ns(1));
        b.apic.accept(0x31);  // its handler runs until after 3000
        link.send(ns(1000), 0x30);
    });
    sc_start(ns(2000));
    CHECK_FALSE(b.apic.irr().test(0x30));  // arrived, not yet accepted: the core is busy
    sc_start(ns(8000));
    CHECK(b.calls_of(0x30) == 1);
}

TEST_CASE("a pending vector with no registered handler is counted", "[cpu][posted]") {
    Bench b;
    Tester t("tester", [&] {
        b.post(0x30);
        b.post(0x77);
    });
    sc_start(ns(5000));
    CHECK(b.cpu.stats().handler_calls[0x77] == 1);
    CHECK(b.cpu.stats().unhandled_vector_calls == 1);
}

// ---------------------------------------------------------------------------
// The stranded-interrupt race, crafted exactly: the tester watches the PID's
// access log and posts a second vector after the handler's last harvest
// access and before it clears ON (ON is still set, so no notification).

namespace {

// Line accesses a handler makes before clearing ON, for one pending vector
// and no races (the prefix is the same when the racing post comes later).
size_t accesses_before_clear(const NotificationHandlerParams& p) {
    struct Count : PirAccessor {
        uint64_t pir[4] = {uint64_t(1) << 0x30, 0, 0, 0};
        size_t n = 0, at_clear = 0;
        bool read_pir(unsigned w, uint64_t& v) override { return ++n, v = pir[w], true; }
        bool xchg_pir(unsigned w, uint64_t& v) override {
            ++n;
            v = pir[w];
            pir[w] = 0;
            return true;
        }
        bool clear_on() override { return at_clear = n++, true; }
        bool call_handler(Vector) override { return true; }
    } c;
    NotificationHandler(p).run(c);
    return c.at_clear;
}

void crafted_race(HarvestStrategy h, LoopVariant l, bool final_harvest) {
    NotificationHandlerParams p;
    p.harvest = h;
    p.loop = l;
    p.final_harvest = final_harvest;
    const size_t before_clear = accesses_before_clear(p);
    Bench b(p);
    std::vector<PidAccess> log;
    b.pid.record_into(&log);
    bool raced = false;
    Tester t("tester", [&] {
        REQUIRE(b.post(0x30));
        sc_core::wait(ns(0.5));  // off the whole-ns grid of the CPU's accesses
        for (;;) {
            size_t cpu_accesses = 0;
            for (const PidAccess& a : log) cpu_accesses += a.agent == kCpu;
            if (cpu_accesses == before_clear) break;
            REQUIRE(cpu_accesses < before_clear);
            sc_core::wait(ns(1));
        }
        CHECK(b.pid.on());
        CHECK_FALSE(b.post(0x31));  // suppressed: ON still set
        raced = true;
    });
    sc_start(ns(20000));
    REQUIRE(raced);
    // The post sits between the last harvest access and the clear of ON.
    REQUIRE(log.size() >= 2);
    size_t post_at = 0;
    for (size_t i = 0; i < log.size(); ++i)
        if (log[i].op == PidOp::Post && log[i].value == 0x31) post_at = i;
    REQUIRE(post_at + 1 < log.size());
    CHECK(log[post_at + 1].op == PidOp::ClearOn);

    const CpuCoreStats& s = b.cpu.stats();
    CHECK(s.notifications == 1);
    if (final_harvest) {
        CHECK(s.stranded == 0);
        CHECK(b.calls_of(0x31) == 1);
        CHECK_FALSE(b.pid.pir().any());
    } else {
        CHECK(s.stranded == 1);
        CHECK(s.first_stranded_at > sc_core::SC_ZERO_TIME);
        CHECK(b.calls_of(0x31) == 0);
        CHECK(b.pid.pir().test(0x31));  // pending, ON clear: nothing will announce it
        CHECK_FALSE(b.pid.on());
    }
    CHECK(b.calls_of(0x30) == 1);
}

}  // namespace

#define CIDSIM_RACE_CASE(H, L, F, NAME)                                                  \
    TEST_CASE("crafted race, " NAME, "[cpu][race]") {                                    \
        crafted_race(HarvestStrategy::H, LoopVariant::L, F);                             \
    }

CIDSIM_RACE_CASE(XchgAll, Merged, false, "merged xchg_all without final harvest strands")
CIDSIM_RACE_CASE(Interleaved, Merged, false, "merged interleaved without final harvest strands")
CIDSIM_RACE_CASE(ReadThenXchg, Merged, false,
                 "merged read_then_xchg without final harvest strands")
CIDSIM_RACE_CASE(NoCopy, Merged, false, "merged no_copy without final harvest strands")
CIDSIM_RACE_CASE(XchgAll, RfcV1, false, "rfc_v1 xchg_all without final harvest strands")
CIDSIM_RACE_CASE(Interleaved, RfcV1, false, "rfc_v1 interleaved without final harvest strands")
CIDSIM_RACE_CASE(ReadThenXchg, RfcV1, false,
                 "rfc_v1 read_then_xchg without final harvest strands")
CIDSIM_RACE_CASE(NoCopy, RfcV1, false, "rfc_v1 no_copy without final harvest strands")
CIDSIM_RACE_CASE(XchgAll, Merged, true, "merged xchg_all with final harvest handles it")
CIDSIM_RACE_CASE(Interleaved, Merged, true, "merged interleaved with final harvest handles it")
CIDSIM_RACE_CASE(ReadThenXchg, Merged, true, "merged read_then_xchg with final harvest handles it")
CIDSIM_RACE_CASE(NoCopy, Merged, true, "merged no_copy with final harvest handles it")
CIDSIM_RACE_CASE(XchgAll, RfcV1, true, "rfc_v1 xchg_all with final harvest handles it")
CIDSIM_RACE_CASE(Interleaved, RfcV1, true, "rfc_v1 interleaved with final harvest handles it")
CIDSIM_RACE_CASE(ReadThenXchg, RfcV1, true, "rfc_v1 read_then_xchg with final harvest handles it")
CIDSIM_RACE_CASE(NoCopy, RfcV1, true, "rfc_v1 no_copy with final harvest handles it")

// ---------------------------------------------------------------------------
// New producers into a LAPIC (kernel/link.h): exact by construction.

namespace {

// An IPI source with no lookahead of its own: it sends `vector` at the
// scripted kernel times, each seen by the LAPIC `latency` later.
struct ScriptedIpiSource : sc_core::sc_module {
    SC_HAS_PROCESS(ScriptedIpiSource);
    ScriptedIpiSource(sc_core::sc_module_name n, std::vector<sc_time> at, Vector vector,
                      sc_time latency)
        : sc_module(n), m_at(std::move(at)), m_vector(vector), m_latency(latency) {
        SC_METHOD(step);  // a method, as the model's blocks are: no coroutine stack
    }
    void step() {
        if (m_next < m_at.size() && m_at[m_next] == sc_time_stamp()) {
            out.send(sc_time_stamp() + m_latency, m_vector);
            ++m_next;
        }
        if (m_next < m_at.size()) next_trigger(m_at[m_next] - sc_time_stamp());
    }
    OutPort<Vector> out;
    std::vector<sc_time> m_at;
    size_t m_next = 0;
    Vector m_vector;
    sc_time m_latency;
};

}  // namespace

TEST_CASE("a second producer with no lookahead is taken at its exact time, run-ahead on",
          "[cpu][speed][lookahead]") {
    Bench b;
    // The remapping unit promises never to send: alone, it would let the
    // work below run ahead to its end at once.
    SenderStub iommu;
    iommu.at = sc_core::sc_max_time();
    OutPort<Vector> from_iommu(&iommu);
    connect(from_iommu, b.apic.messages_in());
    ScriptedIpiSource ipi("ipi", {ns(750)}, 0x50, sc_core::SC_ZERO_TIME);
    connect(ipi.out, b.apic.messages_in());
    AheadWork work;
    Tester t("tester", [&] {
        sc_core::wait(ns(1));
        work.queue(b.cpu, ns(400), 3);
    });
    sc_start(ns(5000));
    CHECK_FALSE(stepwise());
    REQUIRE(b.driver.calls.size() == 1);
    CHECK(b.driver.calls[0].first == 0x50);
    CHECK(b.driver.calls[0].second == ns(750 + 100 + 20));  // entered at 750, as sent; entry, EOI
    REQUIRE(work.done.size() == 3);
    CHECK(work.done[1].first == ns(801 + 280));  // cut by the 280 ns interrupt
    CHECK(work.done[2].first == ns(1201 + 280));
}

TEST_CASE("a link's minimum latency lets the core run ahead that far and no further",
          "[cpu][speed][lookahead]") {
    Bench b;
    ScriptedIpiSource ipi("ipi", {ns(300)}, 0x50, ns(500));  // seen at 800
    connect(ipi.out, b.apic.messages_in(), ns(500));
    AheadWork work;
    Tester t("tester", [&] {
        sc_core::wait(ns(1));
        work.queue(b.cpu, ns(400), 3);
    });
    sc_start(ns(5000));
    REQUIRE(b.driver.calls.size() == 1);
    CHECK(b.driver.calls[0].second == ns(800 + 100 + 20));  // entry, EOI
    REQUIRE(work.done.size() == 3);
    CHECK(work.done[0] == std::make_pair(ns(401), ns(1)));  // 401 < 1 + 500: ahead
    // Not ahead (801 is past 1 + 500): it runs in kernel time and the IPI at
    // 800 cuts it; its last nanosecond runs ahead again from the handler's
    // call at 920, after entry and EOI (the link's lookahead is then 1400).
    CHECK(work.done[1] == std::make_pair(ns(801 + 280), ns(920)));
    CHECK(work.done[2].first == ns(1201 + 280));
}

TEST_CASE("the lookahead check aborts on a sender that delivers before its promise",
          "[cpu][lookahead]") {
    const std::string message = cidsim_test::expect_abort([] {
        set_lookahead_check(true);
        Bench b;
        SenderStub liar;
        liar.at = ns(701);  // promises nothing before 701 ...
        OutPort<Vector> link(&liar);
        connect(link, b.apic.messages_in());
        AheadWork work;
        Tester t("tester", [&] {
            sc_core::wait(ns(1));
            work.queue(b.cpu, ns(400), 3);  // the first runs ahead to 401 on that promise
            sc_core::wait(ns(99));
            link.send(ns(300), 0x31);  // ... and sends one seen at 300
        });
        sc_start(ns(5000));
    });
    CHECK(message.find("lookahead broken on link apic.messages_in") != std::string::npos);
    CHECK(message.find("seen at 300 ns") != std::string::npos);
    CHECK(message.find("ran ahead to 401 ns") != std::string::npos);
}
