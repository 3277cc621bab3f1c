// The POWER partition under ipistorm through the real binary (systems.md D,
// E2): exactness with cyclic CPU-to-CPU dependencies, what the irq_desc
// layer does to the descriptor's line under each note_interrupt, and the
// chip latency of an IPI (the table itself: test_ipistorm_reproduce.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {

const std::string kP9 = "'" CIDSIM_SOURCE_DIR "/configs/power/e2-p9.json'";
const std::string kShort = " --set run.duration_ns=5e5 --set run.warmup_ns=1e5 --set run.batches=1";

json ipistorm_of(const Scratch& s, const std::string& args) {
    return run_result(s, kP9 + kShort + " " + args)["ipistorm"];
}

}  // namespace

TEST_CASE("ipistorm: a stepwise run gives the same result file as the default run", "[ipistorm][cli]") {
    Scratch s;
    // 16 CPUs on two chips, every call crossing them: each CPU waits on
    // another, which waits on a third.
    const std::string small = " --set power.cores_per_chip=[2,2] --set ipistorm.cpulist=0-15";
    for (const char* debug : {"on", "off", "piggin"}) {
        const std::string set = small + " --set power.irqdebug=" + debug;
        const Run a = run_cidsim(s, "run " + kP9 + kShort + set + " -q --out '" + (s / "a.json") + "'");
        const Run b = run_cidsim(s, "run " + kP9 + kShort + set + " --stepwise -q --out '" +
                                        (s / "b.json") + "'");
        REQUIRE(a.status == 0);
        REQUIRE(b.status == 0);
        INFO(debug);
        CHECK(slurp(s / "a.json") == slurp(s / "b.json"));
        CHECK(json::parse(slurp(s / "a.json"))["ipistorm"]["cross_chip_ipi_share"] == 1.0);
    }
}

TEST_CASE("ipistorm: irq_count++ bounces the descriptor's line, noirqdebug and Piggin's fast path "
          "leave it shared-clean", "[ipistorm]") {
    Scratch s;
    const std::string cpus = " --set ipistorm.cpulist=0-63";
    // Each IPI: a read miss from the last writer, then an upgrade.
    json x = ipistorm_of(s, cpus + " --set power.irqdebug=on");
    CHECK(x["ipis"].get<double>() > 1000);
    CHECK(x["desc_line_transfers_per_ipi"].get<double>() == Approx(2.0).epsilon(0.05));
    CHECK(std::abs(x["desc_line_stores"].get<double>() - x["ipis"].get<double>()) <= 64);
    // No store: after each CPU's first read (in the warm-up) no transfer at
    // all, so neither the kstat increment nor anything else writes it.
    for (const char* debug : {"off", "piggin"}) {
        INFO(debug);
        x = ipistorm_of(s, cpus + " --set power.irqdebug=" + debug);
        CHECK(x["ipis"].get<double>() > 1000);
        CHECK(x["desc_line_stores"] == 0);
        CHECK(x["desc_line_transfers_per_ipi"] == 0.0);
    }
}

TEST_CASE("ipistorm: with one descriptor per chip the line never leaves its chip", "[ipistorm]") {
    Scratch s;
    const std::string cpus = " --set ipistorm.cpulist=0-127";
    const json sys = ipistorm_of(s, cpus + " --set power.ipi_descs=system");
    const json chip = ipistorm_of(s, cpus + " --set power.ipi_descs=chip");
    CHECK(sys["desc_line_cross_chip_share"].get<double>() > 0.2);
    CHECK(chip["desc_line_cross_chip_share"] == 0.0);
    CHECK(chip["descs"] == 2);
    CHECK(chip["mint_per_s"].get<double>() > 1.5 * sys["mint_per_s"].get<double>());
}

TEST_CASE("ipistorm: an IPI to another chip arrives the chip latency later", "[ipistorm]") {
    Scratch s;
    // Two chips of one single-threaded core each: CPU 0 and CPU 1 call each
    // other, every IPI crossing. The sender spins for its IPI's whole trip,
    // so its spin grows by the chip latency at least; by at most one handler
    // more, the partner's IPI, which now lands in the spin more often.
    const std::string pair = " --set power.cores_per_chip=[1,1] --set power.threads_per_core=1"
                             " --set ipistorm.cpulist=0-1 --set ipistorm.offset=1";
    const double near = ipistorm_of(s, pair + " --set xive.cross_chip_ns=0")["spin_us_per_iteration"];
    const double far = ipistorm_of(s, pair + " --set xive.cross_chip_ns=500")["spin_us_per_iteration"];
    CHECK(far - near >= 0.5 * 0.98);
    CHECK(far - near <= 0.5 + 0.8);
}

TEST_CASE("ipistorm: bad input names its key", "[ipistorm][cli]") {
    Scratch s;
    const auto err = [&](const std::string& sets) {
        const Run r = run_cidsim(s, "run " + kP9 + kShort + sets + " -q --out '" + (s / "r.json") + "'");
        CHECK(r.status == 2);
        return r.err;
    };
    CHECK_THAT(err(" --set ipistorm.cpulist=0-128"), Catch::Contains("ipistorm.cpulist"));
    CHECK_THAT(err(" --set ipistorm.cpulist=7-3"), Catch::Contains("ipistorm.cpulist"));
    CHECK_THAT(err(" --set power.cores_per_chip=[]"), Catch::Contains("power.cores_per_chip"));
    CHECK_THAT(err(" --set power.irqdebug=sometimes"), Catch::Contains("power.irqdebug"));
    // Every kthread calling itself sends no IPI.
    CHECK_THAT(err(" --set ipistorm.offset=64"), Catch::Contains("ipistorm.offset: 64 sends each CPU of ipistorm.cpulist to itself"));
    // An iteration shorter than a timebase tick (none at all, or 1 ps) would
    // hardly let the run end.
    std::string sleep_zero;
    for (const char* k : {"usleep_enter_ns", "timer_delta_ns", "timer_handler_ns", "usleep_exit_ns"})
        sleep_zero += std::string(" --set power.") + k + "=0";
    CHECK_THAT(err(sleep_zero + " --set power.loop_ns=0"),
               Catch::Contains("iteration would take 0 ns"));
    CHECK_THAT(err(sleep_zero + " --set power.loop_ns=0.001"),
               Catch::Contains("iteration would take 0.001 ns") &&
                   Catch::Contains("less than one 512 MHz timebase tick"));
    // A default the partition cannot hold is named as the default.
    json one = json::parse(slurp(CIDSIM_SOURCE_DIR "/configs/power/e2-p9.json"));
    one.erase("ipistorm");
    one["power"]["cores_per_chip"] = {1};
    std::ofstream(s / "one.json") << one.dump();
    const Run r = run_cidsim(s, "run '" + (s / "one.json") + "' -q --out '" + (s / "r.json") + "'");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("(the default \"0-15\"; set ipistorm.cpulist)"));
}

TEST_CASE("ipistorm: measured in windows, descs is the partition's and the ratios the whole run's",
          "[ipistorm][totals]") {
    // descs is a configuration (1 with IPI/sys), not a count to sum over the
    // windows; a ratio is the ratio of the run's sums, not the windows' mean.
    Scratch s;
    const std::string args = kP9 + " --set run.duration_ns=1e6 --set run.warmup_ns=2e5";
    const json one = run_result(s, args + " --set run.batches=1")["ipistorm"];
    const json three = run_result(s, args + " --set run.batches=3")["ipistorm"];
    CHECK(one["descs"] == 1);
    CHECK(three["descs"] == 1);
    CHECK(three["desc_line_transfers"] == one["desc_line_transfers"]);
    CHECK(three["desc_line_transfers_per_ipi"].get<double>() ==
          Approx(three["desc_line_transfers"].get<double>() / three["ipis"].get<double>()));
    for (const char* k : {"desc_line_transfers_per_ipi", "polled_share", "spin_us_per_iteration",
                          "xive_queued_share", "desc_line_queued_share", "cross_chip_ipi_share",
                          "desc_line_cross_chip_share", "mint_per_s"}) {
        INFO(k);
        CHECK(three[k].get<double>() == Approx(one[k].get<double>()).epsilon(1e-12));
    }
}
