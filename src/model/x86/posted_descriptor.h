#pragma once
// PostedDescriptor: the 64-byte posted-interrupt descriptor (PID) of one CPU
// (host posted MSI) or vCPU, and the cache line it lives in [9.12].
//
// Modelled: PIR (256 bits as four 64-bit words), ON, SN, NV, NDST; the
// remapping hardware's atomic post (set PIR bit, X = !ON && (URG || !SN),
// set ON if X) [5.2.3]; the CPU's 64-bit loads, xchg of a PIR word and the
// atomic clear of ON, each charged through the SharedLine cost model; the
// remapping unit's RMW holds the line for its latency (post_held): posts to
// one PID are serialised and a CPU access meanwhile waits for the line
// (the kernel's comment in arch/x86/kernel/irq.c: the IOMMU "does atomic
// swaps of the entire PID cache line" and the CPU reaches the line "a
// magnitude faster"). A CPU's own locked RMWs hold nothing here. An
// optional access log records every access in order (tests, `explain`).
// An access may be made ahead of the kernel's time when the other side
// cannot touch the descriptor before it (see Lookahead): the same
// values and costs as at that time, without waiting for it.
// Not modelled: the reserved bits (a PID is never malformed here), the
// descriptor's memory address beyond identifying it.
#include <cstdint>
#include <string>
#include <vector>

#include "kernel/lookahead.h"
#include "kernel/tie_order.h"
#include "model/coherence/shared_line.h"
#include "model/x86/trace_observer.h"
#include "model/base/vector_bits.h"

namespace cidsim {

enum class PidOp : int { Read, Xchg, ClearOn, Post };

// The remapping hardware as the PID's other side: its lookahead, and, as a
// Participant, its posts due at the kernel's time made when the CPU is to
// act then (kernel/tie_order.h).
class Poster : public Lookahead, public Participant {};
const char* to_string(PidOp op);

struct PidAccess {
    sc_core::sc_time at;
    AgentId agent;
    PidOp op;
    int word;        // PIR word for Read/Xchg, -1 otherwise
    uint64_t value;  // value read or swapped out; for Post the vector
    bool notify;     // Post only: a notification was sent
};

class PostedDescriptor {
public:
    PostedDescriptor(uint64_t address, Vector nv, uint32_t ndst, const SharedLine& line)
        : m_address(address),
          m_nv(nv),
          m_ndst(ndst),
          m_line(line),
          m_cpu_relied("PID of APIC " + std::to_string(ndst) + ", posts seen by its CPU"),
          m_poster_relied("PID of APIC " + std::to_string(ndst) +
                          ", CPU accesses seen by the remapping unit") {}

    // CPU side. Each returns the access latency in `cost`.
    // (read_word is inline: a CPU's PIR scan reads several words per MSI.)
    uint64_t read_word(AgentId cpu, unsigned word, sc_core::sc_time& cost) {
        cost = m_line.access(cpu, LineAccess::Load);
        const uint64_t v = m_pir.word[word];
        if (m_log) log(cpu, PidOp::Read, int(word), v);
        if (m_obs) m_obs->pid_access(m_ndst, PidEvent::Read, int(word), v, false);
        return v;
    }
    uint64_t xchg_word(AgentId cpu, unsigned word, uint64_t value, sc_core::sc_time& cost);
    void clear_on(AgentId cpu, sc_core::sc_time& cost);

    // Remapping hardware [5.2.3]. Returns true when a notification is to be
    // sent (ON was clear and URG or !SN); `cost` is the RMW's latency.
    bool post(AgentId iommu, Vector vector, bool urgent, sc_core::sc_time& cost);
    // The same post as the remapping unit makes it, its RMW ready to start
    // at `ready`: the unit swaps the whole line atomically and holds it for
    // the RMW's latency, so a post to this PID starts only once the last one
    // has let the line go (posts to one PID are serialised) and a CPU access
    // meanwhile waits (line_wait). `cost` runs from `ready` to the RMW's end.
    bool post_held(AgentId iommu, Vector vector, bool urgent, const sc_core::sc_time& ready,
                   sc_core::sc_time& cost);
    // How long a CPU access at `at` waits for the remapping unit's RMW.
    sc_core::sc_time line_wait(const sc_core::sc_time& at) const {
        return m_held_until > at ? m_held_until - at : sc_core::SC_ZERO_TIME;
    }

    // The two sides, for accesses ahead of the kernel's time. Until both are
    // attached (and while a log wants every access at its own time) every
    // access is made at the kernel's time.
    void attach_cpu(const Lookahead& cpu) { m_cpu = &cpu; }
    void attach_poster(Poster& poster) { m_poster = &poster; }
    // The poster, whose posts due at the kernel's time land before the
    // CPU's accesses at it (nullptr: none attached).
    Participant* poster() const { return m_poster; }
    // The CPU may access at any time before this (not before now) as if it
    // had waited until then; the answer holds until another process runs
    // (Lookahead: exact up to `needed`).
    sc_core::sc_time cpu_lookahead(const sc_core::sc_time& needed) const {
        if (m_log || !m_poster) return sc_core::SC_ZERO_TIME;
        return std::min(run_ahead_limit(), m_poster->earliest_next(needed));
    }
    // May the remapping unit post at `at` (not before now) already now?
    bool poster_may_access_at(const sc_core::sc_time& at) {
        const bool ahead = !m_log && m_cpu && may_run_ahead_to(at) && at < m_cpu->earliest_next(at);
        if (ahead && lookahead_checked()) m_poster_relied.relied_on(at);
        return ahead;
    }
    // The lookahead check (kernel/lookahead.h): what the CPU relied on when
    // it accessed ahead, and the posts and accesses checked against what
    // the other side relied on.
    Promise& cpu_relied() { return m_cpu_relied; }
    void check_post_at(const sc_core::sc_time& at) const { m_cpu_relied.check(at); }
    void check_cpu_access_at(const sc_core::sc_time& at) const {
        m_poster_relied.check_not_before(at);
    }

    // A software write that is not on the measured path (KVM vCPU put/load).
    void set_sn(bool sn) { m_sn = sn; }
    // KVM's other software writes of a vCPU's PID (vmx_vcpu_pi_load's
    // pi_set_on, pi_pre_block/pi_post_block's NV and NDST switch, the
    // cmpxchg64 of 5.12): made at the kernel's time by the vCPU's block
    // (vmx_cpu.h), whose costs it charges itself.
    void set_on(bool on) { m_on = on; }
    void set_pir(Vector v) { m_pir.set(v); }  // KVM's pi_test_and_set_pir
    // The line cost of one such write (a locked RMW by `cpu`).
    sc_core::sc_time software_rmw(AgentId cpu) { return m_line.access(cpu, LineAccess::LockedRmw); }
    void set_nv(Vector nv) { m_nv = nv; }
    void set_ndst(uint32_t ndst) { m_ndst = ndst; }

    uint64_t address() const { return m_address; }
    Vector nv() const { return m_nv; }
    uint32_t ndst() const { return m_ndst; }
    bool on() const { return m_on; }
    bool sn() const { return m_sn; }
    const VectorBits& pir() const { return m_pir; }
    const SharedLine& line() const { return m_line; }
    uint64_t posts() const { return m_posts; }
    uint64_t notifications() const { return m_notifications; }
    void reset_stats() {
        m_line.reset_stats();
        m_posts = m_notifications = 0;
    }

    // Starts recording accesses into `log` (nullptr stops).
    void record_into(std::vector<PidAccess>* log) { m_log = log; }
    void set_observer(TraceObserver* obs) { m_obs = obs; }

private:
    void log(AgentId a, PidOp op, int word, uint64_t value, bool notify = false);

    uint64_t m_address;
    Vector m_nv;
    uint32_t m_ndst;
    SharedLine m_line;
    VectorBits m_pir;
    bool m_on = false;
    bool m_sn = false;
    sc_core::sc_time m_held_until;  // the remapping unit's RMW holds the line until then
    uint64_t m_posts = 0;
    uint64_t m_notifications = 0;
    std::vector<PidAccess>* m_log = nullptr;
    TraceObserver* m_obs = nullptr;
    const Lookahead* m_cpu = nullptr;
    Poster* m_poster = nullptr;
    Promise m_cpu_relied;
    Promise m_poster_relied;
};

}  // namespace cidsim
