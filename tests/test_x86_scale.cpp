// An x86 host at hundreds of CPUs (issue 18 item 1): 352 and 1 024 CPUs in
// 2 sockets, one NVMe-like device per CPU, posted MSI, through the binary
// as a user runs it. Every CPU gets its device's interrupts and no
// completion is lost.
#include <sys/resource.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {

// `cpus` CPUs, one bursty device per CPU; the bursts rarer with more
// devices so that the total rate stays that of 8 devices (4 M/s bursts of 3 us).
json scale_config(unsigned cpus) {
    json c = {{"platform", "generic"},
              {"run", {{"duration_ns", 200000}, {"warmup_ns", 1000000}, {"seed", 1}}},
              {"mode", "posted"},
              {"topology", {{"cpus", cpus}, {"sockets", 2}}},
              {"lapic", {{"timer_period_ns", 250000}}},
              {"devices", json::array()},
              {"workloads", json::array()}};
    for (unsigned i = 0; i < cpus; ++i) {
        const std::string name = "nvme" + std::to_string(i);
        c["devices"].push_back({{"name", name}, {"vectors", 1}, {"irq_cpus", {i}}});
        c["workloads"].push_back({{"type", "bursty"}, {"device", name}, {"on_rate_mpps", 4.0},
                                  {"on_mean_ns", 3000}, {"off_mean_ns", 9000.0 * cpus / 8 - 3000},
                                  {"dma_bytes", 4096}});
    }
    return c;
}

json run(const json& config) {
    Scratch s;
    std::ofstream(s / "config.json") << config.dump();
    return run_result(s, "'" + (s / "config.json") + "'");
}

}  // namespace

TEST_CASE("352 CPUs in 2 sockets, a device each: every CPU is interrupted, nothing is lost",
          "[scale]") {
    const json r = run(scale_config(352));
    const json& m = r["metrics"];
    CHECK(m["lost_completions"] == 0);
    CHECK(m["stranded_at_end"] == 0);
    REQUIRE(r["per_cpu"].size() == 352);
    unsigned interrupted = 0;
    for (const json& c : r["per_cpu"]) interrupted += c["interrupts"].get<uint64_t>() > 0;
    // 200 us at 1.2 M bursts/s in all: most CPUs see one.
    CHECK(interrupted > 176);
    CHECK(m["completions_handled"].get<uint64_t>() > 1000);
}

TEST_CASE("1024 CPUs in 2 sockets load and run", "[scale]") {
    json c = scale_config(1024);
    c["run"]["warmup_ns"] = 0;
    c["run"]["duration_ns"] = 20000;
    const json r = run(c);
    CHECK(r["per_cpu"].size() == 1024);
    CHECK(r["metrics"]["lost_completions"] == 0);
}

// README ("Errors and exit codes") promises that a run at the limits of
// CPUs, vectors and outstanding I/Os stays under 2.5 GB, writing its result
// and --stats; one I/O more than the limit is refused, naming the
// workload's key. The worst case: a job per vector (64 on each device,
// the most jobs a device takes), each at the depth that fills the limit.
TEST_CASE("1024 CPUs and 1024 devices at the outstanding I/O limit stay under 2.5 GB",
          "[scale][limits]") {
    json c = {{"platform", "generic"},
              {"run", {{"duration_ns", 20000}, {"warmup_ns", 0}, {"batches", 1}}},
              {"mode", "posted"},
              {"topology", {{"cpus", 1024}}},
              {"iommu", {{"irte_entries", 65536}}},
              {"devices", json::array()},
              {"workloads", json::array()}};
    for (unsigned d = 0; d < 1024; ++d) {
        json cpus = json::array();
        for (unsigned q = 0; q < 64; ++q) cpus.push_back((d * 64 + q) % 1024);
        const std::string name = "nvme" + std::to_string(d);
        c["devices"].push_back({{"name", name}, {"vectors", 64}, {"irq_cpus", cpus}});
        c["workloads"].push_back(
            {{"type", "nvme"}, {"device", name}, {"jobs", 64}, {"iodepth", 64}});
    }
    Scratch s;
    json over = c;
    over["workloads"][1023]["iodepth"] = 65;
    std::ofstream(s / "over.json") << over.dump();
    const Run refused = run_cidsim(s, "run '" + (s / "over.json") + "' -q --out '" + (s / "o.json") + "'");
    CHECK(refused.status == 2);
    CHECK(refused.err.find("workloads[1023].iodepth") != std::string::npos);
    CHECK(refused.err.find("4194304") != std::string::npos);

    std::ofstream(s / "limits.json") << c.dump();
    const Run big = run_cidsim(s, "run '" + (s / "limits.json") + "' -q --out '" + (s / "r.json") +
                                      "' --stats '" + (s / "stats.txt") + "'");
    REQUIRE(big.status == 0);
    CHECK(json::parse(std::ifstream(s / "r.json"))["per_vector"].size() == 65536);
#if !defined(__SANITIZE_ADDRESS__)  // the sanitizers' shadow memory is not the run's
    rusage children{};
    getrusage(RUSAGE_CHILDREN, &children);
    CHECK(children.ru_maxrss < 2'500'000);  // kB
#endif
}

#if !defined(__SANITIZE_ADDRESS__)  // the sanitizers reserve more address space than the cap
TEST_CASE("a run out of memory says so plainly", "[scale][limits]") {
    Scratch s;
    const std::string err = s / "err.txt";
    const std::string cmd = "ulimit -v 300000; '" CIDSIM_BINARY "' run '" CIDSIM_SOURCE_DIR
                            "/configs/power/e2-p10.json' -q --out '" + (s / "r.json") +
                            "' --set 'power.cores_per_chip=[64,64,64,64,64,64,64,64]' --set "
                            "power.threads_per_core=8 --set ipistorm.cpulist=0-4095 2>'" + err + "'";
    const int raw = std::system(cmd.c_str());
    CHECK(WEXITSTATUS(raw) == 1);
    CHECK_THAT(slurp(err), Catch::StartsWith("cidsim run: failed: out of memory ("));
    CHECK_THAT(slurp(err), !Catch::Contains("bad_alloc"));
}
#endif
