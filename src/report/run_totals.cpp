#include "report/run_totals.h"

#include <algorithm>

#include "model/x86/cpu_core.h"
#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/x86/local_apic.h"
#include "model/x86/root_port.h"
#include "model/base/stat_visitor.h"
#include "report/stat_json.h"
#include "workloads/latency_summary.h"
#include "workloads/nvme.h"

namespace cidsim {

using nlohmann::json;

namespace {

// Every histogram of one block, filed under the JSON pointer of its summary
// in the result: the block's own entry and, for a total key, `metrics`.
class HistogramCollector : public StatVisitor {
public:
    using Map = std::map<std::string, std::pair<Histogram, std::string>>;
    HistogramCollector(std::string block, bool totals, Map& into)
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
    Map& m_into;
};

template <class Stats>
void collect(const Stats& s, const std::string& block, bool totals, HistogramCollector::Map& m) {
    HistogramCollector c(block, totals, m);
    s.describe(c);
}

bool is_histogram_summary(const json& j) {
    return j.is_object() && j.contains("p50") && j.contains("count") && j.contains("max");
}

// The last window's value for states ("at the end"), identities and
// things that are not measured per window (a trace's event count).
bool take_last(const std::string& key) {
    static const char* const kLast[] = {"cpu", "vector", "queue", "irte_index", "root_port",
                                        "device", "name", "type", "unit", "events", "replayed", "job",
                                        "vcpu", "pcpu_apic_id", "kind"};
    if (key.size() > 7 && key.compare(key.size() - 7, 7, "_at_end") == 0) return true;
    return std::find_if(std::begin(kLast), std::end(kLast),
                        [&](const char* k) { return key == k; }) != std::end(kLast);
}

json combine(const std::vector<const json*>& parts, const std::string& key, const std::string& at,
             const HistogramCollector::Map& histograms);

// An object of every window, field by field.
json combine_fields(const std::vector<const json*>& parts, const std::string&,
                    const std::string& at, const HistogramCollector::Map& histograms) {
    const json& last = *parts.back();
    json out = json::object();
    for (auto it = last.begin(); it != last.end(); ++it) {
        std::vector<const json*> sub;
        for (const json* p : parts)
            if (p->is_object() && p->contains(it.key())) sub.push_back(&(*p)[it.key()]);
        if (sub.size() != parts.size()) {
            out[it.key()] = it.value();
            continue;
        }
        out[it.key()] = combine(sub, it.key(), at + "/" + it.key(), histograms);
    }
    return out;
}

// Combines the values at one place of every window.
json combine(const std::vector<const json*>& parts, const std::string& key, const std::string& at,
             const HistogramCollector::Map& histograms) {
    const json& last = *parts.back();
    if (take_last(key)) return last;
    if (is_histogram_summary(last)) {
        auto it = histograms.find(at);
        if (it == histograms.end()) {
            // A summary without its histogram: counts add, the maximum is
            // the largest, the mean is weighted; percentiles cannot be
            // merged from summaries, so those are the windows' mean.
            json out = combine_fields(parts, key, at, histograms);
            double n = 0, weighted = 0, max = 0;
            for (const json* p : parts) {
                n += (*p)["count"].get<double>();
                weighted += (*p)["count"].get<double>() * p->value("mean", 0.0);
                max = std::max(max, (*p)["max"].get<double>());
            }
            out["mean"] = n > 0 ? weighted / n : 0.0;
            out["max"] = last["max"].is_number_float() ? json(max) : json(uint64_t(max));
            return out;
        }
        return tail_summary(it->second.first, it->second.second);
    }
    if (last.is_object()) return combine_fields(parts, key, at, histograms);
    if (last.is_array()) {
        // The fault log: the first records of the run, as many as a window keeps.
        if (key == "log" || (!last.empty() && last[0].is_object() && last[0].contains("at_ns"))) {
            json out = json::array();
            size_t cap = 0;
            for (const json* p : parts) cap = std::max(cap, p->size());
            for (const json* p : parts)
                for (const json& r : *p)
                    if (out.size() < cap) out.push_back(r);
            return out;
        }
        json out = json::array();
        for (size_t i = 0; i < last.size(); ++i) {
            std::vector<const json*> sub;
            for (const json* p : parts)
                if (p->is_array() && i < p->size()) sub.push_back(&(*p)[i]);
            if (sub.size() != parts.size()) {
                out.push_back(last[i]);
                continue;
            }
            out.push_back(combine(sub, key, at + "/" + std::to_string(i), histograms));
        }
        return out;
    }
    if (last.is_number_unsigned() || last.is_number_integer()) {
        if (key.rfind("max_", 0) == 0) {
            json m = last;
            for (const json* p : parts)
                if (p->get<double>() > m.get<double>()) m = *p;
            return m;
        }
        uint64_t sum = 0;
        for (const json* p : parts) sum += p->get<uint64_t>();
        return sum;
    }
    if (last.is_number_float()) {
        // Rates and fractions over equal windows: their mean is their value
        // over the whole time (simulated_seconds is summed below).
        double sum = 0;
        for (const json* p : parts) sum += p->get<double>();
        return sum / double(parts.size());
    }
    return last;  // booleans, strings
}

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace

void RunTotals::add_window(const System& sys, const json& window) {
    m_windows.push_back(window);
    for (size_t d = 0; d < sys.view().devices.size(); ++d)
        collect(sys.view().devices[d]->stats(), "/per_device/" + std::to_string(d), true,
                m_histograms);
    for (unsigned c = 0; c < sys.cpu_count(); ++c) {
        collect(sys.cpu(c).stats(), "/per_cpu/" + std::to_string(c), true, m_histograms);
        collect(sys.apic(c).stats(), "/per_cpu/" + std::to_string(c), true, m_histograms);
    }
    for (unsigned p = 0; p < sys.root_port_count(); ++p)
        collect(sys.root_port(p).stats(), "/root_ports/" + std::to_string(p), false, m_histograms);
    collect(sys.iommu().stats(), "/metrics", false, m_histograms);
    // The vCPUs' exit histograms, and the guest-visible latency merged from
    // their assigned devices as vcpu_results does; host CPU per MSI is a
    // ratio of sums, so both sums are kept.
    m_vcpu_root_ns.resize(sys.vcpu_count());
    m_vcpu_msis.resize(sys.vcpu_count());
    for (unsigned i = 0; i < sys.vcpu_count(); ++i) {
        const std::string at = "/per_vcpu/" + std::to_string(i);
        collect(sys.vmx_cpu(i).stats(), at, false, m_histograms);
        m_vcpu_root_ns[i] += sys.vmx_cpu(i).root_time().to_seconds() * 1e9;
        auto& [latency, unit] = m_histograms[at + "/msi_to_guest_ns"];
        unit = "ns";
        for (size_t d = 0; d < sys.config().devices.size(); ++d)
            if (sys.config().assigned_vcpu(sys.config().devices[d]) == int(i)) {
                latency.merge(sys.device(unsigned(d)).stats().msi_to_handler_ns);
                m_vcpu_msis[i] += sys.device(unsigned(d)).stats().msis;
            }
    }
    if (sys.xen_vcpu_count()) {
        collect(sys.xen_domain().stats(), "/xen", false, m_histograms);
        collect(sys.xen_domain().event_lock().stats(), "/xen/event_lock", false, m_histograms);
        for (unsigned i = 0; i < sys.xen_vcpu_count(); ++i)
            collect(sys.xen_pcpu(i).stats(), "/xen/per_vcpu/" + std::to_string(i), false,
                    m_histograms);
    }
    // The workloads' own histograms (NVMe completion latency).
    for (size_t w = 0; w < sys.workloads().size(); ++w) {
        const auto* nvme = dynamic_cast<const NvmeDisk*>(sys.workloads()[w].get());
        if (!nvme) continue;
        const std::string at = "/workloads/" + std::to_string(w);
        auto file = [&](const std::string& where, const Histogram& h) {
            auto& [sum, unit] = m_histograms[where];
            sum.merge(h);
            unit = "us";
        };
        file(at + "/completion_latency_us", nvme->completion_latency());
        for (unsigned j = 0; j < nvme->jobs(); ++j)
            file(at + "/jobs/" + std::to_string(j) + "/completion_latency_us",
                 nvme->completion_latency(j));
    }
}

void RunTotals::write(json& result) const {
    if (m_windows.empty()) return;
    for (const char* section :
         {"metrics", "per_cpu", "per_vector", "per_device", "root_ports", "workloads", "per_vcpu",
          "xen", "ipistorm"}) {
        std::vector<const json*> parts;
        for (const json& w : m_windows)
            if (w.contains(section)) parts.push_back(&w[section]);
        if (parts.size() != m_windows.size()) continue;
        result[section] = combine(parts, section, std::string("/") + section, m_histograms);
    }
    // Not rates of equal windows: lengths add, ratios of sums are recomputed.
    json& m = result["metrics"];
    double secs = 0;
    for (const json& w : m_windows) secs += w["metrics"]["simulated_seconds"].get<double>();
    m["simulated_seconds"] = secs;
    const double msis = m["msis"].get<double>();
    const double pmn = m["notifications_handled"].get<double>();
    m["interrupt_messages_per_msi"] =
        ratio(m["notifications_sent"].get<double>() + m["remapped_messages"].get<double>(), msis);
    m["pid_line"]["cpu_misses_per_notification"] =
        ratio(m["pid_line"]["cpu_misses"].get<double>(), pmn);
    if (result.contains("per_vcpu"))
        for (size_t i = 0; i < result["per_vcpu"].size() && i < m_vcpu_msis.size(); ++i)
            result["per_vcpu"][i]["host_cpu_ns_per_interrupt"] =
                ratio(m_vcpu_root_ns[i], double(m_vcpu_msis[i]));
    if (result.contains("xen")) {
        json& x = result["xen"];
        const double eois = x["eois"].get<double>(), ios = x["ios"].get<double>();
        x["walk_entries_per_eoi"] = ratio(x["walk_entries"].get<double>(), eois);
        x["pirq_misses_per_eoi"] = ratio(x["pirq_misses"].get<double>(), eois);
        double host_us = 0;
        for (const json& w : m_windows)
            host_us += w["xen"]["host_cpu_us_per_io"].get<double>() * w["xen"]["ios"].get<double>();
        x["host_cpu_us_per_io"] = ratio(host_us, ios);
    }
}

}  // namespace cidsim
