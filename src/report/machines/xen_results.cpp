// The Xen domain's part of a result (systems.md E, E1): xen, the domain's
// lock and pirq walks, and one entry per vCPU.
#include "model/coherence/spin_lock.h"
#include "report/metric_rows.h"
#include "report/result_section.h"

namespace cidsim {

using nlohmann::json;

namespace {

const char* const kXen = "xen";
const char* const kXenLock = "xen.event_lock";
const char* const kXenVcpu = "xen.per_vcpu[]";

const ReportMetric kRows[] = {
    {kXen, "eois_per_s", "number", "1/s", "eois (guest EOIs reaching hvm_dpci_msi_eoi) over the measured time"},
    {kXen, "ios", "integer", "count", "I/Os reaped by the guest's threads in the measured time"},
    {kXen, "host_cpu_us_per_io", "number", "us/I/O",
     "Xen's CPU time on the vCPUs' pCPUs (root_time summed) per I/O reaped"},
    {kXen, "walk_entries_per_eoi", "number", "1/EOI", "walk_entries / eois"},
    {kXen, "pirq_misses_per_eoi", "number", "1/EOI", "pirq_misses / eois"},
    {kXen, "event_lock", "object", "lock", "d->event_lock: its kind, rates and SpinLockStats"},
    {kXen, "per_vcpu", "array", "vCPUs", "one entry per vCPU (xen.per_vcpu[])"},
    {kXenLock, "kind", "string", "", "ticket (Xen 2018) or rw (Xen 4.17, the rwlock variant)"},
    {kXenLock, "acquisitions_per_s", "number", "1/s", "acquisitions over the measured time"},
    {kXenLock, "held_fraction", "number", "fraction",
     "time held by anyone (overlapping readers' holds once) over the measured time"},
    {kXenLock, "mean_owners", "number", "CPUs",
     "hold times summed over the owners over the measured time: the mean number of owners "
     "(above held_fraction only where readers share the rwlock)"},
    {kXenLock, "line_transfers", "integer", "count",
     "requests the lock line's home served (SharedLineStats.transfers)"},
    {kXenLock, "line_queued_transfers", "integer", "count",
     "of them, queued behind an earlier one (SharedLineStats.queued_transfers)"},
    {kXenVcpu, "vcpu", "integer", "index", "the vCPU (0 .. xen.vcpus-1)"},
    {kXenVcpu, "guest_fraction", "number", "fraction", "time in guest mode with work, over the measured time"},
    {kXenVcpu, "xen_fraction", "number", "fraction", "time in Xen (root mode) over the measured time"},
};

// The domain's lock and pirq walks, and one entry per vCPU.
json xen_results(const System& sys, double secs) {
    const XenDomain& dom = sys.xen_domain();
    const SpinLock& lock = dom.event_lock();
    const XenDomainStats& ds = dom.stats();
    uint64_t ios = 0;
    for (const auto& w : sys.workloads()) ios += w->completed_ios();
    sc_core::sc_time root;
    json vcpus = json::array();
    for (unsigned i = 0; i < sys.xen_vcpu_count(); ++i) {
        const XenPcpuStats& s = sys.xen_pcpu(i).stats();
        root += s.root_time;
        json o = {{"vcpu", i}, {"guest_fraction", ratio(s.guest_time.to_seconds(), secs)},
                  {"xen_fraction", ratio(s.root_time.to_seconds(), secs)}};
        write_block_stats(s, o);
        vcpus.push_back(o);
    }
    json lock_o = {{"kind", kLockKindNames[int(lock.kind())]},
                   {"acquisitions_per_s", per_second(double(lock.stats().acquisitions), secs)},
                   {"held_fraction", ratio(lock.stats().held.to_seconds(), secs)},
                   {"mean_owners", ratio(lock.stats().owner_time.to_seconds(), secs)},
                   {"line_transfers", lock.line_stats().transfers},
                   {"line_queued_transfers", lock.line_stats().queued_transfers}};
    write_block_stats(lock.stats(), lock_o);
    json o = {{"eois_per_s", per_second(double(ds.eois), secs)},
              {"ios", ios},
              {"host_cpu_us_per_io", ratio(root.to_seconds() * 1e6, double(ios))},
              {"walk_entries_per_eoi", ratio(double(ds.walk_entries), double(ds.eois))},
              {"pirq_misses_per_eoi", ratio(double(ds.pirq_misses), double(ds.eois))},
              {"event_lock", lock_o},
              {"per_vcpu", vcpus}};
    write_block_stats(ds, o);
    return o;
}

class XenResults final : public ResultSection {
public:
    const char* key() const override { return "xen"; }
    std::vector<const char*> listing() const override { return {kXen, kXenLock, kXenVcpu}; }
    bool present(const System& sys) const override { return sys.xen_vcpu_count() > 0; }
    json write(const System& sys, double secs) const override { return xen_results(sys, secs); }
    void list_stats(nlohmann::ordered_json& out) const override {
        list_block_stats<XenDomainStats>(out, kXen, "XenDomainStats", "");
        list_block_stats<SpinLockStats>(out, kXenLock, "SpinLockStats", "");
        list_block_stats<XenPcpuStats>(out, kXenVcpu, "XenPcpuStats", "vCPU");
    }
    void list_computed(nlohmann::ordered_json& out) const override {
        list_report_metrics(out, kRows);
    }
    void add_window(const System& sys, HistogramMap& histograms) override {
        collect_histograms(sys.xen_domain().stats(), "/xen", false, histograms);
        collect_histograms(sys.xen_domain().event_lock().stats(), "/xen/event_lock", false,
                           histograms);
        m_guest.resize(sys.xen_vcpu_count());
        m_root.resize(sys.xen_vcpu_count());
        for (unsigned i = 0; i < sys.xen_vcpu_count(); ++i) {
            collect_histograms(sys.xen_pcpu(i).stats(), "/xen/per_vcpu/" + std::to_string(i),
                               false, histograms);
            m_guest[i] += sys.xen_pcpu(i).stats().guest_time;
            m_root[i] += sys.xen_pcpu(i).stats().root_time;
        }
        m_held += sys.xen_domain().event_lock().stats().held;
        m_owner_time += sys.xen_domain().event_lock().stats().owner_time;
    }
    // Times and ratios from the windows' sums, as one window over the whole
    // measured time gives them (not a mean of the windows' fractions).
    void write_totals(json& x, const std::vector<json>& windows) const override {
        double secs = 0;
        for (const json& w : windows) secs += w["metrics"]["simulated_seconds"].get<double>();
        const double eois = x["eois"].get<double>(), ios = x["ios"].get<double>();
        x["walk_entries_per_eoi"] = ratio(x["walk_entries"].get<double>(), eois);
        x["pirq_misses_per_eoi"] = ratio(x["pirq_misses"].get<double>(), eois);
        sc_core::sc_time root;
        for (size_t i = 0; i < m_root.size() && i < x["per_vcpu"].size(); ++i) {
            root += m_root[i];
            x["per_vcpu"][i]["guest_fraction"] = ratio(m_guest[i].to_seconds(), secs);
            x["per_vcpu"][i]["xen_fraction"] = ratio(m_root[i].to_seconds(), secs);
        }
        x["host_cpu_us_per_io"] = ratio(root.to_seconds() * 1e6, ios);
        x["event_lock"]["held_fraction"] = ratio(m_held.to_seconds(), secs);
        x["event_lock"]["mean_owners"] = ratio(m_owner_time.to_seconds(), secs);
        x["event_lock"]["acquisitions_per_s"] =
            per_second(x["event_lock"]["acquisitions"].get<double>(), secs);
        x["eois_per_s"] = per_second(eois, secs);
    }

private:
    std::vector<sc_core::sc_time> m_guest, m_root;  // per vCPU, summed over windows
    sc_core::sc_time m_held, m_owner_time;
};

}  // namespace

std::unique_ptr<ResultSection> xen_result_section() { return std::make_unique<XenResults>(); }

}  // namespace cidsim
