// Property test: random valid configs (devices, CPUs, sockets, remapping
// modes, harvest strategies, loop variants and limits, the buggy handler,
// bursty and trace traffic, warm-up) each run briefly through the real
// binary (SystemC elaborates once per process), and every run must succeed
// with every enforced invariant holding. Seeded, so a failure reproduces:
// the failing config is printed.
#include <catch2/catch.hpp>

#include <random>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {

constexpr int kPerBatch = 75;

json random_config(std::mt19937_64& rng) {
    auto pick = [&rng](uint64_t lo, uint64_t hi) {
        return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
    };
    auto real = [&rng](double lo, double hi) {
        return std::uniform_real_distribution<double>(lo, hi)(rng);
    };
    const char* const modes[] = {"remappable", "posted"};
    const char* const harvests[] = {"xchg_all", "interleaved", "read_then_xchg", "no_copy"};
    const char* const loops[] = {"rfc_v1", "merged"};

    const uint64_t cpus = pick(1, 8);
    const double duration = double(pick(10, 60)) * 1000;  // tens of microseconds
    const double warmup = pick(0, 1) ? 5000.0 : 0.0;
    const uint64_t seed = pick(0, 1u << 30);
    const char* const mode = modes[pick(0, 1)];
    uint64_t sockets = pick(1, std::min<uint64_t>(cpus, 2));
    if (cpus % sockets) sockets = 1;  // sockets split the cores evenly
    json c = {
        {"run", {{"duration_ns", duration}, {"warmup_ns", warmup}, {"seed", seed}}},
        {"mode", mode},
        {"topology", {{"cpus", cpus}, {"sockets", sockets}, {"root_ports", pick(1, 2)}}},
        {"handler", {{"harvest", harvests[pick(0, 3)]}, {"loop", loops[pick(0, 1)]},
                     {"loop_limit", pick(1, 8)}, {"final_harvest", pick(0, 9) != 0}}},
        {"lapic", {{"timer_period_ns", pick(0, 1) ? 0.0 : double(pick(3, 30)) * 1000}}},
        {"iommu", {{"iec_entries", pick(0, 64)}}},
        {"devices", json::array()},
        {"workloads", json::array()}};
    const uint64_t devices = pick(1, 4);
    for (uint64_t d = 0; d < devices; ++d) {
        const std::string name = "dev" + std::to_string(d);
        const uint64_t vectors = pick(1, 8);
        json irq = json::array();
        for (uint64_t k = 0, n = pick(1, std::min(vectors, cpus)); k < n; ++k)
            irq.push_back(pick(0, cpus - 1));
        c["devices"].push_back({{"name", name},
                                {"vectors", vectors},
                                {"irq_cpus", irq},
                                {"root_port", pick(0, c["topology"]["root_ports"].get<uint64_t>() - 1)},
                                {"handler_base_ns", double(pick(0, 400))},
                                {"per_completion_ns", double(pick(0, 200))}});
        if (pick(0, 3)) {
            c["workloads"].push_back({{"type", "bursty"},
                                      {"device", name},
                                      {"on_rate_mpps", real(0.1, 12)},
                                      {"on_mean_ns", double(pick(200, 5000))},
                                      {"off_mean_ns", double(pick(0, 1) ? 0 : pick(200, 8000))},
                                      {"dma_bytes", pick(0, 4096)}});
        } else {
            json events = json::array();
            for (uint64_t e = 0, n = pick(1, 40); e < n; ++e)
                events.push_back({double(pick(0, uint64_t(warmup + duration) - 1)), name,
                                  pick(0, vectors - 1)});
            c["workloads"].push_back({{"type", "trace"}, {"events", events}});
        }
    }
    return c;
}

void run_batch(int batch) {
    Scratch s;
    std::mt19937_64 rng(0xC1D5u + uint64_t(batch));
    uint64_t handled = 0, notifications = 0;
    for (int i = 0; i < kPerBatch; ++i) {
        const json config = random_config(rng);
        std::ofstream(s / "config.json") << config.dump(1);
        const Run r = run_cidsim(s, "run '" + s / "config.json" + "' -q -o '" + s / "r.json" + "'");
        INFO("batch " << batch << " config " << i << ":\n" << config.dump(1) << "\nstderr: " << r.err);
        REQUIRE(r.status == 0);
        const json result = json::parse(slurp(s / "r.json"));
        const json& inv = result["invariants"];
        REQUIRE(inv["all_enforced_hold"] == true);
        for (const char* name : {"conservation", "lapic_sanity", "monotone_time", "bounded_queues"})
            REQUIRE(inv[name]["holds"] == true);
        if (config["handler"]["final_harvest"] == true)
            REQUIRE(inv["no_stranded_interrupt"]["holds"] == true);
        REQUIRE(result["metrics"]["lost_completions"] == 0);
        handled += result["metrics"]["completions_handled"].get<uint64_t>();
        notifications += result["metrics"]["notifications_handled"].get<uint64_t>();
    }
    // The batch exercised the machinery rather than idling.
    CHECK(handled > 1000);
    CHECK(notifications > 100);
}

}  // namespace

TEST_CASE("random valid configs run with every invariant holding, batch 0") { run_batch(0); }
TEST_CASE("random valid configs run with every invariant holding, batch 1") { run_batch(1); }
TEST_CASE("random valid configs run with every invariant holding, batch 2") { run_batch(2); }
TEST_CASE("random valid configs run with every invariant holding, batch 3") { run_batch(3); }
