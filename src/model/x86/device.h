#pragma once
// Device: a PCIe function with MSI-X, one completion queue per vector.
//
// Modelled: a completion is written by DMA (payload and completion entry)
// through the device's root port, then the MSI-X entry's message is written
// (a TLM write to 0xFEEx_xxxx, remappable format) after the DMA, as PCIe
// ordering requires. Completions are never lost: every completion raises its
// MSI, MSIs that find their vector pending merge there (PIR or IRR), and the
// driver handler drains every completion that is visible when it runs,
// recording each one's MSI-to-handler latency. With msi_until_doorbell (an
// NVMe controller's interrupt status, NVMe Base Specification 1.4, 7.5.1)
// a queue's MSI is sent for the first completion the driver has not
// acknowledged; later ones send none until the handler's CQ head doorbell
// acknowledges what it drained, and entries still unacknowledged then send
// it again.
// More than max_in_flight completions waiting stops the run (the bounded-
// queues invariant fails), so an overloaded model cannot exhaust memory.
// Not modelled: the device's own work (workloads decide when completions
// happen), MSI-X masking and the pending-bit array, interrupt moderation.
#include <cstdint>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "model/x86/cpu_core.h"
#include "model/x86/msi.h"
#include "model/base/ring_buffer.h"
#include "model/x86/root_port.h"
#include "model/base/stat_visitor.h"
#include "model/base/stats.h"
#include "kernel/violation.h"
#include "model/x86/trace_observer.h"

namespace cidsim {

struct DeviceParams {
    uint64_t vectors = 1;                       // MSI-X vectors = completion queues
    sc_core::sc_time handler_base = ns(150);    // driver handler cost per invocation
    sc_core::sc_time per_completion = ns(100);  // driver cost per completion drained
    uint64_t completion_entry_bytes = 16;       // DMA'd with every completion
    uint64_t max_in_flight = 1u << 20;          // bound on completions waiting (memory)
    bool threaded_irq = false;                  // handler runs in an IRQ thread (irq_thread.h)
    bool msi_until_doorbell = false;            // one MSI per queue until the driver acknowledges

    void describe(ParamVisitor& v);
};

// Who consumes completions once the driver handler has drained them.
class CompletionSink {
public:
    virtual ~CompletionSink() = default;
    virtual void on_completion(unsigned queue, uint64_t tag, unsigned cpu) = 0;
    // Does consuming a completion of `queue` on `cpu` change only what that
    // CPU alone looks at (its own task queue, its job's state)?
    virtual bool reacts_only_on(unsigned /*queue*/, unsigned /*cpu*/) const { return false; }
};

// Who decides when the device completes (a workload): the earliest time it
// may next call complete(), a bound that stays true as time passes. As a
// Participant it makes the completions due at the kernel's time now, if it
// has not yet: asked when another device behind the root port is about to
// write, or the remapping unit to order or hold a message there, at this
// picosecond (the writers before this one have been asked first). A
// schedule that makes nothing then leaves such ties to SystemC's order.
class CompletionSchedule : public Participant {
public:
    virtual sc_core::sc_time earliest_completion() const = 0;
    void catch_up() override {}
    // The fewest bytes of data a completion writes by DMA before its MSI
    // (asked once, when the schedule is added to the device).
    virtual uint64_t completion_bytes() const { return 0; }
};

struct DeviceStats {
    uint64_t completions = 0;         // completions posted
    uint64_t msis = 0;                // MSI writes issued
    uint64_t handler_invocations = 0;
    uint64_t empty_invocations = 0;   // handler found nothing to drain
    uint64_t drained = 0;             // completions handled
    uint64_t max_queue_depth = 0;     // most completions waiting in one queue
    Histogram msi_to_handler_ns;      // MSI issue -> drained by the handler

    void describe(StatVisitor& v) const;
};

class Device : public sc_core::sc_module, public IrqHandler, public MsiSource, public Participant {
public:
    tlm_utils::simple_initiator_socket<Device> msi_socket;

    Device(sc_core::sc_module_name name, const DeviceParams& params, uint16_t source_id,
           RootPort& port);
    ~Device() override { m_payload.clear_extension(&m_ingress); }  // not heap-owned

    void program_msix(unsigned entry, uint64_t address, uint32_t data);
    void set_sink(CompletionSink* sink) { m_sink = sink; }
    // The workload that calls complete(); with none, or more than one, when
    // the device next completes is unknown.
    void add_schedule(CompletionSchedule& schedule);
    // From now on handlers run at the kernel's time (a queue's interrupt is
    // moving to another CPU, so two CPUs may drain it).
    void stop_handling_ahead() { m_handle_ahead = false; }
    // Reports MSIs and handler runs as device number `id` (nullptr: none).
    void set_observer(TraceObserver* obs, unsigned id) {
        m_obs = obs;
        m_obs_id = id;
    }

    // A completion on queue `queue` now: `dma_bytes` of data plus its entry
    // are written, then the queue's MSI.
    void complete(unsigned queue, uint64_t tag, uint64_t dma_bytes);
    // A workload's own completions due at the kernel's time (`own` makes
    // them), after those of the devices before this one at the root port.
    void complete_in_port_order(CompletionSchedule& own) {
        m_port.writers_catch_up_before(this);
        own.catch_up();
    }
    // Participant (among the root port's writers): the schedule's completions due now.
    void catch_up() override {
        if (m_schedule) m_schedule->catch_up();
    }

    // The driver's handler for a queue's vector: drains the completions
    // visible at `at`.
    sc_core::sc_time handle(uint32_t queue, unsigned cpu, const sc_core::sc_time& at) override;
    // Ahead of the kernel's time when no completion can come first and the
    // sink reacts on the handling CPU alone.
    bool may_handle_at(uint32_t queue, unsigned cpu, const sc_core::sc_time& at) const override;
    // MsiSource: it sends an MSI when it next completes, and the MSI reaches
    // the remapping unit once the completion's data and entry have passed
    // the root port.
    sc_core::sc_time earliest_send() const override;
    sc_core::sc_time earliest_arrival() const override;
    const RootPort* writes_through() const override { return &m_port; }
    sc_core::sc_time shortest_write() const override;

    uint64_t in_flight() const;  // completions posted but not yet drained
    // Completions posted but neither drained nor waiting: must stay 0.
    uint64_t lost() const { return m_posted_ever - m_drained_ever - in_flight(); }
    unsigned queues() const { return unsigned(m_queues.size()); }
    const RootPort& root_port() const { return m_port; }
    RootPort& root_port() { return m_port; }
    uint16_t source_id() const { return m_ingress.source_id; }
    // Completions posted and drained over the whole run (not reset).
    uint64_t posted_ever() const { return m_posted_ever; }
    uint64_t drained_ever() const { return m_drained_ever; }
    // Times max_in_flight was exceeded; the first one stops the simulation.
    const ViolationCount& overflows() const { return m_overflows; }
    const DeviceStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }

private:
    struct Entry {
        uint64_t tag;
        sc_core::sc_time msi_at;
    };
    struct Queue {
        uint64_t msi_address = 0;
        uint32_t msi_data = 0;
        RingBuffer<Entry> entries;
        bool signalled = false;  // an MSI sent that no doorbell has acknowledged
    };

    // The queue's MSI, ordered after the writes that are visible at `visible`.
    void send_msi(unsigned queue, const sc_core::sc_time& visible);
    // May an MSI be sent now that no completion causes (a doorbell that
    // leaves entries in flight unacknowledged)?
    bool may_resignal() const;

    DeviceParams m_params;
    RootPort& m_port;
    std::vector<Queue> m_queues;
    CompletionSink* m_sink = nullptr;
    CompletionSchedule* m_schedule = nullptr;
    unsigned m_schedules = 0;
    // The least time a completion's writes take through the root port.
    sc_core::sc_time m_shortest_completion_write;
    sc_core::sc_time m_last_visible;  // when the last completion's writes are visible
    bool m_handle_ahead = true;
    tlm::tlm_generic_payload m_payload;
    uint32_t m_payload_data = 0;
    MsiIngress m_ingress;
    DeviceStats m_stats;
    uint64_t m_posted_ever = 0;   // not reset with the statistics
    uint64_t m_drained_ever = 0;
    ViolationCount m_overflows;
    TraceObserver* m_obs = nullptr;
    unsigned m_obs_id = 0;
};

}  // namespace cidsim
