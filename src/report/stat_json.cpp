#include "report/stat_json.h"

#include "model/x86/iommu.h"
#include "workloads/latency_summary.h"

namespace cidsim {

using nlohmann::json;

json::json_pointer key_pointer(const std::string& dotted) {
    std::string p = "/" + dotted;
    for (char& c : p)
        if (c == '.') c = '/';
    return json::json_pointer(p);
}

namespace detail {

void BlockWriter::count(const StatKey& k, uint64_t value, const char*, const char*) {
    if (k.key) m_out[key_pointer(k.key)] = value;
}

void BlockWriter::histogram(const StatKey& k, const Histogram& value, const char* unit,
                            const char*) {
    if (k.key) m_out[key_pointer(k.key)] = tail_summary(value, unit);
}

void BlockWriter::by_reason(const StatKey& k, const uint64_t* value, size_t count,
                            const char* (*name)(size_t), const char*) {
    if (!k.key) return;
    json o = json::object();
    for (size_t i = 0; i < count; ++i) o[name(i)] = value[i];
    m_out[key_pointer(k.key)] = o;
}

void BlockWriter::fault_log(const StatKey& k, const std::vector<IommuFaultRecord>& value,
                            const char*) {
    if (!k.key) return;
    json records = json::array();
    for (const IommuFaultRecord& r : value)
        records.push_back({{"at_ns", ns_of(r.at)},
                           {"reason", to_string(r.reason)},
                           {"irte_index", r.index},
                           {"source_id", r.source_id}});
    m_out[key_pointer(k.key)] = records;
}

void VectorWriter::per_vector(const StatKey& k, const std::array<uint64_t, 256>& value,
                              const char*) {
    if (k.key) m_out[key_pointer(k.key)] = value[m_vector];
}

}  // namespace detail

void StatTotals::write(json& metrics) const {
    for (const auto& [key, value] : m_counts) metrics[key_pointer(key)] = value;
    for (const auto& [key, h] : m_histograms) metrics[key_pointer(key)] = tail_summary(h.first, h.second);
}

}  // namespace cidsim
