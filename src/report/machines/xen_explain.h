#pragma once
// `cidsim explain` for a Xen guest (systems.md C; issue 21 item 5): what
// each vCPU's pCPU runs and where event_lock's line travels. The pCPUs'
// own logs (XenPcpu: modes and steps) and the domain's (XenDomain: each
// use of event_lock, SpinLock: each hand-off) are kept only while a
// XenExplainLogs lives, so an ordinary run records nothing.
//
// Per vCPU one timeline row: g guest, x Xen (root mode), . guest idle,
// ~ spinning on event_lock, D holding it for a delivery (hvm_dirq_assist),
// E holding it for an EOI (hvm_dpci_msi_eoi, the pirq walk), b an EOI the
// bitmap fix let past the lock. A hold or a spin anywhere in a column
// shows over the mode, so a 125 ns hold is not lost in a 250 ns column;
// of several, E, then b, then D (what the EOI did is the point).
// Then the lock's rows: its owner per column, and each hand-off (+ on the
// releaser's socket, * to the other socket).
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/timeline.h"
#include "sim/system.h"

namespace cidsim {

class XenExplainLogs {
public:
    explicit XenExplainLogs(System& system);
    ~XenExplainLogs() { detach(); }
    XenExplainLogs(const XenExplainLogs&) = delete;
    XenExplainLogs& operator=(const XenExplainLogs&) = delete;
    void detach();

    // {rows: [{label, cells, note, xen: true}], narration: [...], counts: {...}}
    // for the timeline window `w` and the narration window `told`.
    nlohmann::json explain(const TimelineWindow& w, const TimelineWindow& told, size_t max_lines,
                           const std::string& label) const;

private:
    using Log = std::vector<std::pair<sc_core::sc_time, std::string>>;
    System& m_system;
    bool m_attached = true;
    std::vector<uint8_t> m_socket;  // per vCPU
    std::vector<Log> m_states, m_steps;
    std::vector<XenLockUse> m_uses;
    std::vector<LockHandoff> m_handoffs;
};

// The legend of the rows, for under the picture.
extern const char* const kXenTimelineLegend;

}  // namespace cidsim
