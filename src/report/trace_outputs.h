#pragma once
// The observation options of `cidsim run` (--timeline, --trace-vcd,
// --trace-perfetto, --interrupts): a recorder attached before the run, and
// after it the timeline printed and the trace files written (each whole or
// not at all).
#include <iosfwd>
#include <memory>
#include <vector>
#include <string>

#include "report/interrupts_table.h"
#include "report/timeline.h"
#include "report/trace_recorder.h"
#include "report/machines/power_explain.h"
#include "report/machines/vm_tracks.h"
#include "report/machines/xen_explain.h"
#include "sim/system.h"

namespace cidsim {

class OutputBatch;

struct TraceOutputs {
    bool timeline = false;
    std::string window;  // "A:B" ns; empty: see TraceSession
    unsigned columns = 100;
    std::string vcd_path;
    std::string perfetto_path;
    size_t perfetto_limit = 1000000;
    bool interrupts = false;

    bool records() const { return timeline || !vcd_path.empty() || !perfetto_path.empty(); }
};

class TraceSession {
public:
    // Checks the options (std::invalid_argument on bad ones) and attaches a
    // recorder to the system when an output needs one.
    TraceSession(const TraceOutputs& options, System& system);
    ~TraceSession();
    // After the run: prints the timeline/table to `out`, adds the trace
    // files to `files` (the command writes them with its other outputs).
    void finish(std::ostream& out, OutputBatch& files);

private:
    std::vector<TimelineRow> timeline_of(const std::vector<TraceRecord>& events,
                                         const TraceContext& ctx, const TimelineWindow& w) const;
    std::string legends() const;

    TraceOutputs m_options;
    System& m_system;
    std::unique_ptr<TraceRecorder> m_recorder;
    // With vCPUs: their tracks, for the VCD and Perfetto, and their
    // timeline rows; a Xen domain's and a POWER partition's rows.
    std::unique_ptr<VmTraceLogs> m_vm;
    std::unique_ptr<XenExplainLogs> m_xen;
    std::unique_ptr<PowerExplainLogs> m_power;
    // --interrupts: the windows that ended before the last (run.batches).
    InterruptCounts m_interrupts;
};

}  // namespace cidsim
