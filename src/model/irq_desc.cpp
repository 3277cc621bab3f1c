#include "model/irq_desc.h"

namespace cidsim {

const char* const kIrqDebugNames[3] = {"off", "on", "piggin"};

IrqDesc::IrqDesc(const SharedLineParams& line, std::shared_ptr<const LineTopology> cpus,
                 IrqDebug debug)
    : m_debug(debug), m_hot(line, cpus), m_unhandled(line, std::move(cpus)) {}

sc_core::sc_time IrqDesc::logged_access(AgentId cpu, LineAccess kind, const sc_core::sc_time& now) {
    const bool store = kind == LineAccess::Store;
    const bool had = m_hot.holds(cpu);
    if (had && (!store || m_hot.holds_exclusive(cpu))) return m_hot.access_serialised(cpu, kind, now);
    DescLineAccess a;
    a.asked = now;
    a.cpu = cpu;
    a.store = store;
    a.from = had ? cpu : m_hot.supplier_for(cpu);
    a.from_memory = !had && m_hot.sharers() == 0;
    a.invalidated = store ? m_hot.sharers() - (had ? 1 : 0) : 0;
    const LineTopology& topo = m_hot.topology();
    a.cross_chip = a.from != cpu && topo.hops(cpu, a.from) > 0;
    if (store)
        for (AgentId b = 0; b < topo.agents(); ++b)
            a.invalidated_remote += b != cpu && m_hot.holds(b) && topo.hops(cpu, b) > 0;
    const uint64_t queued = m_hot.stats().queued_transfers;
    a.done = m_hot.access_serialised(cpu, kind, now);
    a.queued = m_hot.stats().queued_transfers != queued;
    m_log->push_back(a);
    return a.done;
}

sc_core::sc_time IrqDesc::dispatch(AgentId cpu, const sc_core::sc_time& now) {
    return hot_access(cpu, LineAccess::Load, now);
}

sc_core::sc_time IrqDesc::note_interrupt(AgentId cpu, const sc_core::sc_time& now) {
    switch (m_debug) {
    case IrqDebug::Off: return now;
    case IrqDebug::On: return hot_access(cpu, LineAccess::Store, now);
    case IrqDebug::Piggin: break;
    }
    // if (likely(!desc->irqs_unhandled)) return;
    return m_unhandled.access_serialised(cpu, LineAccess::Load, now);
}

void IrqDesc::reset_stats() {
    m_hot.reset_stats();
    m_unhandled.reset_stats();
}

}  // namespace cidsim
