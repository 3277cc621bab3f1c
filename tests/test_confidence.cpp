// The statistics behind `cidsim reproduce`'s half-widths: the ratio
// estimator, the serial-correlation test, the adaptive batch count, and
// the figure a table reads from a result's windows.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/confidence.h"
#include "report/tables.h"

using namespace cidsim;
using nlohmann::json;

TEST_CASE("ratio_ci95 with unit denominators is the plain batch-means interval", "[confidence]") {
    const std::vector<double> x = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
    const MeanCi plain = mean_ci95(x);
    const MeanCi ratio = ratio_ci95(x, std::vector<double>(x.size(), 1.0));
    CHECK(ratio.mean == Approx(plain.mean));
    CHECK(ratio.half_width == Approx(plain.half_width));
}

TEST_CASE("ratio_ci95 is the ratio of sums with the delta-method half-width", "[confidence]") {
    // R = 21/10; residuals -0.1 -0.2 -0.3 0.6; sum of squares 0.5; mean den 2.5.
    const MeanCi r = ratio_ci95({2, 4, 6, 9}, {1, 2, 3, 4});
    CHECK(r.mean == Approx(2.1));
    CHECK(r.half_width == Approx(3.182446305 * std::sqrt(0.5 / 3 / 4) / 2.5));
    // A batch with few events does not weigh like one with many.
    CHECK(ratio_ci95({1, 30}, {1, 10}).mean == Approx(31.0 / 11.0));
}

TEST_CASE("looks_independent rejects a trend and accepts noise", "[confidence]") {
    std::vector<double> trend, alternating;
    for (int i = 0; i < 20; ++i) {
        trend.push_back(1.25 - 0.003 * i);
        alternating.push_back(i % 2 ? 1.0 : 2.0);
    }
    CHECK_FALSE(looks_independent(trend));
    CHECK(looks_independent(alternating));
    CHECK(looks_independent({3, 1, 4, 1, 5, 9, 2, 6, 5, 3}));
    CHECK(looks_independent(std::vector<double>(20, 578.0)));  // constant: no spread
}

TEST_CASE("batch_means_ci95 merges correlated windows until the batches look independent",
          "[confidence]") {
    // 40 windows in runs of 4 equal values: correlated at 40 and 20
    // batches, independent at 10, where the interval is that of the runs.
    const std::vector<double> runs = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
    std::vector<double> windows;
    for (double v : runs)
        for (int k = 0; k < 4; ++k) windows.push_back(v);
    const BatchedCi c = batch_means_ci95(windows, std::vector<double>(40, 1.0), 10);
    CHECK(c.batches == 10);
    CHECK(c.independent);
    CHECK(c.mean == Approx(mean_ci95(runs).mean));
    CHECK(c.half_width == Approx(mean_ci95(runs).half_width));

    // A trend that survives merging: flagged, never passed off as precise.
    std::vector<double> trend;
    for (int i = 0; i < 20; ++i) trend.push_back(1.25 - 0.003 * i);
    const BatchedCi t = batch_means_ci95(trend, std::vector<double>(20, 1.0), 10);
    CHECK(t.batches == 10);
    CHECK_FALSE(t.independent);
    // ... and given the half-width of one batch, which bounds their mean.
    std::vector<double> merged;
    for (int i = 0; i < 20; i += 2) merged.push_back((trend[i] + trend[i + 1]) / 2);
    CHECK(t.half_width == Approx(mean_ci95(merged).half_width * std::sqrt(10.0)));

    // Independent windows are left alone; an odd count merges its last one.
    const BatchedCi n = batch_means_ci95(runs, std::vector<double>(10, 1.0), 10);
    CHECK(n.batches == 10);
    std::vector<double> odd = trend;
    odd.push_back(1.0);
    CHECK(batch_means_ci95(odd, std::vector<double>(21, 1.0), 10).batches == 10);
}

TEST_CASE("measure takes PID misses per notification as a ratio of sums", "[confidence]") {
    json result = {{"batches", json::array()}};
    const double misses[] = {100, 330, 90, 120, 210, 95, 130, 101, 99, 140};
    const double notes[] = {100, 300, 100, 100, 200, 100, 100, 100, 100, 100};
    double sm = 0, sn = 0;
    for (int i = 0; i < 10; ++i) {
        result["batches"].push_back(
            {{"metrics",
              {{"pid_line", {{"cpu_misses", misses[i]},
                             {"cpu_misses_per_notification", misses[i] / notes[i]}}},
               {"notifications_handled", notes[i]}}},
             {"workloads", json::array()}});
        sm += misses[i];
        sn += notes[i];
    }
    const Figure f = measure("pid_misses_per_notification", result);
    CHECK(f.mean == Approx(sm / sn));
    CHECK(f.batches == 10);
    CHECK(f.ci95 > 0);
    CHECK(f.ci95 == Approx(ratio_ci95(std::vector<double>(misses, misses + 10),
                                      std::vector<double>(notes, notes + 10))
                               .half_width));
}

TEST_CASE("measure counts the samples beyond a quantile in its thinnest window", "[confidence]") {
    json result = {{"batches", json::array()}};
    for (double count : {5000.0, 2000.0, 8000.0})
        result["batches"].push_back(
            {{"metrics", {{"msi_to_handler_ns", {{"count", count}, {"p50", 566}, {"p99", 640}}}}},
             {"workloads", json::array()}});
    CHECK(measure("latency_p99_ns", result).tail_samples == Approx(20));
    CHECK(measure("latency_p50_ns", result).tail_samples == Approx(1000));
    CHECK(measure("latency_p99_ns", result).mean == Approx(640));
}
