#include "report/confidence.h"

#include <cmath>

#include <boost/math/distributions/students_t.hpp>

namespace cidsim {

double t_quantile_95(unsigned dof) {
    boost::math::students_t dist(dof);
    return boost::math::quantile(boost::math::complement(dist, 0.025));
}

MeanCi mean_ci95(const std::vector<double>& samples) {
    MeanCi r;
    if (samples.empty()) return r;
    for (double x : samples) r.mean += x;
    const double n = double(samples.size());
    r.mean /= n;
    if (samples.size() < 2) return r;
    double ss = 0;
    for (double x : samples) ss += (x - r.mean) * (x - r.mean);
    r.half_width = t_quantile_95(unsigned(samples.size() - 1)) * std::sqrt(ss / (n - 1) / n);
    return r;
}

}  // namespace cidsim
