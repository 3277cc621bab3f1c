// Per-node and per-core overrides of the POWER partition's costs (a config's
// `overrides`): what they select, that a later entry wins, that an override
// changes only its CPUs, and that a key no CPU owns alone is refused.
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

const std::string kP9 = CIDSIM_SOURCE_DIR "/configs/power/e2-p9.json";

// Two chips of two SMT4 cores (CPUs 0-7 chip 0, 8-15 chip 1), every CPU
// storming; no waiting and noirqdebug (the descriptor line stays shared), so
// one CPU's loop does not hold up the others.
json small_p9() {
    json c = read_json_file(kP9);
    c["run"] = {{"duration_ns", 5e5}, {"warmup_ns", 1e5}, {"batches", 1}};
    c["power"]["cores_per_chip"] = {2, 2};
    c["ipistorm"]["cpulist"] = "0-15";
    c["ipistorm"]["wait"] = false;
    c["power"]["irqdebug"] = "off";
    return c;
}

double mean_iterations(const System& sys, unsigned first, unsigned last) {
    double n = 0;
    for (unsigned c = first; c <= last; ++c) n += double(sys.power()->cpu(c).stats().iterations);
    return n / double(last - first + 1);
}

}  // namespace

TEST_CASE("overrides: a later entry wins and each CPU keeps the keys no entry sets", "[overrides]") {
    json c = small_p9();
    c["overrides"] = {{{"chips", {1}}, {"power", {{"loop_ns", 6500}, {"flush_ns", 70}}}},
                      {{"cores", {3}}, {"power", {{"loop_ns", 9000}}}},
                      {{"cpus", "0-1"}, {"power", {{"kstat_ns", 12}}}}};
    const SimConfig config = load_config(c);
    const std::vector<PowerParams> p = power_cpu_params(config);
    REQUIRE(p.size() == 16);
    const double base_loop = ns_of(config.power.loop);
    CHECK(ns_of(p[0].loop) == base_loop);
    CHECK(ns_of(p[0].kstat) == 12);
    CHECK(ns_of(p[2].kstat) == ns_of(config.power.kstat));
    CHECK(ns_of(p[8].loop) == 6500);   // core 2, chip 1
    CHECK(ns_of(p[12].loop) == 9000);  // core 3: the later entry
    CHECK(ns_of(p[12].flush) == 70);   // the earlier entry's other key stays
    CHECK(ns_of(p[8].flush) == 70);
    CHECK(ns_of(p[7].flush) == ns_of(config.power.flush));
    // The effective config echoes them as given.
    const json echoed = effective_config(config)["overrides"];
    REQUIRE(echoed.size() == 3);
    CHECK(echoed[1]["cores"] == json{3});
    CHECK(echoed[2]["cpus"] == "0-1");
    CHECK(echoed[0]["power"]["loop_ns"] == 6500);
    CHECK(xive_chip_params(config).empty());
    // A chip's XIVE: only that chip's.
    json far = small_p9();
    far["overrides"] = {{{"chips", {1}}, {"xive", {{"cross_chip_ns", 900}}}}};
    const SimConfig far_config = load_config(far);
    const std::vector<XiveParams> x = xive_chip_params(far_config);
    REQUIRE(x.size() == 2);
    CHECK(ns_of(x[0].cross_chip) == ns_of(far_config.xive.cross_chip));
    CHECK(ns_of(x[1].cross_chip) == 900);
    for (const PowerParams& p_cpu : power_cpu_params(far_config))
        CHECK(ns_of(p_cpu.loop) == ns_of(far_config.power.loop));
    // Without overrides every CPU shares the config's params.
    CHECK(power_cpu_params(load_config(small_p9())).empty());
    CHECK_FALSE(effective_config(load_config(small_p9())).contains("overrides"));
}

TEST_CASE("overrides: a slower loop on one chip slows that chip's iterations and not the other's",
          "[overrides][cli]") {
    // The base run through the binary (SystemC elaborates once per process):
    // its CPUs' mean iterations, every CPU alike.
    cidsim_test::Scratch s;
    const json base = small_p9();
    const json plain = cidsim_test::run_config(s, "base.json", base);
    const double per_cpu = plain["ipistorm"]["iterations_per_s"].get<double>() *
                           plain["metrics"]["simulated_seconds"].get<double>() / 16;
    REQUIRE(per_cpu > 20);
    json slow = base;
    slow["overrides"] = {{{"chips", {1}}, {"power", {{"loop_ns", 20000}}}}};
    System slowed(load_config(slow));
    slowed.run();
    CHECK(mean_iterations(slowed, 8, 15) < 0.5 * per_cpu);
    // Chip 0 keeps its costs: it does not slow down, and speeds up only by
    // the handlers of the IPIs chip 1 now sends fewer of (about 25% here).
    CHECK(mean_iterations(slowed, 0, 7) >= per_cpu);
    CHECK(mean_iterations(slowed, 0, 7) < 1.5 * per_cpu);
}

TEST_CASE("overrides: an override equal to the base value gives the same result file",
          "[overrides][cli]") {
    using namespace cidsim_test;
    Scratch s;
    json c = small_p9();
    c["ipistorm"]["wait"] = true;
    const double loop = c["power"]["loop_ns"].get<double>();
    json same = c;
    same["overrides"] = {{{"chips", {0, 1}}, {"power", {{"loop_ns", loop}}}}};
    json a = run_config(s, "a.json", c);
    json b = run_config(s, "b.json", same);
    CHECK(b["config"]["overrides"].size() == 1);
    b["config"].erase("overrides");
    CHECK(a.dump() == b.dump());
}

TEST_CASE("overrides: bad input names the file and the key", "[overrides]") {
    const auto with = [](json entry) {
        json c = small_p9();
        c["overrides"] = json::array({std::move(entry)});
        return cidsim_test::config_error(c, "ovr.json");
    };
    const std::string wide = with({{"chips", {0}}, {"power", {{"threads_per_core", 2}}}});
    CHECK_THAT(wide, Catch::StartsWith("ovr.json: overrides[0].power.threads_per_core: not per-CPU"));
    CHECK_THAT(wide, Catch::Contains("loop_ns"));
    CHECK_THAT(with({{"chips", {2}}, {"power", {{"loop_ns", 1}}}}),
               Catch::StartsWith("ovr.json: overrides[0].chips[0]: chip 2 is not in the partition's 2 chips"));
    CHECK_THAT(with({{"cores", {4}}, {"power", {{"loop_ns", 1}}}}),
               Catch::Contains("overrides[0].cores[0]: core 4 is not in the partition's 4 cores"));
    CHECK_THAT(with({{"cpus", "8-16"}, {"power", {{"loop_ns", 1}}}}),
               Catch::Contains("overrides[0].cpus: CPU 16 is not in the partition's 16 CPUs"));
    CHECK_THAT(with({{"cpus", "7-3"}, {"power", {{"loop_ns", 1}}}}), Catch::Contains("overrides[0].cpus: "));
    CHECK_THAT(with({{"chips", {0}}, {"power", {{"lop_ns", 1}}}}),
               Catch::Contains("overrides[0].power.lop_ns: unknown key (did you mean \"loop_ns\"?)"));
    CHECK_THAT(with({{"chips", {0}}, {"power", {{"loop_ns", -5}}}}),
               Catch::Contains("overrides[0].power.loop_ns: expected a number in [0, 1e+06]"));
    CHECK_THAT(with({{"chips", {0}}, {"cores", {0}}, {"power", {{"loop_ns", 1}}}}),
               Catch::Contains("overrides[0]: expected exactly one of chips, cores or cpus"));
    CHECK_THAT(with({{"chips", {0}}, {"cpu", {{"loop_ns", 1}}}}),
               Catch::Contains("overrides[0].cpu: an x86 host key"));
    CHECK_THAT(with({{"chips", {0}}}), Catch::Contains("overrides[0]: an override needs the costs"));
    CHECK_THAT(with({{"cores", {0}}, {"xive", {{"tima_ack_ns", 1}}}}),
               Catch::Contains("overrides[0].xive: a XIVE is per chip"));
    CHECK_THAT(with({{"chips", {0}}, {"xive", {{"tima_ack", 1}}}}),
               Catch::Contains("overrides[0].xive.tima_ack: unknown key"));
    // Overrides are of the POWER partition's CPUs.
    json x86 = read_json_file(CIDSIM_SOURCE_DIR "/configs/examples/posted-bursty.json");
    x86["overrides"] = json::array({{{"cpus", "0"}, {"power", {{"loop_ns", 1}}}}});
    CHECK_THAT(cidsim_test::config_error(x86, "ovr.json"), Catch::Contains("overrides[0].power: a POWER partition's key"));
}
