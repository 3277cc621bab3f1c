// Device: a testbench of one device behind a root port: a schedule stub
// says when it completes next, a target stub records when each MSI write
// reaches the remapping unit. The remapping unit fetches requests as they are
// announced on the strength of earliest_arrival(), so that bound must never
// exceed a real arrival, and should not be looser than the root port allows.
#include <catch2/catch.hpp>

#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "model/device.h"

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

}  // namespace

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
