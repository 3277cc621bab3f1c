#include "model/x86/iommu.h"

#include <algorithm>
#include <stdexcept>

#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;

void IommuParams::describe(ParamVisitor& v) {
    v.integer("irte_entries", irte_entries, "entries", 1, 65536, "interrupt remapping table size");
    v.integer("iec_entries", iec_entries, "entries", 0, 4096,
              "Interrupt Entry Cache capacity, LRU (0: every fetch reads memory)");
    v.time("iec_hit_ns", iec_hit, 0, 1e6, "IRTE fetch that hits the IEC");
    v.time("iec_miss_ns", iec_miss, 0, 1e6, "IRTE fetch from memory (IEC miss)");
    v.time("pipeline_occupancy_ns", pipeline_occupancy, 0, 1e6,
           "remapping pipeline: one request started per this interval");
    v.time("message_occupancy_ns", message_occupancy, 0, 1e6,
           "interrupt-message port: time each message holds it (socket-wide)");
    v.time("message_latency_ns", message_latency, 0, 1e6,
           "from the remapping unit across the mesh: an interrupt message from the message port "
           "to its LAPIC, a posted update from its fetch to the PID line");
}

const char* to_string(IommuFault f) {
    switch (f) {
        case IommuFault::NotMsi: return "not_msi_address";
        case IommuFault::CompatibilityFormat: return "compatibility_format_blocked";
        case IommuFault::IndexOutOfRange: return "index_out_of_range";
        case IommuFault::NotPresent: return "irte_not_present";
        case IommuFault::SourceIdMismatch: return "source_id_mismatch";
        case IommuFault::NoDescriptor: return "no_posted_descriptor_at_pda";
        case IommuFault::NoDestination: return "no_lapic_at_destination";
        case IommuFault::Count: break;
    }
    return "?";
}

Iommu::Iommu(sc_core::sc_module_name name, const IommuParams& params, AgentId agent)
    : sc_module(name), msi_socket("msi_socket"), m_params(params), m_agent(agent),
      m_table(params.irte_entries),
      m_iec(params.iec_entries) {
    msi_socket.register_b_transport(this, &Iommu::b_transport);
    SC_METHOD(on_fetch_due);
    sensitive << m_to_fetch.event();
    dont_initialize();
    SC_METHOD(on_post_due);
    sensitive << m_to_post.event();
    dont_initialize();
    SC_METHOD(on_message_ready);
    sensitive << m_to_send.event();
    dont_initialize();
}

OutPort<Vector>& Iommu::apic_port(uint32_t apic_id) {
    if (apic_id >= m_apic_sides.size()) m_apic_sides.resize(apic_id + 1);
    sc_assert(!m_apic_sides[apic_id]);
    m_apic_sides[apic_id] = std::make_unique<ApicSide>(apic_id);
    m_apic_sides[apic_id]->iommu = this;
    return m_apic_sides[apic_id]->port;
}

void Iommu::attach_descriptor(PostedDescriptor& pid) {
    m_pids[pid.address()] = &pid;
    std::unique_ptr<PidSide>& side = m_pid_sides[&pid];
    side = std::make_unique<PidSide>();
    side->iommu = this;
    pid.attach_poster(*side);
}

void Iommu::write_irte(uint32_t index, const Irte& e) {
    const Irte old = Irte::decode(m_table.at(index));
    m_remapped_irtes -= old.present && !old.posted;
    m_remapped_irtes += e.present && !e.posted;
    m_table.at(index) = e.encode();
    if (m_obs) m_obs->irte_written(index);
}

void Iommu::invalidate_iec(uint32_t index) {
    ++m_stats.iec_invalidations;
    if (m_obs) m_obs->iec_invalidated(index);
    m_iec.invalidate(index);
}

void Iommu::invalidate_iec_all() {
    ++m_stats.iec_invalidations;
    m_iec.invalidate_all();
}

uint64_t Iommu::faults_total() const {
    uint64_t n = 0;
    for (uint64_t f : m_stats.faults) n += f;
    return n;
}

void Iommu::fault(IommuFault reason, uint32_t index, uint16_t source_id, const sc_time& at) {
    ++m_stats.faults[size_t(reason)];
    if (m_obs) m_obs->iommu_fault(index, int(reason));
    if (m_stats.first_faults.size() < kFaultLog)
        m_stats.first_faults.push_back({at, reason, index, source_id});
}

void Iommu::b_transport(int, tlm::tlm_generic_payload& gp, sc_time& delay) {
    ++m_stats.requests;
    MsiIngress* ingress = gp.get_extension<MsiIngress>();
    const uint16_t sid = ingress ? ingress->source_id : 0;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);  // posted write: the device never sees faults
    const msi::Decoded d = msi::decode(gp.get_address());
    if (!d.in_range || gp.get_command() != tlm::TLM_WRITE_COMMAND || gp.get_data_length() != 4) {
        fault(IommuFault::NotMsi, 0, sid, sim_now());
        return;
    }
    if (!d.remappable_format) {
        fault(IommuFault::CompatibilityFormat, 0, sid, sim_now());
        return;
    }
    uint32_t index = d.handle;
    if (d.shv) {
        uint32_t data;
        std::copy_n(gp.get_data_ptr(), 4, reinterpret_cast<unsigned char*>(&data));
        index += data & 0xFFFF;
    }
    if (index >= m_table.size()) {
        fault(IommuFault::IndexOutOfRange, index, sid, sim_now());
        return;
    }
    // Requests enter the pipeline in arrival order (writes from different
    // root ports may be announced out of order, each with its own delay),
    // those arriving at one picosecond in source-id order.
    const sc_time arrival = sim_now() + delay;
    const Request r{index, sid, ingress ? ingress->port : nullptr};
    if (may_fetch_early(arrival))
        fetch(r, arrival, true);
    else
        m_to_fetch.push(arrival, r, sid);
}

Iommu::Resolved Iommu::resolve(uint32_t index) const {
    Resolved r;
    r.irte = Irte::decode(m_table[index]);
    if (r.irte.posted) {
        auto p = m_pids.find(r.irte.pda);
        if (p != m_pids.end()) r.pid = p->second;
    } else {
        r.dest = route_to(r.irte.destination);
    }
    return r;
}

const Iommu::Resolved& Iommu::lookup(uint32_t index, bool& hit) {
    if (const Resolved* cached = m_iec.find(index)) {
        hit = true;
        return *cached;
    }
    hit = false;
    const Resolved r = resolve(index);
    // Only present entries are cached [6.4].
    return r.irte.present ? m_iec.fill(index, r) : m_iec.pass_through(r);
}

void Iommu::on_fetch_due() {
    count_timed_event();
    take_fetches_due();
}

void Iommu::take_fetches_due() {
    m_to_fetch.take_due([this](const Request& r) { fetch(r, sim_now(), false); });
}

void Iommu::fetch(const Request& r, const sc_time& arrival, bool announcing) {
    // One request starts per pipeline_occupancy; its IRTE is read as it
    // arrives (the entry used is the one current at arrival).
    const sc_time start = std::max(arrival, m_pipeline_free);
    m_pipeline_free = start + m_params.pipeline_occupancy;
    bool hit;
    const Resolved& e = lookup(r.index, hit);
    ++(hit ? m_stats.iec_hits : m_stats.iec_misses);
    if (m_obs) m_obs->irte_fetched(r.index, hit);
    const Irte& irte = e.irte;
    if (!irte.present) return fault(IommuFault::NotPresent, r.index, r.source_id, arrival);
    if (irte.svt == SourceValidation::RequesterId && irte.sq == 0 && irte.sid != r.source_id)
        return fault(IommuFault::SourceIdMismatch, r.index, r.source_id, arrival);
    if (irte.posted && !e.pid)
        return fault(IommuFault::NoDescriptor, r.index, r.source_id, arrival);
    ApicSide* dest = irte.posted ? route_to(e.pid->ndst()) : e.dest;
    if (!dest) return fault(IommuFault::NoDestination, r.index, r.source_id, arrival);
    // A posted IRTE's update crosses the mesh to the PID line as a message
    // crosses it to the LAPIC (message_latency) before its RMW starts.
    const sc_time done = start + (hit ? m_params.iec_hit : m_params.iec_miss) +
                         (irte.posted ? m_params.message_latency : sc_core::SC_ZERO_TIME);
    const Fetched f{e, dest, r.index, r.source_id, r.port, arrival};
    if (may_post_early(f, done, announcing)) {
        post(f, done);
    } else {
        m_to_post.push(done, f);
        dest->posts.push(done);
    }
}

// Messages enter the port in the order they become ready (not the order
// they were announced: root ports drain at different paces).
void Iommu::on_message_ready() {
    port_writers_catch_up();
    m_to_send.pop_due([this](const Message& m) {
        m.dest->messages.pop();
        send(m, sim_now());
    });
}

void Iommu::send(const Message& m, const sc_time& ready) {
    const sc_time enter = std::max(ready, m_message_port_free);
    m_message_port_free = enter + m_params.message_occupancy;
    m.dest->port.send(m_message_port_free + m_params.message_latency, m.vector);
    if (m.held) m.held->hold_until(enter);
}

void Iommu::queue_message(const sc_time& ready, const Message& m) {
    send_queued_early(ready);
    if (may_send_early(ready, m)) {
        send(m, ready);
    } else {
        m_to_send.push(ready, m);
        m.dest->messages.push(ready);
    }
}

// The messages queued, earliest first, that may enter the port ahead of
// their time now (what kept them back may have passed: another request has
// arrived since), up to `until`: a message being made now is ready then.
// One due now is left to the unit's own process (after the devices' writes
// at this picosecond).
void Iommu::send_queued_early(const sc_time& until) {
    while (!m_to_send.empty()) {
        const sc_time ready = m_to_send.next_at();
        if (until < ready || ready == sim_now()) return;
        const Message m = m_to_send.front();
        if (!may_send_early(ready, m, true)) return;
        m_to_send.pop_front();
        m.dest->messages.pop();
        send(m, ready);
    }
}

void Iommu::on_post_due() {
    count_timed_event();
    take_posts_due();
}

void Iommu::take_posts_due() {
    port_writers_catch_up();
    m_to_post.take_due([this](const Fetched& f) {
        f.dest->posts.pop();
        post(f, sim_now());
    });
}

void Iommu::post(const Fetched& f, const sc_time& at) {
    m_stats.fetch_to_post_ns.record(whole_ns(at - f.started));
    const Irte& irte = f.entry.irte;
    if (!irte.posted) {
        ++m_stats.remapped_messages;
        const sc_time ordered = f.port ? f.port->order_message(at) : at;
        queue_message(ordered, Message{f.dest, irte.vector, f.port});
        if (m_obs) m_obs->remapped_message(f.index, f.dest->apic_id, irte.vector);
        return;
    }
    ++m_stats.posts;
    // The PID update is ordered after the device's earlier writes [5.2.3]
    // (root_port.h: posted_order); its RMW starts then, or once the last
    // post to this PID has let the line go.
    const sc_time ordered =
        f.port && f.port->posted_order() > sc_core::SC_ZERO_TIME ? f.port->order_posted(at) : at;
    sc_time rmw;
    PostedDescriptor& pid = *f.entry.pid;
    if (lookahead_checked()) pid.check_post_at(at);
    if (pid.post_held(m_agent, irte.vector, irte.urgent, ordered, rmw)) {
        ++m_stats.notifications;
        // NV and NDST as the post finds them [9.12]; fixed while the routes are.
        ApicSide* dest = route_to(pid.ndst());
        if (!dest) return fault(IommuFault::NoDestination, f.index, f.source_id, at);
        queue_message(ordered + rmw, Message{dest, pid.nv(), nullptr});
    } else {
        ++m_stats.suppressed;
    }
}

static_assert(Iommu::kFaultLog == 16, "iommu_faults.first's description gives the log's size");

void IommuStats::describe(StatVisitor& v) const {
    v.count(unreported("requests"), requests, "count",
            "MSI writes that reached the remapping unit, well-formed or not");
    v.count(in_block("remapped_messages"), remapped_messages, "count",
            "interrupt messages sent for remappable IRTEs (IM=0)");
    v.count(in_block("pid_line.iommu_posts"), posts, "count",
            "posted IRTEs (IM=1) served: PIR bits set by an atomic update of the descriptor");
    v.count(in_block("notifications_sent"), notifications, "count",
            "posts that sent a notification event (ON was clear, and URG or SN clear)");
    v.count(in_block("notifications_suppressed"), suppressed, "count",
            "posts that sent no notification (ON already set, or SN set without URG)");
    v.count(in_block("iec.hits"), iec_hits, "count",
            "IRTE lookups served by the Interrupt Entry Cache");
    v.count(in_block("iec.misses"), iec_misses, "count",
            "IRTE lookups that read the entry from memory");
    v.count(unreported("iec_invalidations"), iec_invalidations, "count",
            "IEC invalidation descriptors processed (one entry or all)");
    v.by_reason(in_block("iommu_faults.by_reason"), faults.data(), faults.size(),
                [](size_t f) { return to_string(IommuFault(f)); },
                "interrupt-remapping faults (the MSI is dropped), by reason");
    v.fault_log(in_block("iommu_faults.first"), first_faults,
                "the first faults of the window (at most 16): at_ns, reason, irte_index, "
                "source_id");
    v.histogram(unreported("fetch_to_post_ns"), fetch_to_post_ns, "ns",
                "per request, from its arrival to its post or message: pipeline wait and IRTE "
                "fetch");
}

}  // namespace cidsim
