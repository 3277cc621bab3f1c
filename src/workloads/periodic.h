#pragma once
// PeriodicTraffic: one completion every `period` on one device, queues
// round-robin, the first at `phase` (systems.md B, experiment E3: "an
// assigned device raising an MSI every 1 ms").
#include "kernel/step_queue.h"
#include "workloads/workload.h"

namespace cidsim {

struct PeriodicParams {
    std::string device;
    sc_core::sc_time period = ns(1e6);  // between completions
    sc_core::sc_time phase = ns(1000);  // the first completion
    uint64_t dma_bytes = 0;

    void describe(ParamVisitor& v);
};

class PeriodicTraffic : public Workload, public CompletionSchedule, public TimedStep {
public:
    PeriodicTraffic(sc_core::sc_module_name name, const PeriodicParams& params, Device& device);
    void report(nlohmann::json& out, double seconds) const override;
    void reset_stats() override { m_sent_measured = 0; }
    sc_core::sc_time earliest_completion() const override { return m_next_at; }
    uint64_t completion_bytes() const override { return m_params.dma_bytes; }
    void catch_up() override;

private:
    void step_due() override;

    PeriodicParams m_params;
    Device& m_device;
    StepQueue& m_steps = StepQueue::instance();
    sc_core::sc_time m_next_at;
    unsigned m_next_queue = 0;
    uint64_t m_sent = 0;
    uint64_t m_sent_measured = 0;
};

}  // namespace cidsim
