#pragma once
// ContendedLine: a cache line every CPU of a machine fights over (the IPI
// irq_desc's hot line, systems.md D "The one store"), with the fabric's
// choice of which waiting request it serves next.
//
// Modelled: the line's state and costs as SharedLine's serialised use (one
// transfer at a time at the line's home, a read of a clean copy pipelined);
// a request its requester's cache can serve (a load of a held copy, a store
// to an exclusive one) never waits. Two orders among waiting requests:
//   - fifo: in the order they were made (SharedLine::access_serialised; the
//     answer is known when the request is made);
//   - random: each time the line is free, the fabric serves one of the
//     waiting requests picked uniformly. POWER's coherence is a snooping
//     fabric whose colliding requests are answered "retry" and re-issued
//     (combined responses), so no queue orders them; which retry wins is
//     taken as uniform (an assumption: real arbitration may favour
//     requests nearer the line). The requester learns when it is done only
//     once it is served (LineRequester).
// Not modelled: retry traffic and its bandwidth, any locality bias in who
// wins, starvation guards.
#include <memory>
#include <random>
#include <systemc>
#include <vector>

#include "model/coherence/shared_line.h"

namespace cidsim {

enum class LineOrder : int { Fifo, Random };
extern const char* const kLineOrderNames[2];

// Who waits for a ContendedLine access.
class LineRequester {
public:
    // The access completes at `done` (>= the kernel's time).
    virtual void line_served(const sc_core::sc_time& done) = 0;

protected:
    ~LineRequester() = default;
};

// One served access that did not hit, as `cidsim explain` shows it.
struct LineTransferRecord {
    sc_core::sc_time asked, done;
    AgentId cpu = 0;
    bool store = false;       // an ownership request (else a load)
    AgentId from = 0;         // who supplied the line (== cpu: it had a copy, an upgrade)
    bool from_memory = false; // no cache held it
    unsigned invalidated = 0; // copies the store invalidated
    unsigned invalidated_remote = 0;  // ... of them on another node
    bool cross_chip = false;  // the supplier is on another node
    bool queued = false;      // it waited behind earlier transfers at the line's home
};

class ContendedLine : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ContendedLine);
    ContendedLine(sc_core::sc_module_name name, const SharedLineParams& params,
                  std::shared_ptr<const LineTopology> topology, LineOrder order, uint64_t seed);

    // Asks for the access at the kernel's time; `r.line_served` is called
    // when the line serves it: from inside this call when it does not wait
    // (or the order is fifo), else later.
    void request(AgentId who, LineAccess kind, LineRequester& r);

    const SharedLine& line() const { return m_line; }
    void reset_stats() { m_line.reset_stats(); }
    // Every served access that is not a hit goes here while set (explain).
    void record_into(std::vector<LineTransferRecord>* log) { m_log = log; }

private:
    struct Waiter {
        AgentId who;
        LineAccess kind;
        LineRequester* requester;
        sc_core::sc_time asked;
    };
    void serve(const Waiter& w, const sc_core::sc_time& now);
    void serve_next();  // SC_METHOD: the line is free and requests wait
    [[gnu::cold, gnu::noinline]] sc_core::sc_time logged_serve(const Waiter& w, const sc_core::sc_time& now);

    SharedLine m_line;
    const LineOrder m_order;
    std::vector<Waiter> m_waiting;
    sc_core::sc_event m_free;
    std::mt19937_64 m_rng;
    std::vector<LineTransferRecord>* m_log = nullptr;
};

}  // namespace cidsim
