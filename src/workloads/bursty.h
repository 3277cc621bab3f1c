#pragma once
// BurstyTraffic: on/off (two-state Markov-modulated Poisson) completions on
// one device's queues. During an "on" period completions arrive as a
// Poisson process at `on_rate_mpps`; on and off periods are exponential with
// the given means: a burst begins at 0, and each one's first completion is
// a Poisson gap into it (a burst may end before any). Queues are used
// round-robin. With off_mean 0 it is a plain Poisson source.
#include <deque>

#include "kernel/step_queue.h"
#include "workloads/workload.h"

namespace cidsim {

struct BurstyParams {
    std::string device;
    double on_rate_mpps = 2.0;                // completions/s while on, millions
    sc_core::sc_time on_mean = ns(2000);      // mean on-period
    sc_core::sc_time off_mean = ns(8000);     // mean off-period (0: always on)
    uint64_t dma_bytes = 0;                   // payload written per completion

    void describe(ParamVisitor& v);
};

class BurstyTraffic : public Workload, public CompletionSchedule, public TimedStep {
public:
    // `end`: the run's end (warm-up and measured time), past which nothing is drawn.
    BurstyTraffic(sc_core::sc_module_name name, const BurstyParams& params, Device& device,
                  uint64_t seed, const sc_core::sc_time& end);
    void report(nlohmann::json& out, double seconds) const override;
    void reset_stats() override;
    sc_core::sc_time earliest_completion() const override { return m_next_at; }
    uint64_t completion_bytes() const override { return m_params.dma_bytes; }
    void catch_up() override;

private:
    void step_due() override;
    sc_core::sc_time first_completion_from(const sc_core::sc_time& from);
    void count_bursts_begun(const sc_core::sc_time& by);

    BurstyParams m_params;
    Device& m_device;
    StepQueue& m_steps = StepQueue::instance();
    std::mt19937_64 m_rng;
    sc_core::sc_time m_on_until;
    sc_core::sc_time m_next_at;  // the next completion
    unsigned m_next_queue = 0;
    uint64_t m_sent = 0;           // also the tag of the next completion
    uint64_t m_sent_measured = 0;
    uint64_t m_bursts = 0;
    std::deque<sc_core::sc_time> m_burst_starts;  // drawn ahead, not yet reached
    sc_core::sc_time m_end;
};

}  // namespace cidsim
