#include "model/x86/device.h"

#include <stdexcept>

#include "kernel/lookahead.h"
#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;

void DeviceParams::describe(ParamVisitor& v) {
    v.integer("vectors", vectors, "", 1, 2048, "MSI-X vectors, one completion queue each");
    v.time("handler_base_ns", handler_base, 0, 1e7, "driver handler cost per invocation");
    v.time("per_completion_ns", per_completion, 0, 1e7,
           "driver handler cost per completion drained");
    v.integer("completion_entry_bytes", completion_entry_bytes, "B", 0, 4096,
              "completion entry DMA'd with every completion");
    v.flag("threaded_irq", threaded_irq,
             "the driver requests a threaded IRQ (request_threaded_irq with no primary "
             "handler): the hard handler wakes a per-vector IRQ thread that drains the queue "
             "as interruptible work on the CPU (irq_thread.h); idxd does this "
             "(drivers/dma/idxd/device.c)");
    v.flag("msi_until_doorbell", msi_until_doorbell,
           "a queue sends one MSI until the driver acknowledges it: later completions send "
           "none until the handler's CQ head doorbell (rung by nvme_poll_cq after its CQE loop, "
           "before the requests' completion work, drivers/nvme/host/pci.c), and entries still "
           "unacknowledged then send it again (an NVMe controller's per-vector interrupt status, "
           "NVMe Base Specification 1.4, 7.5.1); false: one MSI per completion");
    v.integer("max_in_flight", max_in_flight, "completions", 1, 1u << 22,
              "completions waiting undrained beyond which the run stops and fails "
              "(bounds memory: 32 B each)");
}

Device::Device(sc_core::sc_module_name name, const DeviceParams& params, uint16_t source_id,
               RootPort& port)
    : sc_module(name), msi_socket("msi_socket"), m_params(params), m_port(port),
      m_queues(params.vectors) {
    m_ingress.source_id = source_id;
    m_ingress.port = &port;
    m_payload.set_command(tlm::TLM_WRITE_COMMAND);
    m_payload.set_data_ptr(reinterpret_cast<unsigned char*>(&m_payload_data));
    m_payload.set_data_length(4);
    m_payload.set_streaming_width(4);
    m_payload.set_byte_enable_ptr(nullptr);
    m_payload.set_extension(&m_ingress);
    m_shortest_completion_write = m_port.write_duration(m_params.completion_entry_bytes);
    m_port.attach_writer(*this, source_id);
}

void Device::program_msix(unsigned entry, uint64_t address, uint32_t data) {
    if (entry >= m_queues.size()) throw std::out_of_range("MSI-X entry beyond the table");
    m_queues[entry].msi_address = address;
    m_queues[entry].msi_data = data;
}

void Device::complete(unsigned queue, uint64_t tag, uint64_t dma_bytes) {
    Queue& q = m_queues[queue];
    const sc_time visible = m_port.dma_write(dma_bytes + m_params.completion_entry_bytes);
    check_not_in_past(visible);
    q.entries.push_back({tag, visible});
    ++m_stats.completions;
    ++m_posted_ever;
    if (m_posted_ever - m_drained_ever > m_params.max_in_flight) {
        // The handlers cannot keep up: stop rather than grow without bound.
        // Once per run: another device may have stopped it already.
        if (!m_overflows.count &&
            sc_core::sc_get_simulator_status() != sc_core::SC_SIM_USER_STOP)
            sc_core::sc_stop();
        m_overflows.note();
    }
    if (q.entries.size() > m_stats.max_queue_depth) m_stats.max_queue_depth = q.entries.size();
    if (visible > m_last_visible) m_last_visible = visible;
    if (q.signalled) return;
    q.signalled = m_params.msi_until_doorbell;
    send_msi(queue, visible);
}

void Device::send_msi(unsigned queue, const sc_time& visible) {
    const Queue& q = m_queues[queue];
    ++m_stats.msis;
    if (m_obs) m_obs->msi_issued(m_obs_id, queue, visible);
    m_payload.set_address(q.msi_address);
    m_payload_data = q.msi_data;
    m_payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = visible - sim_now();
    msi_socket->b_transport(m_payload, delay);
}

void Device::add_schedule(CompletionSchedule& schedule) {
    m_schedule = m_schedules++ ? nullptr : &schedule;
    const uint64_t data = m_schedule ? m_schedule->completion_bytes() : 0;
    m_shortest_completion_write = m_port.write_duration(data + m_params.completion_entry_bytes);
}

sc_time Device::handle(uint32_t queue, unsigned cpu, const sc_time& at) {
    Queue& q = m_queues[queue];
    ++m_stats.handler_invocations;
    unsigned drained = 0;
    while (!q.entries.empty() && q.entries.front().msi_at <= at) {
        const Entry e = q.entries.front();
        q.entries.pop_front();
        ++drained;
        m_stats.msi_to_handler_ns.record(whole_ns(at - e.msi_at));
        if (m_sink) m_sink->on_completion(queue, e.tag, cpu);
    }
    if (!drained) ++m_stats.empty_invocations;
    if (q.signalled) {
        // The doorbell: entries still in flight keep the status set, and
        // the controller signals again once they are written.
        q.signalled = !q.entries.empty();
        if (q.signalled) send_msi(queue, m_port.free_at());
    }
    if (m_obs) m_obs->device_handler(m_obs_id, queue, cpu, drained);
    m_stats.drained += drained;
    m_drained_ever += drained;
    return m_params.handler_base + m_params.per_completion * double(drained);
}

uint64_t Device::in_flight() const {
    uint64_t n = 0;
    for (const Queue& q : m_queues) n += q.entries.size();
    return n;
}

void DeviceStats::describe(StatVisitor& v) const {
    v.count(in_block_and_total("completions", "completions"), completions, "count",
            "completions the device issued to its queues: data and entry queued at the "
            "root port, visible to the driver when their bytes have crossed it (its MSI "
            "arrives after them); the handled ones are metrics.completions_handled");
    v.count(in_block_and_total("msis", "msis"), msis, "count",
            "MSI writes issued: one per completion, or per acknowledgement with "
            "msi_until_doorbell");
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

}  // namespace cidsim
