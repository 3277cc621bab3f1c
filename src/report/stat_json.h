#pragma once
// Stats into a result file, by their own descriptions (model/base/stat_visitor.h):
// a block's entry, a route's per-vector counters, and the totals over all
// blocks of a kind in `metrics`.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "model/base/stat_visitor.h"
#include "model/base/stats.h"

namespace cidsim {

// Writes every statistic that has a block key into `out` (nesting at dots).
template <class Stats>
void write_block_stats(const Stats& stats, nlohmann::json& out);
// Writes the per-vector counters that have a block key, element `vector`.
template <class Stats>
void write_vector_stats(const Stats& stats, unsigned vector, nlohmann::json& out);

// Sums counters and merges histograms that have a total key, over every
// block of a kind, then writes them into `metrics`.
class StatTotals {
public:
    // Every total key of Stats, at zero, so that a kind with no blocks
    // still has its totals in the result.
    template <class Stats>
    void declare() { add(Stats{}); }
    template <class Stats>
    void add(const Stats& stats);
    void write(nlohmann::json& metrics) const;

private:
    class Adder;
    std::map<std::string, uint64_t> m_counts;
    std::map<std::string, std::pair<Histogram, std::string>> m_histograms;  // and unit
};

// "iec.hits" -> /iec/hits
nlohmann::json::json_pointer key_pointer(const std::string& dotted);

namespace detail {

class BlockWriter : public StatVisitor {
public:
    explicit BlockWriter(nlohmann::json& out) : m_out(out) {}
    void count(const StatKey& k, uint64_t value, const char*, const char*) override;
    void time(const StatKey&, const sc_core::sc_time&, const char*) override {}
    void histogram(const StatKey& k, const Histogram& value, const char* unit,
                   const char*) override;
    void per_vector(const StatKey&, const std::array<uint64_t, 256>&, const char*) override {}
    void by_reason(const StatKey& k, const uint64_t* value, size_t count,
                   const char* (*name)(size_t), const char*) override;
    void fault_log(const StatKey& k, const std::vector<IommuFaultRecord>& value,
                   const char*) override;

private:
    nlohmann::json& m_out;
};

class VectorWriter : public StatVisitor {
public:
    VectorWriter(unsigned vector, nlohmann::json& out) : m_vector(vector), m_out(out) {}
    void count(const StatKey&, uint64_t, const char*, const char*) override {}
    void time(const StatKey&, const sc_core::sc_time&, const char*) override {}
    void histogram(const StatKey&, const Histogram&, const char*, const char*) override {}
    void per_vector(const StatKey& k, const std::array<uint64_t, 256>& value,
                    const char*) override;
    void by_reason(const StatKey&, const uint64_t*, size_t, const char* (*)(size_t),
                   const char*) override {}
    void fault_log(const StatKey&, const std::vector<IommuFaultRecord>&, const char*) override {}

private:
    unsigned m_vector;
    nlohmann::json& m_out;
};

}  // namespace detail

class StatTotals::Adder : public StatVisitor {
public:
    explicit Adder(StatTotals& totals) : m_totals(totals) {}
    void count(const StatKey& k, uint64_t value, const char*, const char*) override {
        if (k.total) m_totals.m_counts[k.total] += value;
    }
    void time(const StatKey&, const sc_core::sc_time&, const char*) override {}
    void histogram(const StatKey& k, const Histogram& value, const char* unit,
                   const char*) override {
        if (!k.total) return;
        auto& [h, u] = m_totals.m_histograms[k.total];
        h.merge(value);
        u = unit;
    }
    void per_vector(const StatKey&, const std::array<uint64_t, 256>&, const char*) override {}
    void by_reason(const StatKey&, const uint64_t*, size_t, const char* (*)(size_t),
                   const char*) override {}
    void fault_log(const StatKey&, const std::vector<IommuFaultRecord>&, const char*) override {}

private:
    StatTotals& m_totals;
};

template <class Stats>
void write_block_stats(const Stats& stats, nlohmann::json& out) {
    detail::BlockWriter w(out);
    stats.describe(w);
}

template <class Stats>
void write_vector_stats(const Stats& stats, unsigned vector, nlohmann::json& out) {
    detail::VectorWriter w(vector, out);
    stats.describe(w);
}

template <class Stats>
void StatTotals::add(const Stats& stats) {
    Adder a(*this);
    stats.describe(a);
}

}  // namespace cidsim
