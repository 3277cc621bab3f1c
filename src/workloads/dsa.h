#pragma once
// DsaMemfill: one Intel DSA work queue doing memory fills, with an
// interrupt per completed descriptor, kept full by a submitter.
//
// Modelled: the engine starts descriptors in order, at most
// `max_descriptors_m` per second, and finishes each `engine_latency` later;
// each fill writes `fill_bytes` by DMA through the device's root port, then
// the completion record, then the work queue's MSI (Device, vector 0). The
// completion handler's cost is the Device's; each completion it drains lets
// the submitter (a thread on `submitter_cpu`) send a new descriptor,
// costing `submit_cpu` there. With the submitter on another CPU than the
// interrupt's, the interrupt CPU's capacity bounds the IRQ rate, which is
// what the published single-CPU IRQ-rate tests measure.
// Not modelled: batch descriptors, the completion record polling mode, the
// engine's read side and its caches, shared work queues (ENQCMD retries).
#include "kernel/timed_queue.h"
#include "workloads/workload.h"

namespace cidsim {

struct DsaParams {
    std::string device;                         // the DSA device (its vector 0)
    uint64_t wq_depth = 32;                     // descriptors kept outstanding
    uint64_t fill_bytes = 512;                  // bytes written per descriptor
    double max_descriptors_m = 30.0;            // engine rate limit, M/s
    sc_core::sc_time engine_latency = ns(800);  // descriptor start -> fill done
    sc_core::sc_time submit_cpu = ns(60);       // CPU per resubmitted descriptor
    uint64_t submitter_cpu = 0;                 // CPU of the submitting thread

    void describe(ParamVisitor& v);
};

class DsaMemfill : public Workload, public CompletionSink, public CompletionSchedule {
public:
    SC_HAS_PROCESS(DsaMemfill);
    DsaMemfill(sc_core::sc_module_name name, const DsaParams& params, Device& device,
               CpuCore& submitter);
    void on_completion(unsigned queue, uint64_t tag, unsigned cpu) override;
    // Resubmission runs on the submitter's CPU.
    bool reacts_only_on(unsigned queue, unsigned cpu) const override;
    // The earliest descriptor in the engine, or one submitted now.
    sc_core::sc_time earliest_completion() const override;
    uint64_t completion_bytes() const override { return m_params.fill_bytes; }
    void catch_up() override;
    void report(nlohmann::json& out, double seconds) const override;
    void reset_stats() override { m_completed = 0; }

    uint64_t outstanding() const { return m_outstanding; }

private:
    static void resubmit(void* self, uint64_t, const sc_core::sc_time& at);
    void submit(const sc_core::sc_time& at);
    void on_engine_done();

    DsaParams m_params;
    Device& m_device;
    CpuCore& m_submitter;
    sc_core::sc_time m_per_descriptor;  // 1 / max_descriptors_m, converted once
    sc_core::sc_time m_engine_free;
    TimedQueue<uint64_t> m_in_engine;
    uint64_t m_next_tag = 0;
    uint64_t m_outstanding = 0;
    uint64_t m_completed = 0;
};

}  // namespace cidsim
