// The remapping unit's lookahead (iommu.h): when its senders can next
// send, when it may fetch, post and send ahead of the kernel's time, and
// what it answers a PID's CPU and a LAPIC's core. Kept apart from the
// hardware it schedules, which is in iommu.cpp.
#include <algorithm>

#include "kernel/sim_clock.h"
#include "model/x86/iommu.h"

namespace cidsim {

using sc_core::sc_time;

void Iommu::add_source(const MsiSource& source, const PostedDescriptor* pid, RootPort& port,
                       uint32_t dest_apic_id) {
    // A remapped message is ordered behind the root port's writes: ready a
    // drain after its fetch at the earliest; a notification, at its post,
    // once the update has crossed the mesh.
    const sc_time lead = fastest_fetch() + (pid ? m_params.message_latency : port.drain());
    m_all_senders.add(source, lead);
    if (pid) m_pid_sides.at(pid)->add(source, lead);
    route_to(dest_apic_id)->add(source, lead);
    auto behind = std::find_if(m_port_senders.begin(), m_port_senders.end(),
                               [&port](const auto& p) { return p.first == &port; });
    if (behind == m_port_senders.end())
        behind = m_port_senders.insert(behind, {&port, MsiSenders()});
    behind->second.add(source, lead);
    // Ports where the unit orders its acts behind the devices' writes.
    const bool ordered = !pid || port.posted_order() > sc_core::SC_ZERO_TIME;
    if (ordered && std::find(m_remapped_ports.begin(), m_remapped_ports.end(), &port) ==
                    m_remapped_ports.end())
        m_remapped_ports.push_back(&port);
    m_sources_known = true;
}

void Iommu::forget_sources() {
    m_sources_known = false;
    m_all_senders.clear();
    for (auto& side : m_pid_sides) side.second->clear();
    for (auto& side : m_apic_sides)
        if (side) side->clear();
    m_port_senders.clear();
    m_remapped_ports.clear();
}

// A post not yet scheduled needs a request that has not started its fetch:
// one already announced (the earliest arrives at m_to_fetch.next_at()) or
// one a sender has not sent yet: the PID's own senders, when declared,
// bound when theirs arrive; else no process runs before the kernel's next
// pending activity.
sc_time Iommu::lookahead_of(const PidSide& side, const sc_time& needed) const {
    const sc_time unannounced =
        m_sources_known ? side.earliest_arrival(needed)
                        : saturating_add(sim_now(), time_to_pending_activity());
    return std::min(saturating_add(unannounced, fastest_fetch()), earliest_announced_post());
}

// A message to the LAPIC not sent yet is queued for it, or made by a post
// scheduled for it, or by the fetch of a request announced (for any LAPIC:
// which one is known only once its IRTE is read) or of one the LAPIC's own
// senders have not sent (ready a fetch, and for a remapped one a root-port
// drain, after it arrives); it is ready no earlier, enters the port no
// earlier than the port is free, and reaches the LAPIC a message occupancy
// and latency later.
sc_time Iommu::lookahead_of(const ApicSide& side, const sc_time& needed) const {
    if (!m_sources_known) return sim_now();
    sc_time made = side.earliest_ready(needed);
    made = std::min({made, side.posts.next(), side.messages.next()});
    made = std::min(made, earliest_announced_fetch());
    return saturating_add(std::max(made, m_message_port_free),
                          m_params.message_occupancy + m_params.message_latency);
}

sc_time Iommu::earliest_write_to(const RootPort* port, const sc_time& at) const {
    for (const auto& behind : m_port_senders)
        if (behind.first == port) return behind.second.earliest_send(at);
    return never();  // no sender writes to it
}

sc_time Iommu::earliest_announced_post() const {
    return m_to_post.next_at_min(earliest_announced_fetch());
}

void MsiSenders::add(const MsiSource& source, const sc_time& lead) {
    if (std::find(m_sources.begin(), m_sources.end(), &source) != m_sources.end()) return;
    m_sources.push_back(&source);
    if (const RootPort* port = source.writes_through()) {
        auto it = std::find_if(m_ports.begin(), m_ports.end(),
                               [port](const Port& q) { return q.port == port; });
        if (it == m_ports.end()) it = m_ports.insert(it, {port, source.shortest_write(), {}});
        it->shortest = std::min(it->shortest, source.shortest_write());
    } else {
        m_all_ported = false;
    }
    m_use_floors = m_all_ported && m_sources.size() > 16 * m_ports.size();
    m_least_lead = m_sources.size() == 1 ? lead : std::min(m_least_lead, lead);
    for (Known* k : {&m_arrival, &m_send}) {
        k->each.push_back(sc_core::SC_ZERO_TIME);
        k->min = sc_core::SC_ZERO_TIME;
    }
}

void MsiSenders::clear() {
    m_sources.clear();
    m_ports.clear();
    m_all_ported = true;
    m_use_floors = false;
    m_arrival = m_send = Known();
}

bool MsiSenders::floors_beyond(const sc_time& at, sc_time& least) const {
    bool beyond = true;
    least = never();
    for (Port& p : m_ports) {
        p.floor = saturating_add(p.port->free_at(), p.shortest);
        beyond = beyond && at < p.floor;
        least = std::min(least, p.floor);
    }
    return beyond;
}

// True when no process (other than the one running) can act at or before
// `at` (not before now).
bool Iommu::no_process_runs_before(const sc_time& at) const {
    return at - sim_now() < time_to_pending_activity();
}

// Fetching now rather than at `arrival` is exact when no request arrives
// first: none announced is due before it, no sender can announce one
// before then, and the table and IEC stay as they are (routes are fixed
// while the senders are declared).
bool Iommu::may_fetch_early(const sc_time& arrival) const {
    if (!m_sources_known || !may_run_ahead_to(arrival)) return false;
    if (!m_to_fetch.empty() && !(arrival < m_to_fetch.next_at())) return false;
    return arrival < m_all_senders.earliest_arrival(arrival);
}

// Posting (or ordering the message) now rather than at `done` is exact when
// no later request can finish its fetch before `done` (they start from
// m_pipeline_free), no scheduled post is due first, and nothing that could
// see the difference acts before `done`. For a posted IRTE that is the
// PID's CPU (the only other side of the PID). A remapped message is
// ordered behind its root port's writes and holds: no sender may write
// (with the senders declared; without, no process at all may run, the
// sender announcing the request included, whose next send the kernel does
// not know yet), and no queued message may enter the port and hold it.
bool Iommu::may_post_early(const Fetched& f, const sc_time& done, bool announcing) const {
    if (done > m_pipeline_free + fastest_service()) return false;
    if (!m_to_post.empty() && !(done < m_to_post.next_at())) return false;
    if (f.entry.irte.posted) {
        // Ordering the update at its root port ahead of time, as a remapped
        // message's (below), before the PID is told the post relies on it.
        if (f.port && f.port->posted_order() > sc_core::SC_ZERO_TIME) {
            if (!may_run_ahead_to(done)) return false;
            if (m_sources_known ? !(done < earliest_write_to(f.port, done))
                                : announcing || !no_process_runs_before(done))
                return false;
        }
        return f.entry.pid->poster_may_access_at(done);
    }
    if (!may_run_ahead_to(done) || !(done < m_to_send.next_at_min(never()))) return false;
    if (m_sources_known) return !f.port || done < earliest_write_to(f.port, done);
    return !announcing && no_process_runs_before(done);
}

// A notification enters the port now rather than at `ready` when that is
// exact: no message queued is due first, and no post or remapped message
// still to be made can be ready before it (each is ready no earlier than
// it is made, and none is made before the earliest scheduled post or the
// fetch of a request announced; one from a request still to be sent is
// ready its sender's lead after it arrives). A remapped message
// that must hold its root port longer than it is already taken does so from
// `ready` on: no sender may write before.
bool Iommu::may_send_early(const sc_time& ready, const Message& m, bool queued) const {
    if (!m_sources_known || !may_run_ahead_to(ready)) return false;
    if (!queued && !m_to_send.empty() && !(ready < m_to_send.next_at())) return false;
    if (m.held && !m.held->taken_until(std::max(ready, m_message_port_free)) &&
        !(ready < earliest_write_to(m.held, ready)))
        return false;
    return ready < std::min(m_all_senders.earliest_ready(ready), earliest_announced_post());
}

}  // namespace cidsim
