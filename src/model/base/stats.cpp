#include "model/base/stats.h"

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
}

double Histogram::percentile(double q) const {
    if (!m_count) return 0.0;
    uint64_t rank = uint64_t(q * double(m_count - 1)) + 1;
    uint64_t seen = 0;
    for (unsigned b = 0; b < m_bucket.size(); ++b) {  // every sample lies in one of them
        seen += m_bucket[b];
        if (seen >= rank) {
            double mid = bucket_mid(b);
            return mid > double(m_max) ? double(m_max) : mid;
        }
    }
    return double(m_max);
}

nlohmann::json Histogram::summary(const std::string& unit) const {
    return {{"unit", unit},          {"count", m_count},          {"mean", mean()},
            {"p50", percentile(0.5)}, {"p90", percentile(0.9)},   {"p99", percentile(0.99)},
            {"max", m_max}};
}

}  // namespace cidsim
