#pragma once
// Invariants checked after every run, cheap enough to stay on:
//   conservation            every completion posted is handled exactly once
//                           or still in flight at the end (reported);
//   no_stranded_interrupt   no PIR bit left set with ON clear after a
//                           notification [mechanism 4]; with
//                           handler.final_harvest=false (the deliberately
//                           buggy variant) stranded interrupts are the
//                           finding: reported, not enforced;
//   lapic_sanity            no EOI with an empty ISR;
//   monotone_time           nothing scheduled in the past, and the run ended
//                           exactly at warm-up + duration;
//   bounded_queues          no device exceeded its max_in_flight.
// A violated enforced invariant fails the run (exit status 1); every result
// file records all of them under "invariants".
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/system.h"

namespace cidsim {

struct InvariantResult {
    std::string name;
    bool holds = true;
    bool enforced = true;     // false: a finding of the selected buggy variant
    uint64_t violations = 0;
    double first_at_ns = -1;  // simulated time of the first violation, if known
    std::string detail;
};

struct InvariantReport {
    std::vector<InvariantResult> results;

    bool ok() const;
    // One line per violated enforced invariant: which, when, and what.
    std::vector<std::string> failures() const;
    nlohmann::json to_json() const;
};

InvariantReport check_invariants(const System& system);

}  // namespace cidsim
