#pragma once
// Statistics primitives shared by every block: plain counters and a
// log-linear histogram with fixed bucket bounds (it allocates only when a
// sample reaches a bucket beyond all before, so recording on the per-MSI
// path is a few instructions).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace cidsim {

// count / seconds, or 0 for an empty window (rates in results).
inline double per_second(double count, double seconds) {
    return seconds > 0 ? count / seconds : 0.0;
}
// a / b, or NaN when there is nothing to divide by (no I/O, no EOI, no
// notification): a per-event figure of no event is undefined, not 0, and a
// result writes it as null (undefined_to_null in report/results.h).
inline double ratio(double a, double b) {
    return b > 0 ? a / b : std::numeric_limits<double>::quiet_NaN();
}

// Log-linear histogram of non-negative integer samples (ns, counts): exact
// below 256, then 128 sub-buckets per power of two (relative error < 0.8%).
// Only the buckets up to the highest one recorded exist (the rest are zero by
// definition): all 7424 would be 58 KiB to clear and copy every time a
// block's statistics are reset (`m_stats = {}`, at the end of the warm-up).
class Histogram {
public:
    // Inline: recorded at least once per simulated MSI.
    void record(uint64_t value) {
        const unsigned b = bucket_of(value);
        if (b >= m_bucket.size()) m_bucket.resize(b + 1);  // a new maximum
        ++m_bucket[b];
        ++m_count;
        m_sum += value;
        if (value > m_max) m_max = value;
        if (value < m_min) m_min = value;
    }
    void merge(const Histogram& other);
    uint64_t count() const { return m_count; }
    uint64_t max() const { return m_max; }
    double mean() const { return m_count ? double(m_sum) / double(m_count) : 0.0; }
    // The q-quantile (0..1) by nearest rank, fio's rule: the value of the
    // ceil(q * count)-th smallest sample (exact below 256 and for the
    // largest rank; otherwise its bucket's midpoint, within 1/256 of it,
    // held within the smallest and the largest sample).
    double percentile(double q) const;
    // The smallest sample (0 with none).
    double min() const { return m_count ? double(m_min) : 0.0; }
    // The samples' standard deviation (n - 1), from the buckets' midpoints.
    double stddev() const;
    // {"count", "mean", "p50", "p90", "p99", "max"} in the unit given;
    // with no sample all but the count are null (undefined, not 0).
    nlohmann::json summary(const std::string& unit) const;

private:
    static constexpr unsigned kSubBits = 7;
    // Exact below 2^kLinearBits; above, every octave has 2^kSubBits buckets
    // (kLinearBits > kSubBits keeps the sub-bucket shift non-negative).
    static constexpr unsigned kLinearBits = kSubBits + 1;
    static constexpr unsigned kLinear = 1u << kLinearBits;
    static constexpr unsigned kBuckets = kLinear + (64 - kLinearBits) * (1u << kSubBits);
    static unsigned bucket_of(uint64_t v) {
        if (v < kLinear) return unsigned(v);
        unsigned msb = 63 - __builtin_clzll(v);  // >= kLinearBits
        unsigned sub = unsigned(v >> (msb - kSubBits)) & ((1u << kSubBits) - 1);
        return kLinear + (msb - kLinearBits) * (1u << kSubBits) + sub;
    }
    static double bucket_mid(unsigned b);
    // v held within the smallest and the largest sample.
    double within_samples(double v) const;

    std::vector<uint64_t> m_bucket;  // up to the highest bucket recorded (< kBuckets)
    uint64_t m_count = 0;
    uint64_t m_sum = 0;
    uint64_t m_max = 0;
    uint64_t m_min = std::numeric_limits<uint64_t>::max();
};

}  // namespace cidsim
