#pragma once
// The histograms of a run's blocks, filed under the JSON pointer of their
// summary in the result, so that a run measured in windows (run.batches)
// can merge them bucket by bucket (report/run_totals.h).
#include <map>
#include <string>
#include <utility>

#include "model/base/stat_visitor.h"
#include "model/base/stats.h"
#include "report/stat_json.h"

namespace cidsim {

// JSON pointer -> (the histogram merged over windows, its unit).
using HistogramMap = std::map<std::string, std::pair<Histogram, std::string>>;

// Every histogram of one block, filed under the JSON pointer of its summary
// in the result: the block's own entry and, for a total key, `metrics`.
class HistogramCollector : public StatVisitor {
public:
    HistogramCollector(std::string block, bool totals, HistogramMap& into)
        : m_block(std::move(block)), m_totals(totals), m_into(into) {}
    void count(const StatKey&, uint64_t, const char*, const char*) override {}
    void time(const StatKey&, const sc_core::sc_time&, const char*) override {}
    void histogram(const StatKey& k, const Histogram& h, const char* unit, const char*) override {
        if (k.key) file(m_block + key_pointer(k.key).to_string(), h, unit);
        if (k.total && m_totals) file("/metrics" + key_pointer(k.total).to_string(), h, unit);
    }
    void per_vector(const StatKey&, const std::array<uint64_t, 256>&, const char*) override {}
    void by_reason(const StatKey&, const uint64_t*, size_t, const char* (*)(size_t),
                   const char*) override {}
    void fault_log(const StatKey&, const std::vector<IommuFaultRecord>&, const char*) override {}

private:
    void file(const std::string& at, const Histogram& h, const char* unit) {
        auto& [sum, u] = m_into[at];
        sum.merge(h);
        u = unit;
    }
    std::string m_block;
    bool m_totals;
    HistogramMap& m_into;
};

// Files every histogram of `s` (a block whose entry is at the JSON pointer
// `block`; with `totals`, its total keys under /metrics too).
template <class Stats>
void collect_histograms(const Stats& s, const std::string& block, bool totals, HistogramMap& m) {
    HistogramCollector c(block, totals, m);
    s.describe(c);
}

}  // namespace cidsim
