// The POWER partition's part of a result (systems.md E, E2): ipistorm.
#include "report/metric_rows.h"
#include "report/result_section.h"

namespace cidsim {

using nlohmann::json;

namespace {

const char* const kIpistorm = "ipistorm";
const char* const kPerChip = "ipistorm.per_chip[]";

const ReportMetric kRows[] = {
    {kIpistorm, "mint_per_s", "number", "1e6/s",
     "vmstat's interrupt rate: IPIs and timer interrupts taken, over the measured time (E2's figure)"},
    {kIpistorm, "ipis_per_s", "number", "1/s", "IPIs taken over the measured time"},
    {kIpistorm, "timer_interrupts_per_s", "number", "1/s", "timer interrupts over the measured time"},
    {kIpistorm, "iterations_per_s", "number", "1/s", "ipistorm loop iterations over the measured time"},
    {kIpistorm, "polled_share", "number", "fraction",
     "calls that found their target polling (no IPI) over all calls needing one"},
    {kIpistorm, "spin_us_per_iteration", "number", "us", "csd_lock_wait per iteration"},
    {kIpistorm, "desc_line_transfers_per_ipi", "number", "1/IPI",
     "misses and upgrades of the IPI descriptors' hot line (bytes 256-383) per IPI"},
    {kIpistorm, "desc_line_cross_chip_share", "number", "fraction",
     "of those, supplied from another chip"},
    {kIpistorm, "desc_line_queued_share", "number", "fraction",
     "of those, queued behind an earlier transfer of the line"},
    {kIpistorm, "desc_line_stores", "integer", "count", "irq_count++ stores into the hot line"},
    {kIpistorm, "desc_line_transfers", "integer", "count",
     "misses and upgrades of the IPI descriptors' hot line, from any chip"},
    {kIpistorm, "desc_line_transfers_per_s", "number", "1/s",
     "desc_line_transfers over the measured time"},
    {kIpistorm, "cross_chip_ipi_share", "number", "fraction", "IPIs sent to another chip's CPU"},
    {kIpistorm, "xive_queued_share", "number", "fraction", "trigger stores that waited for a XIVE router"},
    {kIpistorm, "descs", "integer", "count", "IPI irq_descs: 1 (IPI/sys) or one per chip (IPI/chip)"},
    {kPerChip, "chip", "integer", "index", "the chip (power.cores_per_chip[])"},
    {kPerChip, "cpus", "integer", "count", "its CPUs (cores x threads_per_core)"},
    {kPerChip, "ipis", "integer", "count", "IPIs taken by its CPUs"},
    {kPerChip, "ipis_per_s", "number", "1/s", "ipis over the measured time"},
    {kPerChip, "ipis_sent", "integer", "count", "IPIs its CPUs sent"},
    {kPerChip, "cross_chip_sent", "integer", "count", "of those, to another chip's CPU"},
    {kPerChip, "timer_interrupts", "integer", "count", "timer interrupts taken by its CPUs"},
    {kPerChip, "iterations", "integer", "count", "ipistorm loop iterations of its CPUs"},
    {kPerChip, "xive_triggers", "integer", "count", "trigger stores its XIVE routed"},
    {kPerChip, "xive_cross_chip_triggers", "integer", "count",
     "of those, stored by another chip's CPU"},
    {kPerChip, "xive_queued", "integer", "count", "events that waited for its XIVE router"},
};

// CPUs' statistics summed (the partition's, or a chip's).
void add(PowerCpuStats& into, const PowerCpuStats& s) {
    into.ipis += s.ipis;
    into.timer_interrupts += s.timer_interrupts;
    into.ipis_sent += s.ipis_sent;
    into.polled += s.polled;
    into.iterations += s.iterations;
    into.cross_chip_sent += s.cross_chip_sent;
    into.spin += s.spin;
}

// What the partition's figures are computed from: its CPUs', descriptor
// lines' and XIVEs' statistics summed (over one window, or over a run's).
struct StormSums {
    PowerCpuStats cpus;
    uint64_t transfers = 0, remote = 0, queued = 0, stores = 0;
    XiveStats xive;

    void add(const PowerPartition& p) {
        for (unsigned c = 0; c < p.cpu_count(); ++c) cidsim::add(cpus, p.cpu(c).stats());
        for (const auto& d : p.descs()) {
            const SharedLineStats& h = d->hot_line().stats();
            transfers += h.misses + h.upgrades;
            remote += h.remote_supplies;
            queued += h.queued_transfers;
            stores += h.stores;
        }
        for (const auto& x : p.xives()) {
            xive.triggers += x->stats().triggers;
            xive.cross_chip_triggers += x->stats().cross_chip_triggers;
            xive.queued += x->stats().queued;
        }
    }
    // The rates and ratios over `secs`: each a ratio of the sums.
    json figures(double secs) const {
        const PowerCpuStats& t = cpus;
        const double ints = double(t.ipis + t.timer_interrupts);
        return {{"mint_per_s", per_second(ints, secs) / 1e6},
                {"ipis_per_s", per_second(double(t.ipis), secs)},
                {"timer_interrupts_per_s", per_second(double(t.timer_interrupts), secs)},
                {"iterations_per_s", per_second(double(t.iterations), secs)},
                {"polled_share", ratio(double(t.polled), double(t.polled + t.ipis_sent))},
                {"spin_us_per_iteration",
                 ratio(t.spin.to_seconds() * 1e6, double(t.iterations))},
                {"desc_line_transfers_per_ipi", ratio(double(transfers), double(t.ipis))},
                {"desc_line_cross_chip_share", ratio(double(remote), double(transfers))},
                {"desc_line_queued_share", ratio(double(queued), double(transfers))},
                {"desc_line_stores", stores},
                {"cross_chip_ipi_share",
                 ratio(double(t.cross_chip_sent), double(t.ipis_sent))},
                {"xive_queued_share", ratio(double(xive.queued), double(xive.triggers))},
                {"desc_line_transfers", transfers},
                {"desc_line_transfers_per_s", per_second(double(transfers), secs)}};
    }
};

class PowerResults final : public ResultSection {
public:
    const char* key() const override { return kIpistorm; }
    std::vector<const char*> listing() const override { return {kIpistorm, kPerChip}; }
    bool present(const System& sys) const override { return sys.power() != nullptr; }
    json write(const System& sys, double secs) const override {
        return ipistorm_results(*sys.power(), secs);
    }
    void list_stats(nlohmann::ordered_json& out) const override {
        list_block_stats<PowerCpuStats>(out, kIpistorm, "PowerCpuStats", "CPUs summed");
    }
    void list_computed(nlohmann::ordered_json& out) const override {
        list_report_metrics(out, kRows);
    }
    void add_window(const System& sys, HistogramMap&) override {
        m_sums.add(*sys.power());
        m_descs = sys.power()->descs().size();
    }
    // The run's figures from its sums, as one window over the whole measured
    // time gives them: not a mean of the windows' ratios; `descs` is the
    // partition's (a configuration, not a count to sum).
    void write_totals(json& section, const std::vector<json>& windows) const override {
        double secs = 0;
        for (const json& w : windows) secs += w["metrics"]["simulated_seconds"].get<double>();
        section.update(m_sums.figures(secs));
        section["descs"] = m_descs;
    }

private:
    // The POWER partition under ipistorm (systems.md E, E2): vmstat's count
    // (IPIs and timer interrupts), the descriptor lines' transfers per IPI and
    // their cross-chip share.
    static json ipistorm_results(const PowerPartition& p, double secs) {
        StormSums sums;
        sums.add(p);
        json o = sums.figures(secs);
        o["descs"] = p.descs().size();
        o["per_chip"] = per_chip(p, secs);
        write_block_stats(sums.cpus, o);
        return o;
    }

    // Where the storm's IPIs went and came from, chip by chip (each chip's
    // XIVE with it).
    static json per_chip(const PowerPartition& p, double secs) {
        const ChipLayout& layout = p.layout();
        std::vector<PowerCpuStats> chips(layout.chips());
        std::vector<unsigned> cpus(layout.chips(), 0);
        for (unsigned c = 0; c < p.cpu_count(); ++c) {
            add(chips[layout.chip_of(c)], p.cpu(c).stats());
            ++cpus[layout.chip_of(c)];
        }
        json list = json::array();
        for (unsigned k = 0; k < layout.chips(); ++k) {
            const XiveStats& x = p.xives()[k]->stats();
            list.push_back({{"chip", k},
                            {"cpus", cpus[k]},
                            {"ipis", chips[k].ipis},
                            {"ipis_per_s", per_second(double(chips[k].ipis), secs)},
                            {"ipis_sent", chips[k].ipis_sent},
                            {"cross_chip_sent", chips[k].cross_chip_sent},
                            {"timer_interrupts", chips[k].timer_interrupts},
                            {"iterations", chips[k].iterations},
                            {"xive_triggers", x.triggers},
                            {"xive_cross_chip_triggers", x.cross_chip_triggers},
                            {"xive_queued", x.queued}});
        }
        return list;
    }

    StormSums m_sums;  // over the windows
    size_t m_descs = 0;
};

}  // namespace

std::unique_ptr<ResultSection> power_result_section() { return std::make_unique<PowerResults>(); }

}  // namespace cidsim
