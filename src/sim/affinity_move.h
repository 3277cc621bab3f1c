#pragma once
// AffinityMove: Linux changing one device interrupt's CPU affinity while the
// interrupt is in flight, and cleaning up the old vector afterwards
// (arch/x86/kernel/apic/vector.c, drivers/iommu/intel/irq_remapping.c).
//
// Modelled: at `at`, a free vector on the new CPU gets the driver handler,
// the IRTE is rewritten to the new CPU (new PID in posted mode) and its IEC
// entry invalidated [6.5.2.5]; an MSI whose IRTE the IOMMU fetched before
// that still posts into the old CPU's PIR (the IOMMU keeps the IRTE it
// fetched, see iommu.h). The move schedules the old vector's cleanup
// (intel_ir_set_affinity -> vector_schedule_cleanup): a timer on the old
// CPU, due `cleanup_after` later and re-armed every `cleanup_retry` while
// the vector is pending. Its callback (vector_cleanup_callback) runs on the
// old CPU in softirq context, so never inside an interrupt: it waits for
// the interrupt under way to end. It frees the old vector (removes the
// handler) only when is_vector_pending() is false, where pending means the
// IRR bit or, with `check_pir` (Linux since posted MSI), the PIR bit. With
// check_pir off, a bit in the old PIR finds no handler when harvested: the
// completion is not drained (the failure the PIR check prevents).
// Simplified: the callback and the move take no CPU time; the callback runs
// as the old CPU's task work, so it also waits for work queued before it
// (Linux's softirq would run it at the next irq_exit); the retry interval
// stands for Linux's one-jiffy cleanup timer, scaled down; no retrigger IPI
// (fixup_irqs on CPU offline) is modelled.
#include <cstdint>
#include <string>

#include <systemc>

#include "model/x86/trace_observer.h"

namespace cidsim {

class System;

struct AffinityMoveParams {
    sc_core::sc_time at = ns(50);                // when the IRTE is re-pointed
    std::string device = "dev0";
    uint64_t queue = 0;
    uint64_t to_cpu = 1;
    sc_core::sc_time cleanup_after = ns(150);    // the cleanup timer, after the move
    sc_core::sc_time cleanup_retry = ns(1000);   // its re-arm interval while pending
    bool check_pir = true;                       // is_vector_pending looks at PIR too
};

struct AffinityMoveOutcome {
    bool moved = false;
    unsigned from_cpu = 0;
    Vector from_vector = 0;
    unsigned to_cpu = 0;
    Vector to_vector = 0;
    unsigned cleanup_checks = 0;
    bool found_pending_in_pir = false;  // a check found the old vector's PIR bit set
    bool freed = false;
    sc_core::sc_time freed_at;
};

class AffinityMove : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(AffinityMove);
    // Throws std::invalid_argument naming the bad field.
    AffinityMove(sc_core::sc_module_name name, const AffinityMoveParams& params, System& system,
                 TraceObserver* obs);

    const AffinityMoveOutcome& outcome() const { return m_outcome; }

private:
    void step();
    // The cleanup timer's callback, on the old CPU (a Work function).
    static void cleanup_callback(void* self, uint64_t, const sc_core::sc_time& at);
    void clean_up_old_vector(const sc_core::sc_time& at);

    AffinityMoveParams m_params;
    System& m_system;
    TraceObserver* m_obs;
    size_t m_route = 0;
    bool m_started = false;
    sc_core::sc_time m_timer_due;        // when the cleanup timer last fired
    sc_core::sc_event m_timer_rearmed;   // the callback found the vector pending
    AffinityMoveOutcome m_outcome;
};

}  // namespace cidsim
