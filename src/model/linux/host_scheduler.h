#pragma once
// HostScheduler: the host kernel's scheduler on one pCPU, as far as the
// interrupt path needs it (systems.md section B): which thread runs, when
// a woken thread preempts the current one, and the preempt notifiers KVM
// hangs on a vCPU thread (kvm_sched_out -> kvm_arch_vcpu_put,
// kvm_sched_in -> kvm_arch_vcpu_load, virt/kvm/kvm_main.c).
//
// Modelled: threads with a policy, SCHED_FIFO (with an rt priority) or
// SCHED_NORMAL; a FIFO thread outranks every normal one and a higher FIFO
// priority a lower one (kernel/sched/rt.c), so waking the forced IRQ
// thread (FIFO 50, kernel/irq/manage.c setup_irq_thread) sets NEED_RESCHED
// over a vCPU thread; the idle thread runs when nothing else can.
// Switches are counted; their cost is charged by the pCPU's block
// (vmx_cpu.h), which calls pick() where Linux would call schedule().
// Not modelled: CFS fairness among normal threads (one normal thread per
// isolated pCPU here), load balancing, migration, RT throttling.
#include <cstdint>
#include <string>
#include <vector>

namespace cidsim {

enum class SchedPolicy : int { Normal, Fifo };

// KVM's preempt notifier on a thread (struct preempt_notifier).
class PreemptNotifier {
public:
    virtual ~PreemptNotifier() = default;
    // `preempted`: the thread was still runnable when switched out.
    virtual void sched_out(bool preempted) = 0;
    virtual void sched_in() = 0;
};

struct HostThread {
    std::string name;
    SchedPolicy policy = SchedPolicy::Normal;
    unsigned rt_priority = 0;  // 1..99 for Fifo
    bool runnable = false;
    PreemptNotifier* notifier = nullptr;
};

struct HostSchedulerStats {
    uint64_t context_switches = 0;
    uint64_t wakeups = 0;
    uint64_t preemptions = 0;  // switches away from a thread still runnable
};

class HostScheduler {
public:
    static constexpr int kIdle = -1;

    // Returns the thread's id.
    int add(const HostThread& t);
    // wake_up_process: true when the woken thread should preempt the current
    // one (NEED_RESCHED set).
    bool wake(int id);
    // The current thread goes to sleep (set_current_state + schedule).
    void sleep_current() { if (m_current != kIdle) m_threads[m_current].runnable = false; }
    // The best runnable thread (kIdle when none): what schedule() picks.
    int pick() const;
    // Switches to `next` if it is not current: the notifiers of the thread
    // leaving and the one arriving run; true when a switch happened.
    bool switch_to(int next);
    bool need_resched() const { return pick() != m_current; }

    int current() const { return m_current; }
    const HostThread& thread(int id) const { return m_threads[size_t(id)]; }
    int thread_count() const { return int(m_threads.size()); }
    const HostSchedulerStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }

private:
    // Does a outrank b (b may be kIdle)?
    bool outranks(int a, int b) const;

    std::vector<HostThread> m_threads;
    int m_current = kIdle;
    HostSchedulerStats m_stats;
};

}  // namespace cidsim
