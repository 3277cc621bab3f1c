#pragma once
// The vCPUs' own trace tracks (issue 17: "VCD/Perfetto tracks for vCPU
// state and the IRQ thread"), from VmxCpu's logs, which the recorder of
// the host path (trace_recorder.h) does not see. Per vCPU:
//  - Perfetto: "vcpuN on CPUk", what the pCPU runs (guest, root: vcpu,
//    root: irq/36-vfio, idle) with each narrated step as an instant;
//    "vcpuN state" (guest, root, preempted, blocked); one track per IRQ
//    thread (running, runnable; nothing while it sleeps);
//  - VCD (scope vcpuN): one-hot guest, root, preempted, blocked; pcpu_idle;
//    per IRQ thread <name>_running and <name>_runnable (irq/36-vfio ->
//    irq_36_vfio_running).
#include <string>
#include <vector>

#include "report/timeline.h"
#include "report/trace_event_writer.h"
#include "report/vcd_writer.h"
#include "sim/system.h"

namespace cidsim {

// The text timeline's row of one vCPU's pCPU (explain's picture): per
// column what it runs at the column's start, g guest, r root in the vCPU
// thread, t an IRQ thread, . idle; over that X a VM exit, P a posted
// interrupt taken in guest mode (no exit), H the guest's handler.
TimelineRow vm_timeline_row(const std::vector<VmStep>& states, const std::vector<VmStep>& steps,
                            const TimelineWindow& w, const std::string& label);
// The legend of those rows, for under the picture.
extern const char* const kVmTimelineLegend;

// Attaches the logs to every vCPU while it lives (detaches on destruction).
class VmTraceLogs {
public:
    VmTraceLogs(System& system, bool steps);
    ~VmTraceLogs();
    VmTraceLogs(const VmTraceLogs&) = delete;
    VmTraceLogs& operator=(const VmTraceLogs&) = delete;

    // The vCPU tracks (inside the window), after the host's in `out`.
    void add_perfetto_tracks(TraceEventWriter& out, const TimelineWindow& w) const;
    // The VCD wires of every vCPU.
    std::vector<VcdWire> vcd_wires() const;
    // Each vCPU's timeline row (vm_timeline_row), labelled vcpuN.
    std::vector<TimelineRow> timeline_rows(const TimelineWindow& w) const;

private:
    System& m_system;
    std::vector<std::vector<VmStep>> m_states, m_steps;
    std::vector<std::vector<VmTrackChange>> m_tracks;
};

}  // namespace cidsim
