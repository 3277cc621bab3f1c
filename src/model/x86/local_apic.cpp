#include "model/x86/local_apic.h"

#include <string>

#include "kernel/event_count.h"

namespace cidsim {

using sc_core::sc_time;

void LocalApicParams::describe(ParamVisitor& v) {
    v.time("timer_period_ns", timer_period, 0, 1e12, "local timer period (0: no timer; else at least 1 us, the closest Linux programs a clock event)");
    v.integer("tpr", tpr, "", 0, 255, "task priority register (class = tpr >> 4)");
}

LocalApic::LocalApic(sc_core::sc_module_name name, const LocalApicParams& params,
                     uint32_t apic_id)
    : sc_module(name),
      m_params(params),
      m_apic_id(apic_id),
      m_messages_in(*this, std::string(this->name()) + ".messages_in") {
    if (m_params.timer_period > sc_core::SC_ZERO_TIME) {
        m_next_expiry = m_params.timer_period;
        StepQueue::instance().push(sc_core::SC_ZERO_TIME, *this);
    }
}

void LocalApic::set_observer(TraceObserver* obs) { m_obs = obs; }

void LocalApic::before_end_of_elaboration() {
    m_core_accepts = m_core_accepts && !stepwise();
    if (m_core_accepts) return;
    SC_METHOD(on_message_due);
    sensitive << m_incoming.event();
    dont_initialize();
}

void LocalApic::receive(const sc_time& at, const Vector& vector) { m_incoming.push(at, vector); }

void LocalApic::on_message_due() {
    m_incoming.pop_due([this](Vector v) { accept(v); });
}

void LocalApic::accept_messages() {
    m_incoming.take_due([this](Vector v) { latch(v); });
    // Its core runs as the first message arrives: the event fired for it.
    if (m_core_accepts) count_timed_event();
}

bool LocalApic::latch(Vector v) {
    ++m_stats.accepted[v];
    const bool merged = m_irr.test(v);
    if (merged)
        ++m_stats.merged[v];
    else
        m_irr.set(v);
    if (m_obs) m_obs->apic_accept(m_apic_id, v, merged);
    return !merged;
}

void LocalApic::accept(Vector v) {
    if (!latch(v)) return;
    count_delta_event();
    m_irq_event.notify(sc_core::SC_ZERO_TIME);
}

void LocalApic::step_due() {
    m_next_expiry = sim_now() + m_params.timer_period;
    StepQueue::instance().push(m_next_expiry, *this);
    count_timed_event();
    if (sim_now() == sc_core::SC_ZERO_TIME) return;
    ++m_stats.timer_expiries;
    if (!m_irr.test(kLocalTimerVector)) m_timer_expired_at = sim_now();
    accept(kLocalTimerVector);
}

int LocalApic::deliverable() const {
    int v = m_irr.highest();
    if (v < 0) return -1;
    int isr_class = m_isr.highest() >> 4;  // -1 >> 4 == -1: empty ISR
    int ppr_class = std::max(int(m_params.tpr >> 4), isr_class);
    return (v >> 4) > ppr_class ? v : -1;
}

Vector LocalApic::acknowledge(const sc_time& at) {
    int v = deliverable();
    sc_assert(v >= 0);
    m_irr.clear(unsigned(v));
    m_isr.set(unsigned(v));
    ++m_stats.dispatched[v];
    if (m_obs) m_obs->apic_dispatch(m_apic_id, Vector(v));
    if (v == kLocalTimerVector) {
        const sc_time delay = at - m_timer_expired_at;
        m_stats.timer_delay_ns.record(whole_ns(delay));
    }
    return Vector(v);
}

void LocalApic::eoi() {
    ++m_stats.eois;
    int v = m_isr.highest();
    if (m_obs) m_obs->apic_eoi(m_apic_id, v);
    if (v < 0) {
        ++m_stats.eoi_with_empty_isr;
        m_empty_eoi_ever.note();
        return;
    }
    m_isr.clear(unsigned(v));
    if (m_irr.any()) {
        count_delta_event();
        m_irq_event.notify(sc_core::SC_ZERO_TIME);
    }
}

void LocalApicStats::describe(StatVisitor& v) const {
    v.per_vector(unreported("accepted"), accepted,
                 "interrupt messages accepted into IRR (set the bit or merged into it)");
    v.per_vector(unreported("merged"), merged,
                 "accepted messages that found the IRR bit already set (coalesced)");
    v.per_vector(in_block("lapic_deliveries"), dispatched,
                 "acknowledges (INTA) that moved the vector from IRR to ISR on its CPU");
    v.count(unreported("eois"), eois, "count", "EOI writes");
    v.count(in_total("eoi_with_empty_isr"), eoi_with_empty_isr, "count",
            "EOI writes with no vector in service: a software bug if non-zero");
    v.count(unreported("timer_expiries"), timer_expiries, "count",
            "local timer expiries (each raises vector 0xEC)");
    v.histogram(in_block_and_total("timer_delay_ns", "timer_delay_ns"), timer_delay_ns, "ns",
                "per local timer interrupt, from the expiry (the first still pending) to its "
                "acknowledge by the core");
}

}  // namespace cidsim
