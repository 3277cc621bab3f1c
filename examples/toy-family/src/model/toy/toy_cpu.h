#pragma once
// A toy machine family, the smallest that shows what a family writes
// (docs/architecture.md, "Adding a machine family"): CPUs that only tick,
// sending one interrupt message per tick to a controller that only counts
// them, over a link. Nothing here models real hardware.
#include <cstdint>
#include <vector>

#include <systemc>

#include "kernel/link.h"
#include "model/base/param_visitor.h"
#include "model/base/stat_visitor.h"

namespace cidsim {

struct ToyParams {
    uint64_t cpus = 2;
    sc_core::sc_time tick = ns(1000);  // between a CPU's interrupts

    void describe(ParamVisitor& v);
};

struct ToyStats {
    uint64_t interrupts = 0;  // the controller's count, over every CPU

    void describe(StatVisitor& v) const;
};

// Counts the messages its CPUs send.
class ToyController final : public Receiver<unsigned> {
public:
    ToyController() : m_in(*this, "toy_controller") {}
    InPort<unsigned>& messages_in() { return m_in; }
    void receive(const sc_core::sc_time&, const unsigned&) override { ++m_stats.interrupts; }
    const ToyStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }

private:
    InPort<unsigned> m_in;
    ToyStats m_stats;
};

// Sends one message per tick, at the kernel's time (no lookahead).
class ToyCpu final : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ToyCpu);
    ToyCpu(sc_core::sc_module_name name, const ToyParams& params, unsigned cpu);
    OutPort<unsigned>& out() { return m_out; }

private:
    void tick();

    const ToyParams& m_params;
    unsigned m_cpu;
    bool m_started = false;  // the first activation, at time 0, only schedules
    OutPort<unsigned> m_out;
};

}  // namespace cidsim
