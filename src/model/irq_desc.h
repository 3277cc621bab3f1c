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
// Every CPU fights over the hot line, so it is used serialised
// (SharedLine::access_serialised at the kernel's time).
// Not modelled: the slow paths (unhandled interrupts, the 100 000-count
// check of note_interrupt), desc->lock (handle_percpu_irq takes none), the
// other lines of the descriptor.
#include <vector>

#include "model/shared_line.h"

namespace cidsim {

// One access to the hot line that did not hit, as `cidsim explain` shows it.
struct DescLineAccess {
    sc_core::sc_time asked, done;
    AgentId cpu = 0;
    bool store = false;       // irq_count++ (else the dispatch's loads)
    AgentId from = 0;         // who supplied the line (== cpu: it had a copy, an upgrade)
    bool from_memory = false; // no cache held it
    unsigned invalidated = 0; // copies the store invalidated
    unsigned invalidated_remote = 0;  // ... of them on another chip
    bool cross_chip = false;  // the supplier is on another chip
    bool queued = false;      // it waited behind earlier transfers at the line's home
};

// What note_interrupt does on the fast path.
enum class IrqDebug : int { Off, On, Piggin };
extern const char* const kIrqDebugNames[3];

class IrqDesc {
public:
    IrqDesc(const SharedLineParams& line, std::shared_ptr<const LineTopology> cpus, IrqDebug debug);

    // The dispatch's loads; returns when `cpu` has them.
    sc_core::sc_time dispatch(AgentId cpu, const sc_core::sc_time& now);
    // note_interrupt's fast path; returns when it is done.
    sc_core::sc_time note_interrupt(AgentId cpu, const sc_core::sc_time& now);

    const SharedLine& hot_line() const { return m_hot; }
    // Every hot-line access that is not a hit goes here while set (explain).
    void record_into(std::vector<DescLineAccess>* log) { m_log = log; }
    const SharedLine& unhandled_line() const { return m_unhandled; }
    void reset_stats();

private:
    sc_core::sc_time hot_access(AgentId cpu, LineAccess kind, const sc_core::sc_time& now) {
        return m_log ? logged_access(cpu, kind, now) : m_hot.access_serialised(cpu, kind, now);
    }
    [[gnu::cold, gnu::noinline]] sc_core::sc_time logged_access(AgentId cpu, LineAccess kind,
                                                               const sc_core::sc_time& now);

    IrqDebug m_debug;
    std::vector<DescLineAccess>* m_log = nullptr;
    SharedLine m_hot;        // bytes 256-383: irq_count and the dispatch's fields
    SharedLine m_unhandled;  // bytes 384-511: irqs_unhandled onwards
};

}  // namespace cidsim
