#include "report/confidence.h"

#include <cmath>
#include <stdexcept>

#include <boost/math/distributions/students_t.hpp>

namespace cidsim {

double t_quantile_95(unsigned dof) {
    boost::math::students_t dist(dof);
    return boost::math::quantile(boost::math::complement(dist, 0.025));
}

MeanCi mean_ci95(const std::vector<double>& samples) {
    return ratio_ci95(samples, std::vector<double>(samples.size(), 1.0));  // every weight 1
}

MeanCi ratio_ci95(const std::vector<double>& num, const std::vector<double>& den) {
    if (num.size() != den.size()) throw std::invalid_argument("ratio_ci95: sizes differ");
    MeanCi r;
    double sy = 0, sx = 0;
    for (size_t i = 0; i < num.size(); ++i) {
        sy += num[i];
        sx += den[i];
    }
    if (sx == 0) return r;
    r.mean = sy / sx;
    const size_t b = num.size();
    if (b < 2) return r;
    double ss = 0;
    for (size_t i = 0; i < b; ++i) {
        const double e = num[i] - r.mean * den[i];
        ss += e * e;
    }
    const double mean_den = sx / double(b);
    r.half_width = t_quantile_95(unsigned(b - 1)) * std::sqrt(ss / double(b - 1) / double(b)) /
                   std::fabs(mean_den);
    return r;
}

bool looks_independent(const std::vector<double>& x) {
    const size_t b = x.size();
    if (b < 3) return true;
    double mean = 0;
    for (double v : x) mean += v;
    mean /= double(b);
    double ss = 0, sd = 0;
    for (size_t i = 0; i < b; ++i) {
        ss += (x[i] - mean) * (x[i] - mean);
        if (i + 1 < b) sd += (x[i] - x[i + 1]) * (x[i] - x[i + 1]);
    }
    if (ss <= 0) return true;
    const double c = 1 - sd / (2 * ss);
    const double sigma = std::sqrt(double(b - 2) / (double(b) * double(b) - 1));
    return c <= 1.6448536269514722 * sigma;  // one-sided 5%
}

BatchedCi batch_means_ci95(std::vector<double> num, std::vector<double> den,
                           size_t min_batches) {
    if (num.size() != den.size()) throw std::invalid_argument("batch_means_ci95: sizes differ");
    BatchedCi r;
    const MeanCi whole = ratio_ci95(num, den);
    r.mean = whole.mean;
    for (;;) {
        std::vector<double> means;
        for (size_t i = 0; i < num.size(); ++i) means.push_back(den[i] ? num[i] / den[i] : 0.0);
        r.independent = looks_independent(means);
        if (r.independent || num.size() / 2 < min_batches) break;
        // Merge neighbours; an odd last window joins the batch before it,
        // which the ratio estimator weighs by its length.
        std::vector<double> n2, d2;
        for (size_t i = 0; i + 1 < num.size(); i += 2) {
            n2.push_back(num[i] + num[i + 1]);
            d2.push_back(den[i] + den[i + 1]);
        }
        if (num.size() % 2) {
            n2.back() += num.back();
            d2.back() += den.back();
        }
        num.swap(n2);
        den.swap(d2);
    }
    r.batches = num.size();
    r.half_width = ratio_ci95(num, den).half_width;
    // Correlated batches: the mean of b batches varies at most as much as
    // one batch does (Cauchy-Schwarz on the covariances, whatever they
    // are), so the half-width of one batch, sqrt(b) times wider, bounds it.
    if (!r.independent) r.half_width *= std::sqrt(double(r.batches));
    return r;
}

}  // namespace cidsim
