// The KVM guest's part of a result (systems.md E, E3): per_vcpu, one entry
// per vCPU.
#include <algorithm>
#include <array>
#include <string>

#include "report/metric_rows.h"
#include "report/result_section.h"
#include "workloads/latency_summary.h"

namespace cidsim {

using nlohmann::json;

namespace {

const char* const kPerVcpu = "per_vcpu[]";

const ReportMetric kRows[] = {
    {kPerVcpu, "vcpu", "integer", "index", "the vCPU (configs' vcpus[])"},
    {kPerVcpu, "pcpu_apic_id", "integer", "id", "APIC id of its isolated pCPU"},
    {kPerVcpu, "msi_to_guest_ns", "histogram", "ns",
     "MSI issue to the guest driver's handler draining it, over the devices assigned to "
     "the vCPU (their msi_to_handler_ns merged)"},
    {kPerVcpu, "context_switches_per_s", "number", "1/s", "context_switches over the measured time"},
    {kPerVcpu, "host_cpu_ns_per_interrupt", "number", "ns/MSI",
     "host CPU time on the pCPU (root mode and host threads, root_time) per MSI of its "
     "assigned devices; the timers' exits (vm.host_tick_hz, vm.guest_timer_hz) are in it, "
     "and at run.warmup_ns 0 so is the vCPU's first load and entry"},
    {kPerVcpu, "guest_fraction", "number", "fraction",
     "time in guest mode over the measured time (the stretch in progress at its end included)"},
    {kPerVcpu, "posted_notifications_suppressed", "integer", "count",
     "posts into the vCPU's PID that sent no notification (ON set, or SN)"},
    {kPerVcpu, "exits_per_s", "object", "1/s", "exits over the measured time, by exit reason"},
    {kPerVcpu, "external_interrupt_exits_per_s", "object", "1/s",
     "the EXTERNAL_INTERRUPT exits by what raised them: device (an assigned device's MSI or a "
     "posting notification), host_tick (vm.host_tick_hz), guest_timer (vm.guest_timer_hz); "
     "perf kvm stat's EXTERNAL_INTERRUPT row averages all three"},
    {kPerVcpu, "kvm_stat", "object", kUnitInFieldNames,
     "perf kvm stat report's table, by exit reason with samples: samples, samples_pct, "
     "time_pct (of all exits' time), time_us (total), min_us, max_us, mean_us; time from "
     "kvm_exit to kvm_entry (a HLT exit's includes the time blocked; EOI_INDUCED exits with VID "
     "are counted, not timed)"},
};

constexpr size_t kReasons = size_t(ExitReason::Count);

// One vCPU's exits by reason, summed over windows: what perf kvm stat reads.
struct ExitTimes {
    std::array<uint64_t, kReasons> samples{}, total_ns{}, min_ns{}, max_ns{};
    uint64_t host_tick = 0, guest_timer = 0;  // of the EXTERNAL_INTERRUPT samples
    void add(const VmxCpuStats& s) {
        host_tick += s.host_tick_exits;
        guest_timer += s.guest_timer_exits;
        for (size_t r = 0; r < kReasons; ++r) {
            samples[r] += s.exits[r];
            total_ns[r] += s.exit_ns[r];
            if (s.exit_min_ns[r] && (!min_ns[r] || s.exit_min_ns[r] < min_ns[r]))
                min_ns[r] = s.exit_min_ns[r];
            max_ns[r] = std::max(max_ns[r], s.exit_max_ns[r]);
        }
    }
    json kvm_stat() const {
        uint64_t all = 0, all_ns = 0;
        for (size_t r = 0; r < kReasons; ++r) all += samples[r], all_ns += total_ns[r];
        json o = json::object();
        for (size_t r = 0; r < kReasons; ++r)
            if (samples[r])
                o[to_string(ExitReason(r))] = {
                    {"samples", samples[r]},
                    {"samples_pct", 100 * ratio(double(samples[r]), double(all))},
                    {"time_pct", 100 * ratio(double(total_ns[r]), double(all_ns))},
                    {"time_us", double(total_ns[r]) / 1e3},
                    {"min_us", double(min_ns[r]) / 1e3},
                    {"max_us", double(max_ns[r]) / 1e3},
                    {"mean_us", ratio(double(total_ns[r]), double(samples[r])) / 1e3}};
        return o;
    }
    // The EXTERNAL_INTERRUPT exits by what raised them, over `secs`; an
    // exit and its timer are counted together, at its kvm_entry.
    json external_interrupt_rates(double secs) const {
        const uint64_t all = samples[size_t(ExitReason::ExternalInterrupt)];
        return {{"device", per_second(double(all - host_tick - guest_timer), secs)},
                {"host_tick", per_second(double(host_tick), secs)},
                {"guest_timer", per_second(double(guest_timer), secs)}};
    }
};

// The guest-visible latency of the devices assigned to vCPU i (their
// msi_to_handler_ns merged into `latency`), and their MSIs.
uint64_t assigned_devices(const System& sys, unsigned i, Histogram& latency) {
    uint64_t msis = 0;
    for (size_t d = 0; d < sys.config().devices.size(); ++d)
        if (sys.config().assigned_vcpu(sys.config().devices[d]) == int(i)) {
            latency.merge(sys.host().device(unsigned(d)).stats().msi_to_handler_ns);
            msis += sys.host().device(unsigned(d)).stats().msis;
        }
    return msis;
}

// One entry per vCPU: its pCPU's exits and switches, with the
// guest-visible latency of the devices assigned to it.
json vcpu_results(const System& sys, double secs) {
    json list = json::array();
    for (unsigned i = 0; i < sys.vcpu_count(); ++i) {
        const VmxCpu& v = sys.vmx_cpu(i);
        const VmxCpuStats& s = v.stats();
        Histogram latency;
        const uint64_t msis = assigned_devices(sys, i, latency);
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
        ExitTimes times;
        times.add(s);
        o["external_interrupt_exits_per_s"] = times.external_interrupt_rates(secs);
        o["kvm_stat"] = times.kvm_stat();
        write_block_stats(s, o);
        list.push_back(o);
    }
    return list;
}

class KvmResults final : public ResultSection {
public:
    const char* key() const override { return "per_vcpu"; }
    std::vector<const char*> listing() const override { return {kPerVcpu}; }
    bool present(const System& sys) const override { return sys.vcpu_count() > 0; }
    json write(const System& sys, double secs) const override { return vcpu_results(sys, secs); }
    void list_stats(nlohmann::ordered_json& out) const override {
        list_block_stats<VmxCpuStats>(out, kPerVcpu, "VmxCpuStats", "vCPU");
    }
    void list_computed(nlohmann::ordered_json& out) const override {
        list_report_metrics(out, kRows);
    }
    void add_window(const System& sys, HistogramMap& histograms) override {
        // The vCPUs' exit histograms, and the guest-visible latency merged from
        // their assigned devices as write() does; host CPU per MSI is a
        // ratio of sums, so both sums are kept.
        m_root_ns.resize(sys.vcpu_count());
        m_msis.resize(sys.vcpu_count());
        m_exits.resize(sys.vcpu_count());
        for (unsigned i = 0; i < sys.vcpu_count(); ++i) {
            const std::string at = "/per_vcpu/" + std::to_string(i);
            collect_histograms(sys.vmx_cpu(i).stats(), at, false, histograms);
            m_root_ns[i] += sys.vmx_cpu(i).root_time().to_seconds() * 1e9;
            m_exits[i].add(sys.vmx_cpu(i).stats());
            auto& [latency, unit] = histograms[at + "/msi_to_guest_ns"];
            unit = "ns";
            m_msis[i] += assigned_devices(sys, i, latency);
        }
    }
    // Ratios and rates from the windows' sums: a mean of the windows' values
    // would not be the whole time's, and a take-last rule on the key
    // "device" (an index elsewhere) would keep only the last window's rate.
    void write_totals(json& section, const std::vector<json>& windows) const override {
        double secs = 0;
        for (const json& w : windows) secs += w["metrics"]["simulated_seconds"].get<double>();
        for (size_t i = 0; i < section.size() && i < m_msis.size(); ++i) {
            section[i]["host_cpu_ns_per_interrupt"] = ratio(m_root_ns[i], double(m_msis[i]));
            section[i]["kvm_stat"] = m_exits[i].kvm_stat();
            section[i]["external_interrupt_exits_per_s"] =
                m_exits[i].external_interrupt_rates(secs);
            for (size_t r = 0; r < kReasons; ++r)
                section[i]["exits_per_s"][to_string(ExitReason(r))] =
                    per_second(double(m_exits[i].samples[r]), secs);
        }
    }

private:
    std::vector<double> m_root_ns;  // per vCPU, summed over windows
    std::vector<uint64_t> m_msis;
    std::vector<ExitTimes> m_exits;
};

}  // namespace

std::unique_ptr<ResultSection> kvm_result_section() { return std::make_unique<KvmResults>(); }

}  // namespace cidsim
