// The describe(StatVisitor&) of every block's Stats: where each statistic
// goes in a result file, its unit and what it counts. Kept apart from the
// blocks' behaviour, which increments the fields on the per-event path;
// this runs only when results are written or listed.
#include "model/cpu_core.h"
#include "model/device.h"
#include "model/iommu.h"
#include "model/local_apic.h"
#include "model/root_port.h"
#include "model/shared_line.h"
#include "model/stat_visitor.h"
#include "model/vmx_cpu.h"

namespace cidsim {

void CpuCoreStats::describe(StatVisitor& v) const {
    v.count(in_block_and_total("interrupts", "interrupts"), interrupts, "count",
            "interrupts taken through the IDT, of any vector (device, posted-MSI notification, "
            "local timer)");
    v.count(in_block_and_total("notifications_handled", "notifications_handled"), notifications,
            "count", "interrupts taken on the posted-MSI notification vector (each one harvests "
            "the PIR)");
    v.per_vector(in_block("handler_calls"), handler_calls,
                 "device handler calls (generic_handle_irq) for the vector on its CPU, as "
                 "/proc/interrupts counts them");
    v.count(unreported("unhandled_vector_calls"), unhandled_vector_calls, "count",
            "handler calls for a vector with no handler registered");
    v.count(in_block_and_total("stranded", "stranded_interrupts"), stranded, "count",
            "notifications after whose handler the PIR still had a bit set with ON clear: an "
            "interrupt stranded until a later notification");
    v.count(unreported("retriggers_without_eoi"), retriggers_without_eoi, "count",
            "posted mode: device vectors taken through the IDT (a retrigger) whose ack sent no "
            "EOI (handler.retrigger_eoi_fix off): each leaves its ISR bit set");
    v.time(unreported("first_stranded_at"), first_stranded_at,
           "when the first stranded interrupt was found (0 when none was)");
    v.count(in_block_and_total("pid_reads", "pid_line.cpu_reads"), pid_reads, "count",
            "plain loads of a PIR word by the notification handler");
    v.count(in_block_and_total("pid_xchgs", "pid_line.cpu_xchgs"), pid_xchgs, "count",
            "locked exchanges of a PIR word with 0 (take and clear) by the notification handler");
    v.count(unreported("pid_clear_on"), pid_clear_on, "count",
            "atomic clears of the PID's ON bit by the notification handler");
    v.histogram(in_block_and_total("harvest_passes", "harvest_passes_per_notification"),
                harvest_passes, "passes",
                "PIR harvest passes the notification handler made, per notification (the one "
                "after clearing ON included)");
    v.histogram(in_total("irq_disabled_span_ns"), irq_off_ns, "ns",
                "per interrupt, from its acknowledge to iret: the span with interrupts disabled");
    v.time(unreported("busy"), busy,
           "time spent in interrupts and in task work (busy_fraction is it over the window)");
    v.time(unreported("irq_time"), irq_time,
           "the part of busy spent in interrupts (irq_fraction is it over the window)");
    v.count(unreported("work_items"), work_items, "count", "task work items finished");
}

void LocalApicStats::describe(StatVisitor& v) const {
    v.per_vector(unreported("accepted"), accepted,
                 "interrupt messages accepted into IRR (set the bit or merged into it)");
    v.per_vector(unreported("merged"), merged,
                 "accepted messages that found the IRR bit already set (coalesced)");
    v.per_vector(in_block("lapic_deliveries"), dispatched,
                 "acknowledges (INTA) that moved the vector from IRR to ISR on its CPU");
    v.count(unreported("eois"), eois, "count", "EOI writes");
    v.count(in_total("eoi_with_empty_isr"), eoi_with_empty_isr, "count",
            "EOI writes with no vector in service: a software bug if non-zero");
    v.count(unreported("timer_expiries"), timer_expiries, "count",
            "local timer expiries (each raises vector 0xEC)");
    v.histogram(in_block_and_total("timer_delay_ns", "timer_delay_ns"), timer_delay_ns, "ns",
                "per local timer interrupt, from the expiry (the first still pending) to its "
                "acknowledge by the core");
}

static_assert(Iommu::kFaultLog == 16, "iommu_faults.first's description gives the log's size");

void IommuStats::describe(StatVisitor& v) const {
    v.count(unreported("requests"), requests, "count",
            "MSI writes that reached the remapping unit, well-formed or not");
    v.count(in_block("remapped_messages"), remapped_messages, "count",
            "interrupt messages sent for remappable IRTEs (IM=0)");
    v.count(in_block("pid_line.iommu_posts"), posts, "count",
            "posted IRTEs (IM=1) served: PIR bits set by an atomic update of the descriptor");
    v.count(in_block("notifications_sent"), notifications, "count",
            "posts that sent a notification event (ON was clear, and URG or SN clear)");
    v.count(in_block("notifications_suppressed"), suppressed, "count",
            "posts that sent no notification (ON already set, or SN set without URG)");
    v.count(in_block("iec.hits"), iec_hits, "count",
            "IRTE lookups served by the Interrupt Entry Cache");
    v.count(in_block("iec.misses"), iec_misses, "count",
            "IRTE lookups that read the entry from memory");
    v.count(unreported("iec_invalidations"), iec_invalidations, "count",
            "IEC invalidation descriptors processed (one entry or all)");
    v.by_reason(in_block("iommu_faults.by_reason"), faults.data(), faults.size(),
                [](size_t f) { return to_string(IommuFault(f)); },
                "interrupt-remapping faults (the MSI is dropped), by reason");
    v.fault_log(in_block("iommu_faults.first"), first_faults,
                "the first faults of the window (at most 16): at_ns, reason, irte_index, "
                "source_id");
    v.histogram(unreported("fetch_to_post_ns"), fetch_to_post_ns, "ns",
                "per request, from its arrival to its post or message: pipeline wait and IRTE "
                "fetch");
}

void DeviceStats::describe(StatVisitor& v) const {
    v.count(in_block_and_total("completions", "completions"), completions, "count",
            "completions posted to the device's queues (data and entry written by DMA)");
    v.count(in_block_and_total("msis", "msis"), msis, "count",
            "MSI writes issued, one per completion");
    v.count(in_block_and_total("handler_invocations", "handler_invocations"),
            handler_invocations, "count", "runs of the driver's handler for one of its queues");
    v.count(in_block("empty_handler_invocations"), empty_invocations, "count",
            "handler runs that found no completion to drain");
    v.count(in_block_and_total("completions_drained", "completions_handled"), drained, "count",
            "completions drained by the handler");
    v.count(in_block("max_queue_depth"), max_queue_depth, "count",
            "most completions waiting in one queue at once");
    v.histogram(in_block_and_total("msi_to_handler_ns", "msi_to_handler_ns"), msi_to_handler_ns,
                "ns",
                "per completion, from its MSI (data and entry visible) to the handler draining "
                "it");
}

void RootPortStats::describe(StatVisitor& v) const {
    v.count(unreported("dma_writes"), dma_writes, "count",
            "DMA writes through the port (a completion's data and entry)");
    v.count(in_block("dma_bytes"), dma_bytes, "bytes", "bytes written by DMA through the port");
    v.count(in_block("drains"), drains, "count",
            "remapped interrupt messages ordered behind the port's earlier writes");
    v.count(unreported("posted_orders"), posted_orders, "count",
            "posted-mode PID updates ordered behind the port's earlier writes");
    v.time(unreported("busy"), busy,
           "time the write path was held: writes, drains and message back-pressure "
           "(utilization is it over the window)");
}

void SharedLineStats::describe(StatVisitor& v) const {
    v.count(unreported("loads"), loads, "count", "loads of the line by a CPU, hits included");
    v.count(unreported("locked_rmws"), locked_rmws, "count", "locked RMWs of the line by a CPU");
    v.count(unreported("device_rmws"), device_rmws, "count",
            "atomic RMWs of the line by the remapping unit (posts)");
    v.count(unreported("stores"), stores, "count", "plain stores to the line by a CPU (ownership, no lock)");
    v.count(unreported("misses"), misses, "count",
            "CPU accesses that found no valid copy in the requester's cache");
    v.count(unreported("upgrades"), upgrades, "count",
            "locked RMWs by a CPU holding a shared copy (ownership request)");
    v.count(unreported("invalidations"), invalidations, "count",
            "copies in other caches invalidated by an access");
    v.count(unreported("remote_supplies"), remote_supplies, "count",
            "misses and upgrades whose supplier sat on another node (socket or chip)");
    v.count(unreported("transfers"), transfers, "count",
            "serialised use (locks): accesses the line's home served, one at a time");
    v.count(unreported("queued_transfers"), queued_transfers, "count",
            "serialised use: transfers that waited for an earlier one");
}

namespace {
const char* exit_reason_name(size_t i) { return to_string(ExitReason(i)); }
}  // namespace

void VmxCpuStats::describe(StatVisitor& v) const {
    v.by_reason(in_block("exits"), exits.data(), exits.size(), exit_reason_name,
                "VM exits by basic exit reason (exits_per_s divides them by the window)");
    v.histogram(in_block("exit_handling_ns"), exit_handling_ns, "ns",
                "EXTERNAL_INTERRUPT exit handling time as perf kvm stat reports it: the "
                "kvm_exit tracepoint (vm.kvm_exit_trace) to the next kvm_entry");
    v.histogram(in_block("hw_exit_to_entry_ns"), hw_exit_to_entry_ns, "ns",
                "EXTERNAL_INTERRUPT exits from the hardware exit to the end of the next VM entry");
    v.count(in_block("posted_in_guest"), posted_in_guest, "count",
            "posted-interrupt notifications (0xF2) processed by the CPU in guest mode, no exit");
    v.count(in_block("pin"), pin, "count",
            "PIN: posted-interrupt notifications (0xF2) taken by the host in root mode");
    v.count(in_block("piw"), piw, "count",
            "PIW: posted-interrupt wake-up notifications (0xF1) taken by the host");
    v.count(in_block("host_device_irqs"), host_device_irqs, "count",
            "device interrupts of assigned devices taken by the host (remapped IRTE)");
    v.count(in_block("guest_interrupts"), guest_interrupts, "count",
            "virtual interrupts delivered to the guest's handlers");
    v.per_vector(unreported("guest_handler_calls"), guest_handler_calls,
                 "guest handler calls per guest vector (the guest's /proc/interrupts)");
    v.count(in_block("context_switches"), context_switches, "count",
            "host context switches on the pCPU");
    v.count(in_block("injections"), injections, "count",
            "MSIs injected by KVM (irqfd or bypass_inject)");
    v.time(unreported("guest_time"), guest_time, "time in guest mode");
    v.time(unreported("root_time"), root_time,
           "host CPU time on the pCPU: root mode and host threads (host_cpu_ns_per_interrupt "
           "divides it by the device interrupts)");
    v.time(unreported("idle_time"), idle_time, "time in the host's idle thread");
}

}  // namespace cidsim
