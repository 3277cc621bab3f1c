#include "model/linux/host_scheduler.h"

namespace cidsim {

int HostScheduler::add(const HostThread& t) {
    m_threads.push_back(t);
    return int(m_threads.size() - 1);
}

bool HostScheduler::outranks(int a, int b) const {
    if (b == kIdle) return true;
    const HostThread& x = m_threads[size_t(a)];
    const HostThread& y = m_threads[size_t(b)];
    if (x.policy != y.policy) return x.policy == SchedPolicy::Fifo;
    return x.policy == SchedPolicy::Fifo && x.rt_priority > y.rt_priority;
}

bool HostScheduler::wake(int id) {
    HostThread& t = m_threads[size_t(id)];
    if (t.runnable) return false;
    t.runnable = true;
    ++m_stats.wakeups;
    return id != m_current && outranks(id, m_current);
}

int HostScheduler::pick() const {
    int best = kIdle;
    // The current thread keeps the CPU against equals (no time slices here).
    if (m_current != kIdle && m_threads[size_t(m_current)].runnable) best = m_current;
    for (int i = 0; i < int(m_threads.size()); ++i)
        if (m_threads[size_t(i)].runnable && i != best && (best == kIdle || outranks(i, best)))
            best = i;
    return best;
}

bool HostScheduler::switch_to(int next) {
    if (next == m_current) return false;
    ++m_stats.context_switches;
    if (m_current != kIdle) {
        HostThread& prev = m_threads[size_t(m_current)];
        if (prev.runnable) ++m_stats.preemptions;
        if (prev.notifier) prev.notifier->sched_out(prev.runnable);
    }
    m_current = next;
    if (next != kIdle && m_threads[size_t(next)].notifier) m_threads[size_t(next)].notifier->sched_in();
    return true;
}

}  // namespace cidsim
