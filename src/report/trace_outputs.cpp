#include "report/trace_outputs.h"

#include <iostream>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "config/json_text.h"
#include "io/output_file.h"
#include "report/interrupts_table.h"
#include "report/perfetto_writer.h"
#include "report/results.h"
#include "report/vcd_writer.h"

namespace cidsim {

TraceSession::TraceSession(const TraceOutputs& options, System& system)
    : m_options(options), m_system(system) {
    if (options.columns < 10 || options.columns > 1000)
        throw std::invalid_argument("--columns: expected 10..1000");
    if (!options.window.empty()) {
        const TimelineWindow w =
            parse_window(options.window, system.config().run.warmup + system.config().run.duration);
        // A column shorter than the simulation's picosecond shows nothing of its own.
        if (options.timeline && w.to - w.from < sc_core::sc_time(options.columns, sc_core::SC_PS))
            throw std::invalid_argument("--window-ns " + options.window + ": " +
                                        format_number(ns_of(w.to - w.from) * 1000) +
                                        " ps in " + std::to_string(options.columns) +
                                        " columns: one column would be below a picosecond, the "
                                        "simulation's resolution (a wider window or fewer "
                                        "--columns)");
    }
    if (options.records()) {
        m_recorder = std::make_unique<TraceRecorder>();
        system.attach_observer(m_recorder.get());
    }
    if (options.records() && system.vcpu_count())
        m_vm = std::make_unique<VmTraceLogs>(system,
                                             options.timeline || !options.perfetto_path.empty());
    // The host's rows show neither a Xen domain's vCPUs nor a POWER
    // partition: their explain logs draw them.
    if (options.timeline && system.xen_vcpu_count())
        m_xen = std::make_unique<XenExplainLogs>(system);
    if (options.timeline && system.power()) m_power = std::make_unique<PowerExplainLogs>(system);
    if (options.interrupts)
        system.on_reset([this] {
            // The warm-up's reset ends no measured window: its counts go.
            if (sc_core::sc_time_stamp() > m_system.config().run.warmup) m_interrupts.add(m_system);
            else m_interrupts = {};
        });
}

TraceSession::~TraceSession() {
    if (m_recorder) m_system.attach_observer(nullptr);
    if (m_xen) m_xen->detach();
    if (m_power) m_power->detach();
    if (m_options.interrupts) m_system.on_reset(nullptr);
}

// The host's rows (a POWER partition's replace its idle host's), then each
// vCPU's or the Xen domain's.
std::vector<TimelineRow> TraceSession::timeline_of(const std::vector<TraceRecord>& events,
                                                   const TraceContext& ctx,
                                                   const TimelineWindow& w) const {
    std::vector<TimelineRow> rows;
    const auto add = [&](const nlohmann::json& explained) {
        for (const nlohmann::json& r : explained["rows"])
            rows.push_back({r["label"].get<std::string>(), r["cells"].get<std::string>(),
                            r["note"].get<std::string>()});
    };
    if (m_power) {
        add(m_power->explain(w, w, 0, "power"));
        return rows;
    }
    for (const TimelineRow& r : timeline_rows(events, ctx, w, ctx.posted ? "posted" : "remappable"))
        if (!((m_vm || m_xen) && blank_host_row(r))) rows.push_back(r);
    if (m_vm)
        for (TimelineRow& r : m_vm->timeline_rows(w)) rows.push_back(std::move(r));
    if (m_xen) add(m_xen->explain(w, w, 0, "xen"));
    return rows;
}

std::string TraceSession::legends() const {
    return std::string(m_vm ? std::string(kVmTimelineLegend) + "\n" : "") +
           (m_xen ? std::string(kXenTimelineLegend) + "\n" : "") +
           (m_power ? std::string(kPowerTimelineLegend) + "\n" : "");
}

void TraceSession::finish(std::ostream& out, OutputBatch& files) {
    if (m_recorder) {
        const TraceContext ctx = TraceContext::of(m_system);
        const std::vector<TraceRecord>& events = m_recorder->events();
        const sc_core::sc_time start = m_system.config().run.warmup;
        TimelineWindow whole{start, ctx.end, m_options.columns};
        if (!m_options.window.empty()) whole = parse_window(m_options.window, ctx.end);
        whole.columns = m_options.columns;
        if (m_recorder->truncated())
            out << "note: the trace recorder stopped at its event limit; later events are missing\n";
        if (m_options.timeline) {
            TimelineWindow w = whole;
            // Without a window, a long run's timeline shows its first 20 us.
            if (m_options.window.empty() && w.to - w.from > ns(20000)) w.to = w.from + ns(20000);
            out << "\ntimeline " << format_ns(w.from) << " .. " << format_ns(w.to)
                << " ns (choose with --window-ns A:B)\n"
                << render_timeline(timeline_of(events, ctx, w), w) << legends();
        }
        if (!m_options.vcd_path.empty())
            files.add(m_options.vcd_path,
                      vcd_text(events, ctx, whole,
                               m_vm ? m_vm->vcd_wires() : std::vector<VcdWire>{}));
        if (!m_options.perfetto_path.empty()) {
            TraceEventWriter perfetto(m_options.perfetto_limit);
            write_perfetto_events(perfetto, events, ctx, whole);
            if (m_vm) m_vm->add_perfetto_tracks(perfetto, whole);
            if (perfetto.truncated())
                std::cerr << "note: --trace-perfetto " << m_options.perfetto_path
                          << ": stopped at --trace-limit " << m_options.perfetto_limit
                          << " events; later events (of a VM run, later vCPUs' tracks) are not "
                             "in it (raise --trace-limit or narrow --window-ns)\n";
            files.add(m_options.perfetto_path, std::move(perfetto).take_document());
        }
    }
    if (m_options.interrupts) {
        InterruptCounts all = m_interrupts;
        all.add(m_system);
        out << "\n" << interrupts_table(m_system, all);
    }
}

}  // namespace cidsim
