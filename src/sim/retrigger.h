#pragma once
// Retrigger: Linux's irq_retrigger() of one device interrupt
// (kernel/irq/resend.c -> irq_chip_retrigger_hierarchy -> apic_retrigger_irq,
// arch/x86/kernel/apic/vector.c), as fixup_irqs does when a CPU goes offline
// with an interrupt pending: an IPI of the device vector itself to the CPU
// it is routed to, at each of `at`. In posted mode that vector then arrives
// through the IDT, outside the demux handler, and only the late-2025 fix
// gives it an EOI (handler.retrigger_eoi_fix, cpu_core.h).
// Simplified: the IPI reaches the LAPIC at its send time (no ICR write cost,
// no IPI latency); the sender declares no lookahead, so the CPU it targets
// acts at the kernel's time while it is connected (kernel/link.h).
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "kernel/link.h"
#include "model/base/vector_bits.h"

namespace cidsim {

class System;

struct RetriggerParams {
    std::vector<sc_core::sc_time> at;  // when irq_retrigger() sends the IPI
    std::string device = "dev0";
    uint64_t queue = 0;
};

struct RetriggerOutcome {
    unsigned cpu = 0;
    Vector vector = 0;
    unsigned sent = 0;
    bool stale_isr_at_end = false;  // the vector's ISR bit still set when the run ended
    bool pending_at_end = false;    // ... and its IRR bit: a retrigger never delivered
};

class Retrigger : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Retrigger);
    // Throws std::invalid_argument naming the bad field.
    Retrigger(sc_core::sc_module_name name, const RetriggerParams& params, System& system);
    // The state of the vector at the LAPIC, once the run has ended.
    RetriggerOutcome outcome() const;

private:
    void step();

    RetriggerParams m_params;
    System& m_system;
    OutPort<Vector> m_ipi;
    unsigned m_cpu = 0;
    Vector m_vector = 0;
    size_t m_next = 0;
    unsigned m_sent = 0;
};

}  // namespace cidsim
