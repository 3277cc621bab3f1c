#pragma once
// TraceReplay: completions at listed times on listed device queues, exactly
// as given (e.g. the RFC's burst picture A B C / D E F G / H / I).
#include "workloads/workload.h"

namespace cidsim {

struct TraceEvent {
    sc_core::sc_time at;
    unsigned device;  // index into SystemView::devices
    unsigned queue;
};

class TraceReplay : public Workload, public CompletionSchedule {
public:
    SC_HAS_PROCESS(TraceReplay);
    TraceReplay(sc_core::sc_module_name name, std::vector<TraceEvent> events,
                const SystemView& system);
    void report(nlohmann::json& out, double seconds) const override;
    sc_core::sc_time earliest_completion() const override;

    // Parses and checks the events (sorted by time); errors name `key_path`.
    static std::vector<TraceEvent> parse(const nlohmann::json& events, const SystemView& system,
                                         const std::string& key_path);

private:
    void step();

    std::vector<TraceEvent> m_events;
    const SystemView& m_system;
    size_t m_next = 0;
};

}  // namespace cidsim
