#pragma once
// The rows of the metric listing (describe_metrics, metric_table.h): a
// block's raw statistics, listed from its Stats' own describe(), and the
// figures the report layer computes, from tables of ReportMetric. The
// host's rows are metric_table.cpp's; each machine family's sit in its
// result section (report/machines/), beside the code that computes them.
#include <string>

#include <nlohmann/json.hpp>

#include "model/base/stat_visitor.h"

namespace cidsim {

inline const char* const kMetricsSection = "metrics";
inline const char* const kPerVectorSection = "per_vector[]";
inline const char* const kUnreportedSection = "not in result files";
// The unit of an object whose fields carry theirs in their names (_us, _pct,
// samples): `run --stats` gives each field its own.
inline const char* const kUnitInFieldNames = "in field names";

// What the report layer computes (or takes from a block that has no Stats)
// rather than copying a statistic.
struct ReportMetric {
    const char* section;
    const char* key;
    const char* type;
    const char* unit;
    const char* description;
};

// Appends each row to its section (source "report").
template <size_t N>
void list_report_metrics(nlohmann::ordered_json& out, const ReportMetric (&rows)[N]) {
    for (const ReportMetric& r : rows)
        out[r.section].push_back({{"key", r.key},
                                  {"type", r.type},
                                  {"unit", r.unit},
                                  {"source", "report"},
                                  {"description", r.description}});
}

// Lists a block's statistics (as `source`) in the sections they appear in:
// under the block's key in `block_section`, under the total key in metrics
// (summed or merged over every block of the kind), per-vector counters in
// per_vector.
class StatLister : public StatVisitor {
public:
    StatLister(nlohmann::ordered_json& out, const char* block_section, const char* source,
               const char* plural)
        : m_out(out), m_section(block_section), m_source(source), m_plural(plural) {}

    void count(const StatKey& k, uint64_t, const char* unit, const char* desc) override {
        add(k, "integer", unit, desc, "summed over every ");
    }
    void time(const StatKey& k, const sc_core::sc_time&, const char* desc) override {
        add(k, "time", "ns", desc, "summed over every ");
    }
    void histogram(const StatKey& k, const Histogram&, const char* unit,
                   const char* desc) override {
        add(k, "histogram", unit, desc, "merged over every ");
    }
    void per_vector(const StatKey& k, const std::array<uint64_t, 256>&,
                    const char* desc) override {
        if (k.key) {
            entry(kPerVectorSection, k.key, "integer", "count", desc);
        } else {
            entry(kUnreportedSection, k.name, "integer[256]", "count", desc);
        }
    }
    void by_reason(const StatKey& k, const uint64_t*, size_t count,
                   const char* (*name)(size_t), const char* desc) override {
        std::string d = desc;
        d += "; keys:";
        for (size_t i = 0; i < count; ++i) d += std::string(i ? ", " : " ") + name(i);
        add(k, "object", "count", d.c_str(), "summed over every ");
    }
    void fault_log(const StatKey& k, const std::vector<IommuFaultRecord>&,
                   const char* desc) override {
        add(k, "array", "records", desc, "");
    }

private:
    void add(const StatKey& k, const char* type, const char* unit, const char* desc,
             const char* how) {
        if (k.key) entry(m_section, k.key, type, unit, desc);
        if (k.total)
            entry(kMetricsSection, k.total, type, unit, std::string(desc) + "; " + how + m_plural);
        if (!k.key && !k.total) entry(kUnreportedSection, k.name, type, unit, desc);
    }
    void entry(const char* section, const char* key, const char* type, const char* unit,
               const std::string& desc) {
        m_out[section].push_back({{"key", key},
                                  {"type", type},
                                  {"unit", unit},
                                  {"source", m_source},
                                  {"description", desc}});
    }

    nlohmann::ordered_json& m_out;
    const char* m_section;
    const char* m_source;
    const char* m_plural;
};

template <class Stats>
void list_block_stats(nlohmann::ordered_json& out, const char* section, const char* source,
                      const char* plural) {
    StatLister l(out, section, source, plural);
    Stats{}.describe(l);
}

}  // namespace cidsim
