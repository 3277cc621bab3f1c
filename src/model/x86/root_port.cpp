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
}

sc_time RootPort::free_at() const { return std::max(m_free, sim_now()); }

sc_time RootPort::write_duration(uint64_t bytes) const {
    return ns_fast(double(bytes) / m_params.bandwidth_gbps);
}

sc_time RootPort::dma_write(uint64_t bytes) {
    const sc_time duration = write_duration(bytes);
    m_free = free_at() + duration;
    ++m_stats.dma_writes;
    m_stats.dma_bytes += bytes;
    m_stats.busy += duration;
    return m_free;
}

sc_time RootPort::order_message(const sc_time& at) {
    ++m_stats.drains;
    m_free = std::max(m_free, at) + m_params.drain;
    m_stats.busy += m_params.drain;
    return m_free;
}

sc_time RootPort::order_posted(const sc_time& at) {
    ++m_stats.posted_orders;
    m_free = std::max(m_free, at) + m_params.posted_order;
    m_stats.busy += m_params.posted_order;
    return m_free;
}

}  // namespace cidsim

namespace cidsim {

// The holds form one queue ending at m_free: what lies after now is the
// next window's.
uint64_t RootPort::backlog_bytes() const {
    if (m_free <= sim_now()) return 0;
    const double bytes = (m_free - sim_now()).to_seconds() * 1e9 * m_params.bandwidth_gbps;
    return bytes >= double(m_stats.dma_bytes) ? m_stats.dma_bytes : uint64_t(bytes);
}

void RootPort::close_window() {
    m_bytes_after_window = backlog_bytes();
    m_stats.dma_bytes -= m_bytes_after_window;
    m_window_closed = true;
    if (m_free > sim_now()) m_stats.busy -= m_free - sim_now();
}

void RootPort::reset_stats() {
    const uint64_t carried = m_window_closed ? m_bytes_after_window : backlog_bytes();
    m_stats = {};
    m_stats.dma_bytes = carried;
    m_window_closed = false;
    if (m_free > sim_now()) m_stats.busy = m_free - sim_now();
}

void RootPort::hold_until(const sc_core::sc_time& t) {
    if (t <= m_free) return;
    m_stats.busy += t - m_free;
    m_free = t;
}

void RootPortStats::describe(StatVisitor& v) const {
    v.count(unreported("dma_writes"), dma_writes, "count",
            "DMA writes through the port (a completion's data and entry)");
    v.count(in_block("dma_bytes"), dma_bytes, "bytes", "bytes written by DMA through the port");
    v.count(in_block("drains"), drains, "count",
            "remapped interrupt messages ordered behind the port's earlier writes");
    v.count(unreported("posted_orders"), posted_orders, "count",
            "posted-mode PID updates ordered behind the port's earlier writes");
    v.time(unreported("busy"), busy,
           "time the write path was held: writes, drains and message back-pressure "
           "(utilization is it over the window)");
}

}  // namespace cidsim
