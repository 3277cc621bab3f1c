#include "sim/invariants.h"

#include <sstream>

#include "kernel/violation.h"

namespace cidsim {

using nlohmann::json;

namespace {

std::string fmt(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

InvariantResult named(const char* name) {
    InvariantResult r;
    r.name = name;
    return r;
}

// Keeps the earliest first violation among several counters.
void merge(InvariantResult& r, const ViolationCount& v) {
    if (!v.count) return;
    const double at = ns_of(v.first_at);
    if (!r.violations || at < r.first_at_ns) r.first_at_ns = at;
    r.violations += v.count;
}

InvariantResult conservation(const System& sys) {
    InvariantResult r = named("conservation");
    uint64_t posted = 0, drained = 0, in_flight = 0;
    for (size_t d = 0; d < sys.host().view().devices.size(); ++d) {
        const Device& dev = *sys.host().view().devices[d];
        posted += dev.posted_ever();
        drained += dev.drained_ever();
        in_flight += dev.in_flight();
        if (dev.drained_ever() + dev.in_flight() != dev.posted_ever()) {
            if (!r.violations) {
                r.first_at_ns = ns_of(sc_core::sc_time_stamp());
                r.detail = sys.host().view().device_names[d] + ": " +
                           std::to_string(dev.posted_ever()) + " completions posted but " +
                           std::to_string(dev.drained_ever()) + " handled and " +
                           std::to_string(dev.in_flight()) + " in flight; ";
            }
            ++r.violations;
        }
    }
    r.holds = r.violations == 0;
    r.detail += std::to_string(posted) + " completions posted, " + std::to_string(drained) +
                " handled, " + std::to_string(in_flight) + " in flight at the end";
    return r;
}

InvariantResult stranded(const System& sys) {
    InvariantResult r = named("no_stranded_interrupt");
    r.enforced = sys.config().handler.final_harvest;
    for (unsigned c = 0; c < sys.host().cpu_count(); ++c)
        merge(r, sys.host().cpu(c).stranded_ever());
    r.holds = r.violations == 0;
    r.detail = std::to_string(r.violations) +
               " notifications left a PIR bit set with ON clear (stranded)";
    if (!r.enforced)
        r.detail += "; handler.final_harvest=false selects the racy handler, so this is the "
                    "finding, not a failure";
    return r;
}

InvariantResult lapic_sanity(const System& sys) {
    InvariantResult r = named("lapic_sanity");
    for (unsigned c = 0; c < sys.host().cpu_count(); ++c)
        merge(r, sys.host().apic(c).empty_eoi_ever());
    r.holds = r.violations == 0;
    r.detail = std::to_string(r.violations) + " EOIs with an empty ISR";
    return r;
}

InvariantResult monotone_time(const System& sys) {
    InvariantResult r = named("monotone_time");
    merge(r, g_time_regressions);
    r.detail = std::to_string(r.violations) + " events scheduled in the past";
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (!sys.stopped_early() && now != sys.expected_end()) {
        if (!r.violations) r.first_at_ns = ns_of(now);
        ++r.violations;
        r.detail += "; the run ended at " + fmt(ns_of(now)) + " ns instead of " +
                    fmt(ns_of(sys.expected_end())) + " ns";
    }
    r.holds = r.violations == 0;
    return r;
}

InvariantResult bounded_queues(const System& sys) {
    InvariantResult r = named("bounded_queues");
    for (size_t d = 0; d < sys.host().view().devices.size(); ++d) {
        const ViolationCount& v = sys.host().view().devices[d]->overflows();
        if (v.count && !r.violations)
            r.detail = "devices[" + std::to_string(d) + "] (" + sys.host().view().device_names[d] +
                       ") had more than devices[" + std::to_string(d) + "].max_in_flight = " +
                       std::to_string(sys.config().devices[d].params.max_in_flight) +
                       " completions waiting: the handlers cannot keep up, so the run was "
                       "stopped; ";
        merge(r, v);
    }
    r.holds = r.violations == 0;
    r.detail += r.holds ? "no device queue overflowed" : "its figures would cover a partial run";
    return r;
}

}  // namespace

InvariantReport check_invariants(const System& sys) {
    return {{conservation(sys), stranded(sys), lapic_sanity(sys), monotone_time(sys),
             bounded_queues(sys)}};
}

bool InvariantReport::ok() const {
    for (const InvariantResult& r : results)
        if (!r.holds && r.enforced) return false;
    return true;
}

std::vector<std::string> InvariantReport::failures() const {
    std::vector<std::string> out;
    for (const InvariantResult& r : results)
        if (!r.holds && r.enforced)
            out.push_back("invariant " + r.name + " violated" +
                          (r.first_at_ns >= 0 ? " at " + fmt(r.first_at_ns) + " ns simulated"
                                              : std::string()) +
                          ": " + r.detail);
    return out;
}

json InvariantReport::to_json() const {
    json out = json::object();
    for (const InvariantResult& r : results)
        out[r.name] = {{"holds", r.holds},
                       {"enforced", r.enforced},
                       {"violations", r.violations},
                       {"first_at_ns", r.first_at_ns >= 0 ? json(r.first_at_ns) : json(nullptr)},
                       {"detail", r.detail}};
    out["all_enforced_hold"] = ok();
    return out;
}

}  // namespace cidsim
