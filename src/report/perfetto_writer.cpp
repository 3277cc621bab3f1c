#include "report/perfetto_writer.h"

#include <nlohmann/json.hpp>

namespace cidsim {

using nlohmann::json;

namespace {

constexpr int kIommuTid = 1000;
constexpr int kDevicesTid = 1001;

double us(const sc_core::sc_time& t) { return ns_of(t) / 1000.0; }

struct Open {
    sc_core::sc_time at;
    std::string name;
};

}  // namespace

void write_perfetto_events(TraceEventWriter& out, const std::vector<TraceRecord>& events,
                           const TraceContext& ctx, const TimelineWindow& window) {
    out.name_process("cidsim");
    for (unsigned c = 0; c < ctx.cpus; ++c) out.name_track(int(c), "CPU" + std::to_string(c));
    out.name_track(kIommuTid, "IOMMU");
    out.name_track(kDevicesTid, "devices (MSIs)");

    auto inside = [&](const sc_core::sc_time& t) { return t >= window.from && t < window.to; };
    auto span = [&](unsigned tid, const Open& o, const sc_core::sc_time& end, json args = {}) {
        if (!inside(o.at)) return;
        json e = {{"name", o.name}, {"cat", "cpu"}, {"ph", "X"}, {"pid", kTracePid}, {"tid", tid},
                  {"ts", us(o.at)}, {"dur", us(end - o.at)}};
        if (!args.is_null()) e["args"] = std::move(args);
        out.event(e);
    };
    auto instant = [&](int tid, const sc_core::sc_time& t, const std::string& name, const char* cat,
                       json args = {}) {
        if (!inside(t)) return;
        json e = {{"name", name}, {"cat", cat}, {"ph", "i"}, {"s", "t"}, {"pid", kTracePid},
                  {"tid", tid}, {"ts", us(t)}};
        if (!args.is_null()) e["args"] = std::move(args);
        out.event(e);
    };
    auto counter = [&](const sc_core::sc_time& t, const std::string& name, const char* key,
                       uint64_t v) {
        if (!inside(t)) return;
        out.event(
            {{"name", name}, {"ph", "C"}, {"pid", kTracePid}, {"ts", us(t)}, {"args", {{key, v}}}});
    };

    struct CpuOpen {
        Open irq, phase, pass, handler;
        unsigned drained = 0;
        VectorBits pir;
    };
    std::vector<CpuOpen> cpu(ctx.cpus);
    for (const TraceRecord& e : events) {
        if (out.truncated()) break;
        if (e.kind == TraceKind::Msi) {
            instant(kDevicesTid, e.at, "MSI " + ctx.queue_name(e.device, e.queue), "device");
            continue;
        }
        const bool per_cpu = e.kind != TraceKind::IrteFetch && e.kind != TraceKind::IrteWrite &&
                             e.kind != TraceKind::IecInvalidate && e.kind != TraceKind::IommuFault;
        if (per_cpu && e.cpu >= ctx.cpus) continue;
        CpuOpen& k = cpu[per_cpu ? e.cpu : 0];
        const std::string c = "CPU" + std::to_string(e.cpu);
        switch (e.kind) {
            case TraceKind::Irq:
                switch (IrqPhase(e.word)) {
                    case IrqPhase::Entry: {
                        const std::string what = e.vector == ctx.nv ? "notification "
                                               : e.vector == kLocalTimerVector ? "timer "
                                                                               : "interrupt ";
                        k.irq = {e.at, what + hex_vector(e.vector)};
                        k.phase = {e.at, "entry"};
                        break;
                    }
                    case IrqPhase::EntryDone: span(e.cpu, k.phase, e.at); break;
                    case IrqPhase::EoiBegin: k.phase = {e.at, "EOI"}; break;
                    case IrqPhase::EoiDone:
                        span(e.cpu, k.phase, e.at);
                        k.phase = {e.at, "exit"};
                        break;
                    case IrqPhase::Exit:
                        span(e.cpu, k.phase, e.at);
                        span(e.cpu, k.irq, e.at, {{"vector", hex_vector(e.vector)}});
                        break;
                }
                break;
            case TraceKind::HarvestBegin:
                k.pass = {e.at, e.flag ? "final harvest" : "harvest " + std::to_string(e.value)};
                break;
            case TraceKind::HarvestEnd:
                span(e.cpu, k.pass, e.at, {{"found", bool(e.flag)}});
                break;
            case TraceKind::HandlerBegin:
                k.handler = {e.at, "handler " + hex_vector(e.vector)};
                k.drained = 0;
                break;
            case TraceKind::DeviceHandler:
                k.handler.name = "handler " + ctx.queue_name(e.device, e.queue);
                k.drained = unsigned(e.value);
                break;
            case TraceKind::HandlerEnd:
                span(e.cpu, k.handler, e.at, {{"vector", hex_vector(e.vector)}, {"drained", k.drained}});
                break;
            case TraceKind::PidClearOn:
                instant(e.cpu, e.at, "clear ON", "pid");
                counter(e.at, c + " ON", "ON", 0);
                break;
            case TraceKind::PidXchg:
                if (e.word >= 0 && e.word < 4 && k.pir.word[e.word]) {
                    k.pir.word[e.word] = 0;
                    counter(e.at, c + " PIR bits", "bits", k.pir.count());
                }
                break;
            case TraceKind::PidPost:
                k.pir.set(e.vector);
                counter(e.at, c + " PIR bits", "bits", k.pir.count());
                if (e.flag) counter(e.at, c + " ON", "ON", 1);
                instant(kIommuTid, e.at,
                        "post " + hex_vector(e.vector) + " -> " + c +
                            (e.flag ? ": notification sent" : ": suppressed (ON set)"),
                        "iommu", {{"notify", bool(e.flag)}});
                break;
            case TraceKind::RemapMessage:
                instant(kIommuTid, e.at, "remapped message " + hex_vector(e.vector) + " -> " + c,
                        "iommu");
                break;
            case TraceKind::IrteFetch:
                instant(kIommuTid, e.at,
                        "IRTE " + std::to_string(e.index) + (e.flag ? " fetch (IEC hit)" : " fetch (IEC miss)"),
                        "iommu");
                break;
            case TraceKind::IrteWrite:
                instant(kIommuTid, e.at, "IRTE " + std::to_string(e.index) + " rewritten", "iommu");
                break;
            case TraceKind::IecInvalidate:
                instant(kIommuTid, e.at, "IEC invalidate " + std::to_string(e.index), "iommu");
                break;
            case TraceKind::IommuFault:
                instant(kIommuTid, e.at, "fault on IRTE " + std::to_string(e.index), "iommu");
                break;
            case TraceKind::Stranded:
                instant(e.cpu, e.at, "STRANDED PIR bit " + hex_vector(e.vector), "pid");
                break;
            case TraceKind::VectorCleanup:
                instant(e.cpu, e.at,
                        "vector cleanup " + hex_vector(e.vector) + (e.flag ? ": freed" : ": pending, deferred"),
                        "linux", {{"irr", e.word}, {"pir", e.index}});
                break;
            case TraceKind::IrqMoved:
                instant(e.cpu, e.at, "IRQ moved to CPU" + std::to_string(e.index), "linux");
                break;
            default:
                break;
        }
    }
}

}  // namespace cidsim
