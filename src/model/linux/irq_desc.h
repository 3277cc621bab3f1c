#pragma once
// IrqDesc: Linux's generic IRQ layer as data (systems.md D, "The one
// store"): one irq_desc laid on cache lines as include/linux/irqdesc.h lays
// it for ppc64 (NR_CPUS=2048, 128-byte lines): bytes 256-383 hold
// irq_count with everything the dispatch reads (irq_data.irq, .chip,
// .chip_data, kstat_irqs, handle_irq, action, ...), and irqs_unhandled
// starts the next line. handle_percpu_irq's accesses on the fast path:
//   - the per-CPU kstat increment: this CPU's own memory, no shared line;
//   - the dispatch: loads of the hot line (desc->action and the chip);
//   - note_interrupt (kernel/irq/spurious.c), unless noirqdebug:
//     irq_count++, a store into the hot line; with Nick Piggin's fast path
//     (7c07012eb1be) a load of irqs_unhandled instead, which stays shared.
// Every CPU fights over the hot line (a ContendedLine, served in the
// fabric's order); irqs_unhandled's line is only read on the fast path.
// Not modelled: the slow paths (unhandled interrupts, the 100 000-count
// check of note_interrupt), desc->lock (handle_percpu_irq takes none), the
// other lines of the descriptor.
#include <string>
#include <vector>

#include "model/coherence/contended_line.h"

namespace cidsim {

// What note_interrupt does on the fast path.
enum class IrqDebug : int { Off, On, Piggin };
extern const char* const kIrqDebugNames[3];

class IrqDesc {
public:
    IrqDesc(const std::string& name, const SharedLineParams& line,
            std::shared_ptr<const LineTopology> cpus, IrqDebug debug, LineOrder order, uint64_t seed);

    // The dispatch's loads: `r` learns when `cpu` has them.
    void dispatch(AgentId cpu, LineRequester& r) { m_hot.request(cpu, LineAccess::Load, r); }
    // note_interrupt's fast path: `r` learns when it is done.
    void note_interrupt(AgentId cpu, LineRequester& r);

    const SharedLine& hot_line() const { return m_hot.line(); }
    // Every hot-line access that is not a hit goes here while set (explain).
    void record_into(std::vector<LineTransferRecord>* log) { m_hot.record_into(log); }
    const SharedLine& unhandled_line() const { return m_unhandled; }
    void reset_stats();

private:
    IrqDebug m_debug;
    ContendedLine m_hot;     // bytes 256-383: irq_count and the dispatch's fields
    SharedLine m_unhandled;  // bytes 384-511: irqs_unhandled onwards
};

}  // namespace cidsim
