#pragma once
// Confidence intervals for means of independent samples (batch means,
// seeds): the one place that computes them.
#include <vector>

namespace cidsim {

// Two-sided 95% quantile of Student's t with `dof` degrees of freedom.
double t_quantile_95(unsigned dof);

struct MeanCi {
    double mean = 0;
    double half_width = 0;  // 95%; 0 with fewer than two samples
};
MeanCi mean_ci95(const std::vector<double>& samples);

}  // namespace cidsim
