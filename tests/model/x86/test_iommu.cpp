// Iommu: interrupt remapping [5.1.4] with a tiny testbench: a TLM initiator
// (the "device") -> Iommu -> LocalApic and PostedDescriptor stubs (no core
// takes the interrupts, so IRR/PIR show what arrived). The test body sends
// MSI writes between short sc_start() runs.
#include <catch2/catch.hpp>

#include <memory>

#include <tlm_utils/simple_initiator_socket.h>

#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/x86/local_apic.h"
#include "timed_schedule.h"

using namespace cidsim;
using sc_core::sc_start;
using sc_core::sc_time;

namespace {

struct Initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Initiator> socket;
    explicit Initiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
        m_gp.set_command(tlm::TLM_WRITE_COMMAND);
        m_gp.set_data_ptr(reinterpret_cast<unsigned char*>(&m_data));
        m_gp.set_extension(&m_ingress);
    }
    ~Initiator() override { m_gp.clear_extension(&m_ingress); }  // not heap-owned

    // One MSI write now (+ `delay`), as a device would issue it.
    void write(uint64_t address, uint32_t data, uint16_t sid = 0x100, RootPort* port = nullptr,
               sc_time delay = sc_core::SC_ZERO_TIME, unsigned length = 4) {
        m_data = data;
        m_ingress.source_id = sid;
        m_ingress.port = port;
        m_gp.set_address(address);
        m_gp.set_data_length(length);
        m_gp.set_streaming_width(length);
        m_gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        socket->b_transport(m_gp, delay);
        CHECK(m_gp.get_response_status() == tlm::TLM_OK_RESPONSE);  // posted: never an error
    }
    void msi(uint16_t index, uint16_t sid = 0x100) {
        write(msi::remappable_address(index, false), 0, sid);
    }

private:
    tlm::tlm_generic_payload m_gp;
    uint64_t m_data = 0;
    MsiIngress m_ingress;
};

IommuParams round_params() {
    IommuParams p;
    p.irte_entries = 16;
    p.iec_entries = 4;
    p.iec_hit = ns(5);
    p.iec_miss = ns(120);
    p.pipeline_occupancy = ns(10);
    p.message_occupancy = ns(20);
    p.message_latency = ns(100);
    return p;
}

LocalApicParams no_timer() {
    LocalApicParams p;
    p.timer_period = sc_core::SC_ZERO_TIME;
    return p;
}

constexpr AgentId kCpu = 0, kIommuAgent = 1;
constexpr uint64_t kPid0 = 0x10000000, kPid1 = 0x10000040;

// tester -> iommu -> {apic0, apic1, pid0 (NDST 0), pid1 (NDST 1)}
struct Bench {
    explicit Bench(IommuParams p = round_params())
        : iommu("iommu", p, kIommuAgent),
          apic0("apic0", no_timer(), 0),
          apic1("apic1", no_timer(), 1),
          pid0(kPid0, kPostedMsiNotificationVector, 0, SharedLine(SharedLineParams(), std::vector<uint8_t>{0, 0})),
          pid1(kPid1, kPostedMsiNotificationVector, 1, SharedLine(SharedLineParams(), std::vector<uint8_t>{0, 0})),
          dev("dev") {
        dev.socket.bind(iommu.msi_socket);
        connect(iommu.apic_port(0), apic0.messages_in());
        connect(iommu.apic_port(1), apic1.messages_in());
        iommu.attach_descriptor(pid0);
        iommu.attach_descriptor(pid1);
        sc_start(sc_core::SC_ZERO_TIME);  // ends elaboration: sockets usable
    }
    Iommu iommu;
    LocalApic apic0, apic1;
    PostedDescriptor pid0, pid1;
    Initiator dev;
};

Irte checked(Irte e, uint16_t sid = 0x100) {
    e.svt = SourceValidation::RequesterId;
    e.sid = sid;
    return e;
}

}  // namespace

TEST_CASE("remappable: one interrupt message per MSI, after the IRTE fetch and the message port",
          "[iommu]") {
    Bench b;
    b.iommu.write_irte(3, checked(Irte::remappable(0x30, 1)));
    b.dev.msi(3);
    // fetch 120 (IEC miss) + port 20 + latency 100
    sc_start(ns(239));
    CHECK_FALSE(b.apic1.irr().test(0x30));
    sc_start(ns(2));
    CHECK(b.apic1.irr().test(0x30));
    CHECK_FALSE(b.apic0.irr().any());
    b.dev.msi(3);
    b.dev.msi(3);
    sc_start(ns(1000));
    CHECK(b.iommu.stats().requests == 3);
    CHECK(b.iommu.stats().remapped_messages == 3);
    CHECK(b.iommu.stats().posts == 0);
    CHECK(b.apic1.stats().accepted[0x30] == 3);  // all three reach the APIC (merging there)
    CHECK(b.iommu.faults_total() == 0);
}

TEST_CASE("remappable: the interrupt message is ordered after the device's earlier DMA writes",
          "[iommu]") {
    Bench b;
    RootPortParams rp;
    rp.bandwidth_gbps = 4.096;  // 4096 B take 1000 ns
    rp.drain = ns(50);
    RootPort port(rp);
    b.iommu.write_irte(0, checked(Irte::remappable(0x30, 0)));
    const sc_time visible = port.dma_write(4096);
    CHECK(visible == ns(1000));
    b.dev.write(msi::remappable_address(0, false), 0, 0x100, &port);
    // Fetched at 120, but held until the DMA is observed (1000) + drain 50,
    // then port 20 and latency 100.
    sc_start(ns(1169));
    CHECK_FALSE(b.apic0.irr().test(0x30));
    sc_start(ns(2));
    CHECK(b.apic0.irr().test(0x30));
    CHECK(port.stats().drains == 1);
}

TEST_CASE("posted: the first post notifies NV at NDST, posts while ON is set are suppressed",
          "[iommu][posted]") {
    Bench b;
    b.iommu.write_irte(0, checked(Irte::posted_to(0x30, kPid1)));
    b.iommu.write_irte(1, checked(Irte::posted_to(0x31, kPid1)));
    b.dev.msi(0);
    sc_start(ns(500));
    CHECK(b.pid1.on());
    CHECK(b.pid1.pir().test(0x30));
    CHECK(b.apic1.irr().test(kPostedMsiNotificationVector));
    CHECK_FALSE(b.apic1.irr().test(0x30));  // the device vector never reaches the APIC
    b.dev.msi(1);
    b.dev.msi(0);
    sc_start(ns(500));
    CHECK(b.pid1.pir().test(0x31));
    CHECK(b.iommu.stats().posts == 3);
    CHECK(b.iommu.stats().notifications == 1);
    CHECK(b.iommu.stats().suppressed == 2);
    CHECK(b.apic1.stats().accepted[kPostedMsiNotificationVector] == 1);
    CHECK(b.iommu.stats().remapped_messages == 0);

    // Software clears ON (the end of the notification handler): the next
    // post notifies again.
    sc_time cost;
    b.pid1.clear_on(kCpu, cost);
    b.dev.msi(1);
    sc_start(ns(500));
    CHECK(b.iommu.stats().notifications == 2);
    CHECK(b.apic1.stats().accepted[kPostedMsiNotificationVector] == 2);
    CHECK(b.pid0.posts() == 0);
}

namespace {
// The PID's CPU as the remapping unit sees it: may it touch the PID first?
struct CpuHorizonStub : Lookahead {
    bool quiet = false;
    sc_time earliest_next(const sc_time&) const override {
        return quiet ? sc_core::sc_max_time() : sc_core::SC_ZERO_TIME;
    }
};
}  // namespace

TEST_CASE("posted: a post lands early only when its CPU cannot touch the PID first",
          "[iommu][posted]") {
    Bench b;
    CpuHorizonStub cpu;
    b.pid1.attach_cpu(cpu);
    b.iommu.write_irte(0, checked(Irte::posted_to(0x30, kPid1)));
    // Sends one MSI (an IEC hit, done 5 ns later) with ON clear; returns the
    // PID's posts 1 ns later and the ns until the notification is in IRR.
    auto post_once = [&](uint64_t& posts_after_1ns) {
        sc_time cost;
        b.pid1.clear_on(kCpu, cost);
        b.dev.msi(0);
        sc_start(ns(1));
        posts_after_1ns = b.pid1.posts();
        for (int t = 2; t < 1000; ++t) {
            sc_start(ns(1));
            if (b.apic1.irr().test(kPostedMsiNotificationVector)) {
                b.apic1.acknowledge();
                b.apic1.eoi();
                return t;
            }
        }
        return -1;
    };
    b.dev.msi(0);  // IEC miss: later MSIs hit
    sc_start(ns(500));
    b.apic1.acknowledge();
    b.apic1.eoi();

    uint64_t posts = 0;
    const int late = post_once(posts);  // the CPU might touch the PID first
    CHECK(posts == 1);                  // so the post waits for its time
    cpu.quiet = true;                   // it cannot: posted at fetch time
    const int early = post_once(posts);
    CHECK(posts == 3);
    CHECK(late > 0);
    CHECK(early == late);  // the notification leaves at the post's own time either way
    CHECK(b.iommu.stats().notifications == 3);
}

namespace {
struct SourceStub : MsiSource {
    sc_time arrival;
    sc_time earliest_send() const override { return arrival; }
    sc_time earliest_arrival() const override { return arrival; }
};
}  // namespace

TEST_CASE("a LAPIC hears when its own senders' next message can reach it", "[iommu][speed]") {
    Bench b;
    RootPort port{RootPortParams{}};
    SourceStub own, other;
    own.arrival = ns(100);
    other.arrival = ns(50);  // the other LAPIC's: no bearing on apic0
    b.iommu.add_source(own, nullptr, port, 0);
    b.iommu.add_source(other, nullptr, port, 1);
    // Its MSI fetched (5 ns at best), then the message port (20) and latency (100).
    CHECK(b.apic0.earliest_next(never()) == ns(100 + 5 + 20 + 100));
    // A message to apic1 (an IEC miss: ready at 120) holds the port until 140,
    // so apic0's next message cannot enter before then.
    b.iommu.write_irte(0, checked(Irte::remappable(0x30, 1)));
    b.dev.msi(0);
    sc_start(ns(300));
    REQUIRE(b.apic1.irr().test(0x30));  // accepted at 240
    CHECK(b.apic0.earliest_next(never()) == ns(140 + 20 + 100));
}

TEST_CASE("a PID's and a LAPIC's horizons keep their senders' answers beyond the time asked for",
          "[iommu][speed]") {
    Bench b;
    RootPort port{RootPortParams{}};
    SourceStub own;
    own.arrival = ns(100);
    b.iommu.add_source(own, &b.pid0, port, 0);
    // Its next MSI, fetched (5 ns); for the LAPIC, then the update's crossing to
    // the PID (100), the message port (20) and the message's crossing (100).
    CHECK(b.pid0.cpu_lookahead(never()) == ns(100 + 5));
    CHECK(b.apic0.earliest_next(never()) == ns(100 + 5 + 100 + 20 + 100));
    own.arrival = ns(300);  // as the sender would answer now
    // Asked for 50 ns: the last answers already tell; the sender is not asked.
    CHECK(b.pid0.cpu_lookahead(ns(50)) == ns(100 + 5));
    CHECK(b.apic0.earliest_next(ns(50)) == ns(100 + 5 + 100 + 20 + 100));
    // Asked for 250 ns: they do not, so the sender is asked again.
    CHECK(b.pid0.cpu_lookahead(ns(250)) == ns(300 + 5));
    CHECK(b.apic0.earliest_next(ns(250)) == ns(300 + 5 + 100 + 20 + 100));
}

TEST_CASE("a remapped message is ready a root-port drain after its fetch at the earliest",
          "[iommu][speed]") {
    Bench b;
    RootPortParams rp;
    rp.drain = ns(50);
    RootPort port(rp);
    SourceStub own;
    own.arrival = ns(100);
    b.iommu.add_source(own, nullptr, port, 0);
    // Fetched (5 ns at best), ordered behind the port's writes (50), then
    // the message port (20) and latency (100).
    CHECK(b.apic0.earliest_next(never()) == ns(100 + 5 + 50 + 20 + 100));
}

TEST_CASE("posted: SN suppresses, URG overrides SN", "[iommu][posted]") {
    Bench b;
    b.iommu.write_irte(0, checked(Irte::posted_to(0x30, kPid0)));
    b.iommu.write_irte(1, checked(Irte::posted_to(0x31, kPid0, true)));
    b.pid0.set_sn(true);
    b.dev.msi(0);
    sc_start(ns(500));
    CHECK(b.iommu.stats().suppressed == 1);
    CHECK_FALSE(b.apic0.irr().any());
    b.dev.msi(1);
    sc_start(ns(500));
    CHECK(b.iommu.stats().notifications == 1);
    CHECK(b.apic0.irr().test(kPostedMsiNotificationVector));
}

TEST_CASE("IEC: the first fetch misses, the next hits, invalidate_iec(index) makes it miss again",
          "[iommu][iec]") {
    Bench b;
    b.iommu.write_irte(0, checked(Irte::remappable(0x30, 0)));
    b.iommu.write_irte(1, checked(Irte::remappable(0x31, 0)));
    auto step = [&](uint16_t index) {
        b.dev.msi(index);
        sc_start(ns(1000));
    };
    step(0);
    CHECK(b.iommu.stats().iec_misses == 1);
    CHECK(b.iommu.stats().iec_hits == 0);
    step(0);
    CHECK(b.iommu.stats().iec_hits == 1);
    step(1);
    CHECK(b.iommu.stats().iec_misses == 2);
    b.iommu.invalidate_iec(0);
    step(0);
    CHECK(b.iommu.stats().iec_misses == 3);
    step(1);  // index-selective: entry 1 was not invalidated
    CHECK(b.iommu.stats().iec_hits == 2);
    b.iommu.invalidate_iec_all();
    step(1);
    step(0);
    CHECK(b.iommu.stats().iec_misses == 5);
    CHECK(b.iommu.stats().iec_invalidations == 2);
}

TEST_CASE("IEC: a hit costs iec_hit, a miss iec_miss", "[iommu][iec]") {
    Bench b;
    b.iommu.write_irte(0, checked(Irte::remappable(0x30, 0)));
    b.dev.msi(0);
    sc_start(ns(1000));
    b.apic0.acknowledge();
    b.apic0.eoi();
    b.dev.msi(0);  // at 1000: hit 5 + port 20 + latency 100
    sc_start(ns(124));
    CHECK_FALSE(b.apic0.irr().test(0x30));
    sc_start(ns(2));
    CHECK(b.apic0.irr().test(0x30));
    CHECK(b.iommu.stats().fetch_to_post_ns.max() == 120);
    CHECK(b.iommu.stats().fetch_to_post_ns.count() == 2);
}

TEST_CASE("IEC: least recently used entry is evicted when full", "[iommu][iec]") {
    IommuParams p = round_params();
    p.iec_entries = 2;
    Bench b(p);
    for (uint16_t i = 0; i < 3; ++i) b.iommu.write_irte(i, checked(Irte::remappable(0x30 + i, 0)));
    uint64_t hits = 0, misses = 0;
    auto expect = [&](uint16_t index, bool hit) {
        b.dev.msi(index);
        sc_start(ns(1000));
        ++(hit ? hits : misses);
        INFO("fetch of index " << index);
        CHECK(b.iommu.stats().iec_hits == hits);
        CHECK(b.iommu.stats().iec_misses == misses);
    };
    expect(0, false);
    expect(1, false);
    expect(0, true);
    expect(2, false);  // evicts 1, the least recently used
    expect(0, true);
    expect(1, false);  // evicts 2
    expect(0, true);
    expect(2, false);
}

TEST_CASE("IEC of size 0: every fetch reads memory", "[iommu][iec]") {
    IommuParams p = round_params();
    p.iec_entries = 0;
    Bench b(p);
    b.iommu.write_irte(0, checked(Irte::remappable(0x30, 0)));
    for (int i = 0; i < 3; ++i) {
        b.dev.msi(0);
        sc_start(ns(1000));
    }
    CHECK(b.iommu.stats().iec_misses == 3);
    CHECK(b.iommu.stats().iec_hits == 0);
    CHECK(b.apic0.stats().accepted[0x30] == 3);
}

TEST_CASE("an IRTE change without IEC invalidation is not seen (stale IEC, as hardware)",
          "[iommu][iec]") {
    Bench b;
    b.iommu.write_irte(0, checked(Irte::remappable(0x30, 0)));
    b.dev.msi(0);
    sc_start(ns(1000));
    // Software re-targets the IRTE but forgets the invalidation.
    b.iommu.write_irte(0, checked(Irte::remappable(0x40, 1)));
    CHECK(b.iommu.read_irte(0).vector == 0x40);  // memory has the new entry
    b.dev.msi(0);
    sc_start(ns(1000));
    CHECK(b.apic0.stats().accepted[0x30] == 2);  // still the cached one
    CHECK(b.apic1.stats().accepted[0x40] == 0);
    b.iommu.invalidate_iec(0);
    b.dev.msi(0);
    sc_start(ns(1000));
    CHECK(b.apic1.stats().accepted[0x40] == 1);
    CHECK(b.apic0.stats().accepted[0x30] == 2);
}

TEST_CASE("the IRTE is captured at fetch: re-pointing it before the post lands in the old PID",
          "[iommu][posted]") {
    Bench b;
    b.iommu.write_irte(0, checked(Irte::posted_to(0x30, kPid0)));
    b.dev.msi(0);  // fetched at 0, posted at 120 (IEC miss)
    sc_start(ns(50));
    b.iommu.write_irte(0, checked(Irte::posted_to(0x30, kPid1)));
    b.iommu.invalidate_iec(0);
    sc_start(ns(1000));
    CHECK(b.pid0.pir().test(0x30));  // the affinity-change race of mechanism.md section 4
    CHECK_FALSE(b.pid1.pir().test(0x30));
    b.dev.msi(0);
    sc_start(ns(1000));
    CHECK(b.pid1.pir().test(0x30));
}

TEST_CASE("SHV: the subhandle in the data's low 16 bits is added to the handle", "[iommu]") {
    Bench b;
    b.iommu.write_irte(7, checked(Irte::remappable(0x37, 0)));
    b.dev.write(msi::remappable_address(4, true), 0xABCD0003);
    sc_start(ns(1000));
    CHECK(b.apic0.stats().accepted[0x37] == 1);
    CHECK(b.iommu.faults_total() == 0);
    b.dev.write(msi::remappable_address(4, false), 0x3);  // SHV=0: data ignored -> index 4
    sc_start(ns(1000));
    CHECK(b.iommu.stats().faults[size_t(IommuFault::NotPresent)] == 1);
}

TEST_CASE("requests start one per pipeline_occupancy and messages share one port", "[iommu]") {
    Bench b;
    b.iommu.write_irte(0, checked(Irte::remappable(0x30, 0)));
    b.iommu.write_irte(1, checked(Irte::remappable(0x40, 0)));
    b.dev.msi(0);
    b.dev.msi(1);
    sc_start(ns(1000));  // both cached now
    b.apic0.acknowledge();
    b.apic0.eoi();
    b.apic0.acknowledge();
    b.apic0.eoi();
    b.dev.msi(0);  // starts at 1000, fetched by 1005, port 1005..1025, APIC at 1125
    b.dev.msi(1);  // starts at 1010, fetched by 1015, port 1025..1045, APIC at 1145
    sc_start(ns(126));
    CHECK(b.apic0.irr().test(0x30));
    CHECK_FALSE(b.apic0.irr().test(0x40));
    sc_start(ns(19));
    CHECK_FALSE(b.apic0.irr().test(0x40));
    sc_start(ns(1));
    CHECK(b.apic0.irr().test(0x40));
}

TEST_CASE("IOMMU faults are counted by reason and recorded, never lost", "[iommu][fault]") {
    Bench b;
    b.iommu.write_irte(1, checked(Irte::remappable(0x31, 0), 0x100));
    b.iommu.write_irte(2, checked(Irte::posted_to(0x32, 0xDEAD0000)));  // no PID there
    b.iommu.write_irte(3, checked(Irte::remappable(0x33, 9)));          // no APIC 9
    b.dev.msi(40);                          // index beyond irte_entries (16)
    b.dev.msi(5);                           // P = 0
    b.dev.msi(1, 0x200);                    // wrong requester id
    b.dev.write(0xFEE01000, 0x31);          // compatibility format (bit 4 = 0)
    b.dev.write(0xFED00010, 0);             // not an interrupt address
    b.dev.msi(2);
    b.dev.msi(3);
    sc_start(ns(2000));

    const IommuStats& s = b.iommu.stats();
    CHECK(s.requests == 7);
    CHECK(s.faults[size_t(IommuFault::IndexOutOfRange)] == 1);
    CHECK(s.faults[size_t(IommuFault::NotPresent)] == 1);
    CHECK(s.faults[size_t(IommuFault::SourceIdMismatch)] == 1);
    CHECK(s.faults[size_t(IommuFault::CompatibilityFormat)] == 1);
    CHECK(s.faults[size_t(IommuFault::NotMsi)] == 1);
    CHECK(s.faults[size_t(IommuFault::NoDescriptor)] == 1);
    CHECK(s.faults[size_t(IommuFault::NoDestination)] == 1);
    CHECK(b.iommu.faults_total() == 7);
    CHECK(s.remapped_messages == 0);
    CHECK(s.posts == 0);
    CHECK_FALSE(b.apic0.irr().any());

    REQUIRE(s.first_faults.size() == 7);
    auto find = [&](IommuFault f) -> const IommuFaultRecord& {
        for (const IommuFaultRecord& r : s.first_faults)
            if (r.reason == f) return r;
        FAIL("no record of " << to_string(f));
        return s.first_faults.front();
    };
    for (size_t f = 0; f < size_t(IommuFault::Count); ++f) find(IommuFault(f));
    CHECK(find(IommuFault::IndexOutOfRange).index == 40);
    CHECK(find(IommuFault::NotPresent).index == 5);
    CHECK(find(IommuFault::SourceIdMismatch).index == 1);
    CHECK(find(IommuFault::SourceIdMismatch).source_id == 0x200);
    CHECK(std::string(to_string(IommuFault::SourceIdMismatch)) == "source_id_mismatch");

    // The right requester id passes.
    b.dev.msi(1, 0x100);
    sc_start(ns(1000));
    CHECK(b.apic0.irr().test(0x31));
}

TEST_CASE("faults beyond the record log are still counted", "[iommu][fault]") {
    Bench b;
    for (int i = 0; i < 40; ++i) b.dev.msi(uint16_t(100 + i));
    sc_start(ns(100));
    CHECK(b.iommu.stats().faults[size_t(IommuFault::IndexOutOfRange)] == 40);
    CHECK(b.iommu.faults_total() == 40);
    CHECK(b.iommu.stats().first_faults.size() == Iommu::kFaultLog);
    CHECK(b.iommu.stats().first_faults.back().index == 100 + Iommu::kFaultLog - 1);
}

TEST_CASE("a device's write at the picosecond a message is ordered at its root port goes first",
          "[iommu][ties]") {
    // The device's second completion falls on the picosecond the unit
    // orders its first MSI's message behind the root port's writes (SystemC
    // runs the unit's process first here).
    RootPortParams rp;
    rp.drain = ns(50);
    RootPort port(rp);  // 4096 + 16 B take 64.25 ns
    Iommu iommu("iommu", round_params(), kIommuAgent);
    LocalApic apic("apic", no_timer(), 0);
    Device device("device", DeviceParams{}, 0x100, port);
    TimedSchedule work("work", device);
    device.msi_socket.bind(iommu.msi_socket);
    connect(iommu.apic_port(0), apic.messages_in());
    iommu.write_irte(0, checked(Irte::remappable(0x30, 0)));
    device.program_msix(0, msi::remappable_address(0, false), 0);
    iommu.add_source(device, nullptr, port, 0);
    // First MSI: arrives 1064.25, IEC miss, ordered at 1184.25 (not sooner:
    // the device writes again then).
    work.due.push(ns(1000), 1);
    work.due.push(ns(1184.25), 2);
    // The write comes first: done at 1248.5, then the drain (1298.5), the
    // message port (20) and latency (100).
    sc_start(ns(1418));
    CHECK_FALSE(apic.irr().test(0x30));
    sc_start(ns(1));
    CHECK(apic.irr().test(0x30));
    CHECK(port.stats().drains >= 1);
}
