// Histogram: buckets exist only up to the highest one recorded, so clearing
// (`= {}`), copying and merging must behave as if all of them existed.
#include <catch2/catch.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include "model/base/stats.h"
#include "workloads/latency_summary.h"

using cidsim::Histogram;

TEST_CASE("Histogram percentiles are exact below 256 and bounded by the max") {
    Histogram h;
    for (uint64_t v = 1; v <= 100; ++v) h.record(v);
    CHECK(h.count() == 100);
    CHECK(h.mean() == Approx(50.5));
    CHECK(h.percentile(0.5) == 50.0);
    CHECK(h.percentile(0.99) == 99.0);
    h.record(100000);  // log-linear bucket: midpoint, capped at the max
    CHECK(h.percentile(1.0) <= 100000.0);
    CHECK(h.percentile(1.0) >= 100000.0 * (1 - 0.008));
    CHECK(h.max() == 100000);
}

TEST_CASE("Histogram percentiles lie within the smallest and the largest sample; the largest "
          "rank is the max itself") {
    Histogram h;
    h.record(1234952);  // both in one log-linear bucket whose midpoint lies below them
    h.record(1235372);
    CHECK(h.min() == 1234952.0);
    CHECK(h.percentile(0.5) == 1234952.0);
    CHECK(h.percentile(0.9) == 1235372.0);
    CHECK(h.percentile(0.9999) == 1235372.0);
    Histogram many;
    for (uint64_t v = 0; v < 1000; ++v) many.record(9876928 + v);
    CHECK(many.percentile(0.5) >= 9876928.0);
    CHECK(many.percentile(1.0) == 9877927.0);
    Histogram merged = h;
    merged.merge(many);
    CHECK(merged.min() == 1234952.0);
    CHECK(merged.percentile(0.001) == 1234952.0);
}

TEST_CASE("A cleared Histogram forgets samples above its new maximum") {
    Histogram h;
    for (int i = 0; i < 10; ++i) h.record(1000);
    h = {};
    CHECK(h.count() == 0);
    CHECK(h.percentile(0.5) == 0.0);
    h.record(3);
    h.record(5);
    CHECK(h.count() == 2);
    CHECK(h.max() == 5);
    CHECK(h.percentile(1.0) == 5.0);
    // Growing past the old maximum again must not find the old samples
    // (they would be reached first and end the percentile's scan at ~1000).
    h.record(1'000'000);
    CHECK(h.count() == 3);
    CHECK(h.percentile(0.5) == 5.0);
    CHECK(h.percentile(1.0) > 990'000.0);
}

TEST_CASE("Histogram copies and merges keep every sample") {
    Histogram small, large;
    for (uint64_t v = 0; v < 50; ++v) small.record(v);
    for (uint64_t v = 0; v < 50; ++v) large.record(10000 + v);
    Histogram copy = small;
    CHECK(copy.percentile(0.5) == small.percentile(0.5));
    copy = large;  // a copy of a histogram with more buckets
    CHECK(copy.count() == 50);
    CHECK(copy.percentile(0.0) == large.percentile(0.0));

    Histogram merged = small;
    merged.merge(large);  // grows to the other's buckets
    CHECK(merged.count() == 100);
    CHECK(merged.max() == 10049);
    CHECK(merged.percentile(0.25) < 50.0);
    CHECK(merged.percentile(0.75) > 9000.0);
    Histogram other = large;
    other.merge(small);  // the other has fewer buckets
    CHECK(other.count() == 100);
    CHECK(other.percentile(0.25) == merged.percentile(0.25));
    CHECK(other.percentile(0.75) == merged.percentile(0.75));
}

TEST_CASE("An empty Histogram's summary has a count of 0 and no value (null), not 0") {
    // A latency of 0 ns would be averaged into a sweep's mean over seeds.
    const nlohmann::json s = cidsim::tail_summary(Histogram(), "ns");
    CHECK(s["count"] == 0);
    for (const char* k : {"mean", "p50", "p90", "p99", "p99_9", "p99_99", "max"}) {
        INFO(k);
        CHECK(s[k].is_null());
    }
    Histogram one;
    one.record(7);
    CHECK(cidsim::tail_summary(one, "ns")["p50"] == 7.0);
}

TEST_CASE("A ratio of nothing (denominator 0) is undefined, not 0") {
    CHECK(std::isnan(cidsim::ratio(3, 0)));
    CHECK(std::isnan(cidsim::ratio(0, 0)));
    CHECK(cidsim::ratio(3, 2) == 1.5);
}
