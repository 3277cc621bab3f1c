#pragma once
// Confidence intervals for means of independent samples (batch means,
// seeds): the one place that computes them.
#include <cstddef>
#include <vector>

namespace cidsim {

// Two-sided 95% quantile of Student's t with `dof` degrees of freedom.
double t_quantile_95(unsigned dof);

struct MeanCi {
    double mean = 0;
    double half_width = 0;  // 95%; 0 with fewer than two samples
};
MeanCi mean_ci95(const std::vector<double>& samples);

// Ratio estimator over batches: the figure is sum(num) / sum(den), and its
// 95% half-width comes from the residuals num_i - R den_i (the delta
// method; Law & Kelton, "Simulation Modeling and Analysis", ratio
// estimators). With den_i = 1 it is exactly mean_ci95 of num. Used for a
// ratio of two counts (PID misses per notification), where the mean of
// per-batch ratios would weigh a batch with few notifications like one
// with many, and for batches of unequal length.
MeanCi ratio_ci95(const std::vector<double>& num, const std::vector<double>& den);

// Von Neumann's test of randomness (Young's C statistic): true when the
// lag-1 serial correlation of `x` is not significantly positive at the
// one-sided 5% level, i.e. when successive batch means may be treated as
// independent. C = 1 - sum (x_i - x_{i+1})^2 / (2 sum (x_i - mean)^2) is
// about normal with variance (b-2)/(b^2-1) for b independent values.
// A constant series counts as independent.
bool looks_independent(const std::vector<double>& x);

// Batch means with batches counted adaptively (after Fishman's LABATCH):
// window i of a run measured `num[i]` over `den[i]` (den = 1 for a plain
// mean). Starting from one batch per window, adjacent batches are merged
// pairwise while their means look serially correlated and at least
// `min_batches` would remain; the figure is the ratio estimate over all
// windows, the half-width that of the final batches. `independent` is
// false when even the final batches look correlated; the half-width is
// then that of a single batch mean (sqrt(batches) times wider), which
// bounds the variation of their mean whatever the correlation: a sound but
// wide interval, and a sign that the run's windows are too short.
struct BatchedCi {
    double mean = 0;
    double half_width = 0;
    size_t batches = 0;
    bool independent = true;
};
BatchedCi batch_means_ci95(std::vector<double> num, std::vector<double> den,
                           size_t min_batches);

}  // namespace cidsim
