#include "workloads/bursty.h"

#include "kernel/event_count.h"
#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;

void BurstyParams::describe(ParamVisitor& v) {
    v.text("device", device, "device whose queues complete");
    v.real("on_rate_mpps", on_rate_mpps, "M/s", 1e-6, 1e4, "completion rate while on");
    v.time("on_mean_ns", on_mean, 1, 1e12, "mean on-period (exponential)");
    v.time("off_mean_ns", off_mean, 0, 1e12, "mean off-period (exponential; 0: always on)");
    v.integer("dma_bytes", dma_bytes, "B", 0, 1 << 24, "payload DMA'd per completion");
}

BurstyTraffic::BurstyTraffic(sc_core::sc_module_name name, const BurstyParams& params,
                             Device& device, uint64_t seed)
    : Workload(name), m_params(params), m_device(device), m_rng(seed) {
    m_device.add_schedule(*this);
    m_steps.push(sc_core::SC_ZERO_TIME, *this);  // as an initialised process would run
}

void BurstyTraffic::step_due() {
    m_device.complete_in_port_order(*this);
    m_steps.push(m_next_at, *this);
    count_timed_event();
}

void BurstyTraffic::catch_up() {
    const sc_time now = sim_now();
    if (m_next_at != now) return;  // done already, at another device's request
    const double gap_ns = 1e3 / m_params.on_rate_mpps;
    if (now >= m_on_until) {
        // Start of a burst: the first completion at its start.
        ++m_bursts;
        m_on_until = now + ns(exponential(m_rng, ns_of(m_params.on_mean)));
    }
    m_device.complete(m_next_queue, m_sent++, m_params.dma_bytes);
    ++m_sent_measured;
    m_next_queue = (m_next_queue + 1) % m_device.queues();

    sc_time next = now + ns(exponential(m_rng, gap_ns));
    if (next >= m_on_until && m_params.off_mean > sc_core::SC_ZERO_TIME)
        next = m_on_until + ns(exponential(m_rng, ns_of(m_params.off_mean)));
    m_next_at = next;
}

void BurstyTraffic::report(nlohmann::json& out, double seconds) const {
    out["completions"] = m_sent_measured;
    out["bursts"] = m_bursts;
    out["completion_rate_mps"] = per_second(double(m_sent_measured), seconds) / 1e6;
}

}  // namespace cidsim
