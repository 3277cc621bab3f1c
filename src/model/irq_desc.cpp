#include "model/irq_desc.h"

namespace cidsim {

const char* const kIrqDebugNames[3] = {"off", "on", "piggin"};

IrqDesc::IrqDesc(const SharedLineParams& line, std::shared_ptr<const LineTopology> cpus,
                 IrqDebug debug)
    : m_debug(debug), m_hot(line, cpus), m_unhandled(line, std::move(cpus)) {}

sc_core::sc_time IrqDesc::dispatch(AgentId cpu, const sc_core::sc_time& now) {
    return m_hot.access_serialised(cpu, LineAccess::Load, now);
}

sc_core::sc_time IrqDesc::note_interrupt(AgentId cpu, const sc_core::sc_time& now) {
    switch (m_debug) {
    case IrqDebug::Off: return now;
    case IrqDebug::On: return m_hot.access_serialised(cpu, LineAccess::Store, now);
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
