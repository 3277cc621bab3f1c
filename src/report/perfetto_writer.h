#pragma once
// Chrome trace-event JSON (the format chrome://tracing and ui.perfetto.dev
// open) of a recorded run. One track per CPU with complete ("X") events:
// the interrupt (IDT entry to iret), and nested in it the entry, each
// harvest pass, each device handler, the EOI and the exit; instants for ON
// cleared and stranded bits. One IOMMU track with instants for posts
// (notification sent or suppressed), remapped messages and IRTE changes; a
// devices track with the MSIs. Counter tracks per CPU: PIR population and
// ON. Timestamps in microseconds. Bounded by the window and by the writer's
// limit (trace_event_writer.h).
#include <string>

#include "report/timeline.h"
#include "report/trace_event_writer.h"
#include "report/trace_recorder.h"

namespace cidsim {

// The host's tracks and their events inside `window`, into `out`.
void write_perfetto_events(TraceEventWriter& out, const std::vector<TraceRecord>& events,
                           const TraceContext& ctx, const TimelineWindow& window);

}  // namespace cidsim
