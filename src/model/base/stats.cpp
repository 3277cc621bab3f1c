#include "model/base/stats.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace cidsim {

double Histogram::bucket_mid(unsigned b) {
    if (b < kLinear) return b;
    unsigned rel = b - kLinear;
    unsigned msb = rel / (1u << kSubBits) + kLinearBits;
    unsigned sub = rel % (1u << kSubBits);
    double width = double(uint64_t(1) << (msb - kSubBits));
    double lo = double(uint64_t(1) << msb) + sub * width;
    return lo + width / 2;
}

void Histogram::merge(const Histogram& other) {
    if (other.m_bucket.size() > m_bucket.size()) m_bucket.resize(other.m_bucket.size());
    for (size_t i = 0; i < other.m_bucket.size(); ++i) m_bucket[i] += other.m_bucket[i];
    m_count += other.m_count;
    m_sum += other.m_sum;
    if (other.m_max > m_max) m_max = other.m_max;
    if (other.m_min < m_min) m_min = other.m_min;
}

double Histogram::within_samples(double v) const {
    return v > double(m_max) ? double(m_max) : v < double(m_min) ? double(m_min) : v;
}

double Histogram::percentile(double q) const {
    if (!m_count) return 0.0;
    // Nearest rank, as fio reads its histogram: the first sample at or above
    // q of them (the 1e-9 keeps 0.99 * 100 from rounding up to rank 100).
    const double wanted = std::ceil(q * double(m_count) - 1e-9);
    const uint64_t rank = wanted < 1 ? 1 : uint64_t(wanted);
    if (rank >= m_count) return double(m_max);
    uint64_t seen = 0;
    for (unsigned b = 0; b < m_bucket.size(); ++b) {  // every sample lies in one of them
        seen += m_bucket[b];
        if (seen >= rank) return within_samples(bucket_mid(b));
    }
    return double(m_max);
}

double Histogram::stddev() const {
    if (m_count < 2) return 0.0;
    const double mu = mean();
    double squares = 0;
    for (unsigned b = 0; b < m_bucket.size(); ++b)
        if (m_bucket[b]) {
            const double d = within_samples(bucket_mid(b)) - mu;
            squares += double(m_bucket[b]) * d * d;
        }
    return std::sqrt(squares / double(m_count - 1));
}

nlohmann::json Histogram::summary(const std::string& unit) const {
    if (!m_count)
        return {{"unit", unit}, {"count", 0},     {"mean", nullptr}, {"p50", nullptr},
                {"p90", nullptr}, {"p99", nullptr}, {"max", nullptr}};
    return {{"unit", unit},          {"count", m_count},          {"mean", mean()},
            {"p50", percentile(0.5)}, {"p90", percentile(0.9)},   {"p99", percentile(0.99)},
            {"max", m_max}};
}

}  // namespace cidsim
