#pragma once
// TieOrder: the one owner of the order of acts due at one kernel time
// (kernel/lookahead.h, glossary). SystemC runs the processes of one
// picosecond in an order of its own; where that order would decide a
// result (two devices writing through one root port, a message reaching a
// LAPIC as its core acts), the participants are ranked, and before one of
// them acts at the kernel's time every participant ranked before it first
// catches up: it makes the acts it has due now, if it has not yet. So ties
// go by rank, whichever process SystemC runs first.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace cidsim {

class Participant {
public:
    virtual ~Participant() = default;
    // Makes the acts due at the kernel's time now that are still to be made
    // (none, when its own process has run at this picosecond already).
    virtual void catch_up() = 0;
};

class TieOrder {
public:
    // `rank` places the participant (the lowest first; equal ranks in the
    // order added).
    void add(Participant& p, uint32_t rank) {
        const auto at = std::upper_bound(
            m_ranked.begin(), m_ranked.end(), rank,
            [](uint32_t r, const std::pair<uint32_t, Participant*>& e) { return r < e.first; });
        m_ranked.insert(at, {rank, &p});
    }
    // Before `p` acts at the kernel's time: those ranked before it catch up
    // (nullptr: all of them).
    void catch_up_before(const Participant* p) const {
        for (const auto& [rank, participant] : m_ranked) {
            if (participant == p) return;
            participant->catch_up();
        }
    }
    bool empty() const { return m_ranked.empty(); }

private:
    std::vector<std::pair<uint32_t, Participant*>> m_ranked;
};

}  // namespace cidsim
