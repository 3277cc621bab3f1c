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
// Interrupt messages come in on one InPort (kernel/link.h), from any number
// of senders (the remapping unit, IPI sources): for its core's run-ahead it
// tells when a vector could next become pending (earliest_next): messages
// already on their way, the timer, and the least lookahead of its links.
// Messages reaching it are accepted by its core as it wakes at their arrival
// (catch_up): only the core reads IRR, so it sees the same, with one
// activation per message instead of two. With no core, or in a stepwise run
// (where each message is seen at its arrival, also when the core is busy),
// by its own process too. Either way a message that arrives at the
// picosecond the core acts at is accepted first.
#include <array>
#include <cstdint>

#include "model/x86/interrupt_controller.h"
#include "model/base/param_visitor.h"
#include "kernel/link.h"
#include "model/base/stat_visitor.h"
#include "model/base/stats.h"
#include "kernel/step_queue.h"
#include "kernel/timed_queue.h"
#include "kernel/violation.h"
#include "model/x86/trace_observer.h"
#include "model/base/vector_bits.h"

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

// The controller interface is the first base: its calls need no adjustment.
class LocalApic final : public InterruptController,
                        public sc_core::sc_module,
                        private Receiver<Vector>,
                        private TimedStep {
public:
    SC_HAS_PROCESS(LocalApic);
    LocalApic(sc_core::sc_module_name name, const LocalApicParams& params, uint32_t apic_id);

    // Interrupt messages: each sender connects an OutPort<Vector> here; a
    // message sent at `at` reaches this APIC then.
    InPort<Vector>& messages_in() { return m_messages_in; }
    // An interrupt message arriving now, for a testbench standing in for
    // every sender: while no link is connected, the core never runs ahead.
    void accept(Vector vector);

    // InterruptController.
    void let_core_accept() override { m_core_accepts = true; }
    bool core_accepts() const override { return m_core_accepts; }
    const sc_core::sc_event& message_event() const override { return m_incoming.event(); }
    // Accepts the messages that have arrived by now.
    void catch_up() override {
        if (m_incoming.due_by(sim_now())) accept_messages();
    }
    int deliverable() const override;
    Vector acknowledge(const sc_core::sc_time& at) override;
    void end_of_interrupt() override { eoi(); }
    void set_priority(uint8_t priority) override { set_tpr(priority); }
    Promise& promise() override { return m_messages_in.promise(); }
    // No message is accepted and no timer expires before this (exact up to
    // `needed`, as Lookahead answers are).
    sc_core::sc_time earliest_next(const sc_core::sc_time& needed) const override;

    // INTA: moves the deliverable vector from IRR to ISR and returns it.
    Vector acknowledge() { return acknowledge(sim_now()); }
    void eoi();

    // Notified whenever IRR gains a bit or ISR loses one.
    const sc_core::sc_event& irq_event() const override { return m_irq_event; }
    uint32_t apic_id() const { return m_apic_id; }
    const VectorBits& irr() const { return m_irr; }
    const VectorBits& isr() const { return m_isr; }
    const LocalApicStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }
    // EOIs with an empty ISR over the whole run, warm-up included.
    const ViolationCount& empty_eoi_ever() const { return m_empty_eoi_ever; }
    void set_tpr(uint8_t tpr) { m_params.tpr = tpr; }
    void set_observer(TraceObserver* obs);

private:
    void before_end_of_elaboration() override;
    void receive(const sc_core::sc_time& at, const Vector& vector) override;
    void on_message_due();
    // Sets IRR[v] (false: it was set already, the message merges).
    bool latch(Vector v);
    // The periodic timer expires (its first step, at time 0, only arms it).
    void step_due() override;
    void accept_messages();

    LocalApicParams m_params;
    uint32_t m_apic_id;
    VectorBits m_irr;
    VectorBits m_isr;
    TimedQueue<Vector> m_incoming;
    sc_core::sc_event m_irq_event;
    sc_core::sc_time m_timer_expired_at;
    sc_core::sc_time m_next_expiry = never();  // the timer's
    InPort<Vector> m_messages_in;
    bool m_core_accepts = false;
    LocalApicStats m_stats;
    ViolationCount m_empty_eoi_ever;
    TraceObserver* m_obs = nullptr;
};

}  // namespace cidsim
