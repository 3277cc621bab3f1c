#include "report/metric_table.h"

#include <algorithm>
#include <string>

#include "model/x86/cpu_core.h"
#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/x86/local_apic.h"
#include "model/x86/root_port.h"
#include "model/coherence/shared_line.h"
#include "report/metric_rows.h"
#include "report/result_section.h"

namespace cidsim {

using nlohmann::ordered_json;

namespace {

const char* const kPerCpu = "per_cpu[]";
const char* const kPerDevice = "per_device[]";
const char* const kRootPorts = "root_ports[]";

// What the host's report layer computes (or takes from a block that has no
// Stats) rather than copying a statistic: results.cpp and the workloads'
// report() write these keys.
const ReportMetric kReportMetrics[] = {
    {kMetricsSection, "simulated_seconds", "number", "s",
     "the measured time (after the warm-up); with run.batches > 1 the windows' sum, each window's own figures under batches[]"},
    {kMetricsSection, "msi_rate_mps", "number", "1e6/s", "msis over the measured time"},
    {kMetricsSection, "completion_rate_mps", "number", "1e6/s",
     "completions_handled over the measured time"},
    {kMetricsSection, "handler_invocation_rate_mps", "number", "1e6/s",
     "handler_invocations over the measured time"},
    {kMetricsSection, "notification_rate_mps", "number", "1e6/s",
     "notifications_handled over the measured time"},
    {kMetricsSection, "interrupt_messages_per_msi", "number", "1/MSI",
     "(notifications_sent + remapped_messages) / msis: interrupt messages the remapping unit "
     "sent per MSI (below 1 when posting coalesces)"},
    {kMetricsSection, "pid_line.cpu_misses", "integer", "count",
     "PID cache-line misses and upgrades paid by the CPUs, summed over every CPU"},
    {kMetricsSection, "pid_line.cpu_misses_per_notification", "number", "1/notification",
     "pid_line.cpu_misses / notifications_handled"},
    {kMetricsSection, "cpu_busy_fraction_mean", "number", "fraction",
     "busy_fraction averaged over the CPUs"},
    {kMetricsSection, "iommu_faults.total", "integer", "count",
     "interrupt-remapping faults of every reason (the sum of iommu_faults.by_reason)"},
    {kMetricsSection, "stranded_at_end", "integer", "count",
     "CPUs whose PIR had a bit set with ON clear at the end of the run (stranded_at_end of "
     "per_cpu, summed)"},
    {kMetricsSection, "in_flight_completions_at_end", "integer", "count",
     "completions posted but not yet drained at the end of the run, over every device"},
    {kMetricsSection, "lost_completions", "integer", "count",
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

    {kPerVectorSection, "device", "string", "", "the device whose queue the vector serves"},
    {kPerVectorSection, "queue", "integer", "index", "the device's queue (MSI-X entry)"},
    {kPerVectorSection, "cpu", "integer", "index", "the CPU the vector is routed to"},
    {kPerVectorSection, "vector", "integer", "vector", "the vector on that CPU"},
    {kPerVectorSection, "irte_index", "integer", "index", "the IRTE the queue's MSI names"},

    {kPerDevice, "name", "string", "", "the device"},
    {kPerDevice, "completion_rate_mps", "number", "1e6/s",
     "completions the device issued over the measured time (metrics.completion_rate_mps "
     "counts the handled ones)"},
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

}  // namespace

ordered_json describe_metrics() {
    ordered_json out = ordered_json::object();
    const auto families = result_sections();
    for (const char* s : {kMetricsSection, kPerCpu, kPerVectorSection, kPerDevice, kRootPorts})
        out[s] = ordered_json::array();
    for (const auto& family : families)
        for (const char* s : family->listing()) out[s] = ordered_json::array();
    list_block_stats<IommuStats>(out, kMetricsSection, "IommuStats", "");
    list_block_stats<CpuCoreStats>(out, kPerCpu, "CpuCoreStats", "CPU");
    list_block_stats<LocalApicStats>(out, kPerCpu, "LocalApicStats", "CPU");
    list_block_stats<DeviceStats>(out, kPerDevice, "DeviceStats", "device");
    list_block_stats<RootPortStats>(out, kRootPorts, "RootPortStats", "root port");
    for (const auto& family : families) family->list_stats(out);
    list_block_stats<SharedLineStats>(out, nullptr, "SharedLineStats (a PID's line)", "");
    ordered_json unreported = out[kUnreportedSection];
    out.erase(kUnreportedSection);  // last, after the workloads
    list_report_metrics(out, kReportMetrics);
    for (const auto& family : families) family->list_computed(out);
    // Sorted as the result file's own objects are, so a listing reads
    // alongside a result.
    for (auto section = out.begin(); section != out.end(); ++section) {
        std::stable_sort(section->begin(), section->end(),
                         [](const ordered_json& a, const ordered_json& b) {
                             return a["key"].get<std::string>() < b["key"].get<std::string>();
                         });
    }
    out[kUnreportedSection] = unreported;
    return out;
}

}  // namespace cidsim
