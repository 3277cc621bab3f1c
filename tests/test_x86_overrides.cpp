// Per-socket and per-CPU overrides of the x86 host's costs (a config's
// `overrides` without a power section): what they select, that a later
// entry wins, that an override changes only its CPUs, and bad input.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "sim/system.h"
#include "cli_runner.h"
#include "config_error.h"

using namespace cidsim;
using nlohmann::json;

namespace {

// 4 CPUs in 2 sockets (0-1, 2-3), a device per CPU completing every 5 us,
// remapped (an interrupt per completion), the local timer every 100 us.
json two_sockets() {
    json c = {{"run", {{"duration_ns", 2e5}, {"warmup_ns", 2e4}, {"batches", 1}}},
              {"mode", "remappable"},
              {"topology", {{"cpus", 4}, {"sockets", 2}}},
              {"lapic", {{"timer_period_ns", 1e5}}},
              {"devices", json::array()},
              {"workloads", json::array()}};
    for (int cpu = 0; cpu < 4; ++cpu) {
        const std::string name = "dev" + std::to_string(cpu);
        c["devices"].push_back({{"name", name}, {"vectors", 1}, {"irq_cpus", {cpu}}});
        c["workloads"].push_back({{"type", "periodic"}, {"device", name}, {"period_ns", 5000},
                                  {"phase_ns", 100 + 10 * cpu}});
    }
    return c;
}

}  // namespace

TEST_CASE("x86 overrides: sockets and cpulists select host CPUs, a later entry wins",
          "[overrides]") {
    json c = two_sockets();
    c["overrides"] = {{{"sockets", {1}}, {"cpu", {{"irq_entry_ns", 300}, {"eoi_ns", 70}}}},
                      {{"cpus", "3"}, {"cpu", {{"irq_entry_ns", 500}}},
                       {"lapic", {{"timer_period_ns", 0}}}}};
    const SimConfig config = load_config(c);
    const std::vector<CpuCoreParams> cpu = x86_cpu_params(config);
    REQUIRE(cpu.size() == 4);
    CHECK(ns_of(cpu[0].irq_entry) == ns_of(config.cpu.irq_entry));
    CHECK(ns_of(cpu[1].eoi) == ns_of(config.cpu.eoi));
    CHECK(ns_of(cpu[2].irq_entry) == 300);
    CHECK(ns_of(cpu[3].irq_entry) == 500);  // the later entry
    CHECK(ns_of(cpu[3].eoi) == 70);         // the earlier entry's other key stays
    const std::vector<LocalApicParams> lapic = x86_lapic_params(config);
    REQUIRE(lapic.size() == 4);
    CHECK(ns_of(lapic[2].timer_period) == 1e5);
    CHECK(ns_of(lapic[3].timer_period) == 0);
    const json echoed = effective_config(config)["overrides"];
    REQUIRE(echoed.size() == 2);
    CHECK(echoed[0]["sockets"] == json{1});
    CHECK(echoed[1]["lapic"]["timer_period_ns"] == 0);
    CHECK(power_cpu_params(config).empty());
    // An entry that sets only cpu leaves every LAPIC on the base.
    json only_cpu = two_sockets();
    only_cpu["overrides"] = {{{"cpus", "0"}, {"cpu", {{"eoi_ns", 50}}}}};
    CHECK(x86_lapic_params(load_config(only_cpu)).empty());
    CHECK(x86_cpu_params(load_config(two_sockets())).empty());
}

TEST_CASE("x86 overrides: a slower interrupt entry on one socket costs that socket's CPUs alone",
          "[overrides]") {
    json c = two_sockets();
    c["overrides"] = {{{"sockets", {1}}, {"cpu", {{"irq_entry_ns", 900}}}},
                      {{"cpus", "0"}, {"lapic", {{"timer_period_ns", 0}}}}};
    System sys(load_config(c));
    sys.run();
    const auto irq_ns = [&](unsigned c) { return ns_of(sys.host().cpu(c).stats().irq_time); };
    const auto handled = [&](unsigned c) { return double(sys.host().cpu(c).stats().interrupts); };
    // The same interrupts everywhere (one per completion, the timer's aside);
    // socket 1 spends 750 ns more on each one's entry.
    REQUIRE(handled(1) > 30);
    for (unsigned s1 : {2u, 3u}) {
        CHECK(handled(s1) == Approx(handled(1)).epsilon(0.05));
        CHECK(irq_ns(s1) / handled(s1) - irq_ns(1) / handled(1) == Approx(750).margin(20));
    }
    // CPU 0's timer is off, CPU 1's is not.
    CHECK(sys.host().apic(0).stats().timer_expiries == 0);
    CHECK(sys.host().apic(1).stats().timer_expiries > 0);
}

TEST_CASE("x86 overrides: an override equal to the base value gives the same result file",
          "[overrides][cli]") {
    using namespace cidsim_test;
    Scratch s;
    const json c = two_sockets();
    json same = c;
    const double entry = ns_of(load_config(c).cpu.irq_entry);
    same["overrides"] = {{{"sockets", {0, 1}}, {"cpu", {{"irq_entry_ns", entry}}}}};
    json a = run_config(s, "a.json", c);
    json b = run_config(s, "b.json", same);
    CHECK(b["config"]["overrides"].size() == 1);
    b["config"].erase("overrides");
    CHECK(a.dump() == b.dump());
}

TEST_CASE("x86 overrides: bad input names the file and the key", "[overrides]") {
    const auto with = [](json entry) {
        json c = two_sockets();
        c["overrides"] = json::array({std::move(entry)});
        return cidsim_test::config_error(c, "ovr.json");
    };
    CHECK_THAT(with({{"sockets", {2}}, {"cpu", {{"eoi_ns", 1}}}}),
               Catch::StartsWith("ovr.json: overrides[0].sockets[0]: socket 2 is not in the host's 2 sockets"));
    CHECK_THAT(with({{"cpus", "2-4"}, {"cpu", {{"eoi_ns", 1}}}}),
               Catch::Contains("overrides[0].cpus: CPU 4 is not in the host's 4 CPUs"));
    CHECK_THAT(with({{"chips", {0}}, {"cpu", {{"eoi_ns", 1}}}}),
               Catch::Contains("overrides[0].chips: a POWER partition's key"));
    CHECK_THAT(with({{"cpus", "0"}, {"power", {{"loop_ns", 1}}}}),
               Catch::Contains("overrides[0].power: a POWER partition's key"));
    CHECK_THAT(with({{"sockets", {0}}, {"cpus", "1"}, {"cpu", {{"eoi_ns", 1}}}}),
               Catch::Contains("overrides[0]: expected exactly one of sockets, cores or cpus"));
    CHECK_THAT(with({{"cpus", "0"}, {"cpu", {{"eoi", 1}}}}),
               Catch::Contains("overrides[0].cpu.eoi: unknown key; valid keys here: irq_entry_ns"));
    CHECK_THAT(with({{"cpus", "0"}, {"lapic", {{"tpr", 300}}}}),
               Catch::Contains("overrides[0].lapic.tpr: expected"));
    CHECK_THAT(with({{"sockets", {1}}}), Catch::Contains("overrides[0]: an override needs the costs it sets (cpu or lapic)"));
    // Values in range that cannot work on the CPUs they set.
    CHECK_THAT(with({{"cpus", "1"}, {"lapic", {{"tpr", 0x20}}}}),
               Catch::Contains("overrides[0].lapic.tpr: 0x20 masks devices[1].first_vector 0x24"));
    CHECK_THAT(with({{"sockets", {0}}, {"lapic", {{"timer_period_ns", 1000}}}}),
               Catch::Contains("overrides[0].lapic.timer_period_ns: on CPU 0 the timer period "
                               "1000 ns is not longer than one timer interrupt"));
    // The override whose cost made the interrupt too long is named, with its CPU.
    CHECK_THAT(with({{"cpus", "3"}, {"cpu", {{"timer_handler_ns", 2e5}}}}),
               Catch::Contains("overrides[0].cpu.timer_handler_ns: on CPU 3 the timer period "
                               "100000 ns is not longer than one timer interrupt"));
}
