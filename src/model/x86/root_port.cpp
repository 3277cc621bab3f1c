#include "model/x86/root_port.h"

#include <algorithm>

#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;

void RootPortParams::describe(ParamVisitor& v) {
    v.real("bandwidth_gbps", bandwidth_gbps, "GB/s", 0.001, 1e4,
           "posted-write bandwidth of the root port");
    v.time("drain_ns", drain, 0, 1e6,
           "write path held per interrupt message ordered behind DMA writes [5.2.4]");
    v.time("posted_order_ns", posted_order, 0, 1e6,
           "write path held per posted-interrupt PID update ordered behind DMA writes [5.2.3]");
    v.integer("credit_bytes", credit_bytes, "B", 64, uint64_t(1) << 30,
              "posted writes the port accepts ahead of its write path (the link's posted "
              "flow-control credits and the stack's inbound buffer, PCIe 2.6.1): a device whose "
              "write finds no credit stalls until the path drains. Assumed, range [32 KiB, "
              "1 MiB]: 32 KiB is a link's posted data credits without scaling");
}

sc_time RootPort::free_at() const { return std::max(m_free, sim_now()); }

sc_time RootPort::write_duration(uint64_t bytes) const {
    return ns_fast(double(bytes) / m_params.bandwidth_gbps);
}

sc_time RootPort::accepts_at(uint64_t bytes) const {
    const sc_time now = sim_now();
    if (m_free <= now) return now;
    const sc_time d = write_duration(bytes);
    if (d >= m_credit_window) return m_free;
    const sc_time room = m_credit_window - d;  // what may be queued ahead of the write
    return m_free - now > room ? m_free - room : now;
}

sc_time RootPort::dma_write(uint64_t bytes) {
    const sc_time duration = write_duration(bytes);
    const sc_time start = free_at();
    m_free = start + duration;
    ++m_stats.dma_writes;
    book(start, m_free, bytes);
    return m_free;
}

sc_time RootPort::order_message(const sc_time& at) {
    ++m_stats.drains;
    const sc_time start = std::max(m_free, at);
    m_free = start + m_params.drain;
    book(start, m_free, 0);
    return m_free;
}

sc_time RootPort::order_posted(const sc_time& at) {
    ++m_stats.posted_orders;
    const sc_time start = std::max(m_free, at);
    m_free = start + m_params.posted_order;
    book(start, m_free, 0);
    return m_free;
}

}  // namespace cidsim

namespace cidsim {

void RootPort::hold_until(const sc_core::sc_time& t) {
    if (t <= m_free) return;
    book(m_free, t, 0);
    m_free = t;
}

void RootPort::book(const sc_time& start, const sc_time& end, uint64_t bytes) {
    const sc_time now = sim_now();
    while (!m_ahead.empty() && m_ahead.front().end <= now) m_ahead.pop_front();
    // Only the part inside the window (after its start) is the window's.
    if (end > m_window_start) m_stats.busy += end - std::max(start, m_window_start);
    m_stats.dma_bytes += bytes;
    if (end > now && end > start) m_ahead.push_back({start, end, bytes});
}

// A booking may reach past now (a write reserved behind others, a message
// held): the window has that part only once it has passed, and a write's
// bytes once it is done.
RootPortStats RootPort::stats() const {
    const sc_time now = sim_now();
    RootPortStats s = m_stats;
    for (const Booking& b : m_ahead) {
        if (b.end <= now) continue;
        const sc_time from = std::max({b.start, now, m_window_start});
        s.busy -= b.end - from;
        s.dma_bytes -= b.bytes;
    }
    return s;
}

// The window starts now: the path's time booked from now on is its, that
// of writes and holds in flight now included, and a write's bytes belong to
// the window in which it is done (as everything under way at a window's
// edge), so the windows' bytes add up to the run's whatever their number.
void RootPort::reset_stats() {
    const sc_time now = sim_now();
    m_stats = {};
    m_window_start = now;
    for (const Booking& b : m_ahead) {
        if (b.end <= now) continue;
        m_stats.busy += b.end - std::max(b.start, now);
        m_stats.dma_bytes += b.bytes;
    }
}

void RootPortStats::describe(StatVisitor& v) const {
    v.count(unreported("dma_writes"), dma_writes, "count",
            "DMA writes through the port (a completion's data and entry)");
    v.count(in_block("dma_bytes"), dma_bytes, "bytes",
            "bytes written by DMA through the port: the writes done (globally observed) in "
            "the window");
    v.count(in_block("drains"), drains, "count",
            "remapped interrupt messages ordered behind the port's earlier writes");
    v.count(unreported("posted_orders"), posted_orders, "count",
            "posted-mode PID updates ordered behind the port's earlier writes");
    v.time(unreported("busy"), busy,
           "time the write path was held within the window: writes, drains and message "
           "back-pressure (utilization is it over the window)");
}

}  // namespace cidsim
