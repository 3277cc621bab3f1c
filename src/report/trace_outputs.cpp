#include "report/trace_outputs.h"

#include <ostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "report/interrupts_table.h"
#include "report/perfetto_writer.h"
#include "report/results.h"
#include "report/vcd_writer.h"

namespace cidsim {

TraceSession::TraceSession(const TraceOutputs& options, System& system)
    : m_options(options), m_system(system) {
    if (!options.window.empty())
        parse_window(options.window, system.config().run.warmup + system.config().run.duration);
    if (options.columns < 10 || options.columns > 1000)
        throw std::invalid_argument("--columns: expected 10..1000");
    if (options.records()) {
        m_recorder = std::make_unique<TraceRecorder>();
        system.attach_observer(m_recorder.get());
    }
    if (!options.perfetto_path.empty() && system.vcpu_count()) {
        m_vm_states.resize(system.vcpu_count());
        m_vm_steps.resize(system.vcpu_count());
        for (unsigned i = 0; i < system.vcpu_count(); ++i) {
            system.vmx_cpu(i).record_states_into(&m_vm_states[i]);
            system.vmx_cpu(i).record_steps_into(&m_vm_steps[i]);
        }
    }
}

TraceSession::~TraceSession() {
    if (m_recorder) m_system.attach_observer(nullptr);
    for (unsigned i = 0; i < m_vm_states.size(); ++i) {
        m_system.vmx_cpu(i).record_states_into(nullptr);
        m_system.vmx_cpu(i).record_steps_into(nullptr);
    }
}

namespace {

// One Perfetto track per vCPU's pCPU: what it runs (guest, root in the vCPU
// thread or an IRQ thread, idle) as slices, and each narrated step as an
// instant, inside the window.
std::string with_vm_tracks(const std::string& perfetto, const System& sys,
                           const std::vector<std::vector<VmStep>>& states,
                           const std::vector<std::vector<VmStep>>& steps,
                           const TimelineWindow& w) {
    nlohmann::json doc = nlohmann::json::parse(perfetto);
    nlohmann::json& ev = doc["traceEvents"];
    const int pid = ev.empty() ? 1 : ev[0]["pid"].get<int>();
    auto us = [](const sc_core::sc_time& t) { return ns_of(t) / 1000.0; };
    auto inside = [&](const sc_core::sc_time& t) { return t >= w.from && t < w.to; };
    for (unsigned i = 0; i < states.size(); ++i) {
        const int tid = 2000 + int(i);
        ev.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid},
                      {"args", {{"name", "vcpu" + std::to_string(i) + " on CPU" +
                                             std::to_string(sys.vmx_cpu(i).apic_id())}}}});
        for (size_t k = 0; k < states[i].size(); ++k) {
            const VmStep& s = states[i][k];
            const sc_core::sc_time end = k + 1 < states[i].size() ? states[i][k + 1].at : w.to;
            if (!inside(s.at)) continue;
            ev.push_back({{"name", s.what}, {"cat", "vcpu"}, {"ph", "X"}, {"pid", pid},
                          {"tid", tid}, {"ts", us(s.at)}, {"dur", us(end - s.at)}});
        }
        for (const VmStep& s : steps[i])
            if (inside(s.at))
                ev.push_back({{"name", s.what}, {"cat", "kvm"}, {"ph", "i"}, {"s", "t"},
                              {"pid", pid}, {"tid", tid}, {"ts", us(s.at)}});
    }
    return doc.dump() + "\n";
}

}  // namespace

void TraceSession::finish(std::ostream& out) {
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
                << render_timeline(timeline_rows(events, ctx, w,
                                                 ctx.posted ? "posted" : "remappable"),
                                   w);
        }
        if (!m_options.vcd_path.empty())
            write_file_atomically(m_options.vcd_path, vcd_text(events, ctx, whole));
        if (!m_options.perfetto_path.empty()) {
            std::string text = perfetto_json(events, ctx, whole, m_options.perfetto_limit);
            if (!m_vm_states.empty())
                text = with_vm_tracks(text, m_system, m_vm_states, m_vm_steps, whole);
            write_file_atomically(m_options.perfetto_path, text);
        }
    }
    if (m_options.interrupts) out << "\n" << interrupts_table(m_system);
}

}  // namespace cidsim
