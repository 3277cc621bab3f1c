#include "model/linux/irq_desc.h"

namespace cidsim {

const char* const kIrqDebugNames[3] = {"off", "on", "piggin"};

IrqDesc::IrqDesc(const std::string& name, const SharedLineParams& line,
                 std::shared_ptr<const LineTopology> cpus, IrqDebug debug, LineOrder order, uint64_t seed)
    : m_debug(debug), m_hot((name + "_hot_line").c_str(), line, cpus, order, seed),
      m_unhandled(line, std::move(cpus)) {}

void IrqDesc::note_interrupt(AgentId cpu, LineRequester& r) {
    const sc_core::sc_time& now = sc_core::sc_time_stamp();
    switch (m_debug) {
    case IrqDebug::Off: r.line_served(now); return;
    case IrqDebug::On: m_hot.request(cpu, LineAccess::Store, r); return;
    case IrqDebug::Piggin: break;
    }
    // if (likely(!desc->irqs_unhandled)) return;
    r.line_served(m_unhandled.access_serialised(cpu, LineAccess::Load, now));
}

void IrqDesc::reset_stats() {
    m_hot.reset_stats();
    m_unhandled.reset_stats();
}

}  // namespace cidsim
