#pragma once
// IrqThread: Linux's threaded interrupt handler for one device vector, as a
// driver gets it from request_threaded_irq(irq, NULL, thread_fn, IRQF_ONESHOT)
// (kernel/irq/manage.c). idxd (DSA) requests its work-queue interrupts this
// way (drivers/dma/idxd/device.c, idxd_wq_thread).
//
// Modelled:
//  - the hard handler, irq_default_primary_handler, returns IRQ_WAKE_THREAD
//    and __irq_wake_thread does test_and_set_bit(IRQTF_RUNTHREAD): a thread
//    that sleeps is woken (`wakeup`, try_to_wake_up of a SCHED_FIFO thread);
//    one that is queued or running only gets the bit set, so interrupts
//    arriving meanwhile merge into one more pass of the thread;
//  - the thread (irq_thread): each pass clears IRQTF_RUNTHREAD
//    (irq_wait_for_interrupt) and then runs the driver's thread function,
//    which drains every completion visible then (Device::handle); if the bit
//    was set again during the pass it loops, otherwise it sleeps;
//  - the thread runs as task work on the CPU its interrupt was taken on
//    (irq_thread_check_affinity follows the effective affinity): with
//    interrupts enabled, interruptible, each pass queued behind the work
//    already queued on that CPU. A pass that follows another IRQ thread's
//    queued pass on that CPU pays a context switch, as does a wake-up.
// IRQF_ONESHOT is dropped for PCI MSI ("PCI-MSI is oneshot-safe",
// drivers/pci/msi/irqdomain.c sets IRQCHIP_ONESHOT_SAFE and __setup_irq
// clears IRQF_ONESHOT): the vector is not masked while the thread runs;
// each MSI still takes a hard interrupt (entry, this handler, EOI).
// Not modelled: strict SCHED_FIFO (a looping thread here goes behind work
// already queued on its CPU, so two IRQ threads on one CPU alternate per
// pass, as under SCHED_RR with a one-pass slice), RT throttling, priority
// against other RT threads, the thread's migration cost when affinity moves.
#include <cstdint>
#include <vector>

#include "model/base/irq_handler.h"
#include "model/linux/irq_thread_params.h"
#include "model/base/param_visitor.h"
#include "model/base/task_runner.h"

namespace cidsim {

struct IrqThreadStats {
    uint64_t wakeups = 0;   // hard interrupts that woke the sleeping thread
    uint64_t merged = 0;    // hard interrupts that found IRQTF_RUNTHREAD set or the thread busy
    uint64_t passes = 0;    // runs of the thread function
    uint64_t switches = 0;  // context switches charged
};

// The IRQ threads of every CPU: which one queued the last pass on each CPU
// (a pass queued behind another thread's pays a switch). One per system.
class IrqThreadRunQueues {
public:
    explicit IrqThreadRunQueues(std::vector<TaskRunner*> cpus)
        : m_cpus(std::move(cpus)), m_last(m_cpus.size(), nullptr) {}
    TaskRunner& cpu(unsigned i) const { return *m_cpus.at(i); }
    // Records `t` as the last to queue a pass on `cpu`; true if another was.
    bool switch_needed(unsigned cpu, const void* t) {
        const bool other = m_last.at(cpu) != t;
        m_last[cpu] = t;
        return other;
    }

private:
    std::vector<TaskRunner*> m_cpus;
    std::vector<const void*> m_last;
};

class IrqThread : public IrqHandler {
public:
    IrqThread(const IrqThreadParams& params, IrqHandler& thread_fn, uint32_t cookie,
              IrqThreadRunQueues& runqueues)
        : m_params(params), m_thread_fn(thread_fn), m_cookie(cookie), m_rq(runqueues) {}

    // The hard handler (irq_default_primary_handler + __irq_wake_thread).
    sc_core::sc_time handle(uint32_t cookie, unsigned cpu, const sc_core::sc_time& at) override;

    const IrqThreadStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }

private:
    enum class State : uint8_t { Sleeping, Queued, Running };
    // Queues one pass on `cpu`: its overhead, then the thread function.
    void queue_pass(unsigned cpu, bool woken);
    static void start_pass(void* self, uint64_t cpu, const sc_core::sc_time& at);
    static void end_pass(void* self, uint64_t cpu, const sc_core::sc_time& at);

    IrqThreadParams m_params;
    IrqHandler& m_thread_fn;
    uint32_t m_cookie;
    IrqThreadRunQueues& m_rq;
    State m_state = State::Sleeping;
    bool m_run_thread = false;  // IRQTF_RUNTHREAD
    IrqThreadStats m_stats;
};

}  // namespace cidsim
