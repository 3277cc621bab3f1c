#include "model/linux/edge_irq_desc.h"

namespace cidsim {

EdgeIrqDesc::EdgeIrqDesc(const SharedLineParams& line, std::shared_ptr<const LineTopology> topology,
                         AgentId cpu)
    : m_state(line, topology), m_lock(line, std::move(topology)) {
    sequence(cpu);
    m_local = sequence(cpu);
    m_state.reset_stats();
    m_lock.reset_stats();
}

sc_core::sc_time EdgeIrqDesc::sequence(AgentId cpu) {
    sc_core::sc_time cost = m_lock.access(cpu, LineAccess::LockedRmw);  // raw_spin_lock
    cost += m_lock.access(cpu, LineAccess::Store);                      // istate cleared
    cost += m_state.access(cpu, LineAccess::Store);                     // INPROGRESS set
    cost += m_lock.access(cpu, LineAccess::Store);                      // raw_spin_unlock
    cost += m_lock.access(cpu, LineAccess::Store);                      // irq_count++
    cost += m_lock.access(cpu, LineAccess::LockedRmw);                  // raw_spin_lock
    cost += m_state.access(cpu, LineAccess::Store);                     // INPROGRESS cleared
    cost += m_lock.access(cpu, LineAccess::Store);                      // raw_spin_unlock
    return cost;
}

}  // namespace cidsim
