// Performance guards (docs/performance.md): peak memory does not grow with
// simulated time, and the instructions spent per simulated MSI (callgrind,
// repeatable unlike wall time) stay under a recorded budget, so a slowdown
// fails CI. Both run the canonical bench config through `cidsim bench --child`.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <regex>

#include "cli_runner.h"

using namespace cidsim_test;

namespace {

const std::string kPosted = "'" CIDSIM_SOURCE_DIR "/configs/bench/posted.json'";

nlohmann::json child_run(const Scratch& s, const std::string& sets) {
    const Run r = run_cidsim(s, "bench --child " + kPosted + " " + sets);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out);
}

// Instructions per simulated MSI of the canonical configs before the
// scheduling layer (src/kernel) was introduced, measured on this project's
// machine (RelWithDebInfo, g++ 12, SystemC 2.3.4) with
//   valgrind --tool=callgrind --toggle-collect='cidsim::System::run()'
//     build/cidsim bench --child configs/bench/<config>.json
//     --set run.duration_ns=200000      (1 ms warm-up + 0.2 ms, ~5500 MSIs)
// The layer may cost at most 3% over them (docs/performance.md). Lower
// them when the model gets faster.
struct Budget {
    const char* config;
    double measured_per_msi;
};
// Posted is measured on the model with issue 22's mechanisms (same command):
// 7194, of which the PID update's ordering at its root port (posted_order_ns
// 20 vs 0: 6573 -> 7194) is the unit ordering each post behind its port's
// writers, as it orders a remapped message; docs/performance.md. With the
// update's mesh crossing (iommu.message_latency_ns, 600 ns) it is 7951,
// though fewer notifications and handler runs fall to each MSI (0.40 and
// 0.60 against 0.51 and 0.71 at 100 ns): a post is due further ahead than
// its CPU's horizon more often, so fewer land at fetch time.
constexpr Budget kBudgets[] = {{"posted", 7951}, {"remappable", 7131}};
constexpr double kHeadroom = 1.03;

// Instruction counts are measured on optimised, uninstrumented builds, with
// valgrind; elsewhere the test says why it is skipped.
bool callgrind_applies() {
#if !defined(__OPTIMIZE__) || defined(CIDSIM_SANITIZED)
    WARN("SKIPPED: instruction counts apply to optimised, uninstrumented builds only");
    return false;
#endif
    if (std::system("valgrind --version >/dev/null 2>&1") != 0) {
        WARN("SKIPPED: valgrind not found (scripts/setup.sh installs it)");
        return false;
    }
    return true;
}

}  // namespace

TEST_CASE("peak RSS of a run is flat in simulated duration", "[perf]") {
    Scratch s;
    const nlohmann::json shorter = child_run(s, "--set run.duration_ns=10000000");
    const nlohmann::json longer = child_run(s, "--set run.duration_ns=100000000");
    // The longer run really simulated ~10x the MSIs (else the comparison says nothing).
    REQUIRE(longer["msis"].get<double>() > 8 * shorter["msis"].get<double>());
    const double a = shorter["max_rss_kb"].get<double>(), b = longer["max_rss_kb"].get<double>();
    INFO("peak RSS " << a << " kB at 10 ms, " << b << " kB at 100 ms simulated");
    CHECK(b <= a * 1.10);
}

TEST_CASE("instructions per simulated MSI stay under the recorded budget", "[perf]") {
    if (!callgrind_applies()) return;
    Scratch s;
    for (const Budget& b : kBudgets) {
        INFO(b.config);
        const std::string cg = s / "callgrind.out";
        const std::string cmd = "valgrind --tool=callgrind --callgrind-out-file='" + cg +
                                "' --toggle-collect='cidsim::System::run()' '" CIDSIM_BINARY
                                "' bench --child '" CIDSIM_SOURCE_DIR "/configs/bench/" +
                                std::string(b.config) + ".json' --set run.duration_ns=200000 >'" +
                                (s / "out") + "' 2>'" + (s / "err") + "'";
        REQUIRE(std::system(cmd.c_str()) == 0);
        std::smatch m;
        const std::string err = slurp(s / "err");
        REQUIRE(std::regex_search(err, m, std::regex("Collected : ([0-9]+)")));
        const double instructions = std::stod(m[1]);
        const double msis = nlohmann::json::parse(slurp(s / "out"))["msis"].get<double>();
        REQUIRE(msis > 3000);
        const double per_msi = instructions / msis, budget = b.measured_per_msi * kHeadroom;
        INFO("instructions per simulated MSI: " << per_msi << " (budget " << budget << ")");
        CHECK(per_msi <= budget);
        WARN(b.config << ": instructions per simulated MSI: " << per_msi);
    }
}

// scripts/cost_split.py backs docs/performance-log.md's "What the targets ask":
// each of its three parts must be there, and no two may count the same
// instructions (the model's part, the rest, would shrink to nothing). A
// renamed run-ahead query would be toggled to nothing: the script stops.
TEST_CASE("cost_split.py splits an MSI's instructions into three parts", "[perf]") {
    if (!callgrind_applies()) return;
    Scratch s;
    const std::string cmd = "python3 '" CIDSIM_SOURCE_DIR "/scripts/cost_split.py' --json"
                            " --cidsim '" CIDSIM_BINARY "' --duration-ns 20000 >'" +
                            (s / "out") + "' 2>'" + (s / "err") + "'";
    const int status = std::system(cmd.c_str());
    INFO(slurp(s / "err"));
    REQUIRE(status == 0);
    const nlohmann::json split = nlohmann::json::parse(slurp(s / "out"));
    // The floor's loop: a few hundred instructions per event on SystemC 2.3.
    const double floor = split["floor_instructions_per_event"].get<double>();
    CHECK(floor > 100);
    CHECK(floor < 5000);
    for (const char* config : {"posted", "remappable"}) {
        const nlohmann::json& c = split["configs"][config];
        INFO(config << ": " << c.dump());
        CHECK(c["msis"].get<double>() > 1000);
        const double total = c["instructions_per_msi"];
        CHECK(c["systemc_per_msi"].get<double>() > 0.1 * total);
        CHECK(c["run_ahead_per_msi"].get<double>() > 0.05 * total);
        CHECK(c["model_per_msi"].get<double>() > 0.1 * total);
    }
}

TEST_CASE("bench refuses a stray word instead of ignoring it", "[perf][cli]") {
    Scratch s;
    const Run r = run_cidsim(s, "bench --no-floor --reps 1 posted");
    CHECK(r.status == 2);
    CHECK(r.err.find("unexpected argument(s): 'posted'") != std::string::npos);
}

// scripts/profile_blocks.py backs docs/performance.md's split of an MSI's
// instructions by block and kind: every instruction callgrind collected is
// attributed once (a listing read twice, or lines it cannot parse, would
// break the sum), and the SystemC kernel and the model both have a share.
TEST_CASE("profile_blocks.py attributes every collected instruction once", "[perf]") {
    if (!callgrind_applies()) return;
    Scratch s;
    const std::string cmd = "python3 '" CIDSIM_SOURCE_DIR "/scripts/profile_blocks.py' --cpus 8"
                            " --cidsim '" CIDSIM_BINARY "' --json '" + (s / "p.json") + "' >'" +
                            (s / "out") + "' 2>'" + (s / "err") + "'";
    const int status = std::system(cmd.c_str());
    INFO(slurp(s / "err"));
    REQUIRE(status == 0);
    const nlohmann::json p = nlohmann::json::parse(slurp(s / "p.json"));
    for (const char* c : {"posted 8", "remappable 8"}) {
        INFO(c);
        double sum = 0, systemc = 0, model = 0;
        for (const nlohmann::json& row : p[c]["per_msi"]) {
            const double v = row[2].get<double>();
            sum += v;
            if (row[0] == "systemc") systemc += v;
            if (row[0] == "model") model += v;
        }
        const double collected = p[c]["collected_per_msi"].get<double>();
        CHECK(std::abs(sum - collected) < 0.01 * collected);
        CHECK(systemc > 0.1 * collected);
        CHECK(model > 0.1 * collected);
    }
}
