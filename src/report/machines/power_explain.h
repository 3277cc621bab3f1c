#pragma once
// `cidsim explain` for a POWER partition under ipistorm (systems.md D;
// issue 18 item 7): what each CPU runs and where the IPI descriptor's hot
// line (irq_count and the dispatch's fields) travels. The CPUs' logs
// (PowerCpu: states and steps) and the descriptors' (IrqDesc: every
// hot-line access that did not hit) are kept only while a
// PowerExplainLogs lives, so an ordinary run records nothing.
//
// Per CPU one timeline row (kPowerStates), with S where its irq_count++
// took the line (a miss or an upgrade) and L where its dispatch's load
// missed; over the CPUs, per descriptor, the line's last taker per column
// and each transfer (+ inside a chip, * across chips).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/timeline.h"
#include "sim/system.h"

namespace cidsim {

class PowerExplainLogs {
public:
    explicit PowerExplainLogs(System& system);
    ~PowerExplainLogs() { detach(); }
    PowerExplainLogs(const PowerExplainLogs&) = delete;
    PowerExplainLogs& operator=(const PowerExplainLogs&) = delete;
    void detach();

    // {rows: [{label, cells, note, power: true}], narration: [...]} for the
    // timeline window `w` and the narration window `told`.
    nlohmann::json explain(const TimelineWindow& w, const TimelineWindow& told, size_t max_lines,
                           const std::string& label) const;

private:
    PowerPartition& m_power;
    bool m_attached = true;
    std::vector<PowerCpuLog> m_cpus;
    std::vector<std::vector<LineTransferRecord>> m_descs;
};

// The legend of the rows, for under the picture.
extern const char* const kPowerTimelineLegend;

}  // namespace cidsim
