#include "report/machines/vm_tracks.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace cidsim {

VmTraceLogs::VmTraceLogs(System& system, bool steps) : m_system(system) {
    const unsigned n = system.vcpu_count();
    m_states.resize(n);
    m_steps.resize(n);
    m_tracks.resize(n);
    for (unsigned i = 0; i < n; ++i) {
        system.vmx_cpu(i).record_states_into(&m_states[i]);
        if (steps) system.vmx_cpu(i).record_steps_into(&m_steps[i]);
        system.vmx_cpu(i).record_tracks_into(&m_tracks[i]);
    }
}

VmTraceLogs::~VmTraceLogs() {
    for (unsigned i = 0; i < m_states.size(); ++i) {
        m_system.vmx_cpu(i).record_states_into(nullptr);
        m_system.vmx_cpu(i).record_steps_into(nullptr);
        m_system.vmx_cpu(i).record_tracks_into(nullptr);
    }
}

namespace {

// Thread names in the order they first appear, the vCPU's own first.
std::vector<std::string> track_names(const std::vector<VmTrackChange>& log) {
    std::vector<std::string> names{"vcpu"};
    for (const VmTrackChange& c : log)
        if (std::find(names.begin(), names.end(), c.track) == names.end()) names.push_back(c.track);
    return names;
}

std::string vcd_name(std::string s) {
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

}  // namespace

std::vector<TimelineRow> VmTraceLogs::timeline_rows(const TimelineWindow& w) const {
    std::vector<TimelineRow> rows;
    for (size_t i = 0; i < m_states.size(); ++i)
        rows.push_back(vm_timeline_row(m_states[i], m_steps[i], w, "vcpu" + std::to_string(i)));
    return rows;
}

const char* const kVmTimelineLegend =
    "vCPU rows: g guest, r root (the vCPU thread), t an IRQ thread, . idle; "
    "X VM exit, P posted interrupt taken in guest mode (no exit), H guest handler";

TimelineRow vm_timeline_row(const std::vector<VmStep>& states, const std::vector<VmStep>& steps,
                            const TimelineWindow& w, const std::string& label) {
    const double span = ns_of(w.to - w.from);
    auto column = [&](const sc_core::sc_time& t) -> long {
        if (t < w.from || t >= w.to) return -1;
        return long(ns_of(t - w.from) / span * w.columns);
    };
    std::string cells(w.columns, ' ');
    size_t k = 0;
    for (unsigned c = 0; c < w.columns; ++c) {
        const sc_core::sc_time at = w.from + ns(span * c / w.columns);
        while (k < states.size() && states[k].at <= at) ++k;
        if (k == 0) continue;  // before the first state: nothing known
        const std::string& s = states[k - 1].what;
        cells[c] = s == "guest" ? 'g' : s == "idle" ? '.' : s == "root: vcpu" ? 'r'
                 : s.rfind("root: irq/", 0) == 0 ? 't' : 'r';
    }
    unsigned exits = 0, posted = 0;
    for (const VmStep& st : steps) {
        const long c = column(st.at);
        char mark = 0;
        if (st.what.find("0xF2 arrives in guest mode") != std::string::npos) {
            mark = 'P';
            ++posted;
        } else if (st.what.find("VM exit ") != std::string::npos) {
            mark = 'X';
            ++exits;
        } else if (st.what.rfind("guest: virtual interrupt", 0) == 0) {
            mark = 'H';
        }
        if (mark && c >= 0) cells[size_t(c)] = mark;
    }
    std::string note = "(" + std::to_string(exits) + (exits == 1 ? " VM exit" : " VM exits");
    if (posted) note += ", " + std::to_string(posted) + " posted in guest mode";
    return {label, cells, note + ")"};
}

void VmTraceLogs::add_perfetto_tracks(TraceEventWriter& out, const TimelineWindow& w) const {
    auto us = [](const sc_core::sc_time& t) { return ns_of(t) / 1000.0; };
    auto inside = [&](const sc_core::sc_time& t) { return t >= w.from && t < w.to; };
    // A state lasts until the next change of its track, or the window's end.
    auto slice = [&](int tid, const char* cat, const std::string& what,
                     const sc_core::sc_time& from, const sc_core::sc_time& to) {
        if (!inside(from)) return;
        out.event({{"name", what}, {"cat", cat}, {"ph", "X"}, {"pid", kTracePid}, {"tid", tid},
                   {"ts", us(from)}, {"dur", us(std::min(to, w.to) - from)}});
    };
    for (unsigned i = 0; i < m_states.size(); ++i) {
        const std::string vcpu = "vcpu" + std::to_string(i);
        const std::string cpu = "CPU" + std::to_string(m_system.vmx_cpu(i).apic_id());
        const int tid = 2000 + int(i);
        out.name_track(tid, vcpu + " on " + cpu);
        const std::vector<VmStep>& st = m_states[i];
        for (size_t k = 0; k < st.size(); ++k)
            slice(tid, "vcpu", st[k].what, st[k].at, k + 1 < st.size() ? st[k + 1].at : w.to);
        for (const VmStep& s : m_steps[i])
            if (inside(s.at))
                out.event({{"name", s.what}, {"cat", "kvm"}, {"ph", "i"}, {"s", "t"},
                           {"pid", kTracePid}, {"tid", tid}, {"ts", us(s.at)}});
        const std::vector<std::string> names = track_names(m_tracks[i]);
        for (size_t n = 0; n < names.size(); ++n) {
            const int t = 3000 + int(i) * 64 + int(n);
            out.name_track(t, n == 0 ? vcpu + " state" : names[n] + " on " + cpu);
            const char* cat = n == 0 ? "vcpu-state" : "irq-thread";
            // Each state but sleeping, until the track's next change.
            const VmTrackChange* open = nullptr;
            for (const VmTrackChange& change : m_tracks[i]) {
                if (change.track != names[n]) continue;
                if (open) slice(t, cat, open->state, open->at, change.at);
                open = change.state == "sleeping" ? nullptr : &change;
            }
            if (open) slice(t, cat, open->state, open->at, w.to);
        }
    }
}

std::vector<VcdWire> VmTraceLogs::vcd_wires() const {
    std::vector<VcdWire> out;
    for (unsigned i = 0; i < m_tracks.size(); ++i) {
        const std::string scope = "vcpu" + std::to_string(i);
        const std::vector<VmTrackChange>& log = m_tracks[i];
        // The wire is 1 while the track is in `state`.
        auto wire = [&](const std::string& track, const std::string& state, const std::string& name) {
            VcdWire v{scope, name, {}};
            for (const VmTrackChange& c : log)
                if (c.track == track) v.changes.push_back({c.at, c.state == state});
            out.push_back(std::move(v));
        };
        for (const char* s : {"guest", "root", "preempted", "blocked"}) wire("vcpu", s, s);
        VcdWire idle{scope, "pcpu_idle", {}};
        for (const VmStep& s : m_states[i]) idle.changes.push_back({s.at, s.what == "idle"});
        out.push_back(std::move(idle));
        const std::vector<std::string> names = track_names(log);
        for (size_t n = 1; n < names.size(); ++n) {
            wire(names[n], "running", vcd_name(names[n]) + "_running");
            wire(names[n], "runnable", vcd_name(names[n]) + "_runnable");
        }
    }
    return out;
}

}  // namespace cidsim
