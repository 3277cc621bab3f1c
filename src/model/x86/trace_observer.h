#pragma once
// TraceObserver: what the blocks report, as it happens, to whoever watches
// a run (the text timeline, the VCD and Perfetto writers, `cidsim explain`).
//
// Every block holds a nullable TraceObserver pointer; with none attached a
// hook costs one pointer test, so the per-MSI path is unchanged when nobody
// watches. Calls are made at the simulated time the event happens
// (sc_time_stamp()), except msi_issued, which names the time the MSI write
// leaves the device (after its DMA), possibly later than now.
// Not reported: cache-line state changes (see SharedLine), root-port DMA.
#include <cstdint>

#include <systemc>

#include "model/base/param_visitor.h"
#include "model/base/vector_bits.h"

namespace cidsim {

// The CPU's steps around one interrupt, in order.
enum class IrqPhase : int { Entry, EntryDone, EoiBegin, EoiDone, Exit };

// One access to a posted-interrupt descriptor [5.2.3] (the PID's own log
// uses the same kinds: see PidOp).
enum class PidEvent : int { Read, Xchg, ClearOn, Post };

class TraceObserver {
public:
    virtual ~TraceObserver() = default;

    // Device: an MSI write leaves device `device` for queue `queue` at `at`.
    virtual void msi_issued(unsigned device, unsigned queue, const sc_core::sc_time& at) = 0;
    // The driver handler of (device, queue) ran on `cpu` and drained this many.
    virtual void device_handler(unsigned device, unsigned queue, unsigned cpu,
                                unsigned drained) = 0;

    // IOMMU: IRTE `index` fetched (from the IEC on a hit).
    virtual void irte_fetched(uint32_t index, bool iec_hit) = 0;
    // IM=0: an interrupt message for `vector` to APIC `apic_id` left the unit.
    virtual void remapped_message(uint32_t index, uint32_t apic_id, Vector vector) = 0;
    // IRTE `index` rewritten by software, or its IEC entry invalidated.
    virtual void irte_written(uint32_t index) = 0;
    virtual void iec_invalidated(uint32_t index) = 0;
    virtual void iommu_fault(uint32_t index, int reason) = 0;

    // PID of CPU `ndst`: an access by a CPU or (Post) by the remapping
    // hardware. `word`/`value` as in PidAccess; for Post, value is the vector
    // and `notify` tells whether a notification is sent.
    virtual void pid_access(uint32_t ndst, PidEvent op, int word, uint64_t value,
                            bool notify) = 0;

    // LAPIC of APIC id `apic`: a message accepted into IRR (merged: the bit
    // was already set), IRR -> ISR dispatch, EOI clearing ISR bit `vector`
    // (-1: EOI with an empty ISR).
    virtual void apic_accept(uint32_t apic, Vector vector, bool merged) = 0;
    virtual void apic_dispatch(uint32_t apic, Vector vector) = 0;
    virtual void apic_eoi(uint32_t apic, int vector) = 0;

    // CPU core.
    virtual void irq_phase(unsigned cpu, IrqPhase phase, Vector vector) = 0;
    // One harvest pass of the demux loop; `final` is the pass after ON is cleared.
    virtual void harvest_begin(unsigned cpu, unsigned pass, bool final) = 0;
    virtual void harvest_end(unsigned cpu, unsigned pass, bool found) = 0;
    // A device vector's handler called (by the IDT or from the demux loop).
    virtual void handler_begin(unsigned cpu, Vector vector) = 0;
    virtual void handler_end(unsigned cpu, Vector vector) = 0;
    // After a notification: PIR bits left with ON clear (nothing will announce them).
    virtual void stranded(unsigned cpu, const VectorBits& pir) = 0;

    // Linux's IRQ affinity change (sim/affinity_move): the interrupt of
    // (device, queue) moved from (from_cpu, from_vector) to (to_cpu, to_vector).
    virtual void irq_moved(unsigned device, unsigned queue, unsigned from_cpu, Vector from_vector,
                           unsigned to_cpu, Vector to_vector) = 0;
    // The old vector's cleanup on `cpu`, whose timer fired at `timer_at`:
    // pending in IRR / PIR; freed or deferred.
    virtual void vector_cleanup(unsigned cpu, Vector vector, const sc_core::sc_time& timer_at,
                                bool in_irr, bool in_pir, bool freed) = 0;
};

}  // namespace cidsim
