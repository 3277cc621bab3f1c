#pragma once
// Xive: one chip's XIVE interrupt controller as the IPI path uses it
// (systems.md D, steps (2), (4), (5) and (7)): each CPU's hardware IPI
// source lives on its own chip; a store to the source's trigger page (from
// any chip) updates the ESB's PQ bits, writes the target's event queue and
// raises the exception, one lumped latency after the store arrives; the
// router handles one event at a time (occupancy). The target acknowledges
// with a TIMA load and ends with an ESB EOI load, costs the CPU pays. A
// trigger arrives over the XIVE's link and the exception leaves over the
// link to the target CPU (kernel/link.h), both at the kernel's time.
// Not modelled: PQ coalescing of a trigger that finds P set (one sender per
// target never sends twice before the EOI), escalations, the VP/NVT tables,
// interrupts other than IPIs.
#include <cstdint>
#include <map>

#include "kernel/link.h"
#include "model/base/param_visitor.h"
#include "model/base/stat_visitor.h"

namespace cidsim {

struct XiveParams {
    sc_core::sc_time trigger = ns(400);      // trigger store -> exception at the target, same chip
    sc_core::sc_time cross_chip = ns(200);   // extra when the store comes from another chip
    sc_core::sc_time occupancy = ns(20);     // the router's time per event
    sc_core::sc_time tima_ack = ns(150);     // xive_get_irq: the TIMA acknowledge load and EQ read
    sc_core::sc_time esb_eoi = ns(150);      // xive_ipi_eoi: the ESB EOI load

    void describe(ParamVisitor& v);
};

struct XiveStats {
    uint64_t triggers = 0;
    uint64_t cross_chip_triggers = 0;  // stores that came from another chip
    uint64_t queued = 0;               // events that waited for the router
    void describe(StatVisitor& v) const;
};

// A trigger store to a XIVE: from which chip, for which CPU's IPI source.
struct XiveTrigger {
    unsigned from_chip;
    unsigned cpu;
};

// What reaches a POWER CPU over its link: the IPI exception (from its
// chip's XIVE, at the time it is raised), a sender's set_nr_if_polling
// kick, a target's csd_unlock landing in this CPU's csd line.
enum class PowerCpuMsg : uint8_t { Ipi, PollKick, CsdReleased };

class Xive final : public Receiver<XiveTrigger> {
public:
    Xive(const XiveParams& params, unsigned chip)
        : m_params(params), m_chip(chip), m_in(*this, "xive" + std::to_string(chip)) {}

    InPort<XiveTrigger>& triggers_in() { return m_in; }
    // The link to a CPU whose IPI source lives on this chip.
    OutPort<PowerCpuMsg>& exception_out(unsigned cpu) { return m_to_cpu[cpu]; }
    // Raises the target's exception when trigger() says.
    void receive(const sc_core::sc_time& at, const XiveTrigger& t) override {
        m_to_cpu.at(t.cpu).send(trigger(t.from_chip, at), PowerCpuMsg::Ipi);
    }

    // A trigger store issued at `now` from a CPU on `from_chip`: when the
    // target thread's exception is raised.
    sc_core::sc_time trigger(unsigned from_chip, const sc_core::sc_time& now) {
        ++m_stats.triggers;
        sc_core::sc_time arrive = now;
        if (from_chip != m_chip) {
            ++m_stats.cross_chip_triggers;
            arrive += m_params.cross_chip;
        }
        if (m_free_at > arrive) {
            ++m_stats.queued;
            arrive = m_free_at;
        }
        m_free_at = arrive + m_params.occupancy;
        return arrive + m_params.trigger;
    }
    const XiveParams& params() const { return m_params; }
    const XiveStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }

private:
    const XiveParams& m_params;
    unsigned m_chip;
    InPort<XiveTrigger> m_in;
    std::map<unsigned, OutPort<PowerCpuMsg>> m_to_cpu;
    sc_core::sc_time m_free_at;
    XiveStats m_stats;
};

}  // namespace cidsim
