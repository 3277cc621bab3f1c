#pragma once
// CpuCore: one logical CPU as a non-preemptible stream of software work in
// simulated time.
//
// Modelled: interrupts are taken only between work items or by interrupting
// application work (which resumes afterwards); an interrupt runs
// with interrupts disabled from IDT entry to iret: entry (IDT vectoring +
// irq_enter), the vector's handler, EOI (x2APIC MSR write), irq_exit. The
// posted-MSI notification vector runs NotificationHandler against this
// CPU's PostedDescriptor, each PID access costed by the SharedLine model;
// other vectors call the registered driver handler (remappable mode: one
// IDT delivery and EOI per device interrupt [mechanism 3]). After each
// notification the core checks for a stranded interrupt: a PIR bit left set
// with ON clear, which no notification will ever announce.
// Exactness with fewer kernel events: PID accesses run ahead of the kernel's
// time, in the core's local time (now + CPU time committed), while no post
// can land on the PID before them; the core tells the remapping unit when it
// can next touch its PID, so a post that lands earlier needs no event of its
// own. Everything else the core does (driver handlers, work, EOI) waits
// until its local time first.
// Counts like /proc/interrupts: PMN per CPU and handler calls per vector.
// Not modelled: the scheduler (work items run FIFO), caches other than the
// PID line, SMT, NMIs, and softirqs (drivers here queue task work).
#include <array>
#include <cstdint>

#include "model/local_apic.h"
#include "model/notification_handler.h"
#include "model/posted_descriptor.h"
#include "model/ring_buffer.h"
#include "model/stats.h"
#include "model/violation.h"
#include "model/trace_observer.h"

namespace cidsim {

// A driver's interrupt handler: does its work at the current time and
// returns the CPU time it takes.
class IrqHandler {
public:
    virtual ~IrqHandler() = default;
    virtual sc_core::sc_time handle(uint32_t cookie, unsigned cpu) = 0;
};

// A piece of software work queued on a CPU: `fn(ctx, arg)` runs once `cost`
// of CPU time has been spent on it.
struct Work {
    sc_core::sc_time cost;
    void (*fn)(void* ctx, uint64_t arg) = nullptr;
    void* ctx = nullptr;
    uint64_t arg = 0;
};

struct CpuCoreParams {
    sc_core::sc_time irq_entry = ns(120);     // IDT vectoring, entry code, irq_enter
    sc_core::sc_time irq_exit = ns(80);       // irq_exit (no softirq) and iret
    sc_core::sc_time eoi = ns(40);            // x2APIC EOI MSR write
    sc_core::sc_time handler_call = ns(15);   // generic_handle_irq dispatch per vector
    sc_core::sc_time timer_handler = ns(800); // local timer interrupt work

    void describe(ParamVisitor& v);
};

struct CpuCoreStats {
    uint64_t interrupts = 0;              // IDT deliveries of any vector
    uint64_t notifications = 0;           // PMN: posted-MSI notification events
    std::array<uint64_t, 256> handler_calls{};  // per device vector (/proc/interrupts)
    uint64_t unhandled_vector_calls = 0;  // a set vector with no registered handler
    uint64_t stranded = 0;                // notifications that left a stranded PIR bit
    sc_core::sc_time first_stranded_at;   // when the first one was found
    uint64_t pid_reads = 0;
    uint64_t pid_xchgs = 0;
    uint64_t pid_clear_on = 0;
    Histogram harvest_passes;             // per notification
    Histogram irq_off_ns;                 // each interrupt's disabled span
    sc_core::sc_time busy;                // interrupt + work time
    sc_core::sc_time irq_time;            // part of busy spent in interrupts
    uint64_t work_items = 0;
};

class CpuCore : public sc_core::sc_module,
                private PirAccessor,
                private HarvestListener,
                private AccessHorizon {
public:
    SC_HAS_PROCESS(CpuCore);
    CpuCore(sc_core::sc_module_name name, const CpuCoreParams& params,
            const NotificationHandlerParams& handler_params, unsigned index, AgentId agent,
            LocalApic& apic, PostedDescriptor& pid);

    // The driver handler for a device vector on this CPU.
    void register_handler(Vector vector, IrqHandler& handler, uint32_t cookie);
    // Frees a vector (Linux's vector cleanup after an affinity change).
    void unregister_handler(Vector vector) { m_handlers[vector] = {}; }
    // Reports interrupt phases, harvest passes and handler calls (nullptr: none).
    void set_observer(TraceObserver* obs);
    // Task work, run FIFO with interrupts enabled (interruptible).
    void queue_task(const Work& w);

    unsigned index() const { return m_index; }
    const CpuCoreStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }
    // Stranded interrupts over the whole run, warm-up included.
    const ViolationCount& stranded_ever() const { return m_stranded_ever; }
    const PostedDescriptor& pid() const { return m_pid; }

private:
    void main();
    void take_interrupt();
    void run_work();
    void spend(const sc_core::sc_time& t);
    // Waits out m_pending: CPU time already committed whose end nothing has
    // observed yet (a loosely-timed annotation, folded into one wait).
    void flush();
    sc_core::sc_time local_now() const { return sc_core::sc_time_stamp() + m_pending; }
    // Before touching the PID: waits only if a post could land first.
    void sync_for_pid();
    // AccessHorizon: can this core touch its PID at or before `at`?
    bool quiet_through(const sc_core::sc_time& at) const override;

    // PirAccessor: the notification handler's accesses, in simulated time.
    uint64_t read_pir(unsigned word) override;
    uint64_t xchg_pir(unsigned word) override;
    void clear_on() override;
    void call_handler(Vector vector) override;
    // HarvestListener (attached only while an observer is).
    void pass_begin(unsigned pass, bool final) override;
    void pass_end(unsigned pass, bool found) override;

    struct HandlerSlot {
        IrqHandler* handler = nullptr;
        uint32_t cookie = 0;
    };

    CpuCoreParams m_params;
    NotificationHandler m_handler;
    unsigned m_index;
    AgentId m_agent;
    LocalApic& m_apic;
    PostedDescriptor& m_pid;
    std::array<HandlerSlot, 256> m_handlers{};
    RingBuffer<Work> m_tasks;
    sc_core::sc_event m_work_queued;
    bool m_in_interrupt = false;
    sc_core::sc_time m_pending;
    sc_core::sc_time m_waiting_until;  // end of the current timed wait
    CpuCoreStats m_stats;
    ViolationCount m_stranded_ever;
    TraceObserver* m_obs = nullptr;
};

}  // namespace cidsim
