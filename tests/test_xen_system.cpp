// The Xen guest through the real binary (systems.md C, E1): exactness under
// run-ahead and what each variant of the EOI path does and does not do
// (the table itself: test_xen_reproduce.cpp).
#include <catch2/catch.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {

const std::string kE1 = "'" CIDSIM_SOURCE_DIR "/configs/vm/e1-xen-eoi.json'";
const std::string kShort = " --set run.duration_ns=1e6 --set run.warmup_ns=2e5 --set run.batches=1";

json result_of(const Scratch& s, const std::string& args) { return run_result(s, kE1 + kShort + " " + args); }

// Counts that the code paths make equal, up to the operations in flight at
// the measured window's two edges (at most one per vCPU at each).
bool same_count(const json& a, double b) { return std::abs(a.get<double>() - b) <= 2 * 32; }

double exits(const json& x, const char* reason) {
    double n = 0;
    for (const json& v : x["per_vcpu"]) n += v["exits"][reason].get<double>();
    return n;
}

}  // namespace

TEST_CASE("Xen: a stepwise run gives the same result file as the default run", "[xen][cli]") {
    Scratch s;
    for (const char* variant : {"full", "rwlock", "intpost"}) {
        const std::string set = std::string(" --set xen.variant=") + variant;
        const Run a = run_cidsim(s, "run " + kE1 + kShort + set + " -q --out '" + (s / "a.json") + "'");
        const Run b = run_cidsim(s, "run " + kE1 + kShort + set + " --stepwise -q --out '" +
                                        (s / "b.json") + "'");
        REQUIRE(a.status == 0);
        REQUIRE(b.status == 0);
        INFO(variant);
        CHECK(slurp(s / "a.json") == slurp(s / "b.json"));
    }
}

TEST_CASE("Xen: each variant of the EOI path does what its code does", "[xen]") {
    Scratch s;
    const unsigned pirqs = 64;
    // Before 66bf4ef048 an avoided EOI only clears the ISR bit: the lock is
    // taken on delivery alone.
    json x = result_of(s, "--set xen.variant=no_eoi_work")["xen"];
    CHECK(x["eois"] == 0);
    CHECK(same_count(x["event_lock"]["acquisitions"], x["deliveries"].get<double>()));
    // Lock only: every EOI takes the lock, nothing is walked.
    x = result_of(s, "--set xen.variant=lock_only")["xen"];
    CHECK(x["eois"].get<double>() > 0);
    CHECK(x["walks"] == 0);
    CHECK(same_count(x["event_lock"]["acquisitions"],
                     x["deliveries"].get<double>() + x["eois"].get<double>()));
    // The inline walk visits all P pirqs every time and never matches.
    x = result_of(s, "--set xen.variant=lock_inline_walk")["xen"];
    CHECK(same_count(x["walks"], x["eois"].get<double>()));
    CHECK(x["walk_length"]["p50"] == pirqs);
    CHECK(x["walk_length"]["max"] == pirqs);
    CHECK(x["matches"] == 0);
    CHECK(x["pirq_misses"].get<double>() > 0);  // other pCPUs' deliveries dirtied them
    // 2018's walk: a match ends it only as the last entry of its batch of 8,
    // so nearly every EOI walks all P; with the XSA-395 fix it stops there.
    x = result_of(s, "--set xen.variant=full")["xen"];
    CHECK(same_count(x["matches"], x["eois"].get<double>()));
    const double full_walk = x["walk_length"]["mean"].get<double>();
    CHECK(full_walk > 0.85 * pirqs);
    CHECK(x["walk_length"]["p50"] == pirqs);
    x = result_of(s, "--set xen.variant=full --set xen.walk_stops_at_match=true")["xen"];
    CHECK(x["walk_length"]["mean"].get<double>() < 0.75 * full_walk);
    // The bitmap fix: EOIs reach hvm_dpci_msi_eoi but return before the lock.
    x = result_of(s, "--set xen.variant=bitmap")["xen"];
    CHECK(x["eois"].get<double>() > 0);
    CHECK(same_count(x["event_lock"]["acquisitions"], x["deliveries"].get<double>()));
    CHECK(x["event_lock"]["acquisitions"].get<double>() < x["deliveries"].get<double>() + 0.5 * x["eois"].get<double>());
    // Xen 4.17's rwlock.
    x = result_of(s, "--set xen.variant=rwlock")["xen"];
    CHECK(x["event_lock"]["kind"] == "rw");
    // intpost + VID: no host interrupt, no lock, no exit; the CPU's own
    // posted-interrupt processing in guest mode.
    x = result_of(s, "--set xen.variant=intpost")["xen"];
    CHECK(x["event_lock"]["acquisitions"] == 0);
    CHECK(exits(x, "EXTERNAL_INTERRUPT") == 0);
    double posted = 0;
    for (const json& v : x["per_vcpu"]) posted += v["posted_in_guest"].get<double>();
    CHECK(posted > 0);
}

TEST_CASE("Xen: how the guest's EOI reaches Xen decides its exits", "[xen]") {
    Scratch s;
    // One EOI per EOI exit, but for the exits under way at the warm-up's
    // end and the run's (at most one per vCPU each: the EOI is counted
    // inside the exit, the exit when its entry is done).
    const auto one_eoi_per_exit = [](const json& x, const char* reason) {
        const double e = exits(x, reason), eois = x["eois"].get<double>();
        const double vcpus = double(x["per_vcpu"].size());
        CHECK(eois <= e + vcpus);
        CHECK(e <= eois + vcpus);
    };
    json x = result_of(s, "--set xen.eoi=trap_msr")["xen"];
    CHECK(exits(x, "MSR_WRITE") > 0);
    one_eoi_per_exit(x, "MSR_WRITE");
    x = result_of(s, "--set xen.eoi=trap_mmio")["xen"];
    one_eoi_per_exit(x, "APIC_ACCESS");
    CHECK(exits(x, "MSR_WRITE") == 0);
    // APIC assist: no EOI exit; each avoided EOI is completed at the next
    // pending interrupt (so by the end, all but at most one per vCPU).
    x = result_of(s, "--set xen.eoi=apic_assist")["xen"];
    CHECK(exits(x, "MSR_WRITE") + exits(x, "APIC_ACCESS") == 0);
    double avoided = 0;
    for (const json& v : x["per_vcpu"]) avoided += v["avoided_eois"].get<double>();
    CHECK(avoided > 0);
    CHECK(std::abs(avoided - x["eois"].get<double>()) <= 2 * 32);
    // Virtualised (VID): an edge vector's EOI never reaches hvm_dpci_msi_eoi.
    x = result_of(s, "--set xen.eoi=virtualised")["xen"];
    CHECK(x["eois"] == 0);
}

TEST_CASE("Xen: intpost's result records the EOI mode it takes (virtualised)", "[xen][cli]") {
    Scratch s;
    const json r = result_of(s, "--set xen.variant=intpost --set xen.eoi=trap_msr");
    CHECK(r["config"]["xen"]["eoi"] == "virtualised");
    CHECK(exits(r["xen"], "MSR_WRITE") == 0);
}

TEST_CASE("Xen: time under way at a window's edge counts, and contended <= acquisitions in each "
          "window", "[xen][totals]") {
    // E1's event_lock holds and Xen's stretches are long against a window:
    // dropping the part in progress at each edge made Xen's CPU per I/O fall
    // by a third at 16 windows. Every window, and the run's end, now counts
    // it, so the fractions are those of one window over the same time.
    Scratch s;
    const std::string args = kE1 + " --set run.duration_ns=2e6 --set run.warmup_ns=1e5";
    const json one = run_result(s, args + " --set run.batches=1")["xen"];
    const json many = run_result(s, args + " --set run.batches=16");
    const json& x = many["xen"];
    CHECK(x["ios"] == one["ios"]);
    CHECK(x["host_cpu_us_per_io"].get<double>() ==
          Approx(one["host_cpu_us_per_io"].get<double>()).epsilon(1e-9));
    CHECK(x["event_lock"]["held_fraction"].get<double>() ==
          Approx(one["event_lock"]["held_fraction"].get<double>()).epsilon(1e-9));
    for (size_t v = 0; v < one["per_vcpu"].size(); ++v) {
        INFO("vCPU " << v);
        for (const char* k : {"xen_fraction", "guest_fraction"})
            CHECK(x["per_vcpu"][v][k].get<double>() ==
                  Approx(one["per_vcpu"][v][k].get<double>()).epsilon(1e-9));
    }
    // A spinner still waiting at an edge is counted where it is granted,
    // with its acquisition (both were 850 contended of 832 acquisitions).
    const auto contended_within = [](const json& lock) {
        CHECK(lock["contended"].get<uint64_t>() <= lock["acquisitions"].get<uint64_t>());
        CHECK(lock["contended"] == lock["handoffs"]);
    };
    contended_within(one["event_lock"]);
    contended_within(x["event_lock"]);
    for (const json& w : many["batches"]) contended_within(w["xen"]["event_lock"]);
}

TEST_CASE("Xen: the rwlock's held_fraction is the time anyone holds it, mean_owners sums the "
          "readers' holds", "[xen][totals]") {
    // Readers hold the rwlock together: summing their holds gave a
    // "fraction" of 1.24 here.
    Scratch s;
    const std::string args = kE1 + " --set run.duration_ns=2e6 --set run.warmup_ns=2e5";
    const json one = run_result(s, args + " --set run.batches=1 --set xen.variant=rwlock")["xen"];
    const json many = run_result(s, args + " --set run.batches=16 --set xen.variant=rwlock")["xen"];
    const json& l = one["event_lock"];
    CHECK(l["held_fraction"].get<double>() > 0);
    CHECK(l["held_fraction"].get<double>() <= 1);
    CHECK(l["mean_owners"].get<double>() > 1);  // readers overlap
    CHECK(many["event_lock"]["held_fraction"].get<double>() ==
          Approx(l["held_fraction"].get<double>()).epsilon(1e-9));
    CHECK(many["event_lock"]["mean_owners"].get<double>() ==
          Approx(l["mean_owners"].get<double>()).epsilon(1e-9));
    // A ticket lock has one owner at a time: both are the same.
    const json t = run_result(s, args + " --set run.batches=1 --set xen.variant=full")["xen"];
    CHECK(t["event_lock"]["held_fraction"].get<double>() > 0);
    CHECK(t["event_lock"]["mean_owners"] == t["event_lock"]["held_fraction"]);
}

TEST_CASE("Xen: a figure per I/O or per EOI of none is null (n/a, nan), not 0", "[xen][cli]") {
    // 50 us: Xen spends CPU time, no I/O completes and no EOI reaches Xen.
    Scratch s;
    const Run r = run_cidsim(s, "run " + kE1 + " --set run.duration_ns=5e4 --set run.warmup_ns=0 "
                                "--set run.batches=1 --out '" + (s / "r.json") + "' --stats '" +
                                (s / "r.txt") + "'");
    REQUIRE(r.status == 0);
    const json x = json::parse(slurp(s / "r.json"))["xen"];
    double xen_time = 0;
    for (const json& v : x["per_vcpu"]) xen_time += v["xen_fraction"].get<double>();
    REQUIRE(xen_time > 0);
    REQUIRE(x["ios"] == 0);
    REQUIRE(x["eois"] == 0);
    for (const char* k : {"host_cpu_us_per_io", "walk_entries_per_eoi", "pirq_misses_per_eoi"}) {
        INFO(k);
        CHECK(x[k].is_null());
    }
    CHECK(x["event_lock"]["wait_ns"]["count"] == 0);
    CHECK(x["event_lock"]["wait_ns"]["mean"].is_null());
    CHECK_THAT(r.out, Catch::Contains("Xen CPU per I/O n/a us"));
    CHECK_THAT(r.out, Catch::Contains("walk: n/a pirqs per EOI"));
    const std::string stats = slurp(s / "r.txt");
    const size_t at = stats.find("\nxen.host_cpu_us_per_io ");
    REQUIRE(at != std::string::npos);
    CHECK_THAT(stats.substr(at, stats.find('#', at) - at), Catch::EndsWith(" nan  "));
}
