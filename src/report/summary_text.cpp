#include "report/results.h"

#include <cstdio>
#include <map>
#include <utility>
#include <string>

#include "config/platforms.h"

namespace cidsim {

using nlohmann::json;

namespace {

// A figure as printf's `format` writes it (times `scale`), or "n/a" where
// the result has none (null: nothing to divide by, no sample).
std::string fig(const json& v, const char* format, double scale = 1) {
    if (v.is_null()) return "n/a";
    char b[64];
    std::snprintf(b, sizeof b, format, v.get<double>() * scale);
    return b;
}

// A latency summary's percentiles and maximum, in `format` (times `scale`).
std::string tail_text(const json& h, const char* format, double scale) {
    std::string out;
    for (const auto& [key, name] : {std::pair{"p50", "p50"}, {"p90", "p90"}, {"p99", "p99"},
                                    {"p99_9", "p99.9"}, {"p99_99", "p99.99"}, {"max", "max"}})
        out += (out.empty() ? "" : "  ") + std::string(name) + " " + fig(h[key], format, scale);
    return out;
}

// One row per CPU: where the interrupts went and what they cost.
std::string per_cpu_text(const json& r) {
    std::map<uint64_t, uint64_t> calls;  // per CPU, summed over its vectors
    for (const json& v : r["per_vector"])
        calls[v["cpu"].get<uint64_t>()] += v.value("handler_calls", uint64_t(0));
    std::string out = "  per CPU    busy %  interrupts  notifications  handler calls\n";
    char line[160];
    for (const json& c : r["per_cpu"]) {
        const uint64_t cpu = c["cpu"].get<uint64_t>();
        std::snprintf(line, sizeof line, "    cpu%-4llu %7.1f  %10llu  %13llu  %13llu\n",
                      (unsigned long long)cpu, c["busy_fraction"].get<double>() * 100,
                      (unsigned long long)c.value("interrupts", uint64_t(0)),
                      (unsigned long long)c.value("notifications_handled", uint64_t(0)),
                      (unsigned long long)calls[cpu]);
        out += line;
    }
    return out;
}

std::string latency_text(const json& h) { return "clat us " + tail_text(h, "%.0f", 1); }

// fio's view of every NVMe workload: the disk, then each job (IOPS,
// bandwidth, completion latency from submission to reap).
std::string storage_text(const json& r) {
    std::string out;
    char line[320];
    for (const json& w : r["workloads"]) {
        if (w.value("type", std::string()) != "nvme" || !w.contains("completion_latency_us"))
            continue;
        std::snprintf(line, sizeof line, "  %s: IOPS %.3f M, bw %.1f MB/s, %s\n",
                      w["device"].get<std::string>().c_str(), w["iops_m"].get<double>(),
                      w["bandwidth_mb_per_s"].get<double>(),
                      latency_text(w["completion_latency_us"]).c_str());
        out += line;
        if (w["jobs"].size() > 16) {  // P5's 512 jobs: the result has them
            out += "    (" + std::to_string(w["jobs"].size()) +
                   " jobs: each in the result's workloads[].jobs)\n";
            continue;
        }
        for (const json& j : w["jobs"]) {
            std::snprintf(line, sizeof line, "    job %llu (cpu%llu): IOPS %.3f M, bw %.1f MB/s, %s\n",
                          (unsigned long long)j["job"].get<uint64_t>(),
                          (unsigned long long)j["cpu"].get<uint64_t>(), j["iops_m"].get<double>(),
                          j["bandwidth_mb_per_s"].get<double>(),
                          latency_text(j["completion_latency_us"]).c_str());
            out += line;
        }
    }
    return out;
}

// perf kvm stat report's table of one vCPU.
std::string kvm_stat_text(const json& stat) {
    std::string out =
        "               VM-EXIT    Samples  Samples%     Time%    Min Time    Max Time    Avg time\n";
    char line[200];
    for (auto it = stat.begin(); it != stat.end(); ++it) {
        const json& e = it.value();
        std::snprintf(line, sizeof line, "    %18s %10llu %9s %9s %9.2fus %9.2fus %9sus\n",
                      it.key().c_str(), (unsigned long long)e["samples"].get<uint64_t>(),
                      fig(e["samples_pct"], "%.2f%%").c_str(), fig(e["time_pct"], "%.2f%%").c_str(),
                      e["min_us"].get<double>(), e["max_us"].get<double>(),
                      fig(e["mean_us"], "%.2f").c_str());
        out += line;
    }
    return out;
}

// What a KVM user reads first (perf kvm stat, /proc/interrupts): per vCPU
// its exits, the exit handling time, the guest-visible latency and the
// host's share.
std::string vcpu_text(const json& r) {
    if (!r.contains("per_vcpu")) return "";
    std::string out;
    char line[400];
    for (const json& v : r["per_vcpu"]) {
        const std::string latency = tail_text(v["msi_to_guest_ns"], "%.3f", 1e-3);
        const json& e = v["exits"];
        const json& eh = v["exit_handling_ns"];
        std::snprintf(line, sizeof line,
                      "  vcpu%llu (CPU%llu): exits EXTERNAL_INTERRUPT %llu (%.0f/s: host tick "
                      "%llu, guest timer %llu), HLT %llu, "
                      "EOI %llu; posted in guest mode %llu; PIN %llu, PIW %llu\n"
                      "    exit handling (kvm_exit -> kvm_entry) us  mean %s  max %s;  "
                      "context switches %.0f/s;  host CPU per MSI %s us;  in guest %.1f %%\n"
                      "    MSI->guest handler us  %s\n",
                      (unsigned long long)v["vcpu"].get<uint64_t>(),
                      (unsigned long long)v["pcpu_apic_id"].get<uint64_t>(),
                      (unsigned long long)e["EXTERNAL_INTERRUPT"].get<uint64_t>(),
                      v["exits_per_s"]["EXTERNAL_INTERRUPT"].get<double>(),
                      (unsigned long long)v["host_tick_exits"].get<uint64_t>(),
                      (unsigned long long)v["guest_timer_exits"].get<uint64_t>(),
                      (unsigned long long)e["HLT"].get<uint64_t>(),
                      (unsigned long long)(e["APIC_WRITE"].get<uint64_t>() +
                                           e["MSR_WRITE"].get<uint64_t>() +
                                           e["EOI_INDUCED"].get<uint64_t>()),
                      (unsigned long long)v["posted_in_guest"].get<uint64_t>(),
                      (unsigned long long)v["pin"].get<uint64_t>(),
                      (unsigned long long)v["piw"].get<uint64_t>(),
                      fig(eh["mean"], "%.3f", 1e-3).c_str(), fig(eh["max"], "%.3f", 1e-3).c_str(),
                      v["context_switches_per_s"].get<double>(),
                      fig(v["host_cpu_ns_per_interrupt"], "%.3f", 1e-3).c_str(),
                      v["guest_fraction"].get<double>() * 100, latency.c_str());
        out += line;
        out += kvm_stat_text(v["kvm_stat"]);
    }
    return out;
}

// What a Xen user and the E1 experiment read first: the variant, the
// domain's event_lock (rate, wait, hand-offs) and the EOI work per EOI.
std::string xen_text(const json& r) {
    if (!r.contains("xen")) return "";
    const json& x = r["xen"];
    const json& l = x["event_lock"];
    const json& c = r["config"]["xen"];
    const double secs = r["metrics"]["simulated_seconds"].get<double>();
    uint64_t ext = 0, eoi_exits = 0;
    for (const json& v : x["per_vcpu"]) {
        ext += v["exits"]["EXTERNAL_INTERRUPT"].get<uint64_t>();
        eoi_exits += v["exits"]["MSR_WRITE"].get<uint64_t>() + v["exits"]["APIC_ACCESS"].get<uint64_t>();
    }
    char buf[900];
    std::snprintf(buf, sizeof buf,
                  "  xen: %llu vCPUs on %llu socket(s), variant %s, EOI by %s, %llu pirqs\n"
                  "    exits EXTERNAL_INTERRUPT %.0f/s, EOI %.0f/s;  EOIs reaching "
                  "hvm_dpci_msi_eoi %.0f/s;  Xen CPU per I/O %s us\n"
                  "    event_lock (%s): %.0f acquisitions/s, held %.1f %%, wait us mean %s  "
                  "p99 %s;  hand-offs %llu (%llu across sockets)\n"
                  "    walk: %s pirqs per EOI, %s line misses per EOI\n",
                  (unsigned long long)c["vcpus"].get<uint64_t>(),
                  (unsigned long long)c["sockets"].get<uint64_t>(),
                  c["variant"].get<std::string>().c_str(),
                  // intpost (VID) virtualises every EOI, whatever xen.eoi says.
                  c["variant"] == "intpost" ? "virtualised (intpost)"
                                            : c["eoi"].get<std::string>().c_str(),
                  (unsigned long long)c["pirqs"].get<uint64_t>(), secs > 0 ? ext / secs : 0.0,
                  secs > 0 ? eoi_exits / secs : 0.0, x["eois_per_s"].get<double>(),
                  fig(x["host_cpu_us_per_io"], "%.3f").c_str(),
                  l["kind"].get<std::string>().c_str(),
                  l["acquisitions_per_s"].get<double>(), l["held_fraction"].get<double>() * 100,
                  fig(l["wait_ns"]["mean"], "%.3f", 1e-3).c_str(),
                  fig(l["wait_ns"]["p99"], "%.3f", 1e-3).c_str(),
                  (unsigned long long)l["handoffs"].get<uint64_t>(),
                  (unsigned long long)l["cross_socket_handoffs"].get<uint64_t>(),
                  fig(x["walk_entries_per_eoi"], "%.1f").c_str(),
                  fig(x["pirq_misses_per_eoi"], "%.1f").c_str());
    return buf;
}

// The x86 host: the interrupt path from device to Linux handler.
std::string host_text(const json& r) {
    const json& m = r["metrics"];
    char buf[2048];
    std::snprintf(
        buf, sizeof buf,
        "mode %s, %llu CPU(s), %.3f ms simulated\n"
        "  MSIs              %12llu  (%.3f M/s)\n"
        "  handler calls     %12llu  (%.3f M/s)\n"
        "  notifications     %12llu  handled, %llu sent, %llu suppressed\n"
        "  remapped messages %12llu\n"
        "  harvest passes    %12s  per notification (mean)\n"
        "  PID line misses   %12llu  (%s per notification)\n"
        "  CPU busy          %12.1f %% (mean over CPUs)\n"
        "  MSI->handler ns   %s\n"
        "  timer delay ns    p50 %s  p99 %s  max %s\n"
        "  IEC hits/misses   %llu / %llu;  IOMMU faults %llu\n"
        "  stranded %llu (at end %llu);  lost completions %llu;  in flight %llu\n",
        r["config"].value("mode", std::string("no")).c_str(),  // a POWER config has none
        (unsigned long long)r["config"]["topology"]["cpus"].get<uint64_t>(),
        m["simulated_seconds"].get<double>() * 1e3, (unsigned long long)m["msis"].get<uint64_t>(),
        m["msi_rate_mps"].get<double>(), (unsigned long long)m["handler_invocations"].get<uint64_t>(),
        m["handler_invocation_rate_mps"].get<double>(),
        (unsigned long long)m["notifications_handled"].get<uint64_t>(),
        (unsigned long long)m["notifications_sent"].get<uint64_t>(),
        (unsigned long long)m["notifications_suppressed"].get<uint64_t>(),
        (unsigned long long)m["remapped_messages"].get<uint64_t>(),
        fig(m["harvest_passes_per_notification"]["mean"], "%.2f").c_str(),
        (unsigned long long)m["pid_line"]["cpu_misses"].get<uint64_t>(),
        fig(m["pid_line"]["cpu_misses_per_notification"], "%.2f").c_str(),
        m["cpu_busy_fraction_mean"].get<double>() * 100,
        tail_text(m["msi_to_handler_ns"], "%.0f", 1).c_str(),
        fig(m["timer_delay_ns"]["p50"], "%.0f").c_str(),
        fig(m["timer_delay_ns"]["p99"], "%.0f").c_str(),
        fig(m["timer_delay_ns"]["max"], "%.0f").c_str(),
        (unsigned long long)m["iec"]["hits"].get<uint64_t>(),
        (unsigned long long)m["iec"]["misses"].get<uint64_t>(),
        (unsigned long long)m["iommu_faults"]["total"].get<uint64_t>(),
        (unsigned long long)m["stranded_interrupts"].get<uint64_t>(),
        (unsigned long long)m["stranded_at_end"].get<uint64_t>(),
        (unsigned long long)m["lost_completions"].get<uint64_t>(),
        (unsigned long long)m["in_flight_completions_at_end"].get<uint64_t>());
    return std::string(buf) + per_cpu_text(r);
}

// What an ipistorm user reads first (vmstat's rate, where the IPIs went, the
// descriptor line's travel), chip by chip.
std::string power_text(const json& r) {
    const json& c = r["config"]["power"];
    const json& is = r["config"]["ipistorm"];
    const json& x = r["ipistorm"];
    std::string chips;
    for (const json& n : c["cores_per_chip"])
        chips += (chips.empty() ? "" : "+") + std::to_string(n.get<uint64_t>());
    uint64_t cpus = 0;
    for (const json& k : x["per_chip"]) cpus += k["cpus"].get<uint64_t>();
    char buf[1600];
    std::snprintf(
        buf, sizeof buf,
        "POWER partition: %llu chip(s), %s cores x SMT%llu (%llu CPUs), IPI descs per %s, "
        "irqdebug %s, %.3f ms simulated\n"
        "ipistorm on %s, offset %lld, %s\n"
        "  interrupts (vmstat)  %10.3f M/s  (IPIs %.0f/s, timer %.0f/s)\n"
        "  iterations           %10.0f /s;  polled (no IPI) %s %%;  csd_lock_wait %s us "
        "per iteration\n"
        "  IPIs to another chip %10s %%;  XIVE triggers that waited %s %%\n"
        "  descriptor line      %10llu transfers (%s per IPI, %.0f/s): %s %% from another "
        "chip, %s %% queued\n"
        "  per chip  CPUs  IPIs taken      IPIs/s   IPIs sent  to other chip  timer ints  "
        "XIVE triggers  cross-chip  queued\n",
        (unsigned long long)x["per_chip"].size(), chips.c_str(),
        (unsigned long long)c["threads_per_core"].get<uint64_t>(), (unsigned long long)cpus,
        c["ipi_descs"].get<std::string>().c_str(), c["irqdebug"].get<std::string>().c_str(),
        r["metrics"]["simulated_seconds"].get<double>() * 1e3,
        is["cpulist"].get<std::string>().c_str(), (long long)is["offset"].get<int64_t>(),
        is["wait"].get<bool>() ? "wait" : "no wait", x["mint_per_s"].get<double>(),
        x["ipis_per_s"].get<double>(), x["timer_interrupts_per_s"].get<double>(),
        x["iterations_per_s"].get<double>(), fig(x["polled_share"], "%.1f", 100).c_str(),
        fig(x["spin_us_per_iteration"], "%.3f").c_str(),
        fig(x["cross_chip_ipi_share"], "%.1f", 100).c_str(),
        fig(x["xive_queued_share"], "%.1f", 100).c_str(),
        (unsigned long long)x["desc_line_transfers"].get<uint64_t>(),
        fig(x["desc_line_transfers_per_ipi"], "%.2f").c_str(),
        x["desc_line_transfers_per_s"].get<double>(),
        fig(x["desc_line_cross_chip_share"], "%.1f", 100).c_str(),
        fig(x["desc_line_queued_share"], "%.1f", 100).c_str());
    std::string out = buf;
    for (const json& k : x["per_chip"]) {
        char line[240];
        std::snprintf(line, sizeof line,
                      "    chip%-3llu %5llu  %10llu  %10.0f  %10llu  %13llu  %10llu  %13llu  %10llu  "
                      "%6llu\n",
                      (unsigned long long)k["chip"].get<uint64_t>(),
                      (unsigned long long)k["cpus"].get<uint64_t>(),
                      (unsigned long long)k["ipis"].get<uint64_t>(), k["ipis_per_s"].get<double>(),
                      (unsigned long long)k["ipis_sent"].get<uint64_t>(),
                      (unsigned long long)k["cross_chip_sent"].get<uint64_t>(),
                      (unsigned long long)k["timer_interrupts"].get<uint64_t>(),
                      (unsigned long long)k["xive_triggers"].get<uint64_t>(),
                      (unsigned long long)k["xive_cross_chip_triggers"].get<uint64_t>(),
                      (unsigned long long)k["xive_queued"].get<uint64_t>());
        out += line;
    }
    return out;
}

// A guest's I/O as fio in the guest reports it, summed over its disks.
std::string guest_io_text(const json& r, const std::string& guest) {
    double iops = 0, bw = 0;
    unsigned disks = 0;
    for (const json& w : r["workloads"])
        if (w.value("type", std::string()) == "nvme" && w.contains("iops_m")) {
            iops += w["iops_m"].get<double>();
            bw += w["bandwidth_mb_per_s"].get<double>();
            ++disks;
        }
    char buf[300];
    std::snprintf(buf, sizeof buf, "%s, %.3f ms simulated\n", guest.c_str(),
                  r["metrics"]["simulated_seconds"].get<double>() * 1e3);
    std::string out = buf;
    if (disks) {
        std::snprintf(buf, sizeof buf, "  I/O: %.3f M IOPS, %.1f MB/s over %u disk(s)\n", iops, bw,
                      disks);
        out += buf;
    }
    return out;
}

// Every summary's first line: the platform the result records.
std::string platform_line(const json& r) {
    return "platform " + config_platform_summary(r["config"]) + "\n";
}

// Each family's own figures first; the x86 host's interrupt path after
// them, or a line when it carried nothing (a POWER config's idle host).
std::string family_text(const json& r) {
    if (r.contains("ipistorm")) {
        const json& m = r["metrics"];
        if (m["msis"].get<uint64_t>() == 0 && m["interrupts"].get<uint64_t>() == 0)
            return power_text(r) + "(the config's x86 host is idle: " +
                   std::to_string(r["config"]["topology"]["cpus"].get<uint64_t>()) +
                   " CPU(s), no MSIs; its figures are in the result file)\n";
        return power_text(r) + "\nx86 host\n" + host_text(r);
    }
    if (r.contains("xen")) {
        const json& c = r["config"]["xen"];
        return guest_io_text(r, "Xen HVM domain, " + std::to_string(c["vcpus"].get<uint64_t>()) +
                                    " vCPUs") +
               xen_text(r) + storage_text(r) + "\nhost interrupt path\n" + host_text(r);
    }
    if (r.contains("per_vcpu"))
        return guest_io_text(r, "KVM guest, " + std::to_string(r["per_vcpu"].size()) + " vCPU(s)") +
               vcpu_text(r) + storage_text(r) + "\nhost interrupt path\n" + host_text(r);
    return host_text(r) + storage_text(r);
}

}  // namespace

std::string summary_text(const json& r) { return platform_line(r) + family_text(r); }

}  // namespace cidsim
