#include "workloads/trace_replay.h"

#include "kernel/event_count.h"
#include "kernel/sim_clock.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cidsim {

using sc_core::sc_time;

std::vector<TraceEvent> TraceReplay::parse(const nlohmann::json& events,
                                           const SystemView& system,
                                           const std::string& key_path) {
    if (!events.is_array())
        throw std::invalid_argument(key_path + ": expected an array of [t_ns, device, queue]");
    std::vector<TraceEvent> out;
    for (size_t i = 0; i < events.size(); ++i) {
        const nlohmann::json& e = events[i];
        const std::string at = key_path + "[" + std::to_string(i) + "]";
        // A queue as the config states it: 1.0 is queue 1 (checks.cpp).
        if (!e.is_array() || e.size() != 3 || !e[0].is_number() || !e[1].is_string() ||
            !e[2].is_number() || !(e[2].get<double>() >= 0) ||
            e[2].get<double>() != std::floor(e[2].get<double>()))
            throw std::invalid_argument(at + ": expected [t_ns, \"device\", queue], found " +
                                        e.dump());
        const double t = e[0].get<double>();
        if (!(t >= 0)) throw std::invalid_argument(at + ": time must be >= 0");
        const unsigned dev = system.device_index(e[1].get<std::string>(), at);
        if (e[2].get<double>() >= double(system.devices[dev]->queues()))
            throw std::invalid_argument(at + ": queue " + e[2].dump() + " beyond the " +
                                        std::to_string(system.devices[dev]->queues()) +
                                        " queues of " + e[1].get<std::string>());
        out.push_back({ns(t), dev, unsigned(e[2].get<double>())});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const TraceEvent& a, const TraceEvent& b) { return a.at < b.at; });
    return out;
}

TraceReplay::TraceReplay(sc_core::sc_module_name name, std::vector<TraceEvent> events,
                         const SystemView& system)
    : Workload(name), m_events(std::move(events)), m_system(system) {
    for (Device* d : m_system.devices) d->add_schedule(*this);
    SC_METHOD(step);
}

void TraceReplay::step() {
    const sc_time now = sc_core::sc_time_stamp();
    while (m_next < m_events.size() && m_events[m_next].at <= now) {
        const TraceEvent& e = m_events[m_next++];
        m_system.devices[e.device]->complete(e.queue, m_next - 1, 0);
    }
    if (m_next < m_events.size()) {
        next_trigger(m_events[m_next].at - now);
        count_timed_event();
    }
}

sc_time TraceReplay::earliest_completion() const {
    return m_next < m_events.size() ? m_events[m_next].at : never();
}

void TraceReplay::report(nlohmann::json& out, double) const {
    out["events"] = m_events.size();
    out["replayed"] = m_next;
}

}  // namespace cidsim
