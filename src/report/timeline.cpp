#include "report/timeline.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "config/json_text.h"

namespace cidsim {

using sc_core::sc_time;

namespace {

bool device_vector(unsigned v) { return v >= kFirstExternalVector && v < kPostedMsiNotificationVector; }

// One row of cells; several marks in one column become a count.
class RowBuilder {
public:
    explicit RowBuilder(unsigned columns) : m_mark(columns), m_count(columns, 0) {}
    void place(unsigned col, const std::string& mark) {
        if (col >= m_mark.size()) return;
        if (++m_count[col] == 1)
            m_mark[col] = mark;
        else
            m_mark[col] = m_count[col] <= 9 ? std::string(1, char('0' + m_count[col])) : "#";
    }
    bool empty() const {
        return std::all_of(m_count.begin(), m_count.end(), [](unsigned c) { return c == 0; });
    }
    std::string cells() const {
        std::string s(m_mark.size(), ' ');
        for (size_t c = 0; c < m_mark.size(); ++c) {
            if (!m_count[c]) continue;
            s[c] = m_mark[c][0];
            // The tail of a long mark (N') only where the next column is free.
            for (size_t k = 1; k < m_mark[c].size() && c + k < s.size() && !m_count[c + k]; ++k)
                s[c + k] = m_mark[c][k];
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    }

private:
    std::vector<std::string> m_mark;
    std::vector<unsigned> m_count;
};

struct CpuState {
    bool in_irq = false;
    Vector vector = 0;
    sc_time entered;
    bool found = false;
    bool in_demux = false;
    sc_time timer_expired;
    bool timer_pending = false;
    bool final_pass = false;
    bool handler_open = false;  // a handler call without a driver handler so far
};

}  // namespace

TimelineWindow parse_window(const std::string& spec, const sc_time& end) {
    const size_t colon = spec.find(':');
    if (colon == std::string::npos)
        throw std::invalid_argument("--window-ns " + spec + ": expected A:B in ns (A or B may be empty)");
    // Each end in ns as given (the run's end for an empty B), checked.
    auto number = [&](const std::string& s, double dflt) {
        if (s.empty()) return dflt;
        // Decimal only: strtod would also take hex, "inf" and "nan".
        const bool decimal = s.find_first_not_of("0123456789.eE+-") == std::string::npos;
        char* used = nullptr;
        const double v = decimal ? std::strtod(s.c_str(), &used) : -1;
        if (!decimal || used != s.c_str() + s.size() || !(v >= 0))
            throw std::invalid_argument("--window-ns " + spec + ": '" + s +
                                        "' is not a decimal time in ns >= 0");
        if (v > ns_of(end))
            throw std::invalid_argument("--window-ns " + spec + ": " + s +
                                        " ns is past the run's end (" + format_number(ns_of(end)) +
                                        " ns: run.warmup_ns + run.duration_ns)");
        // The simulation counts whole picoseconds.
        if (v > 0 && ns(v) == sc_core::SC_ZERO_TIME)
            throw std::invalid_argument("--window-ns " + spec + ": " + s +
                                        " ns is below one picosecond, the simulation's "
                                        "resolution");
        return v;
    };
    const std::string a = spec.substr(0, colon), b = spec.substr(colon + 1);
    const double from = number(a, 0), to = number(b, ns_of(end));
    TimelineWindow w;
    w.from = a.empty() ? sc_core::SC_ZERO_TIME : ns(from);
    w.to = b.empty() ? end : ns(to);
    if (to <= from)
        throw std::invalid_argument("--window-ns " + spec + ": the end must be after the start");
    if (w.to <= w.from)
        throw std::invalid_argument("--window-ns " + spec +
                                    " is no window: its ends are the same picosecond");
    return w;
}

std::vector<TimelineRow> timeline_rows(const std::vector<TraceRecord>& events,
                                       const TraceContext& ctx, const TimelineWindow& w,
                                       const std::string& name) {
    const double span = ns_of(w.to - w.from);
    auto column = [&](const sc_time& t) {
        return unsigned(ns_of(t - w.from) / span * w.columns);
    };
    auto inside = [&](const sc_time& t) { return t >= w.from && t < w.to; };

    RowBuilder msis(w.columns);
    std::vector<RowBuilder> irq(ctx.cpus, RowBuilder(w.columns));
    std::vector<RowBuilder> timer(ctx.cpus, RowBuilder(w.columns));
    std::vector<CpuState> cpu(ctx.cpus);
    std::vector<uint64_t> interrupts(ctx.cpus, 0), superfluous(ctx.cpus, 0), stranded(ctx.cpus, 0);
    std::vector<bool> active(ctx.cpus, false);
    unsigned letter = 0;
    uint64_t msi_count = 0;

    for (const TraceRecord& e : events) {
        if (e.kind != TraceKind::Msi && e.cpu >= ctx.cpus) continue;
        switch (e.kind) {
            case TraceKind::Msi:
                if (inside(e.at)) {
                    msis.place(column(e.at), std::string(1, char('A' + letter++ % 26)));
                    ++msi_count;
                }
                break;
            case TraceKind::Irq: {
                CpuState& s = cpu[e.cpu];
                if (e.word == int(IrqPhase::Entry)) {
                    s = CpuState{true, e.vector, e.at, false, false, s.timer_expired, s.timer_pending, false, false};
                    active[e.cpu] = true;
                } else if (e.word == int(IrqPhase::Exit) && s.in_irq) {
                    s.in_irq = false;
                    if (!inside(s.entered)) break;
                    if (s.vector == kLocalTimerVector) {
                        timer[e.cpu].place(column(s.entered), "T");
                    } else if (s.vector == ctx.nv || device_vector(s.vector)) {
                        ++interrupts[e.cpu];
                        if (!s.found) ++superfluous[e.cpu];
                        irq[e.cpu].place(column(s.entered), s.found ? "N" : "N'");
                    }
                }
                break;
            }
            case TraceKind::DeviceHandler:
                if (e.value) cpu[e.cpu].found = true;
                break;
            case TraceKind::HarvestEnd:
                if (e.flag) cpu[e.cpu].found = true;
                break;
            case TraceKind::ApicAccept:
                if (e.vector == kLocalTimerVector && inside(e.at) && !e.flag)
                    timer[e.cpu].place(column(e.at), "|");
                break;
            case TraceKind::Stranded:
                if (inside(e.at)) {
                    ++stranded[e.cpu];
                    irq[e.cpu].place(column(e.at) + 1, "!");
                }
                break;
            default:
                break;
        }
    }

    std::vector<TimelineRow> rows;
    rows.push_back({"MSIs", msis.cells(), "(" + plural(msi_count, "MSI") + ")"});
    bool any = false;
    for (unsigned c = 0; c < ctx.cpus; ++c) any = any || active[c];
    for (unsigned c = 0; c < ctx.cpus; ++c) {
        if (!active[c] && (any || c > 0)) continue;
        const std::string label = ctx.cpus > 1 ? name + " CPU" + std::to_string(c) : name;
        std::string note = "(" + plural(interrupts[c], ctx.posted ? "notification" : "interrupt");
        if (superfluous[c]) note += ", " + std::to_string(superfluous[c]) + " superfluous N'";
        if (stranded[c]) note += ", " + std::to_string(stranded[c]) + " stranded !";
        rows.push_back({label, irq[c].cells(), note + ")"});
        if (!timer[c].empty())
            rows.push_back({ctx.cpus > 1 ? "timer CPU" + std::to_string(c) : "timer",
                            timer[c].cells(), "(| expires, T taken)"});
    }
    return rows;
}

std::string render_timeline(const std::vector<TimelineRow>& rows, const TimelineWindow& w) {
    size_t label = 9;
    for (const TimelineRow& r : rows) label = std::max(label, r.label.size());
    label += 2;
    const double span = ns_of(w.to - w.from);
    std::string axis(label + w.columns + 10, ' ');
    std::string ticks(label + w.columns + 1, ' ');
    axis.replace(0, 9, "time (ns)");
    for (unsigned c = 0; c <= w.columns; c += 10) {
        ticks[label + c] = '|';
        const std::string t = format_ns(w.from + ns(span * c / w.columns));
        if (label + c + t.size() <= axis.size() && (c == 0 || t.size() < 10))
            axis.replace(label + c, t.size(), t);
    }
    auto trim = [](std::string s) {
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    };
    std::string out = trim(axis) + "\n" + trim(ticks) + "\n";
    for (const TimelineRow& r : rows) {
        std::string line = r.label + std::string(label - r.label.size(), ' ') + r.cells;
        if (!r.note.empty()) {
            const size_t at = label + w.columns + 2;
            if (line.size() < at) line += std::string(at - line.size(), ' ');
            line += " " + r.note;
        }
        out += line + "\n";
    }
    char scale[96];
    std::snprintf(scale, sizeof scale, "(one column = %s ns)\n",
                  format_ns(ns(span / w.columns)).c_str());
    return out + scale;
}

std::vector<std::string> narrate(const std::vector<TraceRecord>& events, const TraceContext& ctx,
                                 const TimelineWindow& w, size_t max_lines,
                                 const sc_time& letters_from) {
    std::vector<std::string> lines;
    size_t skipped = 0;
    const bool moves = std::any_of(events.begin(), events.end(), [](const TraceRecord& e) {
        return e.kind == TraceKind::IrqMoved;
    });
    std::vector<CpuState> cpu(ctx.cpus);
    unsigned letter = 0;
    auto say = [&](const TraceRecord& e, const std::string& text) {
        if (e.at < w.from || e.at >= w.to) return;
        if (lines.size() >= max_lines) {
            ++skipped;
            return;
        }
        char t[32];
        std::snprintf(t, sizeof t, "%10s ns  ", format_ns(e.at).c_str());
        lines.push_back(t + text);
    };
    auto cpu_name = [](unsigned c) { return "CPU" + std::to_string(c); };

    for (const TraceRecord& e : events) {
        if (e.kind != TraceKind::Msi && e.kind != TraceKind::IrteFetch &&
            e.kind != TraceKind::IrteWrite && e.kind != TraceKind::IecInvalidate &&
            e.kind != TraceKind::IommuFault && e.cpu >= ctx.cpus)
            continue;
        const std::string c = cpu_name(e.cpu);
        switch (e.kind) {
            case TraceKind::Msi: {
                const char l = char('A' + letter % 26);
                if (e.at >= letters_from) ++letter;
                say(e, std::string("MSI ") + l + " from " + ctx.queue_name(e.device, e.queue) +
                           " (after its completion's DMA)");
                break;
            }
            case TraceKind::IrteFetch:
                if (moves)
                    say(e, "IOMMU fetches IRTE " + std::to_string(e.index) +
                               (e.flag ? " from the IEC" : " from memory (IEC miss)") +
                               " and keeps that copy until it posts");
                break;
            case TraceKind::RemapMessage:
                say(e, "IOMMU remaps it: interrupt message, vector " + hex_vector(e.vector) +
                           " to " + c + "'s LAPIC");
                break;
            case TraceKind::PidPost:
                if (e.flag)
                    say(e, "IOMMU posts: PIR bit " + hex_vector(e.vector) + " set in " + c +
                               "'s PID; ON was 0 -> ON=1, notification " + hex_vector(ctx.nv) +
                               " sent");
                else
                    say(e, "IOMMU posts: PIR bit " + hex_vector(e.vector) + " set in " + c +
                               "'s PID; ON found set -> notification suppressed" +
                               (cpu[e.cpu].in_demux ? " (" + c + "'s demux loop must find it)"
                                                    : ""));
                break;
            case TraceKind::ApicAccept:
                if (e.vector == kLocalTimerVector && !e.flag) {
                    cpu[e.cpu].timer_expired = e.at;
                    cpu[e.cpu].timer_pending = true;
                    say(e, c + " local timer expires: 0xec pending in IRR" +
                               std::string(cpu[e.cpu].in_irq ? " (interrupts disabled: it waits)"
                                                             : ""));
                } else if (e.flag && e.vector != kLocalTimerVector) {
                    say(e, c + " LAPIC: " + hex_vector(e.vector) +
                               " already pending in IRR, the message merges into it");
                }
                break;
            case TraceKind::ApicDispatch:
                if (e.vector == kLocalTimerVector)
                    say(e, c + " takes the local timer, " +
                               format_ns(e.at - cpu[e.cpu].timer_expired) +
                               " ns after it expired");
                else if (e.vector == ctx.nv)
                    say(e, c + " takes notification " + hex_vector(e.vector) +
                               " (IDT entry; interrupts disabled until iret)");
                else
                    say(e, c + " takes vector " + hex_vector(e.vector) + " (IDT entry)");
                break;
            case TraceKind::Irq:
                if (e.word == int(IrqPhase::Entry)) {
                    cpu[e.cpu].in_irq = true;
                    cpu[e.cpu].in_demux = e.vector == ctx.nv;
                } else if (e.word == int(IrqPhase::Exit)) {
                    cpu[e.cpu].in_irq = cpu[e.cpu].in_demux = false;
                }
                break;
            case TraceKind::HarvestBegin:
                cpu[e.cpu].final_pass = e.flag;
                say(e, c + (e.flag ? " final harvest (after clearing ON)"
                                   : " harvest pass " + std::to_string(e.value)) +
                           ": reads PIR");
                break;
            case TraceKind::HarvestEnd:
                if (!e.flag)
                    say(e, c + (cpu[e.cpu].final_pass ? std::string(" final harvest")
                                                      : " harvest pass " + std::to_string(e.value)) +
                               " found PIR empty");
                break;
            case TraceKind::DeviceHandler:
                cpu[e.cpu].handler_open = false;
                say(e, c + " handler of " + ctx.queue_name(e.device, e.queue) +
                           (e.value ? " drains " + plural(e.value, "completion")
                            : ctx.posted ? std::string(" finds nothing (drained by an earlier call)")
                                         : std::string(" finds nothing: a superfluous interrupt (N')")));
                break;
            case TraceKind::HandlerBegin:
                cpu[e.cpu].handler_open = true;
                break;
            case TraceKind::HandlerEnd:
                if (cpu[e.cpu].handler_open)
                    say(e, c + " vector " + hex_vector(e.vector) +
                               " is set but has no handler (freed): nothing is drained");
                cpu[e.cpu].handler_open = false;
                break;
            case TraceKind::PidClearOn:
                say(e, c + " clears ON (PIR bits posted from now on send a notification)");
                break;
            case TraceKind::ApicEoi:
                if (e.word >= 0)
                    say(e, c + " EOI: ISR bit " + hex_vector(unsigned(e.word)) + " cleared");
                else
                    say(e, c + " EOI with an empty ISR (a bug)");
                break;
            case TraceKind::Stranded:
                say(e, "STRANDED: " + c + "'s PIR keeps " + plural(e.value, "bit") + " (" +
                           hex_vector(e.vector) +
                           ") with ON=0: no notification will announce it until another post");
                break;
            case TraceKind::IrqMoved:
                say(e, "Linux moves " + ctx.queue_name(e.device, e.queue) + "'s interrupt from " + c +
                           " (vector " + hex_vector(e.vector) + ") to CPU" +
                           std::to_string(e.index) + " (vector " + hex_vector(unsigned(e.value)) +
                           "): IRTE rewritten, IEC entry invalidated");
                break;
            case TraceKind::VectorCleanup: {
                const sc_core::sc_time fired = sc_core::sc_time::from_value(e.value);
                const std::string waited =
                    fired < e.at ? " (its timer fired at " + format_ns(fired) + " ns; the "
                                   "callback ran once " + c + " was free)"
                                 : "";
                say(e, c + " vector cleanup of " + hex_vector(e.vector) + waited +
                           ": is_vector_pending = IRR " + std::to_string(e.word) + ", PIR " +
                           std::to_string(e.index) +
                           (e.flag ? " -> vector freed" : " -> still pending, cleanup deferred"));
                break;
            }
            case TraceKind::IommuFault:
                say(e, "IOMMU fault on IRTE " + std::to_string(e.index) + " (reason " +
                           std::to_string(e.value) + ")");
                break;
            default:
                break;
        }
    }
    if (skipped) lines.push_back("  ... " + std::to_string(skipped) + " more steps not shown");
    return lines;
}

}  // namespace cidsim
