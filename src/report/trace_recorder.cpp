#include "report/trace_recorder.h"

#include <algorithm>
#include <cstdio>

#include "sim/system.h"

namespace cidsim {

TraceContext TraceContext::of(const System& system) {
    TraceContext c;
    c.cpus = system.host().cpu_count();
    c.posted = system.config().mode == RemapMode::Posted;
    c.device_names = system.host().view().device_names;
    for (const Device* d : system.host().view().devices) c.device_queues.push_back(d->queues());
    c.end = sc_core::sc_time_stamp();
    return c;
}

std::string TraceContext::queue_name(unsigned device, unsigned queue) const {
    const std::string name =
        device < device_names.size() ? device_names[device] : "dev" + std::to_string(device);
    const bool one = device < device_queues.size() && device_queues[device] == 1;
    return one ? name : name + "-q" + std::to_string(queue);
}

std::string hex_vector(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", v);
    return buf;
}

std::string format_ns(const sc_core::sc_time& t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ns_of(t));
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

TraceRecord& TraceRecorder::add_at(const sc_core::sc_time& at, TraceKind kind) {
    if (m_events.size() >= m_max) {
        m_truncated = true;
        return m_discard = TraceRecord{};
    }
    if (!m_events.empty() && at < m_events.back().at) m_sorted = false;
    m_events.push_back(TraceRecord{});
    TraceRecord& e = m_events.back();
    e.at = at;
    e.kind = kind;
    return e;
}

TraceRecord& TraceRecorder::add(TraceKind kind) { return add_at(sc_core::sc_time_stamp(), kind); }

const std::vector<TraceRecord>& TraceRecorder::events() {
    if (!m_sorted) {
        std::stable_sort(m_events.begin(), m_events.end(),
                         [](const TraceRecord& a, const TraceRecord& b) { return a.at < b.at; });
        m_sorted = true;
    }
    return m_events;
}

void TraceRecorder::msi_issued(unsigned device, unsigned queue, const sc_core::sc_time& at) {
    TraceRecord& e = add_at(at, TraceKind::Msi);
    e.device = uint16_t(device);
    e.queue = uint16_t(queue);
}

void TraceRecorder::device_handler(unsigned device, unsigned queue, unsigned cpu,
                                   unsigned drained) {
    TraceRecord& e = add(TraceKind::DeviceHandler);
    e.device = uint16_t(device);
    e.queue = uint16_t(queue);
    e.cpu = uint16_t(cpu);
    e.value = drained;
}

void TraceRecorder::irte_fetched(uint32_t index, bool iec_hit) {
    TraceRecord& e = add(TraceKind::IrteFetch);
    e.index = index;
    e.flag = iec_hit;
}

void TraceRecorder::remapped_message(uint32_t index, uint32_t apic_id, Vector vector) {
    TraceRecord& e = add(TraceKind::RemapMessage);
    e.index = index;
    e.cpu = uint16_t(apic_id);
    e.vector = vector;
}

void TraceRecorder::irte_written(uint32_t index) { add(TraceKind::IrteWrite).index = index; }
void TraceRecorder::iec_invalidated(uint32_t index) { add(TraceKind::IecInvalidate).index = index; }

void TraceRecorder::iommu_fault(uint32_t index, int reason) {
    TraceRecord& e = add(TraceKind::IommuFault);
    e.index = index;
    e.value = uint64_t(reason);
}

void TraceRecorder::pid_access(uint32_t ndst, PidEvent op, int word, uint64_t value,
                               bool notify) {
    static const TraceKind kinds[] = {TraceKind::PidRead, TraceKind::PidXchg,
                                      TraceKind::PidClearOn, TraceKind::PidPost};
    TraceRecord& e = add(kinds[int(op)]);
    e.cpu = uint16_t(ndst);
    e.word = word;
    e.value = value;
    e.flag = notify;
    if (op == PidEvent::Post) e.vector = Vector(value);
}

void TraceRecorder::apic_accept(uint32_t apic, Vector vector, bool merged) {
    TraceRecord& e = add(TraceKind::ApicAccept);
    e.cpu = uint16_t(apic);
    e.vector = vector;
    e.flag = merged;
}

void TraceRecorder::apic_dispatch(uint32_t apic, Vector vector) {
    TraceRecord& e = add(TraceKind::ApicDispatch);
    e.cpu = uint16_t(apic);
    e.vector = vector;
}

void TraceRecorder::apic_eoi(uint32_t apic, int vector) {
    TraceRecord& e = add(TraceKind::ApicEoi);
    e.cpu = uint16_t(apic);
    e.word = vector;
}

void TraceRecorder::irq_phase(unsigned cpu, IrqPhase phase, Vector vector) {
    TraceRecord& e = add(TraceKind::Irq);
    e.cpu = uint16_t(cpu);
    e.vector = vector;
    e.word = int(phase);
}

void TraceRecorder::harvest_begin(unsigned cpu, unsigned pass, bool final) {
    TraceRecord& e = add(TraceKind::HarvestBegin);
    e.cpu = uint16_t(cpu);
    e.value = pass;
    e.flag = final;
}

void TraceRecorder::harvest_end(unsigned cpu, unsigned pass, bool found) {
    TraceRecord& e = add(TraceKind::HarvestEnd);
    e.cpu = uint16_t(cpu);
    e.value = pass;
    e.flag = found;
}

void TraceRecorder::handler_begin(unsigned cpu, Vector vector) {
    TraceRecord& e = add(TraceKind::HandlerBegin);
    e.cpu = uint16_t(cpu);
    e.vector = vector;
}

void TraceRecorder::handler_end(unsigned cpu, Vector vector) {
    TraceRecord& e = add(TraceKind::HandlerEnd);
    e.cpu = uint16_t(cpu);
    e.vector = vector;
}

void TraceRecorder::stranded(unsigned cpu, const VectorBits& pir) {
    TraceRecord& e = add(TraceKind::Stranded);
    e.cpu = uint16_t(cpu);
    e.value = pir.count();
    const int v = pir.highest();
    e.vector = Vector(v < 0 ? 0 : v);
}

void TraceRecorder::irq_moved(unsigned device, unsigned queue, unsigned from_cpu,
                              Vector from_vector, unsigned to_cpu, Vector to_vector) {
    TraceRecord& e = add(TraceKind::IrqMoved);
    e.device = uint16_t(device);
    e.queue = uint16_t(queue);
    e.cpu = uint16_t(from_cpu);
    e.vector = from_vector;
    e.index = to_cpu;
    e.value = to_vector;
}

void TraceRecorder::vector_cleanup(unsigned cpu, Vector vector, const sc_core::sc_time& timer_at,
                                   bool in_irr, bool in_pir, bool freed) {
    TraceRecord& e = add(TraceKind::VectorCleanup);
    e.cpu = uint16_t(cpu);
    e.vector = vector;
    e.word = in_irr;
    e.index = in_pir;
    e.flag = freed;
    e.value = timer_at.value();
}

}  // namespace cidsim
