#include "model/vmx/guest_pid.h"

#include <algorithm>

namespace cidsim {

using sc_core::sc_time;

namespace {
// One locked RMW on the PID line (the cmpxchg64 or a bit op of KVM).
sc_time rmw(PostedDescriptor& pid, AgentId cpu) { return pid.software_rmw(cpu); }
}  // namespace

void GuestPid::load(uint32_t pcpu_apic_id, sc_time& cost) {
    cost = sc_core::SC_ZERO_TIME;
    // if (!pi_test_sn(pi_desc) && vcpu->cpu == cpu) return;
    if (!m_pid.sn() && m_pid.ndst() == pcpu_apic_id) return;
    cost = rmw(m_pid, m_cpu);  // NDST and SN in one cmpxchg64
    m_pid.set_ndst(pcpu_apic_id);
    m_pid.set_sn(false);
    // smp_mb__after_atomic(); if (!pi_is_pir_empty()) pi_set_on()
    if (m_pid.pir().any() && !m_pid.on()) {
        cost += rmw(m_pid, m_cpu);
        m_pid.set_on(true);
    }
}

void GuestPid::put(bool preempted, sc_time& cost) {
    cost = sc_core::SC_ZERO_TIME;
    if (!preempted) return;  // a blocking vCPU keeps SN clear: it is to be woken
    cost = rmw(m_pid, m_cpu);
    m_pid.set_sn(true);
}

bool GuestPid::pre_block(BlockedList& list, uint32_t pcpu_apic_id, sc_time& cost) {
    cost = rmw(m_pid, m_cpu);  // list lock, then the cmpxchg64 of NV/NDST
    if (m_pid.on()) return false;
    cost += rmw(m_pid, m_cpu);
    list.vcpus.push_back(this);
    m_pid.set_nv(kPostedIntrWakeupVector);
    m_pid.set_ndst(pcpu_apic_id);
    m_blocked = true;
    return true;
}

void GuestPid::post_block(BlockedList& list, sc_time& cost) {
    cost = rmw(m_pid, m_cpu);
    m_pid.set_nv(kPostedIntrVector);
    list.vcpus.erase(std::remove(list.vcpus.begin(), list.vcpus.end(), this), list.vcpus.end());
    m_blocked = false;
}

bool GuestPid::deliver(Vector vector, sc_time& cost) {
    // pi_test_and_set_pir, then pi_test_and_set_on: two locked bit ops.
    cost = rmw(m_pid, m_cpu) + rmw(m_pid, m_cpu);
    m_pid.set_pir(vector);
    const bool was_off = !m_pid.on();
    m_pid.set_on(true);
    return was_off;
}

bool GuestPid::sync_to(VectorBits& virr, sc_time& cost) {
    cost = sc_core::SC_ZERO_TIME;
    if (!m_pid.on()) return false;
    sc_time c;
    m_pid.clear_on(m_cpu, c);
    cost += c;
    for (unsigned w = 0; w < 4; ++w) {
        if (!m_pid.pir().word[w]) continue;
        virr.word[w] |= m_pid.xchg_word(m_cpu, w, 0, c);
        cost += c;
    }
    return true;
}

}  // namespace cidsim
