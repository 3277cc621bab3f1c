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
#include "report/run_totals.h"
#include "report/stat_json.h"
#include "sim/invariants.h"
#include "workloads/latency_summary.h"

namespace cidsim {

using nlohmann::json;

namespace {
double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }
}  // namespace

// One entry per vCPU (systems.md E, E3): its pCPU's exits and switches,
// with the guest-visible latency of the devices assigned to it.
json vcpu_results(const System& sys, double secs) {
    json list = json::array();
    for (unsigned i = 0; i < sys.vcpu_count(); ++i) {
        const VmxCpu& v = sys.vmx_cpu(i);
        const VmxCpuStats& s = v.stats();
        Histogram latency;
        uint64_t msis = 0;
        for (size_t d = 0; d < sys.config().devices.size(); ++d)
            if (sys.config().assigned_vcpu(sys.config().devices[d]) == int(i)) {
                latency.merge(sys.device(unsigned(d)).stats().msi_to_handler_ns);
                msis += sys.device(unsigned(d)).stats().msis;
            }
        json o = {{"vcpu", i},
                  {"pcpu_apic_id", v.apic_id()},
                  {"msi_to_guest_ns", tail_summary(latency, "ns")},  // fio's tail, as the run totals
                  {"context_switches_per_s", per_second(double(s.context_switches), secs)},
                  {"host_cpu_ns_per_interrupt", ratio(v.root_time().to_seconds() * 1e9, double(msis))},
                  {"guest_fraction", ratio(v.guest_time().to_seconds(), secs)},
                  {"posted_notifications_suppressed",
                   v.pid().posts() - v.pid().notifications()}};
        for (size_t r = 0; r < s.exits.size(); ++r)
            o["exits_per_s"][to_string(ExitReason(r))] = per_second(double(s.exits[r]), secs);
        write_block_stats(s, o);
        list.push_back(o);
    }
    return list;
}

// The Xen guest (systems.md E, E1): the domain's lock and pirq walks, and
// one entry per vCPU.
json xen_results(const System& sys, double secs) {
    const XenDomain& dom = sys.xen_domain();
    const SpinLock& lock = dom.event_lock();
    const XenDomainStats& ds = dom.stats();
    uint64_t ios = 0;
    for (const auto& w : sys.workloads()) ios += w->completed_ios();
    sc_core::sc_time root;
    json vcpus = json::array();
    for (unsigned i = 0; i < sys.xen_vcpu_count(); ++i) {
        const XenPcpuStats& s = sys.xen_pcpu(i).stats();
        root += s.root_time;
        json o = {{"vcpu", i}, {"guest_fraction", ratio(s.guest_time.to_seconds(), secs)},
                  {"xen_fraction", ratio(s.root_time.to_seconds(), secs)}};
        write_block_stats(s, o);
        vcpus.push_back(o);
    }
    json lock_o = {{"kind", kLockKindNames[int(lock.kind())]},
                   {"acquisitions_per_s", per_second(double(lock.stats().acquisitions), secs)},
                   {"held_fraction", ratio(lock.stats().held.to_seconds(), secs)},
                   {"line_transfers", lock.line_stats().transfers},
                   {"line_queued_transfers", lock.line_stats().queued_transfers}};
    write_block_stats(lock.stats(), lock_o);
    json o = {{"eois_per_s", per_second(double(ds.eois), secs)},
              {"ios", ios},
              {"host_cpu_us_per_io", ratio(root.to_seconds() * 1e6, double(ios))},
              {"walk_entries_per_eoi", ratio(double(ds.walk_entries), double(ds.eois))},
              {"pirq_misses_per_eoi", ratio(double(ds.pirq_misses), double(ds.eois))},
              {"event_lock", lock_o},
              {"per_vcpu", vcpus}};
    write_block_stats(ds, o);
    return o;
}

// The POWER partition under ipistorm (systems.md E, E2): vmstat's count
// (IPIs and timer interrupts), the descriptor lines' transfers per IPI and
// their cross-chip share.
json ipistorm_results(const PowerPartition& p, double secs) {
    PowerCpuStats total;
    for (unsigned c = 0; c < p.cpu_count(); ++c) {
        const PowerCpuStats& s = p.cpu(c).stats();
        total.ipis += s.ipis;
        total.timer_interrupts += s.timer_interrupts;
        total.ipis_sent += s.ipis_sent;
        total.polled += s.polled;
        total.iterations += s.iterations;
        total.cross_chip_sent += s.cross_chip_sent;
        total.spin += s.spin;
    }
    uint64_t transfers = 0, remote = 0, queued = 0, stores = 0;
    for (const auto& d : p.descs()) {
        const SharedLineStats& h = d->hot_line().stats();
        transfers += h.misses + h.upgrades;
        remote += h.remote_supplies;
        queued += h.queued_transfers;
        stores += h.stores;
    }
    XiveStats xive;
    for (const Xive& x : p.xives()) {
        xive.triggers += x.stats().triggers;
        xive.cross_chip_triggers += x.stats().cross_chip_triggers;
        xive.queued += x.stats().queued;
    }
    const double ints = double(total.ipis + total.timer_interrupts);
    json o = {{"mint_per_s", ratio(ints, secs) / 1e6},
              {"ipis_per_s", per_second(double(total.ipis), secs)},
              {"timer_interrupts_per_s", per_second(double(total.timer_interrupts), secs)},
              {"iterations_per_s", per_second(double(total.iterations), secs)},
              {"polled_share", ratio(double(total.polled), double(total.polled + total.ipis_sent))},
              {"spin_us_per_iteration", ratio(total.spin.to_seconds() * 1e6, double(total.iterations))},
              {"desc_line_transfers_per_ipi", ratio(double(transfers), double(total.ipis))},
              {"desc_line_cross_chip_share", ratio(double(remote), double(transfers))},
              {"desc_line_queued_share", ratio(double(queued), double(transfers))},
              {"desc_line_stores", stores},
              {"cross_chip_ipi_share", ratio(double(total.cross_chip_sent), double(total.ipis_sent))},
              {"xive_queued_share", ratio(double(xive.queued), double(xive.triggers))},
              {"descs", p.descs().size()}};
    write_block_stats(total, o);
    return o;
}

// Raw statistics go in through their own descriptions (stat_json.h); what
// is computed here (rates, fractions, per-notification figures, the
// route's identity) is described in metric_table.cpp.
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
    for (size_t d = 0; d < sys.view().devices.size(); ++d) {
        const Device& dev = *sys.view().devices[d];
        const DeviceStats& s = dev.stats();
        totals.add(s);
        msis += s.msis;
        drained += s.drained;
        invocations += s.handler_invocations;
        in_flight += dev.in_flight();
        lost += dev.lost();
        json o = {{"name", sys.view().device_names[d]},
                  {"completion_rate_mps", per_second(s.completions, secs) / 1e6},
                  {"in_flight_at_end", dev.in_flight()}};
        write_block_stats(s, o);
        devices.push_back(o);
    }

    uint64_t pmn = 0, stranded_at_end = 0, pid_misses = 0;
    double busy_sum = 0;
    json cpus = json::array();
    for (unsigned c = 0; c < sys.cpu_count(); ++c) {
        const CpuCoreStats& s = sys.cpu(c).stats();
        const PostedDescriptor& pid = sys.pid(c);
        const LocalApicStats& a = sys.apic(c).stats();
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
    for (const VectorRoute& r : sys.routes()) {
        json o = {{"device", sys.view().device_names[r.device]},
                  {"queue", r.queue},
                  {"cpu", r.cpu},
                  {"vector", r.vector},
                  {"irte_index", r.irte_index}};
        write_vector_stats(sys.cpu(r.cpu).stats(), r.vector, o);
        write_vector_stats(sys.apic(r.cpu).stats(), r.vector, o);
        vectors.push_back(o);
    }

    json ports = json::array();
    for (unsigned p = 0; p < sys.root_port_count(); ++p) {
        const RootPortStats& s = sys.root_port(p).stats();
        json o = {{"root_port", p},
                  {"dma_gb_per_s", per_second(double(s.dma_bytes), secs) / 1e9},
                  {"dma_gbps", per_second(double(s.dma_bytes), secs) / 1e9},  // renamed_metrics.h
                  {"utilization", ratio(s.busy.to_seconds(), secs)}};
        write_block_stats(s, o);
        ports.push_back(o);
    }

    const IommuStats& io = sys.iommu().stats();
    write_block_stats(io, m);  // the one IOMMU's entry is `metrics` itself
    totals.write(m);
    m["msi_rate_mps"] = per_second(msis, secs) / 1e6;
    m["completion_rate_mps"] = per_second(drained, secs) / 1e6;
    m["handler_invocation_rate_mps"] = per_second(invocations, secs) / 1e6;
    m["notification_rate_mps"] = per_second(pmn, secs) / 1e6;
    m["interrupt_messages_per_msi"] = ratio(io.notifications + io.remapped_messages, msis);
    m["pid_line"]["cpu_misses"] = pid_misses;
    m["pid_line"]["cpu_misses_per_notification"] = ratio(pid_misses, pmn);
    m["cpu_busy_fraction_mean"] = sys.cpu_count() ? busy_sum / sys.cpu_count() : 0.0;
    m["iommu_faults"]["total"] = sys.iommu().faults_total();
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
    if (sys.vcpu_count()) out["per_vcpu"] = vcpu_results(sys, secs);
    if (sys.xen_vcpu_count()) out["xen"] = xen_results(sys, secs);
    if (sys.power()) out["ipistorm"] = ipistorm_results(*sys.power(), secs);
    return out;
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

json run_and_collect(System& system, ProgressLine* progress) {
    const uint64_t batches = system.config().run.batches;
    if (batches <= 1) {
        warm_up(system, progress);  // what system.run() does, with progress
        advance_to(system, sc_core::sc_time_stamp() + system.config().run.duration,
                   sc_core::sc_time_stamp(), progress);
        if (progress) progress->clear();
        return collect_results(system);
    }
    warm_up(system, progress);
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    json windows = json::array();
    json result;  // identity, config and invariants: the last window's
    RunTotals totals;
    for (uint64_t b = 0; b < batches; ++b) {
        // Boundaries from the start, so the last window ends exactly on time.
        const sc_core::sc_time end =
            start + system.config().run.duration * (double(b + 1) / double(batches));
        advance_to(system, end, start, progress);
        result = collect_results(system);
        totals.add_window(system, result);
        windows.push_back({{"metrics", result["metrics"]}, {"workloads", result["workloads"]}});
        if (result.contains("per_vcpu")) windows.back()["per_vcpu"] = result["per_vcpu"];
        if (result.contains("xen")) windows.back()["xen"] = result["xen"];
        if (result.contains("ipistorm")) windows.back()["ipistorm"] = result["ipistorm"];
        if (b + 1 < batches) system.reset_stats();
    }
    std::vector<const json*> samples;
    for (const json& w : windows) samples.push_back(&w);
    json mean, ci95;
    combine(samples, mean, ci95);
    // The run's totals, not one window's nor a mean of windows: a reader
    // of `metrics` sees the whole measured time (report/run_totals.h).
    totals.write(result);
    if (progress) progress->clear();
    result["ci95"] = ci95;
    result["batches"] = windows;
    return result;
}

}  // namespace cidsim
