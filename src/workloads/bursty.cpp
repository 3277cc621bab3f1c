#include "workloads/bursty.h"

#include <algorithm>

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
                             Device& device, uint64_t seed, const sc_time& end)
    : Workload(name), m_params(params), m_device(device), m_rng(seed), m_end(end) {
    // A burst begins at 0; its first completion is a Poisson gap into it.
    ++m_bursts;
    m_on_until = ns(exponential(m_rng, ns_of(m_params.on_mean)));
    m_next_at = first_completion_from(sc_core::SC_ZERO_TIME);
    m_device.add_schedule(*this);
    m_steps.push(m_next_at, *this);
}

// The next completion after one at `from`: a Poisson gap, or, when the
// on-period ends first, off-periods and bursts until one holds a completion
// (a burst shorter than its first gap has none), drawn no further than the
// run's end: a rare completion in short bursts may lie past it. The bursts
// begun on the way are counted once the kernel reaches them.
sc_time BurstyTraffic::first_completion_from(const sc_time& from) {
    const double gap_ns = 1e3 / m_params.on_rate_mpps;
    sc_time next = from + ns(exponential(m_rng, gap_ns));
    if (m_params.off_mean == sc_core::SC_ZERO_TIME) return next;
    while (next >= m_on_until && m_on_until <= m_end) {
        const sc_time start = m_on_until + ns(exponential(m_rng, ns_of(m_params.off_mean)));
        m_burst_starts.push_back(start);
        m_on_until = start + ns(exponential(m_rng, ns_of(m_params.on_mean)));
        next = start + ns(exponential(m_rng, gap_ns));
    }
    return next;
}

void BurstyTraffic::step_due() {
    m_device.complete_in_port_order(*this);
    m_steps.push(m_next_at, *this);
    count_timed_event();
}

void BurstyTraffic::catch_up() {
    const sc_time now = sim_now();
    if (m_next_at != now) return;  // done already, at another device's request
    count_bursts_begun(now);
    // Always on: the on-periods only renew (and are counted) as time passes.
    if (m_params.off_mean == sc_core::SC_ZERO_TIME && now >= m_on_until) {
        ++m_bursts;
        m_on_until = now + ns(exponential(m_rng, ns_of(m_params.on_mean)));
    }
    m_device.complete(m_next_queue, m_sent++, m_params.dma_bytes);
    ++m_sent_measured;
    m_next_queue = (m_next_queue + 1) % m_device.queues();
    m_next_at = first_completion_from(now);
}

void BurstyTraffic::count_bursts_begun(const sc_time& by) {
    while (!m_burst_starts.empty() && m_burst_starts.front() <= by) {
        ++m_bursts;
        m_burst_starts.pop_front();
    }
}

void BurstyTraffic::reset_stats() {
    count_bursts_begun(sim_now());  // the bursts begun so far are the last window's
    m_sent_measured = m_bursts = 0;
}

void BurstyTraffic::report(nlohmann::json& out, double seconds) const {
    out["completions"] = m_sent_measured;
    const auto reached = std::upper_bound(m_burst_starts.begin(), m_burst_starts.end(), sim_now());
    out["bursts"] = m_bursts + uint64_t(reached - m_burst_starts.begin());
    out["completion_rate_mps"] = per_second(double(m_sent_measured), seconds) / 1e6;
}

}  // namespace cidsim
