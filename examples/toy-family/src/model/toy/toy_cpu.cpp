#include "model/toy/toy_cpu.h"

namespace cidsim {

void ToyParams::describe(ParamVisitor& v) {
    v.integer("cpus", cpus, "", 1, 64, "the toy machine's CPUs (a toy: nothing real is modelled)");
    v.time("tick_ns", tick, 1, 1e9,
           "time between one CPU's interrupts (a toy value, no source: any 1 ns - 1 s)");
}

void ToyStats::describe(StatVisitor& v) const {
    v.count(in_block("interrupts"), interrupts, "count",
            "interrupt messages the controller counted, over every CPU");
}

ToyCpu::ToyCpu(sc_core::sc_module_name name, const ToyParams& params, unsigned cpu)
    : sc_module(name), m_params(params), m_cpu(cpu) {
    SC_METHOD(tick);
}

void ToyCpu::tick() {
    if (m_started) m_out.send(sc_core::sc_time_stamp(), m_cpu);
    m_started = true;
    next_trigger(m_params.tick);
}

}  // namespace cidsim
