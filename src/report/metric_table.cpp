#include "report/metric_table.h"

#include <algorithm>
#include <string>

#include "model/x86/cpu_core.h"
#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/x86/local_apic.h"
#include "model/x86/root_port.h"
#include "model/coherence/shared_line.h"
#include "model/base/stat_visitor.h"
#include "model/kvm/vmx_cpu.h"
#include "model/power/power_cpu.h"
#include "model/xen/xen_pcpu.h"

namespace cidsim {

using nlohmann::ordered_json;

namespace {

const char* const kMetrics = "metrics";
const char* const kPerCpu = "per_cpu[]";
const char* const kPerVector = "per_vector[]";
const char* const kPerDevice = "per_device[]";
const char* const kRootPorts = "root_ports[]";
const char* const kPerVcpu = "per_vcpu[]";
const char* const kXen = "xen";
const char* const kXenLock = "xen.event_lock";
const char* const kXenVcpu = "xen.per_vcpu[]";
const char* const kIpistorm = "ipistorm";
const char* const kUnreported = "not in result files";

// What the report layer computes (or takes from a block that has no Stats)
// rather than copying a statistic: results.cpp and the workloads' report()
// write these keys.
struct ReportMetric {
    const char* section;
    const char* key;
    const char* type;
    const char* unit;
    const char* description;
};

const ReportMetric kReportMetrics[] = {
    {kMetrics, "simulated_seconds", "number", "s",
     "the measured time (after the warm-up); with run.batches > 1 the windows' sum, each window's own figures under batches[]"},
    {kMetrics, "msi_rate_mps", "number", "1e6/s", "msis over the measured time"},
    {kMetrics, "completion_rate_mps", "number", "1e6/s", "completions_handled over the measured time"},
    {kMetrics, "handler_invocation_rate_mps", "number", "1e6/s",
     "handler_invocations over the measured time"},
    {kMetrics, "notification_rate_mps", "number", "1e6/s",
     "notifications_handled over the measured time"},
    {kMetrics, "interrupt_messages_per_msi", "number", "1/MSI",
     "(notifications_sent + remapped_messages) / msis: interrupt messages the remapping unit "
     "sent per MSI (below 1 when posting coalesces)"},
    {kMetrics, "pid_line.cpu_misses", "integer", "count",
     "PID cache-line misses and upgrades paid by the CPUs, summed over every CPU"},
    {kMetrics, "pid_line.cpu_misses_per_notification", "number", "1/notification",
     "pid_line.cpu_misses / notifications_handled"},
    {kMetrics, "cpu_busy_fraction_mean", "number", "fraction",
     "busy_fraction averaged over the CPUs"},
    {kMetrics, "iommu_faults.total", "integer", "count",
     "interrupt-remapping faults of every reason (the sum of iommu_faults.by_reason)"},
    {kMetrics, "stranded_at_end", "integer", "count",
     "CPUs whose PIR had a bit set with ON clear at the end of the run (stranded_at_end of "
     "per_cpu, summed)"},
    {kMetrics, "in_flight_completions_at_end", "integer", "count",
     "completions posted but not yet drained at the end of the run, over every device"},
    {kMetrics, "lost_completions", "integer", "count",
     "completions posted but neither drained nor waiting, over the whole run (must be 0)"},

    {kPerCpu, "cpu", "integer", "index", "the CPU"},
    {kPerCpu, "posts", "integer", "count", "posts by the remapping unit to this CPU's PID"},
    {kPerCpu, "notifications_sent", "integer", "count",
     "posts to this CPU's PID that sent it a notification event"},
    {kPerCpu, "notifications_suppressed", "integer", "count",
     "posts to this CPU's PID that sent no notification (posts - notifications_sent)"},
    {kPerCpu, "busy_fraction", "number", "fraction",
     "time in interrupts and task work over the measured time"},
    {kPerCpu, "irq_fraction", "number", "fraction", "time in interrupts over the measured time"},
    {kPerCpu, "pid_line_misses", "integer", "count",
     "misses and upgrades this CPU paid on its PID's cache line"},
    {kPerCpu, "stranded_at_end", "boolean", "",
     "the PIR had a bit set with ON clear at the end of the run: an interrupt left stranded"},

    {kPerVector, "device", "string", "", "the device whose queue the vector serves"},
    {kPerVector, "queue", "integer", "index", "the device's queue (MSI-X entry)"},
    {kPerVector, "cpu", "integer", "index", "the CPU the vector is routed to"},
    {kPerVector, "vector", "integer", "vector", "the vector on that CPU"},
    {kPerVector, "irte_index", "integer", "index", "the IRTE the queue's MSI names"},

    {kPerDevice, "name", "string", "", "the device"},
    {kPerDevice, "completion_rate_mps", "number", "1e6/s", "completions over the measured time"},
    {kPerDevice, "in_flight_at_end", "integer", "count",
     "completions posted but not yet drained at the end of the run"},

    {kRootPorts, "root_port", "integer", "index", "the root port"},
    {kRootPorts, "dma_gb_per_s", "number", "1e9 bytes/s", "dma_bytes over the measured time"},
    {kRootPorts, "dma_gbps", "number", "1e9 bytes/s",
     "renamed dma_gb_per_s (bytes, not bits); the old name is kept for one release"},
    {kRootPorts, "utilization", "number", "fraction",
     "time the write path was held (writes, drains, message back-pressure) over the measured time"},

    {"workloads[] (type bursty)", "completions", "integer", "count",
     "completions the workload made in the measured time"},
    {"workloads[] (type bursty)", "bursts", "integer", "count", "on-periods begun in the measured time"},
    {"workloads[] (type bursty)", "completion_rate_mps", "number", "1e6/s",
     "completions over the measured time"},

    {"workloads[] (type periodic)", "completions", "integer", "count",
     "completions the workload made in the measured time"},
    {"workloads[] (type periodic)", "completion_rate_mps", "number", "1e6/s",
     "completions over the measured time"},

    {kPerVcpu, "vcpu", "integer", "index", "the vCPU (configs' vcpus[])"},
    {kPerVcpu, "pcpu_apic_id", "integer", "id", "APIC id of its isolated pCPU"},
    {kPerVcpu, "msi_to_guest_ns", "histogram", "ns",
     "MSI issue to the guest driver's handler draining it, over the devices assigned to "
     "the vCPU (their msi_to_handler_ns merged)"},
    {kPerVcpu, "context_switches_per_s", "number", "1/s", "context_switches over the measured time"},
    {kPerVcpu, "host_cpu_ns_per_interrupt", "number", "ns/MSI",
     "host CPU time on the pCPU (root mode and host threads, root_time) per MSI of its "
     "assigned devices"},
    {kPerVcpu, "guest_fraction", "number", "fraction",
     "time in guest mode over the measured time (the stretch in progress at its end included)"},
    {kPerVcpu, "posted_notifications_suppressed", "integer", "count",
     "posts into the vCPU's PID that sent no notification (ON set, or SN)"},
    {kPerVcpu, "exits_per_s", "object", "1/s", "exits over the measured time, by exit reason"},

    {kXen, "eois_per_s", "number", "1/s", "eois (guest EOIs reaching hvm_dpci_msi_eoi) over the measured time"},
    {kXen, "ios", "integer", "count", "I/Os reaped by the guest's threads in the measured time"},
    {kXen, "host_cpu_us_per_io", "number", "us/I/O",
     "Xen's CPU time on the vCPUs' pCPUs (root_time summed) per I/O reaped"},
    {kXen, "walk_entries_per_eoi", "number", "1/EOI", "walk_entries / eois"},
    {kXen, "pirq_misses_per_eoi", "number", "1/EOI", "pirq_misses / eois"},
    {kXen, "event_lock", "object", "lock", "d->event_lock: its kind, rates and SpinLockStats"},
    {kXen, "per_vcpu", "array", "vCPUs", "one entry per vCPU (xen.per_vcpu[])"},
    {kXenLock, "kind", "string", "", "ticket (Xen 2018) or rw (Xen 4.17, the rwlock variant)"},
    {kXenLock, "acquisitions_per_s", "number", "1/s", "acquisitions over the measured time"},
    {kXenLock, "held_fraction", "number", "fraction",
     "time held (summed over owners) over the measured time"},
    {kXenLock, "line_transfers", "integer", "count",
     "requests the lock line's home served (SharedLineStats.transfers)"},
    {kXenLock, "line_queued_transfers", "integer", "count",
     "of them, queued behind an earlier one (SharedLineStats.queued_transfers)"},
    {kXenVcpu, "vcpu", "integer", "index", "the vCPU (0 .. xen.vcpus-1)"},
    {kXenVcpu, "guest_fraction", "number", "fraction", "time in guest mode with work, over the measured time"},
    {kXenVcpu, "xen_fraction", "number", "fraction", "time in Xen (root mode) over the measured time"},

    {kIpistorm, "mint_per_s", "number", "1e6/s",
     "vmstat's interrupt rate: IPIs and timer interrupts taken, over the measured time (E2's figure)"},
    {kIpistorm, "ipis_per_s", "number", "1/s", "IPIs taken over the measured time"},
    {kIpistorm, "timer_interrupts_per_s", "number", "1/s", "timer interrupts over the measured time"},
    {kIpistorm, "iterations_per_s", "number", "1/s", "ipistorm loop iterations over the measured time"},
    {kIpistorm, "polled_share", "number", "fraction",
     "calls that found their target polling (no IPI) over all calls needing one"},
    {kIpistorm, "spin_us_per_iteration", "number", "us", "csd_lock_wait per iteration"},
    {kIpistorm, "desc_line_transfers_per_ipi", "number", "1/IPI",
     "misses and upgrades of the IPI descriptors' hot line (bytes 256-383) per IPI"},
    {kIpistorm, "desc_line_cross_chip_share", "number", "fraction",
     "of those, supplied from another chip"},
    {kIpistorm, "desc_line_queued_share", "number", "fraction",
     "of those, queued behind an earlier transfer of the line"},
    {kIpistorm, "desc_line_stores", "integer", "count", "irq_count++ stores into the hot line"},
    {kIpistorm, "cross_chip_ipi_share", "number", "fraction", "IPIs sent to another chip's CPU"},
    {kIpistorm, "xive_queued_share", "number", "fraction", "trigger stores that waited for a XIVE router"},
    {kIpistorm, "descs", "integer", "count", "IPI irq_descs: 1 (IPI/sys) or one per chip (IPI/chip)"},

    {"workloads[] (type nvme)", "type", "string", "", "\"nvme\""},
    {"workloads[] (type nvme)", "device", "string", "", "the disk's device"},
    {"workloads[] (type nvme)", "submitted", "integer", "count", "I/Os submitted in the measured time"},
    {"workloads[] (type nvme)", "reaped", "integer", "count",
     "I/Os reaped by the jobs in the measured time"},
    {"workloads[] (type nvme)", "iops_m", "number", "1e6/s", "reaped over the measured time"},
    {"workloads[] (type nvme)", "bandwidth_mb_per_s", "number", "1e6 bytes/s",
     "reaped x block_bytes over the measured time (fio's bw)"},
    {"workloads[] (type nvme)", "completion_latency_us", "histogram", "us",
     "submission to reap of each I/O reaped in the measured time (fio's clat), over every job"},
    {"workloads[] (type nvme)", "jobs", "array", "jobs",
     "per fio job: job, cpu (where it runs), reaped, iops_m, bandwidth_mb_per_s, "
     "completion_latency_us"},
    {"workloads[] (type nvme)", "outstanding_at_end", "integer", "count",
     "I/Os submitted but not yet reaped at the end of the run, over every job"},
    {"workloads[] (type nvme)", "max_outstanding_per_job", "integer", "count",
     "most I/Os one job had outstanding at once, over the whole run"},

    {"workloads[] (type dsa)", "type", "string", "", "\"dsa\""},
    {"workloads[] (type dsa)", "device", "string", "", "the DSA device"},
    {"workloads[] (type dsa)", "completed", "integer", "count",
     "descriptors whose completion the handler drained in the measured time"},
    {"workloads[] (type dsa)", "descriptor_rate_m", "number", "1e6/s",
     "completed over the measured time"},
    {"workloads[] (type dsa)", "fill_mbit_per_s", "number", "1e6 bit/s",
     "completed x fill_bytes x 8 over the measured time"},
    {"workloads[] (type dsa)", "fill_mbps", "number", "1e6 bit/s",
     "renamed fill_mbit_per_s; the old name is kept for one release"},
    {"workloads[] (type dsa)", "outstanding_at_end", "integer", "count",
     "descriptors submitted but not yet completed at the end of the run"},

    {"workloads[] (type trace)", "events", "integer", "count", "completions the trace lists"},
    {"workloads[] (type trace)", "replayed", "integer", "count",
     "of them, made by the end of the run"},
};

// Lists a block's statistics in the sections they appear in: under the
// block's key in `block_section`, under the total key in metrics (summed or
// merged over every block of the kind), per-vector counters in per_vector.
class Lister : public StatVisitor {
public:
    Lister(ordered_json& out, const char* block_section, const char* source, const char* plural)
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
            entry(kPerVector, k.key, "integer", "count", desc);
        } else {
            entry(kUnreported, k.name, "integer[256]", "count", desc);
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
            entry(kMetrics, k.total, type, unit, std::string(desc) + "; " + how + m_plural);
        if (!k.key && !k.total) entry(kUnreported, k.name, type, unit, desc);
    }
    void entry(const char* section, const char* key, const char* type, const char* unit,
               const std::string& desc) {
        m_out[section].push_back({{"key", key},
                                  {"type", type},
                                  {"unit", unit},
                                  {"source", m_source},
                                  {"description", desc}});
    }

    ordered_json& m_out;
    const char* m_section;
    const char* m_source;
    const char* m_plural;
};

template <class Stats>
void list(ordered_json& out, const char* section, const char* source, const char* plural) {
    Lister l(out, section, source, plural);
    Stats{}.describe(l);
}

}  // namespace

ordered_json describe_metrics() {
    ordered_json out = ordered_json::object();
    for (const char* s : {kMetrics, kPerCpu, kPerVector, kPerDevice, kRootPorts, kPerVcpu, kXen,
                          kXenLock, kXenVcpu, kIpistorm})
        out[s] = ordered_json::array();
    list<IommuStats>(out, kMetrics, "IommuStats", "");
    list<CpuCoreStats>(out, kPerCpu, "CpuCoreStats", "CPU");
    list<LocalApicStats>(out, kPerCpu, "LocalApicStats", "CPU");
    list<DeviceStats>(out, kPerDevice, "DeviceStats", "device");
    list<RootPortStats>(out, kRootPorts, "RootPortStats", "root port");
    list<VmxCpuStats>(out, kPerVcpu, "VmxCpuStats", "vCPU");
    list<XenDomainStats>(out, kXen, "XenDomainStats", "");
    list<SpinLockStats>(out, kXenLock, "SpinLockStats", "");
    list<XenPcpuStats>(out, kXenVcpu, "XenPcpuStats", "vCPU");
    list<PowerCpuStats>(out, kIpistorm, "PowerCpuStats", "CPUs summed");
    list<SharedLineStats>(out, nullptr, "SharedLineStats (a PID's line)", "");
    ordered_json unreported = out[kUnreported];
    out.erase(kUnreported);  // last, after the workloads
    for (const ReportMetric& r : kReportMetrics)
        out[r.section].push_back({{"key", r.key},
                                  {"type", r.type},
                                  {"unit", r.unit},
                                  {"source", "report"},
                                  {"description", r.description}});
    // Sorted as the result file's own objects are, so a listing reads
    // alongside a result.
    for (auto section = out.begin(); section != out.end(); ++section) {
        std::stable_sort(section->begin(), section->end(),
                         [](const ordered_json& a, const ordered_json& b) {
                             return a["key"].get<std::string>() < b["key"].get<std::string>();
                         });
    }
    out[kUnreported] = unreported;
    return out;
}

}  // namespace cidsim
