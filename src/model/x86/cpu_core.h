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
// IDT delivery and EOI per device interrupt [mechanism 3]) after the
// vector's irq_desc accesses (EdgeIrqDesc: a cost only once its lines sit
// in another CPU's cache, after an affinity change). After each
// notification the core checks for a stranded interrupt: a PIR bit left set
// with ON clear, which no notification will ever announce.
// The core is one SC_METHOD; the notification handler is resumable, so an
// interrupt suspends wherever it must let simulated time pass.
// Order within an interrupt: a remappable device vector is EOId before its
// driver handler runs (handle_edge_irq acks first); the notification vector
// and the timer after their handler, as the sysvec_* entry points do.
// Run-ahead (kernel/lookahead.h): the core keeps a LocalClock, now plus the
// CPU time committed. PID accesses run ahead in local time while no post
// can land on the PID before them; the core tells the remapping unit when
// it can next touch its PID (earliest_next), so a post that lands earlier
// needs no event of its own. A driver handler runs ahead likewise when the
// driver says nothing it sees or changes can be touched by anyone else
// first (IrqHandler::may_handle_at). The EOI takes effect at once (only
// this core reads its ISR) and the interrupt's tail is waited out with what
// follows: the next work item starts in local time, and an interrupt
// arriving meanwhile waits for iret. Work that touches only this CPU's own
// job (Work::ahead) runs in local time while no interrupt can become
// pending before it ends (its controller's lookahead). In a stepwise run
// each step happens at the kernel's time; observers see every step there.
// Ties: each activation first has its controller accept the messages that
// reached it and the PID's poster make its acts due now (a TieOrder, in
// that rank), so at one picosecond those come before the core's own acts,
// whatever order SystemC runs the processes in.
// Counts like /proc/interrupts: PMN per CPU and handler calls per vector.
// Not modelled: the scheduler (work items run FIFO), caches other than the
// PID and irq_desc lines, SMT siblings' sharing of the core's pipeline
// (they share only its caches, topology.threads_per_core), NMIs, and
// softirqs (drivers here queue task work).
#include <array>
#include <cstdint>

#include "kernel/local_clock.h"
#include "model/linux/edge_irq_desc.h"
#include "model/x86/interrupt_controller.h"
#include "model/base/irq_handler.h"
#include "model/linux/irq_thread_params.h"
#include "model/base/task_runner.h"
#include "model/linux/notification_handler.h"
#include "model/x86/posted_descriptor.h"
#include "model/base/ring_buffer.h"
#include "kernel/sim_clock.h"
#include "kernel/violation.h"
#include "model/base/stat_visitor.h"
#include "model/base/stats.h"
#include "model/x86/trace_observer.h"

namespace cidsim {

struct CpuCoreParams {
    sc_core::sc_time irq_entry = ns(150);     // IDT vectoring, entry code, irq_enter
    sc_core::sc_time irq_exit = ns(80);       // irq_exit (no softirq) and iret
    sc_core::sc_time eoi = ns(40);            // x2APIC EOI MSR write
    sc_core::sc_time handler_call = ns(15);   // generic_handle_irq dispatch per vector
    sc_core::sc_time timer_handler = ns(800); // local timer interrupt work
    IrqThreadParams irq_thread;               // a threaded handler's wake-up, switch, loop

    void describe(ParamVisitor& v);
};

struct CpuCoreStats {
    uint64_t interrupts = 0;              // IDT deliveries of any vector
    uint64_t notifications = 0;           // PMN: posted-MSI notification events
    std::array<uint64_t, 256> handler_calls{};  // per device vector (/proc/interrupts)
    uint64_t unhandled_vector_calls = 0;  // a set vector with no registered handler
    uint64_t stranded = 0;                // notifications that left a stranded PIR bit
    uint64_t retriggers_without_eoi = 0;  // posted vectors taken through the IDT, not EOId
    sc_core::sc_time first_stranded_at;   // when the first one was found
    uint64_t pid_reads = 0;
    uint64_t pid_xchgs = 0;
    uint64_t pid_clear_on = 0;
    Histogram harvest_passes;             // per notification
    Histogram irq_off_ns;                 // each interrupt's disabled span
    sc_core::sc_time busy;                // interrupt + work time
    sc_core::sc_time irq_time;            // part of busy spent in interrupts
    uint64_t work_items = 0;

    void describe(StatVisitor& v) const;
};

class CpuCore : public sc_core::sc_module, public TaskRunner, private PirAccessor, private Lookahead {
public:
    SC_HAS_PROCESS(CpuCore);
    CpuCore(sc_core::sc_module_name name, const CpuCoreParams& params,
            const NotificationHandlerParams& handler_params, unsigned index, AgentId agent,
            InterruptController& controller, PostedDescriptor& pid);

    // The driver handler for a device vector on this CPU, and the vector's
    // irq_desc (none: a vector with no Linux descriptor, as in a bench).
    void register_handler(Vector vector, IrqHandler& handler, uint32_t cookie,
                          EdgeIrqDesc* desc = nullptr);
    // Frees a vector (Linux's vector cleanup after an affinity change).
    void unregister_handler(Vector vector) { m_handlers[vector] = {}; }
    // Device vectors are posted MSIs (posted mode): one that arrives through
    // the IDT is a retrigger, acked by intel_ack_posted_msi_irq.
    void set_posted_msi(bool posted) { m_posted_msi = posted; }
    // Reports interrupt phases, harvest passes and handler calls (nullptr: none).
    void set_observer(TraceObserver* obs);
    // Task work, run FIFO with interrupts enabled (interruptible).
    void queue_task(const Work& w) final;

    unsigned index() const final { return m_index; }
    const CpuCoreStats& stats() const { return m_stats; }
    // Busy and interrupt time count from now: an interrupt or a work item
    // under way counts only its part after the reset (busy <= the window).
    void reset_stats() {
        m_stats = {};
        m_stats_from = sc_core::sc_time_stamp();
    }
    // A window ends now: an interrupt or a work item under way counts its
    // part up to now in this window's busy time, the rest in the next.
    void count_busy_until_now();
    // Stranded interrupts over the whole run, warm-up included.
    const ViolationCount& stranded_ever() const { return m_stranded_ever; }
    const PostedDescriptor& pid() const { return m_pid; }

private:
    // What wakes the core, known once its LAPIC has decided who accepts.
    void end_of_elaboration() override;
    // The core's one process (an SC_METHOD): accepts the messages that reached
    // its LAPIC, takes interrupts, runs work, sleeps; each activation goes on
    // until the core must wait.
    void step();
    // The interrupt being taken, from IDT entry to iret, resumable (see
    // kernel/resumable.h): false while it waits, true once it has returned.
    bool interrupt();
    // Work: false once the front item has run (zero cost, or ahead in local
    // time), true while it runs.
    bool start_work();
    // May the front item run in local time, no interrupt arriving first?
    bool may_work_ahead(const sc_core::sc_time& end);
    // sync() for the step loop: false (Settling) while CPU time is to pass.
    bool settle();
    bool may_take_interrupt_ahead();
    // May the core act in local time up to `t`: within the window, and no
    // interrupt can become pending before?
    bool irq_quiet_until(const sc_core::sc_time& t);
    // May the PID be accessed at `t` (no post before)?
    bool pid_quiet_at(const sc_core::sc_time& t);
    // Another process may have run, or this core may have set one going.
    void forget_lookaheads() {
        m_pid_lookahead.forget();
        m_irq_lookahead.forget();
    }
    void end_work();
    // The front item is done as at `at`: its function runs.
    void finish_work(const sc_core::sc_time& at);
    // Lookahead: when this core may next touch its PID.
    sc_core::sc_time earliest_next(const sc_core::sc_time& needed) const override;
    // Stepwise, every step is made at the kernel's time: false while
    // waiting for it. Run ahead, true at once.
    bool sync_if_stepwise() { return !stepwise() || m_clock.sync(); }
    void report(IrqPhase phase) {
        if (m_obs) m_obs->irq_phase(m_index, phase, m_vector);
    }
    void check_stranded();

    // PirAccessor: the handler's steps, made in local time; each refuses
    // (after arranging the wait) when it must wait for the kernel's time.
    bool read_pir(unsigned word, uint64_t& value) override;
    bool xchg_pir(unsigned word, uint64_t& value) override;
    bool clear_on() override;
    bool call_handler(Vector vector) override;
    bool pass_begin(unsigned pass, bool final) override;
    bool pass_end(unsigned pass, bool found) override;
    bool handler_returned(Vector vector) override;
    // The PID access is to be made now: false (waiting) if a post could land first.
    bool sync_for_pid();
    // A PID access (`access` sets its cost), counted in `count`, once synced.
    template <class Access>
    bool access_pid(uint64_t& count, Access access);

    struct HandlerSlot {
        IrqHandler* handler = nullptr;
        uint32_t cookie = 0;
        EdgeIrqDesc* desc = nullptr;
    };
    // Settling: waiting out the last interrupt's tail before anything else.
    enum class Activity : uint8_t { Idle, Settling, Work, Interrupt };

    CpuCoreParams m_params;
    NotificationHandler m_handler;
    unsigned m_index;
    AgentId m_agent;
    InterruptController& m_apic;
    PostedDescriptor& m_pid;
    std::array<HandlerSlot, 256> m_handlers{};
    RingBuffer<Work> m_tasks;
    sc_core::sc_event m_work_queued;
    sc_core::sc_event_or_list m_interrupt_wake;  // a vector may have become pending
    sc_core::sc_event_or_list m_wake;            // ... or new work, when idle
    Activity m_activity = Activity::Idle;
    bool m_in_interrupt = false;
    bool m_posted_msi = false;
    bool m_retrigger_eoi_fix = true;
    LocalClock m_clock;
    TieOrder m_before_me;  // caught up first thing in each activation
    // PID accesses before m_pid_lookahead need no wait. Kept while nothing
    // this core does can change it: for the rest of the activation, up to
    // the next driver call or work done ahead.
    KeptLookahead m_pid_lookahead;
    // No interrupt becomes pending before m_irq_lookahead; kept likewise.
    KeptLookahead m_irq_lookahead;
    // The interrupt being taken, across its suspensions.
    int m_irq_resume = 0;
    Vector m_vector = 0;
    sc_core::sc_time m_irq_start;
    // When the work item running started.
    sc_core::sc_time m_work_start;
    CpuCoreStats m_stats;
    sc_core::sc_time m_stats_from;  // the last reset_stats()
    ViolationCount m_stranded_ever;
    TraceObserver* m_obs = nullptr;
};

}  // namespace cidsim
