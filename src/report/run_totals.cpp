#include "report/run_totals.h"

#include <algorithm>

#include "model/x86/cpu_core.h"
#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/x86/local_apic.h"
#include "model/x86/root_port.h"
#include "model/base/stat_visitor.h"
#include "report/histogram_collector.h"
#include "report/stat_json.h"
#include "workloads/latency_summary.h"
#include "workloads/nvme.h"

namespace cidsim {

using nlohmann::json;

namespace {

bool is_histogram_summary(const json& j) {
    return j.is_object() && j.contains("p50") && j.contains("count") && j.contains("max");
}

// The last window's value for states ("at the end"), identities and
// things that are not measured per window (a trace's event count).
bool take_last(const std::string& key) {
    static const char* const kLast[] = {"cpu", "vector", "queue", "irte_index", "root_port",
                                        "device", "name", "type", "unit", "events", "replayed", "job",
                                        "vcpu", "pcpu_apic_id", "kind", "chip", "cpus"};
    if (key.size() > 7 && key.compare(key.size() - 7, 7, "_at_end") == 0) return true;
    return std::find_if(std::begin(kLast), std::end(kLast),
                        [&](const char* k) { return key == k; }) != std::end(kLast);
}

// `seconds`: each window's simulated time, in the order of `parts`.
json combine(const std::vector<const json*>& parts, const std::string& key, const std::string& at,
             const HistogramMap& histograms, const std::vector<double>& seconds);

// An object of every window, field by field.
json combine_fields(const std::vector<const json*>& parts, const std::string&,
                    const std::string& at, const HistogramMap& histograms,
                    const std::vector<double>& seconds) {
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
        out[it.key()] = combine(sub, it.key(), at + "/" + it.key(), histograms, seconds);
    }
    return out;
}

// Combines the values at one place of every window.
json combine(const std::vector<const json*>& parts, const std::string& key, const std::string& at,
             const HistogramMap& histograms, const std::vector<double>& seconds) {
    const json& last = *parts.back();
    if (take_last(key)) return last;
    if (is_histogram_summary(last)) {
        auto it = histograms.find(at);
        if (it == histograms.end()) {
            // A summary without its histogram: counts add, the maximum is
            // the largest, the mean is weighted; percentiles cannot be
            // merged from summaries, so those are the windows' mean.
            // A window without samples has no mean or maximum (null).
            json out = combine_fields(parts, key, at, histograms, seconds);
            double n = 0, weighted = 0, max = 0;
            bool float_max = false;
            for (const json* p : parts) {
                const double count = (*p)["count"].get<double>();
                if (!count) continue;
                n += count;
                weighted += count * (*p)["mean"].get<double>();
                max = std::max(max, (*p)["max"].get<double>());
                float_max = (*p)["max"].is_number_float();
            }
            out["mean"] = n > 0 ? json(weighted / n) : json();
            out["max"] = n == 0 ? json() : float_max ? json(max) : json(uint64_t(max));
            return out;
        }
        return tail_summary(it->second.first, it->second.second);
    }
    if (last.is_object()) return combine_fields(parts, key, at, histograms, seconds);
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
            out.push_back(combine(sub, key, at + "/" + std::to_string(i), histograms, seconds));
        }
        return out;
    }
    if (last.is_number_unsigned() || last.is_number_integer()) {
        if (key.rfind("max_", 0) == 0) {
            json m = last;
            for (const json* p : parts)
                if (p->is_number() && p->get<double>() > m.get<double>()) m = *p;
            return m;
        }
        uint64_t sum = 0;  // a histogram's max of a window without samples is null
        for (const json* p : parts)
            if (p->is_number()) sum += p->get<uint64_t>();
        return sum;
    }
    if (last.is_number_float() || last.is_null()) {
        // Rates and fractions: their mean weighted by the windows' lengths
        // is their value over the whole time (the windows of a duration that
        // does not divide evenly differ by a picosecond). Equal windows take
        // the plain mean, which rounds as it always did. A window where the
        // figure is undefined (null) adds nothing; in none, it stays null.
        const bool equal = std::all_of(seconds.begin(), seconds.end(),
                                       [&](double s) { return s == seconds[0]; });
        double sum = 0, secs = 0;
        for (size_t i = 0; i < parts.size(); ++i) {
            if (!parts[i]->is_number()) continue;
            sum += parts[i]->get<double>() * (equal ? 1.0 : seconds[i]);
            secs += equal ? 1.0 : seconds[i];
        }
        return secs > 0 ? json(sum / secs) : json();
    }
    return last;  // booleans, strings
}

}  // namespace

void add_workload_histograms(const System& sys, HistogramMap& into) {
    for (size_t w = 0; w < sys.workloads().size(); ++w) {
        const auto* nvme = dynamic_cast<const NvmeDisk*>(sys.workloads()[w].get());
        if (!nvme) continue;
        const std::string at = "/workloads/" + std::to_string(w);
        auto file = [&](const std::string& where, const Histogram& h) {
            auto& [sum, unit] = into[where];
            sum.merge(h);
            unit = "us";
        };
        file(at + "/completion_latency_us", nvme->completion_latency());
        for (unsigned j = 0; j < nvme->jobs(); ++j)
            file(at + "/jobs/" + std::to_string(j) + "/completion_latency_us",
                 nvme->completion_latency(j));
    }
}

void RunTotals::add_window(const System& sys, const json& window) {
    m_windows.push_back(window);
    for (size_t d = 0; d < sys.host().view().devices.size(); ++d)
        collect_histograms(sys.host().view().devices[d]->stats(),
                           "/per_device/" + std::to_string(d), true, m_histograms);
    for (unsigned c = 0; c < sys.host().cpu_count(); ++c) {
        const std::string at = "/per_cpu/" + std::to_string(c);
        collect_histograms(sys.host().cpu(c).stats(), at, true, m_histograms);
        collect_histograms(sys.host().apic(c).stats(), at, true, m_histograms);
    }
    for (unsigned p = 0; p < sys.host().root_port_count(); ++p)
        collect_histograms(sys.host().root_port(p).stats(), "/root_ports/" + std::to_string(p),
                           false, m_histograms);
    collect_histograms(sys.host().iommu().stats(), "/metrics", false, m_histograms);
    for (const auto& section : m_sections)
        if (section->present(sys)) section->add_window(sys, m_histograms);
    add_workload_histograms(sys, m_histograms);
}

void RunTotals::write(json& result) const {
    if (m_windows.empty()) return;
    std::vector<double> seconds;
    for (const json& w : m_windows)
        seconds.push_back(w["metrics"]["simulated_seconds"].get<double>());
    std::vector<std::string> sections = {"metrics",    "per_cpu",  "per_vector",
                                         "per_device", "root_ports", "workloads"};
    for (const auto& section : m_sections) sections.push_back(section->key());
    for (const std::string& section : sections) {
        std::vector<const json*> parts;
        for (const json& w : m_windows)
            if (w.contains(section)) parts.push_back(&w[section]);
        if (parts.size() != m_windows.size()) continue;
        result[section] = combine(parts, section, "/" + section, m_histograms, seconds);
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
    for (const auto& section : m_sections)
        if (result.contains(section->key()))
            section->write_totals(result[section->key()], m_windows);
}

}  // namespace cidsim
