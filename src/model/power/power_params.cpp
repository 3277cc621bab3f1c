#include "model/power/power_params.h"

namespace cidsim {

const char* const kIpiDescsNames[2] = {"system", "chip"};

void PowerParams::describe(ParamVisitor& v) {
    v.counts("cores_per_chip", cores_per_chip, 1, 64,
               "cores of each chip, CPUs numbered chip-major (P9: [16, 16] SMT4; P10 partition: "
               "[12, 10, 10, 12] SMT8; systems.md D)");
    v.integer("threads_per_core", threads_per_core, "threads", 1, 8,
              "SMT threads per core: 1, 2, 4 or 8 (SMT1 to SMT8)");
    visit_choice(v, "ipi_descs", ipi_descs, kIpiDescsNames,
                 "system: one irq_desc for every hardware IPI (IPI/sys); chip: one per chip, "
                 "each CPU using its chip's (IPI/chip, the series' fix)");
    visit_choice(v, "irqdebug", irqdebug, kIrqDebugNames,
                 "note_interrupt on the fast path: on (irq_count++ into the dispatch's line), "
                 "off (noirqdebug), piggin (7c07012eb1be: a load of irqs_unhandled)");
    visit_choice(v, "desc_line_order", desc_line_order, kLineOrderNames,
                 "which waiting CPU the fabric serves the IPI descriptor's hot line to next: "
                 "random (colliding requests are retried, so no queue orders them; each free "
                 "line goes to a waiting request picked uniformly) or fifo (in the order the "
                 "requests were made). Source: assumed, POWER's snooping fabric answers "
                 "colliding requests with retry (ContendedLine)");
    v.flag("idle_poll", idle_poll,
           "an idle CPU polls (pseries snooze sets TIF_POLLING_NRFLAG), so a sender finding it "
           "so sets need_resched instead of sending an IPI (set_nr_if_polling, "
           "kernel/sched/core.c); the idle loop then runs the call queue, no interrupt counted");
    v.time("call_prep_ns", call_prep, 0, 1e5,
           "smp_call_function_single up to the enqueue: preempt_disable, get_cpu, csd_lock "
           "(its csd line apart). Source: guess; range 50-400 ns");
    v.time("enqueue_ns", enqueue, 0, 1e5,
           "__smp_call_single_queue: llist_add besides the queue-head line's cmpxchg. Source: "
           "guess; range 5-50 ns");
    v.time("message_ns", message, 0, 1e5,
           "smp_muxed_ipi_message_pass: the set_bit into ipi_message and smp_mb, besides its "
           "line. Source: guess; range 10-100 ns");
    v.time("cause_ipi_ns", cause_ipi, 0, 1e5,
           "xive_cause_ipi: issuing the trigger-page MMIO store (cache-inhibited, sync before). "
           "Source: guess; range 20-200 ns");
    v.time("exception_entry_ns", exception_entry, 0, 1e5,
           "external exception entry to do_IRQ (interrupt prologue, irq_enter). Source: guess; "
           "range 50-300 ns");
    v.time("exception_exit_ns", exception_exit, 0, 1e5,
           "irq_exit and the interrupt return. Source: guess; range 50-300 ns");
    v.time("kstat_ns", kstat, 0, 1e5,
           "kstat_incr_irqs_this_cpu: a per-CPU counter, this CPU's memory only. Source: guess; "
           "range 2-20 ns");
    v.time("demux_ns", demux, 0, 1e5,
           "smp_ipi_demux besides the xchg of ipi_message's line. Source: guess; range 10-100 ns");
    v.time("flush_ns", flush, 0, 1e5,
           "flush_smp_call_function_queue besides llist_del_all's line: the list walk and "
           "do_nothing_ipi. Source: guess; range 20-200 ns");
    v.time("unlock_ns", unlock, 0, 1e5,
           "csd_unlock besides the store into the sender's csd line. Source: guess; range 2-30 ns");
    v.time("randomness_ns", randomness, 0, 1e5,
           "add_interrupt_randomness (per-CPU fast pool). Source: guess; range 20-200 ns");
    v.time("note_interrupt_ns", note_interrupt, 0, 1e5,
           "note_interrupt's code besides its line access (when irqdebug is on or piggin). "
           "Source: guess; range 5-50 ns");
    v.time("usleep_enter_ns", usleep_enter, 0, 1e6,
           "usleep_range(0, 1): hrtimer_start_range_ns and schedule() to the idle task. Source: "
           "guess; range 200-1500 ns");
    v.time("timer_delta_ns", timer_delta, 0, 1e6,
           "from arming the already-expired hrtimer to its decrementer exception (the minimum "
           "delta, kernel/time/hrtimer.c). Source: guess; range 10-500 ns");
    v.time("timer_handler_ns", timer_handler, 0, 1e6,
           "the decrementer exception: timer_interrupt, hrtimer_interrupt, the wake-up of the "
           "kthread, entry and exit included. Source: guess; range 300-2000 ns");
    v.time("usleep_exit_ns", usleep_exit, 0, 1e6,
           "the switch back from idle to the kthread. Source: guess; range 200-1500 ns");
    v.time("loop_ns", loop, 0, 1e6,
           "the rest of one ipistorm iteration on this machine (the loop, SMT sharing of the "
           "core). Source: FITTED per machine to an E2 noirqdebug IPI/sys figure (P9 0-63, P10 "
           "0-79; systems.md D; scripts/ipistorm_fit.py); plausible range 1-8 us, a guess (the "
           "scheduler's switch to idle and back under SMT4-8 sharing)");
    v.time("loop_jitter_ns", loop_jitter, 0, 1e6,
           "each iteration's loop takes a further uniform [0, this) from the run's seed: the "
           "timing noise of everything not modelled (the loop's own cache misses, SMT "
           "sharing). Source: guess; range 0-1000 ns");
    v.time("poll_exit_ns", poll_exit, 0, 1e6,
           "an idle CPU leaving its poll loop for need_resched and running the call queue "
           "(flush_smp_call_function_from_idle), lines apart. Source: guess; range 50-500 ns");
}

}  // namespace cidsim
