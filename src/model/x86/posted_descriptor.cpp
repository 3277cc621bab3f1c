#include "model/x86/posted_descriptor.h"

#include <algorithm>

namespace cidsim {

const char* to_string(PidOp op) {
    switch (op) {
        case PidOp::Read: return "read";
        case PidOp::Xchg: return "xchg";
        case PidOp::ClearOn: return "clear_on";
        case PidOp::Post: return "post";
    }
    return "?";
}

void PostedDescriptor::log(AgentId a, PidOp op, int word, uint64_t value, bool notify) {
    if (m_log) m_log->push_back({sc_core::sc_time_stamp(), a, op, word, value, notify});
}

uint64_t PostedDescriptor::xchg_word(AgentId cpu, unsigned word, uint64_t value,
                                     sc_core::sc_time& cost) {
    cost = m_line.access(cpu, LineAccess::LockedRmw);
    uint64_t old = m_pir.word[word];
    m_pir.word[word] = value;
    if (m_log) log(cpu, PidOp::Xchg, int(word), old);
    if (m_obs) m_obs->pid_access(m_ndst, PidEvent::Xchg, int(word), old, false);
    return old;
}

void PostedDescriptor::clear_on(AgentId cpu, sc_core::sc_time& cost) {
    cost = m_line.access(cpu, LineAccess::LockedRmw);
    m_on = false;
    if (m_log) log(cpu, PidOp::ClearOn, -1, 0);
    if (m_obs) m_obs->pid_access(m_ndst, PidEvent::ClearOn, -1, 0, false);
}

bool PostedDescriptor::post(AgentId iommu, Vector vector, bool urgent, sc_core::sc_time& cost) {
    cost = m_line.access(iommu, LineAccess::DeviceRmw);
    m_pir.set(vector);
    const bool notify = !m_on && (urgent || !m_sn);
    if (notify) m_on = true;
    ++m_posts;
    m_notifications += notify;
    if (m_log) log(iommu, PidOp::Post, -1, vector, notify);
    if (m_obs) m_obs->pid_access(m_ndst, PidEvent::Post, -1, vector, notify);
    return notify;
}

bool PostedDescriptor::post_held(AgentId iommu, Vector vector, bool urgent,
                                 const sc_core::sc_time& ready, sc_core::sc_time& cost) {
    const sc_core::sc_time start = std::max(ready, m_held_until);
    sc_core::sc_time rmw;
    const bool notify = post(iommu, vector, urgent, rmw);
    m_held_until = start + rmw;
    cost = m_held_until - ready;
    return notify;
}

}  // namespace cidsim
