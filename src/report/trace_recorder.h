#pragma once
// TraceRecorder: a TraceObserver that keeps every event of a run in memory,
// in time order, for the writers (text timeline and narration, VCD,
// Perfetto). Events are small fixed-size records; recording stops (and says
// so) at a limit, so a long run cannot exhaust memory.
#include <cstdint>
#include <string>
#include <vector>

#include "model/x86/trace_observer.h"

namespace cidsim {

class System;

enum class TraceKind : uint8_t {
    Msi,            // device, queue (at: when the write leaves the device)
    DeviceHandler,  // device, queue, cpu, value = completions drained
    IrteFetch,      // index, flag = IEC hit
    RemapMessage,   // index, cpu = destination APIC, vector
    IrteWrite,      // index
    IecInvalidate,  // index
    IommuFault,     // index, value = reason
    PidRead,        // cpu = PID owner, word, value read
    PidXchg,        // cpu, word, value swapped out
    PidClearOn,     // cpu
    PidPost,        // cpu, vector, flag = notification sent
    ApicAccept,     // cpu = APIC id, vector, flag = merged
    ApicDispatch,   // cpu, vector
    ApicEoi,        // cpu, word = vector cleared (-1: none)
    Irq,            // cpu, vector, word = IrqPhase
    HarvestBegin,   // cpu, value = pass, flag = final (after ON cleared)
    HarvestEnd,     // cpu, value = pass, flag = found something
    HandlerBegin,   // cpu, vector
    HandlerEnd,     // cpu, vector
    Stranded,       // cpu, value = PIR population
    IrqMoved,       // device, queue, cpu -> index (new cpu), vector -> value (new vector)
    VectorCleanup,  // cpu, vector, word = in IRR, index = in PIR, flag = freed,
                    // value = when its timer fired (ps)
};

struct TraceRecord {
    sc_core::sc_time at;
    TraceKind kind;
    bool flag = false;
    Vector vector = 0;
    uint16_t cpu = 0;
    uint16_t device = 0;
    uint16_t queue = 0;
    int32_t word = 0;
    uint32_t index = 0;
    uint64_t value = 0;
};

// Names the writers need, taken from the built system.
struct TraceContext {
    unsigned cpus = 0;
    bool posted = false;
    Vector nv = kPostedMsiNotificationVector;
    std::vector<std::string> device_names;
    std::vector<unsigned> device_queues;
    sc_core::sc_time end;  // simulated time when the run stopped

    static TraceContext of(const System& system);
    std::string queue_name(unsigned device, unsigned queue) const;
};

class TraceRecorder final : public TraceObserver {
public:
    explicit TraceRecorder(size_t max_events = 4000000) : m_max(max_events) {}

    // Events sorted by time (stable: same-time events keep their order).
    const std::vector<TraceRecord>& events();
    bool truncated() const { return m_truncated; }

    void msi_issued(unsigned device, unsigned queue, const sc_core::sc_time& at) override;
    void device_handler(unsigned device, unsigned queue, unsigned cpu, unsigned drained) override;
    void irte_fetched(uint32_t index, bool iec_hit) override;
    void remapped_message(uint32_t index, uint32_t apic_id, Vector vector) override;
    void irte_written(uint32_t index) override;
    void iec_invalidated(uint32_t index) override;
    void iommu_fault(uint32_t index, int reason) override;
    void pid_access(uint32_t ndst, PidEvent op, int word, uint64_t value, bool notify) override;
    void apic_accept(uint32_t apic, Vector vector, bool merged) override;
    void apic_dispatch(uint32_t apic, Vector vector) override;
    void apic_eoi(uint32_t apic, int vector) override;
    void irq_phase(unsigned cpu, IrqPhase phase, Vector vector) override;
    void harvest_begin(unsigned cpu, unsigned pass, bool final) override;
    void harvest_end(unsigned cpu, unsigned pass, bool found) override;
    void handler_begin(unsigned cpu, Vector vector) override;
    void handler_end(unsigned cpu, Vector vector) override;
    void stranded(unsigned cpu, const VectorBits& pir) override;
    void irq_moved(unsigned device, unsigned queue, unsigned from_cpu, Vector from_vector,
                   unsigned to_cpu, Vector to_vector) override;
    void vector_cleanup(unsigned cpu, Vector vector, const sc_core::sc_time& timer_at,
                        bool in_irr, bool in_pir, bool freed) override;

private:
    TraceRecord& add(TraceKind kind);
    TraceRecord& add_at(const sc_core::sc_time& at, TraceKind kind);

    size_t m_max;
    bool m_truncated = false;
    bool m_sorted = true;
    std::vector<TraceRecord> m_events;
    TraceRecord m_discard{};
};

// "0x24"
std::string hex_vector(unsigned v);
// A time in ns, printed with up to 3 decimals and no trailing zeros.
std::string format_ns(const sc_core::sc_time& t);

}  // namespace cidsim
