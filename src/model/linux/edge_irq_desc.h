#pragma once
// EdgeIrqDesc: an x86 device vector's irq_desc, Linux's generic IRQ layer
// as data on the x86 host (as systems.md D, "The one store", lays out
// POWER's IPI descriptor), on handle_edge_irq's fast path (kernel/irq/chip.c,
// kernel/irq/handle.c, kernel/irq/spurious.c):
//   raw_spin_lock(&desc->lock); desc->istate cleared;
//   kstat_incr_irqs_this_cpu (this CPU's own memory, no shared line);
//   irqd_set(IRQD_IRQ_INPROGRESS) in irq_common_data's state word;
//   raw_spin_unlock; the action; note_interrupt's irq_count++;
//   raw_spin_lock; IRQD_IRQ_INPROGRESS cleared; raw_spin_unlock.
// [inferred; offsets from include/linux/irqdesc.h for x86_64 with 64-byte
// lines and CPUMASK_OFFSTACK, as distributions build] The state word opens
// line 0 (the "state line"); action, istate, irq_count and the lock share
// bytes 128-191 (the "lock line").
//
// A vector's descriptor is touched by the CPU its interrupt targets alone,
// so both lines stay in that CPU's cache and the sequence's cost there is
// part of cpu.handler_call_ns. handle()
// returns only what the lines cost beyond that: nothing, until the vector
// moves to another CPU (an affinity change) and the new CPU's first
// interrupt fetches both lines from the old one's cache.
// Not modelled: the slow paths (an interrupt pending or in progress,
// IRQS_ONESHOT), the chip callbacks' own lines (irq_ack is the EOI,
// cpu.eoi_ns), noirqdebug (irq_count shares the line the lock has just
// taken exclusively: a hit either way, inside handler_call_ns).
#include <memory>

#include "model/coherence/shared_line.h"

namespace cidsim {

class EdgeIrqDesc {
public:
    // Lines among the agents of `topology` (the host CPUs), in `cpu`'s
    // cache when the run starts (it has handled the vector since boot).
    EdgeIrqDesc(const SharedLineParams& line, std::shared_ptr<const LineTopology> topology,
                AgentId cpu);

    // handle_edge_irq's accesses by `cpu`: their cost beyond the same
    // accesses to lines `cpu` holds modified.
    sc_core::sc_time handle(AgentId cpu) {
        // Both lines this CPU's, modified: the sequence is hits alone and
        // leaves them as they are.
        if (m_lock.owns_modified(cpu) && m_state.owns_modified(cpu)) return sc_core::SC_ZERO_TIME;
        const sc_core::sc_time cost = sequence(cpu);
        return cost > m_local ? cost - m_local : sc_core::SC_ZERO_TIME;
    }

    const SharedLine& lock_line() const { return m_lock; }
    const SharedLine& state_line() const { return m_state; }

private:
    // The fast path's accesses, their total cost.
    sc_core::sc_time sequence(AgentId cpu);

    SharedLine m_state;
    SharedLine m_lock;
    sc_core::sc_time m_local;  // sequence() on lines the CPU holds modified
};

}  // namespace cidsim
