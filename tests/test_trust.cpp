// Trustworthy results: determinism, output safety and the run invariants,
// checked on the real binary (and, for invariants no config can break, on a
// System built in this process).
#include <catch2/catch.hpp>
#include "version.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "config/config_loader.h"
#include "kernel/violation.h"
#include "sim/invariants.h"
#include "sim/system.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {
const std::string kShort = " -q --set run.duration_ns=300000 --set run.warmup_ns=20000";
}

TEST_CASE("the same config and seed give a byte-identical result file") {
    Scratch s;
    for (const char* name : {"a.json", "b.json"})
        REQUIRE(run_cidsim(s, "run " + example("posted-bursty.json") + kShort + " --seed 7 -o " +
                                  s / name)
                    .status == 0);
    const std::string a = slurp(s / "a.json"), b = slurp(s / "b.json");
    REQUIRE(!a.empty());
    CHECK(a == b);
    const json r = json::parse(a);
    CHECK(r["seed"] == 7);
    CHECK(r["cidsim_version"].is_string());
    CHECK(r["cidsim_version"].get<std::string>() == cidsim::version());
}

TEST_CASE("the same seed gives a byte-identical result on every machine family: Xen KVM POWER") {
    Scratch s;
    const std::string root = std::string(CIDSIM_SOURCE_DIR) + "/configs/";
    for (const char* config : {"vm/e1-xen-eoi.json", "vm/host-and-guest.json", "power/e2-p10.json"}) {
        INFO(config);
        for (const char* name : {"a.json", "b.json"})
            REQUIRE(run_cidsim(s, "run '" + root + config + "'" + kShort +
                                      " --set run.batches=1 --seed 11 -o " + s / name)
                        .status == 0);
        const std::string a = slurp(s / "a.json");
        CHECK(a.size() > 1000);
        CHECK(a == slurp(s / "b.json"));
    }
}

TEST_CASE("a different seed changes stochastic workloads only") {
    Scratch s;
    auto result = [&](const std::string& config, int seed) {
        const std::string out = s / ("r" + std::to_string(seed) + ".json");
        REQUIRE(run_cidsim(s, "run " + config + kShort + " --seed " + std::to_string(seed) +
                                  " -o " + out)
                    .status == 0);
        json r = json::parse(slurp(out));
        REQUIRE(r["seed"] == seed);
        r.erase("seed");
        r["config"]["run"].erase("seed");
        return r;
    };
    // Bursty traffic draws from the seed: its metrics move.
    CHECK(result(example("posted-bursty.json"), 1)["metrics"] !=
          result(example("posted-bursty.json"), 2)["metrics"]);
    // A trace replay has nothing stochastic: only the seed itself differs.
    CHECK(result(example("rfc-burst-posted.json"), 1) ==
          result(example("rfc-burst-posted.json"), 2));
}

TEST_CASE("an unwritable --out fails before the simulation starts") {
    Scratch s;
    // A run of 10 simulated seconds would take minutes: failing fast proves
    // the check comes first.
    const auto t0 = std::chrono::steady_clock::now();
    const Run r = run_cidsim(s, "run " + example("posted-bursty.json") +
                                    " --set run.duration_ns=1e10 -o " + s / "missing/r.json");
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(r.status == 2);
    CHECK(r.err.find("cannot write here") != std::string::npos);
    CHECK(secs < 10);
    const Run d = run_cidsim(s, "run " + example("posted-bursty.json") +
                                    " --set run.duration_ns=1e10 -o " + s.dir.string());
    CHECK(d.status == 2);
    CHECK(d.err.find("is a directory") != std::string::npos);
}

TEST_CASE("the result file appears whole, with no temporary left behind") {
    Scratch s;
    REQUIRE(run_cidsim(s, "run " + example("rfc-burst-posted.json") + " -q -o " + s / "r.json")
                .status == 0);
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(s.dir)) files.push_back(e.path().filename());
    std::sort(files.begin(), files.end());
    CHECK(files == std::vector<std::string>{"r.json", "stderr.txt", "stdout.txt"});
    const json r = json::parse(slurp(s / "r.json"));
    CHECK(r["invariants"]["all_enforced_hold"] == true);
}

TEST_CASE("the buggy handler variant reports stranded interrupts as the finding") {
    Scratch s;
    const Run r = run_cidsim(s, "run " + example("posted-bursty.json") +
                                    " -q --set run.duration_ns=4000000"
                                    " --set handler.final_harvest=false -o " + s / "r.json");
    REQUIRE(r.status == 0);
    const json inv = json::parse(slurp(s / "r.json"))["invariants"];
    CHECK(inv["no_stranded_interrupt"]["holds"] == false);
    CHECK(inv["no_stranded_interrupt"]["enforced"] == false);
    CHECK(inv["no_stranded_interrupt"]["violations"].get<uint64_t>() > 0);
    CHECK(inv["no_stranded_interrupt"]["first_at_ns"].is_number());
    CHECK(inv["all_enforced_hold"] == true);
}

TEST_CASE("a violated invariant fails the run, saying which and when, and writes no result") {
    Scratch s;
    const Run r = run_cidsim(s, "run " + example("posted-bursty.json") +
                                    " -q --set devices.0.max_in_flight=2"
                                    " --set workloads.0.on_rate_mpps=500 -o " + s / "r.json");
    CHECK(r.status == 1);
    CHECK(r.err.find("invariant bounded_queues violated at ") != std::string::npos);
    CHECK(r.err.find("ns simulated") != std::string::npos);
    CHECK(!fs::exists(s / "r.json"));
}

namespace {
cidsim::SimConfig small_system() {
    return cidsim::load_config(json::parse(R"({
        "run": {"duration_ns": 20000}, "topology": {"cpus": 2},
        "devices": [{"name": "d0", "vectors": 2, "irq_cpus": [0, 1]}],
        "workloads": [{"type": "bursty", "device": "d0", "off_mean_ns": 0}]})"));
}
const cidsim::InvariantResult& find(const cidsim::InvariantReport& r, const std::string& name) {
    for (const auto& i : r.results)
        if (i.name == name) return i;
    FAIL("no invariant " << name);
    throw;
}
}  // namespace

TEST_CASE("invariants hold on a correct run and catch an EOI with an empty ISR") {
    cidsim::System sys(small_system());
    sys.run();
    const cidsim::InvariantReport ok = cidsim::check_invariants(sys);
    for (const auto& i : ok.results) CHECK((i.name + (i.holds ? " holds" : " violated")) ==
                                           i.name + " holds");
    CHECK(find(ok, "conservation").detail.find("completions posted") != std::string::npos);
    sys.host().apic(1).eoi();  // nothing in service: a software bug the LAPIC counts
    const cidsim::InvariantReport bad = cidsim::check_invariants(sys);
    CHECK(!bad.ok());
    CHECK(!find(bad, "lapic_sanity").holds);
    CHECK(find(bad, "lapic_sanity").first_at_ns == Approx(20000));
    REQUIRE(bad.failures().size() == 1);
    CHECK(bad.failures()[0].find("invariant lapic_sanity violated at 20000 ns") == 0);
}

TEST_CASE("monotone time: scheduling into the past is a violation") {
    cidsim::System sys(small_system());
    sys.run();
    CHECK(find(cidsim::check_invariants(sys), "monotone_time").holds);
    cidsim::check_not_in_past(sc_core::SC_ZERO_TIME);  // now is 20 us
    const cidsim::InvariantReport report = cidsim::check_invariants(sys);
    const cidsim::InvariantResult& t = find(report, "monotone_time");
    CHECK(!t.holds);
    CHECK(t.violations == 1);
}
