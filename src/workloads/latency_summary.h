#pragma once
// A latency histogram's summary as fio prints it: the Histogram's own
// (count, mean, p50, p90, p99, max) plus the tail, p99.9 and p99.99, under
// keys without a dot ("p99_9", "p99_99") so that a key path such as
// metrics.msi_to_handler_ns.p99_9 names one value.
#include <string>

#include <nlohmann/json.hpp>

#include "model/base/stats.h"

namespace cidsim {

inline nlohmann::json tail_summary(const Histogram& h, const std::string& unit) {
    nlohmann::json s = h.summary(unit);
    s["p99_9"] = h.count() ? nlohmann::json(h.percentile(0.999)) : nlohmann::json();
    s["p99_99"] = h.count() ? nlohmann::json(h.percentile(0.9999)) : nlohmann::json();
    return s;
}

}  // namespace cidsim
