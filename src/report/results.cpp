#include "report/results.h"
#include "version.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "config/config_loader.h"
#include "report/confidence.h"
#include "sim/invariants.h"

namespace cidsim {

using nlohmann::json;

namespace {
double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }
}  // namespace

json collect_results(const System& sys) {
    const double secs = sys.measured_seconds();
    const IommuStats& io = sys.iommu().stats();
    json m;
    m["simulated_seconds"] = secs;

    uint64_t msis = 0, completions = 0, drained = 0, invocations = 0, in_flight = 0, lost = 0;
    Histogram latency;
    json devices = json::array();
    for (size_t d = 0; d < sys.view().devices.size(); ++d) {
        const Device& dev = *sys.view().devices[d];
        const DeviceStats& s = dev.stats();
        msis += s.msis;
        completions += s.completions;
        drained += s.drained;
        invocations += s.handler_invocations;
        in_flight += dev.in_flight();
        lost += dev.lost();
        latency.merge(s.msi_to_handler_ns);
        devices.push_back({{"name", sys.view().device_names[d]},
                           {"completions", s.completions},
                           {"completion_rate_mps", per_second(s.completions, secs) / 1e6},
                           {"msis", s.msis},
                           {"handler_invocations", s.handler_invocations},
                           {"empty_handler_invocations", s.empty_invocations},
                           {"completions_drained", s.drained},
                           {"max_queue_depth", s.max_queue_depth},
                           {"in_flight_at_end", dev.in_flight()},
                           {"msi_to_handler_ns", s.msi_to_handler_ns.summary("ns")}});
    }

    uint64_t pmn = 0, stranded = 0, stranded_at_end = 0, pid_misses = 0, xchgs = 0, reads = 0,
             interrupts = 0, empty_eoi = 0;
    double busy_sum = 0;
    Histogram passes, timer, irq_off;
    json cpus = json::array();
    for (unsigned c = 0; c < sys.cpu_count(); ++c) {
        const CpuCoreStats& s = sys.cpu(c).stats();
        const PostedDescriptor& pid = sys.pid(c);
        const LocalApicStats& a = sys.apic(c).stats();
        const uint64_t misses = pid.line().misses_of(AgentId(c));
        const bool left_stranded = pid.pir().any() && !pid.on();
        const double busy = ratio(s.busy.to_seconds(), secs);
        pmn += s.notifications;
        stranded += s.stranded;
        stranded_at_end += left_stranded;
        pid_misses += misses;
        xchgs += s.pid_xchgs;
        reads += s.pid_reads;
        interrupts += s.interrupts;
        empty_eoi += a.eoi_with_empty_isr;
        busy_sum += busy;
        passes.merge(s.harvest_passes);
        timer.merge(a.timer_delay_ns);
        irq_off.merge(s.irq_off_ns);
        cpus.push_back({{"cpu", c},
                        {"interrupts", s.interrupts},
                        {"notifications_handled", s.notifications},
                        {"notifications_sent", pid.notifications()},
                        {"notifications_suppressed", pid.posts() - pid.notifications()},
                        {"posts", pid.posts()},
                        {"busy_fraction", busy},
                        {"irq_fraction", ratio(s.irq_time.to_seconds(), secs)},
                        {"pid_line_misses", misses},
                        {"pid_reads", s.pid_reads},
                        {"pid_xchgs", s.pid_xchgs},
                        {"stranded", s.stranded},
                        {"stranded_at_end", left_stranded},
                        {"timer_delay_ns", a.timer_delay_ns.summary("ns")},
                        {"harvest_passes", s.harvest_passes.summary("passes")}});
    }

    json vectors = json::array();
    for (const VectorRoute& r : sys.routes())
        vectors.push_back({{"device", sys.view().device_names[r.device]},
                           {"queue", r.queue},
                           {"cpu", r.cpu},
                           {"vector", r.vector},
                           {"irte_index", r.irte_index},
                           {"handler_calls", sys.cpu(r.cpu).stats().handler_calls[r.vector]},
                           {"lapic_deliveries", sys.apic(r.cpu).stats().dispatched[r.vector]}});

    json ports = json::array();
    for (unsigned p = 0; p < sys.root_port_count(); ++p) {
        const RootPortStats& s = sys.root_port(p).stats();
        ports.push_back({{"root_port", p},
                         {"dma_bytes", s.dma_bytes},
                         {"dma_gbps", per_second(double(s.dma_bytes), secs) / 1e9},
                         {"drains", s.drains},
                         {"utilization", ratio(s.busy.to_seconds(), secs)}});
    }

    json faults = json::object();
    for (size_t f = 0; f < size_t(IommuFault::Count); ++f)
        faults[to_string(IommuFault(f))] = io.faults[f];
    json first_faults = json::array();
    for (const IommuFaultRecord& r : io.first_faults)
        first_faults.push_back({{"at_ns", ns_of(r.at)},
                                {"reason", to_string(r.reason)},
                                {"irte_index", r.index},
                                {"source_id", r.source_id}});

    m["msis"] = msis;
    m["msi_rate_mps"] = per_second(msis, secs) / 1e6;
    m["completions"] = completions;
    m["completions_handled"] = drained;
    m["completion_rate_mps"] = per_second(drained, secs) / 1e6;
    m["handler_invocations"] = invocations;
    m["handler_invocation_rate_mps"] = per_second(invocations, secs) / 1e6;
    m["interrupts"] = interrupts;
    m["notifications_handled"] = pmn;
    m["notification_rate_mps"] = per_second(pmn, secs) / 1e6;
    m["notifications_sent"] = io.notifications;
    m["notifications_suppressed"] = io.suppressed;
    m["remapped_messages"] = io.remapped_messages;
    m["interrupt_messages_per_msi"] = ratio(io.notifications + io.remapped_messages, msis);
    m["harvest_passes_per_notification"] = passes.summary("passes");
    m["pid_line"] = {{"cpu_misses", pid_misses},
                     {"cpu_misses_per_notification", ratio(pid_misses, pmn)},
                     {"cpu_reads", reads},
                     {"cpu_xchgs", xchgs},
                     {"iommu_posts", io.posts}};
    m["cpu_busy_fraction_mean"] = sys.cpu_count() ? busy_sum / sys.cpu_count() : 0.0;
    m["msi_to_handler_ns"] = latency.summary("ns");
    m["timer_delay_ns"] = timer.summary("ns");
    m["irq_disabled_span_ns"] = irq_off.summary("ns");
    m["iec"] = {{"hits", io.iec_hits}, {"misses", io.iec_misses}};
    m["iommu_faults"] = {{"total", sys.iommu().faults_total()},
                         {"by_reason", faults},
                         {"first", first_faults}};
    m["stranded_interrupts"] = stranded;
    m["stranded_at_end"] = stranded_at_end;
    m["in_flight_completions_at_end"] = in_flight;
    m["lost_completions"] = lost;
    m["eoi_with_empty_isr"] = empty_eoi;

    json workloads = json::array();
    for (const auto& w : sys.workloads()) {
        json o;
        w->report(o, secs);
        workloads.push_back(o);
    }

    return {{"cidsim_version", version()},
            {"seed", sys.config().run.seed},
            {"config", effective_config(sys.config())},
            {"metrics", m},
            {"per_cpu", cpus},
            {"per_vector", vectors},
            {"per_device", devices},
            {"root_ports", ports},
            {"workloads", workloads},
            {"invariants", check_invariants(sys).to_json()}};
}

namespace {

// Mean and 95% half-width of every number found at the same place in all
// of `samples` (objects and arrays of the same shape).
void combine(const std::vector<const json*>& samples, json& mean, json& ci95) {
    const json& first = *samples.front();
    if (first.is_number()) {
        std::vector<double> values;
        for (const json* s : samples) values.push_back(s->get<double>());
        const MeanCi m = mean_ci95(values);
        mean = m.mean;
        ci95 = m.half_width;
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

json run_and_collect(System& system) {
    const uint64_t batches = system.config().run.batches;
    if (batches <= 1) {
        system.run();
        return collect_results(system);
    }
    system.warm_up();
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    json windows = json::array();
    json result;  // identity, config and per-block detail: the last window's
    for (uint64_t b = 0; b < batches; ++b) {
        // Boundaries from the start, so the last window ends exactly on time.
        const sc_core::sc_time end =
            start + system.config().run.duration * (double(b + 1) / double(batches));
        system.advance(end - sc_core::sc_time_stamp());
        result = collect_results(system);
        windows.push_back({{"metrics", result["metrics"]}, {"workloads", result["workloads"]}});
        if (b + 1 < batches) system.reset_stats();
    }
    std::vector<const json*> samples;
    for (const json& w : windows) samples.push_back(&w);
    json mean, ci95;
    combine(samples, mean, ci95);
    result["metrics"] = mean["metrics"];
    result["workloads"] = mean["workloads"];
    result["ci95"] = ci95;
    result["batches"] = windows;
    return result;
}

std::string summary_text(const json& r) {
    const json& m = r["metrics"];
    char buf[2048];
    std::snprintf(
        buf, sizeof buf,
        "mode %s, %llu CPU(s), %.3f ms simulated\n"
        "  MSIs              %12llu  (%.3f M/s)\n"
        "  handler calls     %12llu  (%.3f M/s)\n"
        "  notifications     %12llu  handled, %llu sent, %llu suppressed\n"
        "  remapped messages %12llu\n"
        "  harvest passes    %12.2f  per notification (mean)\n"
        "  PID line misses   %12llu  (%.2f per notification)\n"
        "  CPU busy          %12.1f %% (mean over CPUs)\n"
        "  MSI->handler ns   p50 %.0f  p90 %.0f  p99 %.0f  max %.0f\n"
        "  timer delay ns    p50 %.0f  p99 %.0f  max %.0f\n"
        "  IEC hits/misses   %llu / %llu;  IOMMU faults %llu\n"
        "  stranded %llu (at end %llu);  lost completions %llu;  in flight %llu\n",
        r["config"]["mode"].get<std::string>().c_str(),
        (unsigned long long)r["config"]["topology"]["cpus"].get<uint64_t>(),
        m["simulated_seconds"].get<double>() * 1e3, (unsigned long long)m["msis"].get<uint64_t>(),
        m["msi_rate_mps"].get<double>(), (unsigned long long)m["handler_invocations"].get<uint64_t>(),
        m["handler_invocation_rate_mps"].get<double>(),
        (unsigned long long)m["notifications_handled"].get<uint64_t>(),
        (unsigned long long)m["notifications_sent"].get<uint64_t>(),
        (unsigned long long)m["notifications_suppressed"].get<uint64_t>(),
        (unsigned long long)m["remapped_messages"].get<uint64_t>(),
        m["harvest_passes_per_notification"]["mean"].get<double>(),
        (unsigned long long)m["pid_line"]["cpu_misses"].get<uint64_t>(),
        m["pid_line"]["cpu_misses_per_notification"].get<double>(),
        m["cpu_busy_fraction_mean"].get<double>() * 100, m["msi_to_handler_ns"]["p50"].get<double>(),
        m["msi_to_handler_ns"]["p90"].get<double>(), m["msi_to_handler_ns"]["p99"].get<double>(),
        double(m["msi_to_handler_ns"]["max"].get<uint64_t>()), m["timer_delay_ns"]["p50"].get<double>(),
        m["timer_delay_ns"]["p99"].get<double>(), double(m["timer_delay_ns"]["max"].get<uint64_t>()),
        (unsigned long long)m["iec"]["hits"].get<uint64_t>(),
        (unsigned long long)m["iec"]["misses"].get<uint64_t>(),
        (unsigned long long)m["iommu_faults"]["total"].get<uint64_t>(),
        (unsigned long long)m["stranded_interrupts"].get<uint64_t>(),
        (unsigned long long)m["stranded_at_end"].get<uint64_t>(),
        (unsigned long long)m["lost_completions"].get<uint64_t>(),
        (unsigned long long)m["in_flight_completions_at_end"].get<uint64_t>());
    return buf;
}

}  // namespace cidsim
