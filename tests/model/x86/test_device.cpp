// Device: a testbench of one device behind a root port: a schedule stub
// says when it completes next, a target stub records when each MSI write
// reaches the remapping unit. The remapping unit fetches requests as they are
// announced on the strength of earliest_arrival(), so that bound must never
// exceed a real arrival, and should not be looser than the root port allows.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "model/x86/device.h"
#include "timed_schedule.h"
#include "workloads/bursty.h"

using namespace cidsim;
using sc_core::sc_start;
using sc_core::sc_time;

namespace {

struct Schedule : CompletionSchedule {
    sc_time next;
    uint64_t bytes = 0;
    sc_time earliest_completion() const override { return next; }
    uint64_t completion_bytes() const override { return bytes; }
};

struct RemappingUnitStub : sc_core::sc_module {
    tlm_utils::simple_target_socket<RemappingUnitStub> socket;
    std::vector<sc_time> arrivals;
    explicit RemappingUnitStub(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
        socket.register_b_transport(this, &RemappingUnitStub::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload&, sc_time& delay) {
        arrivals.push_back(sc_core::sc_time_stamp() + delay);
    }
};

struct Bench {
    RootPort port{RootPortParams{}};  // 64 GB/s: 4096 + 16 B take 64.25 ns
    Device device{"device", DeviceParams{}, 0x100, port};
    RemappingUnitStub unit{"unit"};
    Schedule schedule;
    Bench() {
        device.msi_socket.bind(unit.socket);
        schedule.bytes = 4096;
        device.add_schedule(schedule);
    }
};

// Logs (source id, arrival) of every MSI write, in the order they are sent.
using MsiLog = std::vector<std::pair<uint16_t, sc_time>>;
struct LoggingUnit : sc_core::sc_module {
    tlm_utils::simple_target_socket<LoggingUnit> socket;
    MsiLog& log;
    LoggingUnit(sc_core::sc_module_name n, MsiLog& l) : sc_module(n), socket("socket"), log(l) {
        socket.register_b_transport(this, &LoggingUnit::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
        log.push_back({gp.get_extension<MsiIngress>()->source_id, sc_core::sc_time_stamp() + delay});
    }
};

// Devices behind one root port, each with its own MSI path to one log.
struct SharedPortBench {
    RootPort port{RootPortParams{}};
    MsiLog log;
    std::vector<std::unique_ptr<Device>> devices;
    std::vector<std::unique_ptr<LoggingUnit>> units;
    std::vector<std::unique_ptr<TimedSchedule>> schedules;
    // Devices (and their workloads' processes) are created in this order.
    explicit SharedPortBench(std::initializer_list<uint16_t> source_ids) {
        for (uint16_t sid : source_ids) {
            const std::string n = std::to_string(sid);
            devices.push_back(std::make_unique<Device>(("dev" + n).c_str(), DeviceParams{}, sid, port));
            units.push_back(std::make_unique<LoggingUnit>(("unit" + n).c_str(), log));
            devices.back()->msi_socket.bind(units.back()->socket);
            schedules.push_back(std::make_unique<TimedSchedule>(("work" + n).c_str(), *devices.back()));
        }
    }
    void complete_all_at(const sc_time& t) {
        for (auto& s : schedules) s->due.push(t, 1);
    }
};

void check_source_id_order(std::initializer_list<uint16_t> creation_order) {
    SharedPortBench b(creation_order);
    b.complete_all_at(ns(1000));
    sc_start(ns(2000));
    REQUIRE(b.log.size() == 3);
    // Each write takes 64.25 ns; they queue at the port in source-id order.
    CHECK(b.log[0] == std::make_pair(uint16_t(0x100), ns(1000) + ns(64.25)));
    CHECK(b.log[1] == std::make_pair(uint16_t(0x200), ns(1000) + ns(128.5)));
    CHECK(b.log[2] == std::make_pair(uint16_t(0x300), ns(1000) + ns(192.75)));
}

}  // namespace

TEST_CASE("devices completing at one picosecond behind one root port write in source-id order",
          "[device]") {
    check_source_id_order({0x100, 0x200, 0x300});
}

TEST_CASE("they write in that order whichever device's workload SystemC runs first", "[device]") {
    check_source_id_order({0x300, 0x100, 0x200});
}

TEST_CASE("a device's next MSI arrives no earlier than its data and entry can pass the root port",
          "[device]") {
    Bench b;
    sc_start(ns(900));
    b.schedule.next = ns(1000);
    CHECK(b.device.earliest_send() == ns(1000));
    CHECK(b.device.earliest_arrival() == ns(1000) + ns(64.25));
    sc_start(ns(100));
    b.device.complete(0, 1, 4096);
    REQUIRE(b.unit.arrivals.size() == 1);
    CHECK(b.unit.arrivals[0] == ns(1000) + ns(64.25));  // the bound is met exactly
}

TEST_CASE("a device's next MSI waits behind writes already queued at its root port", "[device]") {
    Bench b;
    sc_start(ns(1000));
    b.port.dma_write(8192);  // another device's write: the path is busy for 128 ns
    b.schedule.next = ns(1010);
    CHECK(b.device.earliest_arrival() == ns(1128) + ns(64.25));
    sc_start(ns(10));
    b.device.complete(0, 1, 4096);
    REQUIRE(b.unit.arrivals.size() == 1);
    CHECK(b.unit.arrivals[0] == ns(1128) + ns(64.25));
}

TEST_CASE("a device with no known schedule may send at once", "[device]") {
    RootPort port{RootPortParams{}};
    Device device{"device", DeviceParams{}, 0x100, port};
    RemappingUnitStub unit{"unit"};
    device.msi_socket.bind(unit.socket);
    sc_start(ns(10));
    CHECK(device.earliest_send() == ns(10));
    CHECK(device.earliest_arrival() == ns(10) + ns(0.25));  // the entry alone
}

namespace {

// One device whose queue holds its MSI until the driver's doorbell (NVMe).
struct DoorbellBench {
    RootPort port{RootPortParams{}};  // 4096 + 16 B take 64.25 ns
    Device device{"device", doorbell_params(), 0x100, port};
    RemappingUnitStub unit{"unit"};
    DoorbellBench() { device.msi_socket.bind(unit.socket); }
    static DeviceParams doorbell_params() {
        DeviceParams p;
        p.msi_until_doorbell = true;
        return p;
    }
};

}  // namespace

TEST_CASE("without the interrupt status every completion sends its MSI", "[device]") {
    Bench b;
    sc_start(ns(1000));
    b.device.complete(0, 1, 4096);
    b.device.complete(0, 2, 4096);
    CHECK(b.unit.arrivals.size() == 2);
    CHECK(b.device.stats().msis == 2);
}

TEST_CASE("an NVMe queue sends one MSI until the driver's doorbell acknowledges it", "[device]") {
    DoorbellBench b;
    sc_start(ns(1000));
    b.device.complete(0, 1, 4096);
    b.device.complete(0, 2, 4096);  // the status is set: no message
    REQUIRE(b.unit.arrivals.size() == 1);
    CHECK(b.unit.arrivals[0] == ns(1064.25));
    sc_start(ns(200));
    b.device.handle(0, 0, sc_core::sc_time_stamp());  // drains both, rings the doorbell
    CHECK(b.device.stats().drained == 2);
    CHECK(b.unit.arrivals.size() == 1);  // nothing left unacknowledged
    b.device.complete(0, 3, 4096);
    REQUIRE(b.unit.arrivals.size() == 2);
    CHECK(b.unit.arrivals[1] == ns(1264.25));
    CHECK(b.device.stats().msis == 2);
    CHECK(b.device.stats().completions == 3);
}

TEST_CASE("entries still in flight at the doorbell send the queue's MSI again once written",
          "[device]") {
    DoorbellBench b;
    sc_start(ns(1000));
    b.device.complete(0, 1, 4096);  // visible at 1064.25
    sc_start(ns(100));
    b.device.complete(0, 2, 4096);  // visible at 1164.25, no message of its own
    REQUIRE(b.unit.arrivals.size() == 1);
    // A handler may run now and leave it unacknowledged: the device may send.
    CHECK(b.device.earliest_send() == ns(1100));
    CHECK(b.device.earliest_arrival() <= ns(1164.25));
    b.device.handle(0, 0, ns(1100));  // drains the first only
    CHECK(b.device.stats().drained == 1);
    REQUIRE(b.unit.arrivals.size() == 2);
    CHECK(b.unit.arrivals[1] == ns(1164.25));  // behind the entry's write
    sc_start(ns(100));
    b.device.handle(0, 0, sc_core::sc_time_stamp());
    CHECK(b.device.stats().drained == 2);
    CHECK(b.device.lost() == 0);
}
