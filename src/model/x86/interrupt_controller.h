#pragma once
// InterruptController: what a CPU core needs of the interrupt controller
// in front of it (x86's local APIC today; another controller, such as a
// POWER XIVE thread context, can sit behind a core the same way).
// Modelled by the implementations; this is only the contract: messages
// are accepted into a pending set, the highest deliverable one is
// acknowledged (its priority then masks lower ones) and ended by an EOI.
// For run-ahead, a controller is its core's one sender of interrupts: it
// answers how long no interrupt can become pending (a Lookahead, the least
// over its own links and timers) and keeps the Promise its core relied on;
// as a Participant, it accepts the messages that have arrived by now, ahead
// of its core's acts at the same picosecond.
#include <systemc>

#include "kernel/lookahead.h"
#include "kernel/tie_order.h"
#include "model/base/vector_bits.h"

namespace cidsim {

class InterruptController : public Lookahead, public Participant {
public:
    // Called during elaboration by a core that has it catch up first thing
    // each time it runs, and wakes on message_event() if core_accepts().
    virtual void let_core_accept() = 0;
    // Whether only the core accepts: decided at the end of elaboration.
    virtual bool core_accepts() const = 0;
    // Notified when the earliest message on its way arrives.
    virtual const sc_core::sc_event& message_event() const = 0;
    // Notified whenever a vector may have become deliverable.
    virtual const sc_core::sc_event& irq_event() const = 0;

    // Highest vector the core would take now if interrupts were enabled, or -1.
    virtual int deliverable() const = 0;
    // Takes the deliverable vector, as at time `at` (the core's local time,
    // not before now; nothing accepted in between).
    virtual Vector acknowledge(const sc_core::sc_time& at) = 0;
    // End of interrupt: the highest in-service vector is done.
    virtual void end_of_interrupt() = 0;
    // The task priority: vectors of this class and below are masked.
    virtual void set_priority(uint8_t priority) = 0;

    // The core's run-ahead relies on earliest_next(); the controller checks
    // its messages against what was relied on.
    virtual Promise& promise() = 0;
};

}  // namespace cidsim
