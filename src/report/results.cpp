#include "report/results.h"
#include "version.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "config/config_loader.h"
#include "config/platforms.h"
#include "report/confidence.h"
#include "report/result_section.h"
#include "report/run_totals.h"
#include "report/stat_json.h"
#include "sim/invariants.h"
#include "workloads/latency_summary.h"

namespace cidsim {

using nlohmann::json;

namespace {

// A figure the run could not define (ratio() of nothing, a NaN) as the
// JSON writes it, null, already in memory: the summary, the stats file and
// the batch totals read the same value a reader of the file does.
void undefined_to_null(json& j) {
    if (j.is_number_float() && std::isnan(j.get<double>())) j = nullptr;
    if (j.is_structured())
        for (json& e : j) undefined_to_null(e);
}

}  // namespace

// Raw statistics go in through their own descriptions (stat_json.h); what
// is computed here (rates, fractions, per-notification figures, the
// route's identity) is described in metric_table.cpp, and each machine
// family's section by its own file (result_section.h).
json collect_results(const System& sys) {
    const double secs = sys.measured_seconds();
    json m;
    m["simulated_seconds"] = secs;
    StatTotals totals;
    totals.declare<DeviceStats>();
    totals.declare<CpuCoreStats>();
    totals.declare<LocalApicStats>();

    uint64_t msis = 0, drained = 0, invocations = 0, in_flight = 0, lost = 0;
    json devices = json::array();
    for (size_t d = 0; d < sys.host().view().devices.size(); ++d) {
        const Device& dev = *sys.host().view().devices[d];
        const DeviceStats& s = dev.stats();
        totals.add(s);
        msis += s.msis;
        drained += s.drained;
        invocations += s.handler_invocations;
        in_flight += dev.in_flight();
        lost += dev.lost();
        json o = {{"name", sys.host().view().device_names[d]},
                  {"completion_rate_mps", per_second(s.completions, secs) / 1e6},
                  {"in_flight_at_end", dev.in_flight()}};
        write_block_stats(s, o);
        devices.push_back(o);
    }

    uint64_t pmn = 0, stranded_at_end = 0, pid_misses = 0;
    double busy_sum = 0;
    json cpus = json::array();
    for (unsigned c = 0; c < sys.host().cpu_count(); ++c) {
        const CpuCoreStats& s = sys.host().cpu(c).stats();
        const PostedDescriptor& pid = sys.host().pid(c);
        const LocalApicStats& a = sys.host().apic(c).stats();
        totals.add(s);
        totals.add(a);
        const uint64_t misses = pid.line().misses_of(AgentId(c));
        const bool left_stranded = pid.pir().any() && !pid.on();
        const double busy = ratio(s.busy.to_seconds(), secs);
        pmn += s.notifications;
        stranded_at_end += left_stranded;
        pid_misses += misses;
        busy_sum += busy;
        json o = {{"cpu", c},
                  {"notifications_sent", pid.notifications()},
                  {"notifications_suppressed", pid.posts() - pid.notifications()},
                  {"posts", pid.posts()},
                  {"busy_fraction", busy},
                  {"irq_fraction", ratio(s.irq_time.to_seconds(), secs)},
                  {"pid_line_misses", misses},
                  {"stranded_at_end", left_stranded}};
        write_block_stats(s, o);
        write_block_stats(a, o);
        cpus.push_back(o);
    }

    json vectors = json::array();
    for (const VectorRoute& r : sys.host().routes()) {
        json o = {{"device", sys.host().view().device_names[r.device]},
                  {"queue", r.queue},
                  {"cpu", r.cpu},
                  {"vector", r.vector},
                  {"irte_index", r.irte_index}};
        write_vector_stats(sys.host().cpu(r.cpu).stats(), r.vector, o);
        write_vector_stats(sys.host().apic(r.cpu).stats(), r.vector, o);
        vectors.push_back(o);
    }

    json ports = json::array();
    for (unsigned p = 0; p < sys.host().root_port_count(); ++p) {
        const RootPortStats& s = sys.host().root_port(p).stats();
        json o = {{"root_port", p},
                  {"dma_gb_per_s", per_second(double(s.dma_bytes), secs) / 1e9},
                  {"dma_gbps", per_second(double(s.dma_bytes), secs) / 1e9},  // renamed_metrics.h
                  {"utilization", ratio(s.busy.to_seconds(), secs)}};
        write_block_stats(s, o);
        ports.push_back(o);
    }

    const IommuStats& io = sys.host().iommu().stats();
    write_block_stats(io, m);  // the one IOMMU's entry is `metrics` itself
    totals.write(m);
    m["msi_rate_mps"] = per_second(msis, secs) / 1e6;
    m["completion_rate_mps"] = per_second(drained, secs) / 1e6;
    m["handler_invocation_rate_mps"] = per_second(invocations, secs) / 1e6;
    m["notification_rate_mps"] = per_second(pmn, secs) / 1e6;
    m["interrupt_messages_per_msi"] = ratio(io.notifications + io.remapped_messages, msis);
    m["pid_line"]["cpu_misses"] = pid_misses;
    m["pid_line"]["cpu_misses_per_notification"] = ratio(pid_misses, pmn);
    m["cpu_busy_fraction_mean"] = sys.host().cpu_count() ? busy_sum / sys.host().cpu_count() : 0.0;
    m["iommu_faults"]["total"] = sys.host().iommu().faults_total();
    m["stranded_at_end"] = stranded_at_end;
    m["in_flight_completions_at_end"] = in_flight;
    m["lost_completions"] = lost;

    json workloads = json::array();
    for (const auto& w : sys.workloads()) {
        json o;
        w->report(o, secs);
        workloads.push_back(o);
    }

    json out = {{"cidsim_version", version()},
            {"seed", sys.config().run.seed},
            {"config", effective_config(sys.config())},
            {"metrics", m},
            {"per_cpu", cpus},
            {"per_vector", vectors},
            {"per_device", devices},
            {"root_ports", ports},
            {"workloads", workloads},
            {"invariants", check_invariants(sys).to_json()}};
    for (const auto& section : result_sections())
        if (section->present(sys)) out[section->key()] = section->write(sys, secs);
    undefined_to_null(out);
    return out;
}

namespace {

// Mean and 95% half-width of every number found at the same place in all
// of `samples` (objects and arrays of the same shape). A window where the
// figure is undefined (null) is no sample; with fewer than two samples
// there is no half-width.
void combine(const std::vector<const json*>& samples, json& mean, json& ci95) {
    const json& first = *samples.front();
    std::vector<double> values;
    for (const json* s : samples)
        if (s->is_number()) values.push_back(s->get<double>());
    if (first.is_number() || (first.is_null() && !values.empty())) {
        const MeanCi m = mean_ci95(values);
        mean = m.mean;
        ci95 = values.size() < 2 ? json() : json(m.half_width);
    } else if (first.is_object() || first.is_array()) {
        mean = first.is_object() ? json::object() : json::array();
        ci95 = mean;
        for (auto it = first.begin(); it != first.end(); ++it) {
            std::vector<const json*> parts;
            for (const json* s : samples) {
                const json* part = first.is_object() ? (s->contains(it.key()) ? &(*s)[it.key()] : nullptr)
                                                     : nullptr;
                if (first.is_array()) {
                    const size_t i = size_t(std::distance(first.begin(), it));
                    part = i < s->size() ? &(*s)[i] : nullptr;
                }
                if (!part) break;
                parts.push_back(part);
            }
            if (parts.size() != samples.size()) continue;
            json m, c;
            combine(parts, m, c);
            if (first.is_object()) {
                mean[it.key()] = m;
                if (!c.is_null()) ci95[it.key()] = c;
            } else {
                mean.push_back(m);
                ci95.push_back(c);
            }
        }
    } else {
        mean = first;  // strings, booleans: as in the first window
    }
}

}  // namespace

namespace {

// system.advance to `end`; with a progress line, in steps of 1% of the
// measured duration so that it can be redrawn (window ends are not acts of
// the model: a run in steps gives the same result, as batches do).
void advance_to(System& system, const sc_core::sc_time& end, const sc_core::sc_time& start,
                ProgressLine* progress) {
    if (!progress || !progress->enabled()) {
        system.advance(end - sc_core::sc_time_stamp());
        return;
    }
    const sc_core::sc_time duration = system.config().run.duration;
    const sc_core::sc_time step = std::max(duration / 100.0, sc_core::sc_time(1, sc_core::SC_NS));
    while (sc_core::sc_time_stamp() < end && !system.stopped_early()) {
        system.advance(std::min(step, end - sc_core::sc_time_stamp()));
        const double done = (sc_core::sc_time_stamp() - start) / duration;
        char buf[160];
        std::snprintf(buf, sizeof buf, "cidsim run: %.3f/%.3f ms simulated, %.1f s wall, ~%s left",
                      (sc_core::sc_time_stamp() - start).to_seconds() * 1e3,
                      duration.to_seconds() * 1e3, progress->elapsed(),
                      ProgressLine::time_left(progress->elapsed(), done).c_str());
        progress->show(buf);
    }
}

void warm_up(System& system, ProgressLine* progress) {
    if (progress && system.config().run.warmup > sc_core::SC_ZERO_TIME) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "cidsim run: warming up (%.3f ms simulated)",
                      system.config().run.warmup.to_seconds() * 1e3);
        progress->show(buf, true);
    }
    system.warm_up();
}

}  // namespace

json run_and_collect(System& system, ProgressLine* progress, HistogramMap* workload_histograms) {
    const uint64_t batches = system.config().run.batches;
    if (batches <= 1) {
        warm_up(system, progress);  // what system.run() does, with progress
        advance_to(system, sc_core::sc_time_stamp() + system.config().run.duration,
                   sc_core::sc_time_stamp(), progress);
        if (progress) progress->clear();
        system.close_window();
        if (workload_histograms) add_workload_histograms(system, *workload_histograms);
        return collect_results(system);
    }
    warm_up(system, progress);
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    json windows = json::array();
    json result;  // identity, config and invariants: the last window's
    RunTotals totals;
    const auto families = result_sections();
    for (uint64_t b = 0; b < batches; ++b) {
        // Boundaries from the start, so the last window ends exactly on time.
        const sc_core::sc_time end =
            start + system.config().run.duration * (double(b + 1) / double(batches));
        advance_to(system, end, start, progress);
        system.close_window();
        result = collect_results(system);
        totals.add_window(system, result);
        windows.push_back({{"metrics", result["metrics"]}, {"workloads", result["workloads"]}});
        for (const auto& section : families)
            if (result.contains(section->key()))
                windows.back()[section->key()] = result[section->key()];
        if (b + 1 < batches) system.reset_stats();
    }
    std::vector<const json*> samples;
    for (const json& w : windows) samples.push_back(&w);
    json mean, ci95;
    combine(samples, mean, ci95);
    // The run's totals, not one window's nor a mean of windows: a reader
    // of `metrics` sees the whole measured time (report/run_totals.h).
    totals.write(result);
    undefined_to_null(result);
    if (workload_histograms) *workload_histograms = totals.histograms();
    if (progress) progress->clear();
    result["ci95"] = ci95;
    result["batches"] = windows;
    return result;
}

}  // namespace cidsim
