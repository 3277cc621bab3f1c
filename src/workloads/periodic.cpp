#include "workloads/periodic.h"

#include "kernel/event_count.h"
#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;

void PeriodicParams::describe(ParamVisitor& v) {
    v.text("device", device, "device whose queues complete");
    v.time("period_ns", period, 1, 1e12, "time between completions");
    v.time("phase_ns", phase, 0, 1e12, "time of the first completion");
    v.integer("dma_bytes", dma_bytes, "B", 0, 1 << 24, "payload DMA'd per completion");
}

PeriodicTraffic::PeriodicTraffic(sc_core::sc_module_name name, const PeriodicParams& params,
                                 Device& device)
    : Workload(name), m_params(params), m_device(device), m_next_at(params.phase) {
    m_device.add_schedule(*this);
    m_steps.push(sc_core::SC_ZERO_TIME, *this);  // as an initialised process would run
}

void PeriodicTraffic::step_due() {
    m_device.complete_in_port_order(*this);
    m_steps.push(m_next_at, *this);
    count_timed_event();
}

void PeriodicTraffic::catch_up() {
    if (m_next_at != sim_now()) return;  // done already, at another device's request
    m_device.complete(m_next_queue, m_sent++, m_params.dma_bytes);
    ++m_sent_measured;
    m_next_queue = (m_next_queue + 1) % m_device.queues();
    m_next_at += m_params.period;
}

void PeriodicTraffic::report(nlohmann::json& out, double seconds) const {
    out["completions"] = m_sent_measured;
    out["completion_rate_mps"] = per_second(double(m_sent_measured), seconds) / 1e6;
}

}  // namespace cidsim
