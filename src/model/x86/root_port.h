#pragma once
// RootPort: the posted-write path of one PCIe root port / IIO stack, shared
// by the devices behind it.
//
// Modelled: DMA writes occupy the path for bytes / bandwidth, in order; an
// interrupt message that must be ordered after the device's earlier DMA
// writes [5.2.4] first waits for them to be globally observed and holds the
// path for `drain` while it does (later writes queue behind it). That
// serialising drain is the hypothesis this simulator uses for why the
// remappable flow's per-message cost limits DMA throughput on Xeon
// (docs/calibration.md). While the message waits for the remapping unit's
// interrupt-message port, the path stays held: a busy port back-pressures
// the DMA of every device behind the root port. A posted-mode PID update
// must also be globally observable after the device's earlier DMA writes
// [5.2.3]; what that costs the path is `posted_order` (order_posted), one
// hypothesis per value: 0 if the stack's in-order commit of inbound writes
// orders it for free, up to a full drain if the RMW's read waits for the
// earlier writes as the remappable message does (docs/calibration.md tests
// them against C1's posted figures). The notification that may follow
// leaves after the PID update.
// Writes issued at one picosecond by several devices enter the path in
// source-id order, whichever device SystemC runs first: the port's writers
// are a TieOrder (kernel/tie_order.h) ranked by source id, and a device
// about to write first has those before it catch up. Likewise they come
// before the remapping unit's ordering or holding of a message at that
// picosecond (Iommu).
// Not modelled: link-level flow control credits, read completions, TLP
// headers (fold them into the bandwidth).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/base/param_visitor.h"
#include "kernel/sim_clock.h"
#include "kernel/tie_order.h"
#include "model/base/stat_visitor.h"

namespace cidsim {

struct RootPortParams {
    double bandwidth_gbps = 64.0;        // usable posted-write bandwidth, GB/s
    sc_core::sc_time drain = ns(0);      // path held per ordered interrupt message
    sc_core::sc_time posted_order = ns(0);  // path held per ordered PID update (posted mode)

    void describe(ParamVisitor& v);
};

struct RootPortStats {
    uint64_t dma_writes = 0;
    uint64_t dma_bytes = 0;
    uint64_t drains = 0;
    uint64_t posted_orders = 0;  // PID updates ordered behind the DMA writes
    sc_core::sc_time busy;  // time the write path was occupied

    void describe(StatVisitor& v) const;
};

class RootPort {
public:
    explicit RootPort(const RootPortParams& params) : m_params(params) {}

    // A DMA write issued now; returns when it is globally observed.
    sc_core::sc_time dma_write(uint64_t bytes);
    // An interrupt message that must follow all earlier writes, ready at `at`;
    // returns when the drain is done.
    sc_core::sc_time order_message(const sc_core::sc_time& at);
    // A PID update that must follow all earlier writes, ready at `at`;
    // returns when it may be made (the path is held for posted_order).
    sc_core::sc_time order_posted(const sc_core::sc_time& at);
    const sc_core::sc_time& posted_order() const { return m_params.posted_order; }
    // The ordered message could only leave at `t` (the interrupt-message port
    // was busy): the write path stays held until then (back-pressure).
    void hold_until(const sc_core::sc_time& t);
    // Is the path already taken until `t` (holding it until then changes nothing)?
    bool taken_until(const sc_core::sc_time& t) const { return t <= m_free; }
    // When a write issued now would start (posted writes stay in order).
    sc_core::sc_time free_at() const;
    // How long an ordered interrupt message holds the path, at the least.
    const sc_core::sc_time& drain() const { return m_params.drain; }
    // How long a write of `bytes` occupies the path.
    sc_core::sc_time write_duration(uint64_t bytes) const;
    // The earliest a write taking `duration`, issued at `issued` (not before
    // now), can be globally observed: a bound that stays true as time passes.
    sc_core::sc_time earliest_write_done(const sc_core::sc_time& issued,
                                         const sc_core::sc_time& duration) const {
        return saturating_add(std::max(m_free, issued), duration);
    }

    // `w` writes through the port; `order` (its source id) places its writes
    // among those issued at the same picosecond.
    void attach_writer(Participant& w, uint16_t order) { m_writers.add(w, order); }
    // Before `w` writes at the kernel's time: the writers ordered before it
    // catch up (nullptr: all of them).
    void writers_catch_up_before(const Participant* w) const {
        if (!others_act_now()) return;  // none has a write due now, or it would run
        m_writers.catch_up_before(w);
    }

    const RootPortStats& stats() const { return m_stats; }
    // busy and dma_bytes count each hold and write whole when it is queued,
    // also its part after now (a backlog): a window counts only its own part,
    // the next window starts with the rest.
    void close_window();
    void reset_stats();

private:
    // The backlog after now as bytes at the port's bandwidth, at most the
    // bytes queued: a backlog that holds drains too moves fewer bytes.
    uint64_t backlog_bytes() const;

    RootPortParams m_params;
    TieOrder m_writers;  // by source id
    sc_core::sc_time m_free;
    RootPortStats m_stats;
    bool m_window_closed = false;
    uint64_t m_bytes_after_window = 0;  // what close_window left to the next window
};

}  // namespace cidsim
