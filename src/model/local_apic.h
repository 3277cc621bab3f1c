#pragma once
// LocalApic: one CPU's local APIC in x2APIC mode (Intel SDM vol. 3, ch. 11).
//
// Modelled: 256-bit IRR and ISR; fixed delivery of interrupt messages (a
// message to a vector whose IRR bit is already set merges into it and is
// counted); priority classes (vector >> 4), TPR and the processor priority
// PPR = max(TPR class, highest ISR class); dispatch of the highest IRR vector
// whose class exceeds PPR; EOI clearing the highest ISR bit (an EOI with an
// empty ISR is counted as an error); the local timer in periodic mode on
// vector 0xEC, with the delay from expiry to dispatch recorded.
// Not modelled: logical destination modes, NMI/SMI/INIT, the level-triggered
// EOI broadcast, the timer's one-shot and TSC-deadline modes, and the cost
// of the MSR writes (charged by CpuCore).
// For its core's run-ahead, it tells when a vector could next become
// pending (quiet_before): messages already on their way, the timer, and what
// the remapping unit answers for messages it has not sent yet.
// Messages reaching it are accepted by its core as it wakes at their arrival
// (accept_arrived): only the core reads IRR, so it sees the same, with one
// activation per message instead of two. With no core, or an observer (who
// sees each message at its arrival, also when the core is busy), by its own
// process too. Either way a message that arrives at the picosecond the core
// acts at is accepted first.
#include <array>
#include <cstdint>

#include "model/param_visitor.h"
#include "model/run_ahead.h"
#include "model/stat_visitor.h"
#include "model/stats.h"
#include "model/timed_queue.h"
#include "model/violation.h"
#include "model/trace_observer.h"
#include "model/vector_bits.h"

namespace cidsim {

struct LocalApicParams {
    sc_core::sc_time timer_period = ns(1e6);  // local timer period; 0 disables it
    uint64_t tpr = 0;                         // task priority register

    void describe(ParamVisitor& v);
};

struct LocalApicStats {
    std::array<uint64_t, 256> accepted{};  // messages that set or merged into IRR[v]
    std::array<uint64_t, 256> merged{};    // ... of which found IRR[v] already set
    std::array<uint64_t, 256> dispatched{};
    uint64_t eois = 0;
    uint64_t eoi_with_empty_isr = 0;  // a software bug if non-zero
    uint64_t timer_expiries = 0;
    Histogram timer_delay_ns;  // timer expiry -> dispatch of vector 0xEC

    void describe(StatVisitor& v) const;
};

class LocalApic : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(LocalApic);
    LocalApic(sc_core::sc_module_name name, const LocalApicParams& params, uint32_t apic_id);

    // An interrupt message that reaches this APIC at absolute time `at`.
    void deliver_at(const sc_core::sc_time& at, Vector vector);
    // An interrupt message arriving now.
    void accept(Vector vector);

    // Called during elaboration by a core that calls accept_arrived() first
    // thing each time it runs, and wakes on message_event() if core_accepts().
    void let_core_accept() { m_core_accepts = true; }
    // Whether only the core accepts: decided at the end of elaboration, once
    // the observer is known.
    bool core_accepts() const { return m_core_accepts; }
    // Notified when the earliest message on its way arrives.
    const sc_core::sc_event& message_event() const { return m_incoming.event(); }
    // Accepts the messages that have arrived by now.
    void accept_arrived() {
        if (m_incoming.due_by(sim_now())) accept_messages();
    }

    // The remapping unit answers when a message it has not sent yet could
    // reach this LAPIC (without it: any time).
    void attach_sender(const AccessHorizon& sender) { m_sender = &sender; }
    // No message is accepted and no timer expires before this (exact up to
    // `needed`, as AccessHorizon's answers are).
    sc_core::sc_time quiet_before(const sc_core::sc_time& needed) const;

    // Highest vector the core would take now if interrupts were enabled, or -1.
    int deliverable() const;
    // INTA: moves the deliverable vector from IRR to ISR and returns it, as
    // at time `at` (its core's, not before now; nothing accepted in between).
    Vector acknowledge(const sc_core::sc_time& at);
    Vector acknowledge() { return acknowledge(sim_now()); }
    void eoi();

    // Notified whenever IRR gains a bit or ISR loses one.
    const sc_core::sc_event& irq_event() const { return m_irq_event; }
    uint32_t apic_id() const { return m_apic_id; }
    const VectorBits& irr() const { return m_irr; }
    const VectorBits& isr() const { return m_isr; }
    const LocalApicStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }
    // EOIs with an empty ISR over the whole run, warm-up included.
    const ViolationCount& empty_eoi_ever() const { return m_empty_eoi_ever; }
    void set_tpr(uint8_t tpr) { m_params.tpr = tpr; }
    // Before the simulation starts: the observer decides who accepts messages.
    void set_observer(TraceObserver* obs);

private:
    void before_end_of_elaboration() override;
    void on_message_due();
    // Sets IRR[v] (false: it was set already, the message merges).
    bool latch(Vector v);
    void on_timer();
    void accept_messages();

    LocalApicParams m_params;
    uint32_t m_apic_id;
    VectorBits m_irr;
    VectorBits m_isr;
    TimedQueue<Vector> m_incoming;
    sc_core::sc_event m_irq_event;
    sc_core::sc_time m_timer_expired_at;
    sc_core::sc_time m_next_expiry = never();  // the timer's
    const AccessHorizon* m_sender = nullptr;
    bool m_core_accepts = false;
    LocalApicStats m_stats;
    ViolationCount m_empty_eoi_ever;
    TraceObserver* m_obs = nullptr;
};

}  // namespace cidsim
