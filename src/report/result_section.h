#pragma once
// A machine family's part of a result file (the KVM guest's per_vcpu, the
// Xen domain's xen, the POWER partition's ipistorm): whether a run has it,
// how it is computed, the rows that describe it in `cidsim params
// --metrics` (and so in docs/metrics.md and `run --stats`), and how a run
// measured in windows totals it. One file per family under
// report/machines/ holds all of these, so the JSON, the listing and the
// stats file cannot drift apart; a new family adds its file and one line
// in result_sections().
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/histogram_collector.h"
#include "sim/system.h"

namespace cidsim {

class ResultSection {
public:
    virtual ~ResultSection() = default;
    // The result's key ("xen").
    virtual const char* key() const = 0;
    // Its sections of the metric listing, in order ("xen", "xen.event_lock",
    // "xen.per_vcpu[]").
    virtual std::vector<const char*> listing() const = 0;
    virtual bool present(const System& sys) const = 0;
    virtual nlohmann::json write(const System& sys, double secs) const = 0;
    // Its rows of the listing: the blocks' own statistics, then what write()
    // computes (listed after every family's statistics, as the host's are).
    virtual void list_stats(nlohmann::ordered_json& out) const = 0;
    virtual void list_computed(nlohmann::ordered_json& out) const = 0;
    // A run measured in windows (run.batches > 1): files one window's
    // histograms before its statistics are reset (only when present)...
    virtual void add_window(const System&, HistogramMap&) {}
    // ...and, in the run's totals of its section, recomputes the ratios of
    // sums that a mean of the windows would get wrong.
    virtual void write_totals(nlohmann::json& /*section*/,
                              const std::vector<nlohmann::json>& /*windows*/) const {}
};

// One of each family's, in the order they are listed; fresh ones for each
// run, since add_window keeps what the windows summed.
std::vector<std::unique_ptr<ResultSection>> result_sections();
std::unique_ptr<ResultSection> kvm_result_section();
std::unique_ptr<ResultSection> xen_result_section();
std::unique_ptr<ResultSection> power_result_section();

}  // namespace cidsim
