// Workload testbenches: whole small systems built from configs, checking
// what a user of the NVMe and DSA workloads relies on: every I/O submitted
// completes exactly once, none is lost, the closed loop keeps its depth; a
// bursty source completes at its on-rate for the time it is on.
#include <catch2/catch.hpp>

#include <cmath>

#include "config/config_loader.h"
#include "report/results.h"
#include "sim/system.h"
#include "workloads/dsa.h"
#include "workloads/nvme.h"

using namespace cidsim;
using nlohmann::json;

namespace {

json nvme_config(const std::string& mode, const std::string& engine, uint64_t iodepth) {
    return {{"run", {{"duration_ns", 300000}}},
            {"mode", mode},
            {"topology", {{"cpus", 2}}},
            {"devices", {{{"name", "nvme0"}, {"vectors", 2}, {"irq_cpus", {0, 1}}}}},
            {"workloads",
             {{{"type", "nvme"}, {"device", "nvme0"}, {"jobs", 2}, {"iodepth", iodepth},
               {"engine", engine}, {"max_iops_m", 1.5}, {"media_latency_ns", 5000},
               {"media_jitter_ns", 3000}}}}};
}

void check_nvme_conservation(const json& cfg, uint64_t iodepth) {
    System sys(load_config(cfg));
    sys.run();
    const json r = collect_results(sys);
    const json& w = r["workloads"][0];
    const Device& dev = *sys.host().view().devices[0];
    // Everything submitted is either reaped or still outstanding; the device
    // loses nothing and drains exactly what it completed.
    CHECK(w["submitted"].get<uint64_t>() ==
          w["reaped"].get<uint64_t>() + w["outstanding_at_end"].get<uint64_t>());
    CHECK(dev.lost() == 0);
    CHECK(dev.stats().completions == dev.stats().drained + dev.in_flight());
    CHECK(w["reaped"].get<uint64_t>() > 100);
    CHECK(w["max_outstanding_per_job"].get<uint64_t>() <= iodepth);
    CHECK(w["outstanding_at_end"].get<uint64_t>() <= 2 * iodepth);
    CHECK(r["metrics"]["stranded_interrupts"] == 0);
}

}  // namespace

TEST_CASE("NVMe libaio, posted: every I/O completes once and the depth is kept", "[nvme]") {
    check_nvme_conservation(nvme_config("posted", "libaio", 16), 16);
}

TEST_CASE("NVMe io_uring, remappable: every I/O completes once and the depth is kept",
          "[nvme]") {
    check_nvme_conservation(nvme_config("remappable", "io_uring", 64), 64);
}

TEST_CASE("NVMe IOPS never exceeds the disk's limit", "[nvme]") {
    json cfg = nvme_config("posted", "io_uring", 256);
    cfg["workloads"][0]["max_iops_m"] = 0.5;
    cfg["workloads"][0]["media_latency_ns"] = 1000;
    cfg["run"]["warmup_ns"] = 400000;  // past the initial fill of 2 x 256 I/Os
    cfg["run"]["duration_ns"] = 2e6;   // window edges move a couple of I/Os at most
    System sys(load_config(cfg));
    sys.run();
    const json r = collect_results(sys);
    const double iops = r["workloads"][0]["iops_m"].get<double>();
    CHECK(iops <= 0.5 * 1.01);
    CHECK(iops >= 0.5 * 0.95);  // deep queue: the disk is the bottleneck
}

TEST_CASE("DSA memfill: conservation and one MSI per completed descriptor", "[dsa]") {
    const json cfg = {
        {"run", {{"duration_ns", 200000}}},
        {"mode", "posted"},
        {"topology", {{"cpus", 2}, {"root_ports", 1}}},
        {"devices", {{{"name", "dsa0"}, {"vectors", 1}, {"irq_cpus", {0}}}}},
        {"workloads",
         {{{"type", "dsa"}, {"device", "dsa0"}, {"wq_depth", 8}, {"submitter_cpu", 1}}}}};
    System sys(load_config(cfg));
    sys.run();
    const json r = collect_results(sys);
    const Device& dev = *sys.host().view().devices[0];
    const auto* dsa = dynamic_cast<const DsaMemfill*>(sys.workloads()[0].get());
    REQUIRE(dsa);
    CHECK(dev.lost() == 0);
    CHECK(dev.stats().msis == dev.stats().completions);
    CHECK(r["workloads"][0]["completed"].get<uint64_t>() == dev.stats().drained);
    CHECK(dsa->outstanding() <= 8);
    // The fill bandwidth is the completion rate times 512 bytes.
    CHECK(r["workloads"][0]["fill_mbps"].get<double>() ==
          Approx(r["workloads"][0]["descriptor_rate_m"].get<double>() * 512 * 8));
}

TEST_CASE("NVMe rate_iops: an open loop under the disk's limit issues jobs x rate", "[nvme]") {
    json cfg = nvme_config("posted", "libaio", 16);
    cfg["workloads"][0]["rate_iops"] = 100000;  // per job, 0.2 M/s in all against 1.5 M/s
    cfg["run"]["duration_ns"] = 2e6;  // no warm-up: every I/O submitted is counted
    System sys(load_config(cfg));
    sys.run();
    const json r = collect_results(sys);
    const json& w = r["workloads"][0];
    CHECK(std::abs(w["iops_m"].get<double>() - 0.2) < 0.2 * 0.01);
    // A 5-8 us media latency at 100 k/s per job: an I/O or two outstanding,
    // where the closed loop would keep 16.
    CHECK(w["max_outstanding_per_job"].get<uint64_t>() <= 4);
    CHECK(w["submitted"].get<uint64_t>() ==
          w["reaped"].get<uint64_t>() + w["outstanding_at_end"].get<uint64_t>());
}

TEST_CASE("NVMe rate_iops: arrivals past iodepth wait for a reap as fio's do", "[nvme]") {
    json cfg = nvme_config("posted", "libaio", 1);
    cfg["workloads"][0]["rate_iops"] = 1e6;  // one every us, against 5-8 us per I/O at depth 1
    cfg["run"]["duration_ns"] = 2e6;  // no warm-up: every I/O submitted is counted
    System sys(load_config(cfg));
    sys.run();
    const json r = collect_results(sys);
    const json& w = r["workloads"][0];
    CHECK(w["max_outstanding_per_job"].get<uint64_t>() == 1);
    // Each job completes at most one I/O per media latency (5 us) plus its CPU.
    CHECK(w["iops_m"].get<double>() < 2 * 0.2);
    CHECK(w["iops_m"].get<double>() > 2 * 0.05);
    CHECK(w["submitted"].get<uint64_t>() ==
          w["reaped"].get<uint64_t>() + w["outstanding_at_end"].get<uint64_t>());
}

namespace {

// One posted device driven by a bursty source alone for `duration_ns`.
json bursty_run(double on_rate_mpps, double duration_ns) {
    System sys(load_config(json{
        {"run", {{"duration_ns", duration_ns}, {"warmup_ns", 0}}},
        {"topology", {{"cpus", 1}}},
        {"devices", {{{"name", "d0"}, {"vectors", 1}, {"irq_cpus", {0}}}}},
        {"workloads", {{{"type", "bursty"}, {"device", "d0"}, {"on_rate_mpps", on_rate_mpps},
                        {"on_mean_ns", 3000}, {"off_mean_ns", 6000}}}}}));
    sys.run();
    return collect_results(sys)["workloads"][0];
}

}  // namespace

// A Poisson source while on: on_rate x on / (on + off) on average, 4/3 M/s
// here (about 5 500 bursts: the count's standard error is about 1.4%).
TEST_CASE("bursty: completions average the on-rate over the time it is on", "[bursty]") {
    const json w = bursty_run(4.0, 5e7);
    CHECK(w["completion_rate_mps"].get<double>() == Approx(4.0 / 3).epsilon(0.05));
}

// 0.01 M/s while on, on a third of the time: about 67 completions in 20 ms,
// not one at the start of each of the ~2 200 bursts.
TEST_CASE("bursty: a burst shorter than its first gap completes nothing", "[bursty]") {
    const json w = bursty_run(0.01, 2e7);
    CHECK(w["bursts"].get<uint64_t>() > 2000);
    CHECK(w["completions"].get<uint64_t>() >= 40);
    CHECK(w["completions"].get<uint64_t>() <= 100);
}

// Nanosecond bursts at one completion a second while on: about one burst in
// 1e9 holds one. Nothing past the run's end is drawn, so a 10 us run ends.
TEST_CASE("bursty: bursts too short to hold a completion are drawn only to the run's end",
          "[bursty]") {
    System sys(load_config(json{
        {"run", {{"duration_ns", 10000}, {"warmup_ns", 0}}},
        {"topology", {{"cpus", 1}}},
        {"devices", {{{"name", "d0"}, {"vectors", 1}, {"irq_cpus", {0}}}}},
        {"workloads", {{{"type", "bursty"}, {"device", "d0"}, {"on_rate_mpps", 1e-6},
                        {"on_mean_ns", 1}, {"off_mean_ns", 1}}}}}));
    sys.run();
    const json w = collect_results(sys)["workloads"][0];
    CHECK(w["completions"].get<uint64_t>() == 0);
    CHECK(w["bursts"].get<uint64_t>() > 1000);  // one every 2 ns on average
}
