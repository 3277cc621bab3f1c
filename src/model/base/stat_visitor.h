#pragma once
// One description per statistic, shared by everything that reads Stats:
// every block's Stats struct lists its fields once, in
// describe(StatVisitor&) const, with where the field goes in a result file,
// its unit and a one-line meaning. The result writer and `cidsim params
// --metrics` are visitors, so a result file and its documentation cannot
// disagree. describe() runs only when results are written or listed, never
// on the per-event path.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <systemc>

namespace cidsim {

class Histogram;
struct IommuFaultRecord;

// Where a statistic appears in a result file. `key` is its key in its
// block's own entry (per_cpu, per_device, root_ports, or `metrics` itself
// for the one IOMMU); `total` its key in `metrics` once summed (histograms:
// merged) over every block of its kind. A dot nests: "iec.hits" is
// metrics.iec.hits. A statistic in neither (nullptr both) is kept for
// invariants, traces and tests, and listed under `name`.
struct StatKey {
    const char* key;
    const char* total;
    const char* name;
};
inline StatKey in_block(const char* key) { return {key, nullptr, key}; }
inline StatKey in_total(const char* total) { return {nullptr, total, total}; }
inline StatKey in_block_and_total(const char* key, const char* total) {
    return {key, total, key};
}
inline StatKey unreported(const char* name) { return {nullptr, nullptr, name}; }

class StatVisitor {
public:
    virtual ~StatVisitor() = default;
    // An event counter or an amount (unit "count", "bytes", ...).
    virtual void count(const StatKey& k, uint64_t value, const char* unit, const char* desc) = 0;
    // Simulated time accumulated or recorded.
    virtual void time(const StatKey& k, const sc_core::sc_time& value, const char* desc) = 0;
    // A distribution; in a result file its summary (count, mean, p50, p90,
    // p99, max) in `unit`.
    virtual void histogram(const StatKey& k, const Histogram& value, const char* unit,
                           const char* desc) = 0;
    // One counter per interrupt vector; a result file has the one of each
    // routed vector, in that route's per_vector entry.
    virtual void per_vector(const StatKey& k, const std::array<uint64_t, 256>& value,
                            const char* desc) = 0;
    // One counter per reason; a result file has an object of them, keyed by
    // name(i).
    virtual void by_reason(const StatKey& k, const uint64_t* value, size_t count,
                           const char* (*name)(size_t), const char* desc) = 0;
    // The first IOMMU faults, as records (time, reason, index, source id).
    virtual void fault_log(const StatKey& k, const std::vector<IommuFaultRecord>& value,
                           const char* desc) = 0;
};

}  // namespace cidsim
