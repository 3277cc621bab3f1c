#pragma once
// The text timeline in the spirit of the posted-MSI RFC's picture:
//
//   MSIs        A B C      D E F G      H      I
//   remappable  N N'N'     N N'N'N'     N      N
//   posted      N          N            N      N
//
// one row for the MSIs, and per CPU one row of interrupts: in remappable
// mode each IDT delivery of a device vector (N, or N' when its handler
// found nothing: a superfluous interrupt), in posted mode each notification
// (N; N' when its demux loop found nothing); '!' marks a stranded PIR bit.
// A timer row (| expiry, T taken) appears when the local timer fires in the
// window. Several events in one column show as their count (2-9, #).
// Plus the step-by-step narration of the key moments with their times.
#include <string>
#include <vector>

#include "report/trace_recorder.h"

namespace cidsim {

struct TimelineWindow {
    sc_core::sc_time from;
    sc_core::sc_time to;
    unsigned columns = 100;
};

struct TimelineRow {
    std::string label;
    std::string cells;
    std::string note;  // printed after the cells: counts
};

// The rows for the events in the window. `name` labels the interrupt rows
// (e.g. "remappable"); with several CPUs the CPU is appended.
std::vector<TimelineRow> timeline_rows(const std::vector<TraceRecord>& events,
                                       const TraceContext& ctx, const TimelineWindow& w,
                                       const std::string& name);
// A host row with nothing on it beside guests' rows (the MSIs row always
// counts): it only pushes theirs down, so explain and run --timeline drop it.
inline bool blank_host_row(const TimelineRow& r) {
    return r.label != "MSIs" && r.cells.find_first_not_of(' ') == std::string::npos;
}
// The time axis, then the rows, labels padded to one width.
std::string render_timeline(const std::vector<TimelineRow>& rows, const TimelineWindow& w);

// Narration lines ("   1234.5 ns  ...") for the window, at most max_lines.
// MSIs are lettered A, B, ... from `letters_from` on (the timeline's start).
std::vector<std::string> narrate(const std::vector<TraceRecord>& events, const TraceContext& ctx,
                                 const TimelineWindow& w, size_t max_lines,
                                 const sc_core::sc_time& letters_from);

// "A:B" in ns (either side may be empty: run start / end).
TimelineWindow parse_window(const std::string& spec, const sc_core::sc_time& end);

}  // namespace cidsim
