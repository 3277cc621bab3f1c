#pragma once
// A VCD waveform (IEEE 1364 value change dump) of a recorded run, for
// GTKWave. Per CPU (scope cpuN): pir[255:0], on, sn, notify (a 1 ns pulse
// when the IOMMU sends this CPU a notification), irr_nv/isr_nv (the
// notification vector's IRR/ISR bits), irr[255:0], isr[255:0], in_handler
// (a device vector's handler runs), irq_off (IDT entry to iret: interrupts
// disabled). Per device queue (scope devices): an MSI pulse. The state is
// rebuilt from the events, so a window starts with the values at its start.
// Further one-bit wires from other logs (the vCPUs' tracks, vm_tracks.h)
// come after, in their own scopes. Timescale 1 ps.
#include <string>
#include <utility>

#include "report/timeline.h"
#include "report/trace_recorder.h"

namespace cidsim {

// A one-bit wire given by its changes in time order (0 before the first).
struct VcdWire {
    std::string scope, name;
    std::vector<std::pair<sc_core::sc_time, bool>> changes;
};

std::string vcd_text(const std::vector<TraceRecord>& events, const TraceContext& ctx,
                     const TimelineWindow& window, const std::vector<VcdWire>& wires = {});

}  // namespace cidsim
