#include "model/coherence/contended_line.h"

namespace cidsim {

using sc_core::sc_time;

const char* const kLineOrderNames[2] = {"fifo", "random"};

ContendedLine::ContendedLine(sc_core::sc_module_name name, const SharedLineParams& params,
                             std::shared_ptr<const LineTopology> topology, LineOrder order,
                             uint64_t seed)
    : sc_module(name), m_line(params, std::move(topology)), m_order(order), m_rng(seed) {
    SC_METHOD(serve_next);
    sensitive << m_free;
    dont_initialize();
}

void ContendedLine::request(AgentId who, LineAccess kind, LineRequester& r) {
    const sc_time& now = sc_core::sc_time_stamp();
    const Waiter w{who, kind, &r, now};
    if (m_order == LineOrder::Fifo || m_line.served_locally(who, kind) ||
        (m_waiting.empty() && now >= m_line.free_at())) {
        serve(w, now);
        return;
    }
    m_waiting.push_back(w);
    if (m_waiting.size() == 1) m_free.notify(m_line.free_at() - now);
}

void ContendedLine::serve(const Waiter& w, const sc_time& now) {
    const sc_time done = m_log ? logged_serve(w, now) : m_line.access_serialised(w.who, w.kind, now, w.asked);
    w.requester->line_served(done);
}

void ContendedLine::serve_next() {
    const sc_time& now = sc_core::sc_time_stamp();
    if (m_waiting.empty()) return;
    if (now >= m_line.free_at()) {
        const size_t pick = size_t(m_rng() % m_waiting.size());
        const Waiter w = m_waiting[pick];
        m_waiting[pick] = m_waiting.back();
        m_waiting.pop_back();
        serve(w, now);
        if (m_waiting.empty()) return;
    }
    m_free.notify(m_line.free_at() - now);
}

sc_time ContendedLine::logged_serve(const Waiter& w, const sc_time& now) {
    const SharedLine& line = m_line;
    const bool store = w.kind != LineAccess::Load;
    const bool had = line.holds(w.who);
    if (had && (!store || line.holds_exclusive(w.who))) return m_line.access_serialised(w.who, w.kind, now, w.asked);
    LineTransferRecord a;
    a.asked = w.asked;
    a.cpu = w.who;
    a.store = store;
    a.from = had ? w.who : line.supplier_for(w.who);
    a.from_memory = !had && line.sharers() == 0;
    a.invalidated = store ? line.sharers() - (had ? 1 : 0) : 0;
    const LineTopology& topo = line.topology();
    a.cross_chip = a.from != w.who && topo.hops(w.who, a.from) > 0;
    if (store)
        for (AgentId b = 0; b < topo.agents(); ++b)
            a.invalidated_remote += b != w.who && line.holds(b) && topo.hops(w.who, b) > 0;
    const uint64_t queued = line.stats().queued_transfers;
    a.done = m_line.access_serialised(w.who, w.kind, now, w.asked);
    a.queued = line.stats().queued_transfers != queued;
    m_log->push_back(a);
    return a.done;
}

}  // namespace cidsim
