// --fio-json read back as a fio JSON consumer reads fio's own output
// (fio's HOWTO, "Output": --output-format=json; jobs[] with jobname and
// read{iops, bw (KiB/s), bw_bytes, total_ios, clat_ns{min, max, mean,
// stddev, N, percentile{"99.000000": ns}}, lat_ns}).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "cli_runner.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {

json read_json(const std::string& path) { return json::parse(slurp(path)); }
std::string q(const std::string& path) { return "'" + path + "'"; }

// What a consumer of fio's JSON takes from one job.
struct FioJob {
    std::string name;
    double iops = 0;
    uint64_t bw_kib = 0, bw_bytes = 0, total_ios = 0, n = 0;
    double clat_min = 0, clat_max = 0, clat_mean = 0, clat_stddev = 0, lat_mean = 0;
    std::map<double, uint64_t> clat_percentile;  // percent -> ns
};

std::vector<FioJob> read_fio_json(const std::string& path) {
    const json doc = json::parse(slurp(path));
    REQUIRE(doc.contains("fio version"));
    std::vector<FioJob> out;
    for (const json& j : doc.at("jobs")) {
        const json& r = j.at("read");
        FioJob f;
        f.name = j.at("jobname").get<std::string>();
        f.iops = r.at("iops").get<double>();
        f.bw_kib = r.at("bw").get<uint64_t>();
        f.bw_bytes = r.at("bw_bytes").get<uint64_t>();
        f.total_ios = r.at("total_ios").get<uint64_t>();
        const json& c = r.at("clat_ns");
        f.n = c.at("N").get<uint64_t>();
        f.clat_min = c.at("min").get<double>();
        f.clat_max = c.at("max").get<double>();
        f.clat_mean = c.at("mean").get<double>();
        f.clat_stddev = c.at("stddev").get<double>();
        for (auto it = c.at("percentile").begin(); it != c.at("percentile").end(); ++it)
            f.clat_percentile[std::stod(it.key())] = it.value().get<uint64_t>();
        f.lat_mean = r.at("lat_ns").at("mean").get<double>();
        out.push_back(f);
    }
    return out;
}

// Checks each fio job of `jobs` against the NVMe jobs of `result`, in
// order: name, I/Os, IOPS, bandwidth and the clat figures by fio's rule.
void check_jobs(const json& result, const std::vector<FioJob>& jobs) {
    const double secs = result["metrics"]["simulated_seconds"].get<double>();
    size_t k = 0;
    for (const json& w : result["workloads"]) {
        const uint64_t bs = result["config"]["workloads"][0]["block_bytes"].get<uint64_t>();
        for (const json& job : w["jobs"]) {
            REQUIRE(k < jobs.size());
            const FioJob& f = jobs[k++];
            const json& clat = job["completion_latency_us"];
            CHECK(f.name == w["device"].get<std::string>() + "-job" +
                                std::to_string(job["job"].get<uint64_t>()));
            CHECK(f.total_ios == job["reaped"].get<uint64_t>());
            CHECK(f.n == clat["count"].get<uint64_t>());
            CHECK(f.iops == Approx(job["iops_m"].get<double>() * 1e6));
            CHECK(f.bw_bytes == Approx(double(f.total_ios * bs) / secs).epsilon(1e-6));
            CHECK(f.bw_kib == Approx(double(f.bw_bytes) / 1024).margin(1));
            // The same percentile rule: fio's p99 is the result's, in ns.
            CHECK(f.clat_percentile.at(99.0) == uint64_t(clat["p99"].get<double>() * 1000));
            CHECK(f.clat_percentile.at(50.0) == uint64_t(clat["p50"].get<double>() * 1000));
            CHECK(f.clat_percentile.at(99.9) == uint64_t(clat["p99_9"].get<double>() * 1000));
            CHECK(f.clat_max == clat["max"].get<double>() * 1000);
            CHECK(f.clat_mean == Approx(clat["mean"].get<double>() * 1000));
            CHECK(f.lat_mean == f.clat_mean);
            CHECK(f.clat_stddev > 0);
            // Ordered, inside [min, max]: never a bucket midpoint above the maximum.
            double last = f.clat_min;
            for (const auto& [p, ns] : f.clat_percentile) {
                CHECK(double(ns) >= last);
                CHECK(double(ns) <= f.clat_max);
                last = double(ns);
            }
        }
    }
    CHECK(k == jobs.size());
}

}  // namespace

TEST_CASE("the fio-json output is fio's JSON: its jobs' IOPS, bandwidth and clat percentiles are the result's",
          "[cli][fio]") {
    Scratch s;
    const std::string config = "'" CIDSIM_SOURCE_DIR "/configs/rfc/c1-nvme-2disks.json'";
    for (const char* batches : {"1", "3"}) {
        INFO("run.batches=" << batches);
        const Run r = run_cidsim(s, "run " + config +
                                        " -q --set run.duration_ns=600000 --set run.batches=" +
                                        batches + " --out " + q(s / "r.json") + " --fio-json " +
                                        q(s / "fio.json"));
        REQUIRE(r.status == 0);
        const std::vector<FioJob> jobs = read_fio_json(s / "fio.json");
        check_jobs(read_json(s / "r.json"), jobs);
        CHECK(jobs.size() == 8);
    }
    // fio's --percentile_list, in fio's syntax.
    const Run r = run_cidsim(s, "run " + config + " -q --set run.duration_ns=200000 --fio-json " +
                                    q(s / "p.json") + " --percentile-list 50:99.5");
    REQUIRE(r.status == 0);
    const std::vector<FioJob> jobs = read_fio_json(s / "p.json");
    REQUIRE(!jobs.empty());
    CHECK(jobs[0].clat_percentile.size() == 2);
    CHECK(jobs[0].clat_percentile.count(99.5) == 1);
}

TEST_CASE("an open-loop NVMe run's fio-json holds its rate: IOPS at rate_iops and the result's p99",
          "[cli][fio]") {
    Scratch s;
    const Run r = run_cidsim(s, "run '" CIDSIM_SOURCE_DIR "/configs/examples/nvme-rate.json' -q "
                                "--out " + q(s / "r.json") + " --fio-json " + q(s / "fio.json"));
    REQUIRE(r.status == 0);
    const json result = read_json(s / "r.json");
    const std::vector<FioJob> jobs = read_fio_json(s / "fio.json");
    check_jobs(result, jobs);
    REQUIRE(jobs.size() == 4);
    // Below the disk's limit an open loop issues what it is asked: each job
    // 200 k IOPS (fio's rate_iops), not the closed loop's saturated rate.
    const double rate = result["config"]["workloads"][0]["rate_iops"].get<double>();
    for (const FioJob& f : jobs) CHECK(f.iops == Approx(rate).epsilon(0.02));
}
