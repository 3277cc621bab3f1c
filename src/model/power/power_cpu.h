#pragma once
// PowerCpu: one SMT thread of a POWER partition running Linux's generic IPI
// path and, when an ipistorm kthread is bound to it, that kthread's loop
// (systems.md D, "IPI path, s -> t"):
//   kthread: smp_call_function_single(target, do_nothing_ipi, wait): csd_lock
//     (its own csd line), llist_add onto the target's call_single_queue
//     (the queue-head line), and when the queue was empty either
//     set_nr_if_polling (an idle polling target: no IPI) or the muxed IPI:
//     set_bit in the target's ipi_message line, xive_cause_ipi's trigger
//     store to the target chip's XIVE; then csd_lock_wait, spinning until
//     the target's csd_unlock reaches its line; then usleep_range(delay,
//     delay + 1): the kthread sleeps, the CPU idles (polling) until the
//     decrementer fires and the timer interrupt wakes it.
//   IPI handler (interrupts off): exception entry, the TIMA ack,
//     handle_percpu_irq (per-CPU kstat, the descriptor's dispatch loads),
//     smp_ipi_demux (xchg of ipi_message), flush_smp_call_function_queue
//     (llist_del_all, the function, csd_unlock into the sender's line),
//     add_interrupt_randomness, note_interrupt, the ESB EOI, exit.
// Interrupts preempt the kthread (its spin and its steps, whose remaining
// time resumes after the handler); a handler runs to its end. Every line
// access is made at the kernel's time, and no block acts ahead of it.
// CPUs meet through links (the trigger store to the target chip's XIVE,
// the XIVE's exception, the poll kick, the csd_unlock) and through memory:
// the per-CPU lines and the target's call queue (CallTarget).
// Counted as vmstat counts /proc/stat intr: IPIs and timer interrupts.
// Not modelled: the scheduler beyond the kthread/idle switch, other
// interrupt sources, SMT sharing of the core's pipeline (in loop_ns).
#include <map>
#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "model/power/chip_layout.h"
#include "model/linux/irq_desc.h"
#include "model/power/power_params.h"
#include "model/coherence/shared_line.h"
#include "model/power/xive.h"

namespace cidsim {

// One CPU's per-CPU data other CPUs touch, a line each.
struct IpiLines {
    SharedLine queue;    // call_single_queue's llist head
    SharedLine message;  // ipi_message (the muxed IPI's bits)
    SharedLine csd;      // the sender's csd (its flags: CSD_FLAG_LOCK)
};

// A CPU's call_single_queue as a sender sees it in memory: llist_add of
// its csd, and the target's thread_info (is it polling in idle?).
class CallTarget {
public:
    virtual ~CallTarget() = default;
    // llist_add: true when the queue was empty (the sender's IPI is due).
    virtual bool add_call(unsigned sender) = 0;
    virtual bool polling() const = 0;
};

// An ipistorm kthread bound to a CPU.
struct StormThread {
    unsigned target = 0;
    CallTarget* target_queue = nullptr;  // the target's (nullptr: itself)
    bool wait = true;
    sc_core::sc_time delay;  // usleep_range's minimum
};

struct PowerCpuStats {
    uint64_t ipis = 0;            // IPI interrupts taken
    uint64_t timer_interrupts = 0;
    uint64_t ipis_sent = 0;
    uint64_t polled = 0;          // calls that found the target polling: no IPI
    uint64_t iterations = 0;      // ipistorm loop iterations completed
    uint64_t cross_chip_sent = 0;
    sc_core::sc_time spin;        // csd_lock_wait, handlers inside it included
    void describe(StatVisitor& v) const;
};

// What `cidsim explain` shows of a CPU, kept only while attached: what it
// runs from each time on (kPowerStates) and its steps in words.
struct PowerCpuLog {
    std::vector<std::pair<sc_core::sc_time, char>> states;
    std::vector<std::pair<sc_core::sc_time, std::string>> steps;
};
// c the call (csd, enqueue, ipi_message, trigger), ~ csd_lock_wait, s the
// usleep and the loop, . idle (polling), I the IPI handler, t the timer
// interrupt, p the idle loop's flush of a call a sender found it polling for.
extern const char* const kPowerStates;

class PowerCpu : public sc_core::sc_module,
                 public CallTarget,
                 private LineRequester,
                 private Receiver<PowerCpuMsg> {
public:
    SC_HAS_PROCESS(PowerCpu);
    // `xive` is its own chip's XIVE's params (the TIMA ack and the ESB EOI
    // it pays), `lines` every CPU's per-CPU lines.
    PowerCpu(sc_core::sc_module_name name, const PowerParams& params, unsigned cpu,
             const ChipLayout& layout, const XiveParams& xive, std::vector<IpiLines>& lines,
             IrqDesc& desc, uint64_t seed);

    void bind_thread(const StormThread& t);
    // The links: what reaches this CPU; its trigger stores (to its
    // target's chip's XIVE); its poll kicks (to its target); its
    // csd_unlocks (to each CPU whose kthread calls it).
    InPort<PowerCpuMsg>& messages_in() { return m_in; }
    OutPort<XiveTrigger>& trigger_out() { return m_trigger_out; }
    OutPort<PowerCpuMsg>& kick_out() { return m_kick_out; }
    OutPort<PowerCpuMsg>& release_out(unsigned sender) { return m_release_out[sender]; }
    bool add_call(unsigned sender) override;
    bool polling() const override;

    const PowerCpuStats& stats() const { return m_stats; }
    void reset_stats();
    // A window ends now: a csd_lock_wait under way counts its spin so far in
    // this window, the rest in the next.
    void close_window();
    void record_into(PowerCpuLog* log) { m_log = log; }

private:
    enum class Step { Prep, Enqueue, Message, Wait, Sleep, Asleep, Resume };
    enum class Irq { None, Ipi, Timer, Poll };

    void run();
    void receive(const sc_core::sc_time& at, const PowerCpuMsg& msg) override;
    // From the XIVE: the IPI exception reaches this thread at `at`.
    void raise_ipi(const sc_core::sc_time& at);
    // From a sender finding this CPU polling (set_nr_if_polling).
    void kick_poll();
    // From the target's csd_unlock: the store lands at the kernel's time.
    void csd_released();
    // The descriptor's hot line served our access (ContendedLine).
    void line_served(const sc_core::sc_time& done) override;
    // Starts the next piece of work at `now`; false when nothing is runnable.
    bool start(const sc_core::sc_time& now);
    void finish(const sc_core::sc_time& now);
    void start_irq(Irq kind, const sc_core::sc_time& now);
    void irq_phase(const sc_core::sc_time& now);
    void thread_step(const sc_core::sc_time& now);
    void end_thread_step(const sc_core::sc_time& now);
    char state() const;
    // The explain log, out of line: callers test m_log first, so a run
    // without one pays a test per step and nothing more.
    enum class Said { IpiTaken, TimerTaken, PollFlush, Unlocked, Polled, Merged, IpiSent, SpinEnded };
    [[gnu::cold, gnu::noinline]] void log_state(const sc_core::sc_time& now);
    [[gnu::cold, gnu::noinline]] void say(const sc_core::sc_time& at, Said what, unsigned other = 0);
    IpiLines& lines(unsigned cpu) { return m_lines[cpu]; }

    const PowerParams& m_params;
    const unsigned m_cpu;
    const ChipLayout& m_layout;
    const unsigned m_chip;
    const XiveParams& m_xive;
    std::vector<IpiLines>& m_lines;
    IrqDesc& m_desc;
    InPort<PowerCpuMsg> m_in;
    OutPort<XiveTrigger> m_trigger_out;
    OutPort<PowerCpuMsg> m_kick_out;
    std::map<unsigned, OutPort<PowerCpuMsg>> m_release_out;
    bool m_has_thread = false;
    StormThread m_thread;

    sc_core::sc_event m_wake;
    sc_core::sc_time m_busy_until;  // the current piece of work ends
    bool m_working = false;
    bool m_line_wait = false;       // the handler waits for the descriptor's line to serve it
    // The kthread.
    Step m_step = Step::Prep;
    sc_core::sc_time m_step_left;   // of a step an interrupt preempted
    bool m_step_running = false;
    bool m_released = false;        // csd_unlock reached our csd line
    bool m_needs_ipi = false;       // our enqueue found the queue empty, its target not polling
    sc_core::sc_time m_spin_from;     // the spin began (what explain narrates)
    sc_core::sc_time m_spin_counted;  // its time up to here is in a window's stats
    // Interrupts.
    Irq m_irq = Irq::None;
    int m_irq_pc = 0;
    std::vector<sc_core::sc_time> m_ipi_at;  // pending IPI exceptions
    sc_core::sc_time m_timer_at;
    bool m_timer_armed = false;
    bool m_poll_kicked = false;
    std::vector<unsigned> m_queued;  // senders whose csd sits on our queue
    std::mt19937_64 m_rng;
    PowerCpuStats m_stats;
    PowerCpuLog* m_log = nullptr;
};

}  // namespace cidsim
