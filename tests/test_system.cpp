// Whole-system checks: configs/examples and configs built here run through
// load_config and System, checked through the blocks' statistics. Sweeps
// over handler variants run the cidsim binary (one System per process).
#include <catch2/catch.hpp>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "config/config_loader.h"
#include "sim/system.h"
#include "cli_runner.h"

using namespace cidsim;
using nlohmann::json;

namespace {

json example(const std::string& name) {
    return read_json_file(std::string(CIDSIM_SOURCE_DIR) + "/configs/examples/" + name);
}

// One CPU, one single-vector device, posted mode, no timer: the trace
// events are the times of that device's completions.
json one_vector(const std::vector<double>& times, double handler_base_ns = 150) {
    json events = json::array();
    for (double t : times) events.push_back({t, "dev0", 0});
    return {{"run", {{"duration_ns", 40000}}},
            {"mode", "posted"},
            {"topology", {{"cpus", 1}}},
            {"lapic", {{"timer_period_ns", 0}}},
            {"devices", {{{"name", "dev0"}, {"vectors", 1}, {"irq_cpus", {0}},
                          {"handler_base_ns", handler_base_ns}}}},
            {"workloads", {{{"type", "trace"}, {"events", events}}}}};
}

// The RFC-like race: completions at 0, 3000, 8000 and 13000 ns with a
// 5000 ns driver handler. The second lands during the first handler call,
// the third during the second's (merged: after the loop's last harvest, L=3),
// the fourth during the third's (rfc_v1: after its L-th harvest).
json race_config() { return one_vector({0, 3000, 8000, 13000}, 5000); }

uint64_t device_vector_calls(const System& s) {
    uint64_t n = 0;
    for (const VectorRoute& r : s.host().routes())
        n += s.host().cpu(r.cpu).stats().handler_calls[r.vector];
    return n;
}

struct Totals {
    uint64_t completions = 0, drained = 0, in_flight = 0, lost = 0, msis = 0, invocations = 0;
};
Totals totals(const System& s) {
    Totals t;
    for (const Device* d : s.host().view().devices) {
        t.completions += d->stats().completions;
        t.drained += d->stats().drained;
        t.in_flight += d->in_flight();
        t.lost += d->lost();
        t.msis += d->stats().msis;
        t.invocations += d->stats().handler_invocations;
    }
    return t;
}

std::string cpu_sequence(const std::vector<PidAccess>& log) {
    std::string s;
    for (const PidAccess& a : log) {
        if (a.op == PidOp::Post) continue;
        s += s.empty() ? "" : " ";
        s += a.op == PidOp::Read ? "R" + std::to_string(a.word)
           : a.op == PidOp::Xchg ? "X" + std::to_string(a.word)
                                 : std::string("C");
    }
    return s;
}

// Runs the cidsim binary on `config` with --set overrides; returns the result.
// With `traced`, a Perfetto trace is written too (and thrown away).
// Runs `cidsim run` on a config file (traced: with a trace observer attached).
json run_cli_file(const std::string& cfg, const std::vector<std::string>& sets,
                  bool traced = false) {
    char dir[] = "/tmp/cidsim-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    const std::string out = std::string(dir) + "/result.json";
    std::string cmd = std::string(CIDSIM_BINARY) + " run " + cfg + " -q --out " + out;
    for (const std::string& s : sets) cmd += " --set " + s;
    const std::string trace = std::string(dir) + "/trace.json";
    if (traced) cmd += " --trace-perfetto " + trace + " --trace-limit 1";
    INFO(cmd);
    REQUIRE(std::system(cmd.c_str()) == 0);
    const json r = read_json_file(out);
    std::remove(trace.c_str());
    std::remove(out.c_str());
    rmdir(dir);
    return r;
}

json run_cli(const json& config, const std::vector<std::string>& sets, bool traced = false) {
    char dir[] = "/tmp/cidsim-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    const std::string cfg = std::string(dir) + "/config.json";
    std::ofstream(cfg) << config.dump();
    const json r = run_cli_file(cfg, sets, traced);
    std::remove(cfg.c_str());
    rmdir(dir);
    return r;
}

const char* const kStrategies[] = {"xchg_all", "interleaved", "read_then_xchg", "no_copy"};
const char* const kLoops[] = {"rfc_v1", "merged"};

}  // namespace

TEST_CASE("remappable mode: one IDT delivery and EOI per MSI on the RFC burst picture",
          "[system][remappable]") {
    System sys(load_config(example("rfc-burst-remappable.json")));
    sys.run();
    REQUIRE(sys.host().routes().size() == 1);
    const Vector v = sys.host().routes()[0].vector;
    const Totals t = totals(sys);
    CHECK(t.msis == 9);
    CHECK(sys.host().iommu().stats().remapped_messages == 9);
    CHECK(sys.host().iommu().stats().posts == 0);
    CHECK(sys.host().apic(0).stats().accepted[v] == 9);
    CHECK(sys.host().apic(0).stats().merged[v] == 0);  // spaced apart: nothing merges
    CHECK(sys.host().apic(0).stats().dispatched[v] == 9);
    CHECK(sys.host().apic(0).stats().eois == 9);
    CHECK(sys.host().cpu(0).stats().interrupts == 9);
    CHECK(sys.host().cpu(0).stats().handler_calls[v] == 9);
    CHECK(sys.host().cpu(0).stats().notifications == 0);
    CHECK(t.drained == 9);
    CHECK(t.lost == 0);
    CHECK(t.in_flight == 0);
    CHECK(sys.host().apic(0).stats().eoi_with_empty_isr == 0);
}

TEST_CASE("posted mode: the RFC burst picture yields 4 notifications instead of 9",
          "[system][posted]") {
    System sys(load_config(example("rfc-burst-posted.json")));
    std::vector<PidAccess> log;
    sys.host().pid(0).record_into(&log);
    sys.run();
    const Vector v = sys.host().routes()[0].vector;
    const IommuStats& io = sys.host().iommu().stats();
    const Totals t = totals(sys);
    CHECK(t.msis == 9);
    CHECK(io.posts == 9);
    CHECK(io.notifications == 4);
    CHECK(io.suppressed == 5);
    CHECK(io.remapped_messages == 0);
    CHECK(sys.host().cpu(0).stats().notifications == 4);  // PMN
    CHECK(sys.host().apic(0).stats().dispatched[kPostedMsiNotificationVector] == 4);
    CHECK(sys.host().apic(0).stats().dispatched[v] == 0);  // no IDT delivery of the device vector
    CHECK(sys.host().apic(0).stats().eois == 4);           // one EOI per notification
    CHECK(t.completions == 9);
    CHECK(t.drained == 9);  // all completions handled
    CHECK(t.lost == 0);
    CHECK(t.in_flight == 0);
    CHECK(sys.host().cpu(0).stats().stranded == 0);
    CHECK(sys.host().cpu(0).stats().handler_calls[v] == t.invocations);

    // A B C | D E F G | H | I: the first MSI of each group notifies.
    std::vector<int> notify;
    for (const PidAccess& a : log)
        if (a.op == PidOp::Post) notify.push_back(a.notify);
    CHECK(notify == std::vector<int>{1, 0, 0, 1, 0, 0, 0, 1, 1});
}

TEST_CASE("posted mode: a post notifies exactly when it finds ON clear",
          "[system][posted]") {
    // Two CPUs, bursty traffic: every post while ON is set is suppressed,
    // and ON stays set from a notifying post until the handler clears it.
    json cfg = example("posted-bursty.json");
    apply_override(cfg, "run.duration_ns=300000");
    System sys(load_config(cfg));
    std::vector<PidAccess> log[2];
    sys.host().pid(0).record_into(&log[0]);
    sys.host().pid(1).record_into(&log[1]);
    sys.run();
    for (unsigned c = 0; c < 2; ++c) {
        INFO("cpu " << c);
        bool on = false;
        uint64_t suppressed = 0, notified = 0;
        for (const PidAccess& a : log[c]) {
            if (a.op == PidOp::ClearOn) {
                CHECK(on);
                on = false;
            } else if (a.op == PidOp::Post) {
                CHECK(a.notify == !on);
                (a.notify ? notified : suppressed) += 1;
                on = true;
            }
        }
        CHECK(notified > 10);
        CHECK(suppressed > notified);  // bursts coalesce
        CHECK(on == sys.host().pid(c).on());
    }
}

TEST_CASE("end to end: read_then_xchg + merged makes the access sequence of mechanism.md",
          "[system][sequence]") {
    System sys(load_config(one_vector({0})));
    std::vector<PidAccess> log;
    sys.host().pid(0).record_into(&log);
    sys.run();
    REQUIRE(!log.empty());
    CHECK(log[0].op == PidOp::Post);
    CHECK(log[0].agent == sys.host().iommu_agent());
    CHECK(log[0].notify);
    CHECK(cpu_sequence(log) == "R0 R1 R2 R3 X0 R0 R1 R2 R3 C R0 R1 R2 R3");
    for (size_t i = 1; i < log.size(); ++i) {
        CHECK(log[i].agent == 0);
        CHECK(log[i].at >= log[i - 1].at);
    }
    CHECK(sys.host().cpu(0).stats().harvest_passes.max() == 3);
    CHECK(sys.host().cpu(0).stats().pid_reads == 12);
    CHECK(sys.host().cpu(0).stats().pid_xchgs == 1);
    CHECK(sys.host().pid(0).line().misses_of(0) == 1);  // only the first read after the post
}

TEST_CASE("end to end: no_copy + rfc_v1 calls the handler between the line accesses",
          "[system][sequence]") {
    json cfg = one_vector({0});
    apply_override(cfg, "handler.harvest=no_copy");
    apply_override(cfg, "handler.loop=rfc_v1");
    const SimConfig c = load_config(cfg);
    System sys(c);
    std::vector<PidAccess> log;
    sys.host().pid(0).record_into(&log);
    sys.run();
    // harvest (R0 X0, handler, R1 R2 R3), PIR empty? (R0..R3), clear ON,
    // pending? (R0..R3): nothing.
    CHECK(cpu_sequence(log) == "R0 X0 R1 R2 R3 R0 R1 R2 R3 C R0 R1 R2 R3");
    REQUIRE(log.size() == 15);
    const sc_core::sc_time handler = c.cpu.handler_call + c.devices[0].params.handler_base +
                                     c.devices[0].params.per_completion;
    CHECK(log[3].at - log[2].at >= handler);  // X0 ... R1 spans the handler call
    CHECK(sys.host().cpu(0).stats().handler_calls[sys.host().routes()[0].vector] == 1);
}

TEST_CASE("no final harvest: a post between the last harvest and the clear of ON strands",
          "[system][race]") {
    json cfg = race_config();
    apply_override(cfg, "handler.final_harvest=false");
    System sys(load_config(cfg));
    std::vector<PidAccess> log;
    sys.host().pid(0).record_into(&log);
    sys.run();
    const CpuCoreStats& s = sys.host().cpu(0).stats();
    CHECK(s.stranded == 1);
    // Merged, L=3: harvest A, harvest B, clear ON: C's post came in between
    // and found ON set.
    size_t third_post = 0, posts = 0;
    for (size_t i = 0; i < log.size(); ++i)
        if (log[i].op == PidOp::Post && ++posts == 3) third_post = i;
    REQUIRE(posts == 4);
    CHECK_FALSE(log[third_post].notify);
    size_t clear_after = third_post;
    while (clear_after < log.size() && log[clear_after].op != PidOp::ClearOn) ++clear_after;
    REQUIRE(clear_after < log.size());
    for (size_t i = third_post + 1; i < clear_after; ++i)
        CHECK(log[i].op != PidOp::Xchg);  // nothing harvested it before ON was cleared
    // Found when the clear of ON completes; C's post had taken the line, so
    // the locked clear missed.
    CHECK(s.first_stranded_at == log[clear_after].at + sys.config().pid_line.locked_op +
                                     sys.config().pid_line.miss);
    // The fourth MSI notifies (ON is clear) and rescues it: nothing is lost.
    CHECK(s.notifications == 2);
    CHECK(totals(sys).lost == 0);
    CHECK(totals(sys).in_flight == 0);
}

TEST_CASE("with the final harvest the same race traffic strands nothing", "[system][race]") {
    System sys(load_config(race_config()));
    sys.run();
    CHECK(sys.host().cpu(0).stats().stranded == 0);
    CHECK(totals(sys).drained == 4);
    CHECK(totals(sys).in_flight == 0);
}

// The --set overrides selecting one notification-handler variant.
std::vector<std::string> handler_variant(const char* harvest, const char* loop,
                                         bool final_harvest) {
    return {std::string("handler.harvest=") + harvest, std::string("handler.loop=") + loop,
            std::string("handler.final_harvest=") + (final_harvest ? "true" : "false")};
}

TEST_CASE("race traffic: every variant without the final harvest strands, none with it",
          "[system][race][cli]") {
    for (const char* h : kStrategies)
        for (const char* l : kLoops)
            for (bool final_harvest : {true, false}) {
                const json r = run_cli(race_config(),
                                       handler_variant(h, l, final_harvest));
                const json& m = r["metrics"];
                INFO(h << " " << l << " final_harvest=" << final_harvest);
                CHECK(m["stranded_interrupts"] == (final_harvest ? 0 : 1));
                CHECK(m["lost_completions"] == 0);
                if (final_harvest) CHECK(m["completions_handled"] == 4);
                // rfc_v1 strands the last MSI: nothing comes to rescue it.
                if (!final_harvest && std::string(l) == "rfc_v1")
                    CHECK(m["in_flight_completions_at_end"] == 1);
            }
}

TEST_CASE("bursty traffic: only the variants without the final harvest strand",
          "[system][race][cli]") {
    for (const char* h : kStrategies)
        for (const char* l : kLoops)
            for (bool final_harvest : {true, false}) {
                const json r = run_cli(example("posted-bursty.json"),
                                       handler_variant(h, l, final_harvest));
                const json& m = r["metrics"];
                INFO(h << " " << l << " final_harvest=" << final_harvest);
                if (final_harvest)
                    CHECK(m["stranded_interrupts"] == 0);
                else
                    CHECK(m["stranded_interrupts"] > 0);
                CHECK(m["lost_completions"] == 0);
            }
}

// Without observers the CPU makes PID accesses ahead of the kernel's time
// and the IOMMU posts at fetch time when that is exact; an observer makes
// every step wait for its own time. Both must simulate the same thing.
TEST_CASE("acting ahead of the kernel's time gives the results of waiting for each step",
          "[system][speed][cli]") {
    // A traced run makes every step at its own time; the same run untraced
    // makes PID accesses, driver handlers and posts ahead where that is
    // exact. Off-grid window ends check that nothing done ahead is counted
    // in the wrong batch.
    const std::vector<std::string> whole_run = {};
    const std::vector<std::string> off_grid = {"run.duration_ns=2000000.3",
                                               "run.warmup_ns=1000000.7"};
    const std::string configs = std::string(CIDSIM_SOURCE_DIR) + "/configs/";
    const std::pair<const char*, std::vector<std::string>> cases[] = {
        {"examples/rfc-burst-posted.json", whole_run},
        {"examples/remappable-bursty.json", off_grid},
        {"examples/posted-bursty.json", off_grid},
        {"bench/posted.json", off_grid},  // NVMe: driver handlers ahead too
        {"bench/remappable.json", off_grid}};
    for (const auto& [name, sets] : cases) {
        INFO(name);
        const json fast = run_cli_file(configs + name, sets);
        const json stepwise = run_cli_file(configs + name, sets, true);
        CHECK(fast["metrics"]["interrupts"] > 0);
        for (const char* part : {"metrics", "per_cpu", "per_device", "workloads", "batches"}) {
            INFO(part);
            CHECK(fast.value(part, json()) == stepwise.value(part, json()));
        }
    }
}

// The scheduling layer's promise (kernel/lookahead.h): run-ahead never
// changes a result. Every config a user is shown, whole result files
// compared byte for byte, the default run with its lookaheads checked.
TEST_CASE("a stepwise run gives the same result file as the default run on every shown config",
          "[system][speed][cli]") {
    const std::string root = std::string(CIDSIM_SOURCE_DIR) + "/configs/";
    std::vector<std::string> names;
    for (const char* dir : {"examples", "explain", "bench"})
        for (const auto& e : std::filesystem::directory_iterator(root + dir))
            if (e.path().extension() == ".json") names.push_back(e.path().string());
    REQUIRE(names.size() >= 10);
    // Every shipped config of the experiments and machine families, cut
    // short (NVMe queues that hold their MSI until the doorbell among them).
    std::vector<std::string> experiments;
    for (const char* dir : {"rfc", "vm", "power"})
        for (const auto& e : std::filesystem::directory_iterator(root + dir))
            if (e.path().extension() == ".json" && e.path().filename() != "tables.json" &&
                e.path().filename() != "devices.json")
                experiments.push_back(e.path().string());
    REQUIRE(experiments.size() >= 12);
    std::sort(experiments.begin(), experiments.end());
    names.insert(names.end(), experiments.begin(), experiments.end());
    char dir[] = "/tmp/cidsim-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    const std::string a = std::string(dir) + "/ahead.json", b = std::string(dir) + "/stepwise.json";
    for (const std::string& name : names) {
        INFO(name);
        const bool experiment =
            std::find(experiments.begin(), experiments.end(), name) != experiments.end();
        const std::string sets = experiment ? " --set run.duration_ns=300000 --set "
                                              "run.warmup_ns=100000 --set run.batches=1"
                                            : "";
        const std::string run =
            std::string(CIDSIM_BINARY) + " run '" + name + "' -q" + sets + " --out ";
        REQUIRE(std::system((run + a + " --set run.check_lookahead=true").c_str()) == 0);
        REQUIRE(std::system((run + b + " --stepwise").c_str()) == 0);
        const std::string ahead = cidsim_test::slurp(a), stepwise = cidsim_test::slurp(b);
        CHECK(ahead.size() > 1000);
        CHECK(ahead == stepwise);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("acts at the same picosecond come in one order, traced or not", "[system][speed][cli]") {
    // Ties a run-ahead could decide differently from a traced run, were
    // SystemC's order among simultaneous processes to decide them: LAPIC
    // timers of all CPUs expiring at once (every config), a message or a
    // post landing at the picosecond its CPU acts (C2, P3), several CPUs
    // submitting to one disk at once (C1 with 8 disks, P5), and, in the
    // bench config with no jitter (eight disks in lockstep), several disks
    // completing at once behind one root port and their MSIs reaching the
    // remapping unit at once from two.
    const std::string configs = std::string(CIDSIM_SOURCE_DIR) + "/configs/";
    std::vector<std::string> lockstep = {"run.duration_ns=2000000"};
    for (int w = 0; w < 8; ++w)
        lockstep.push_back("workloads." + std::to_string(w) + ".media_jitter_ns=0");
    const std::pair<const char*, std::vector<std::string>> cases[] = {
        {"rfc/c1-nvme-8disks.json", {"run.duration_ns=2000000"}},
        {"rfc/c2-dsa-2wq.json", {"run.duration_ns=2000000"}},
        {"rfc/p3-optane-iouring.json", {"run.duration_ns=2000000"}},
        {"rfc/p5-nvme-pircopy.json", {"run.duration_ns=500000"}},
        {"bench/posted.json", lockstep}};
    for (const auto& [name, common] : cases) {
        for (const char* mode : {"mode=posted", "mode=remappable"}) {
            INFO(name << " " << mode);
            std::vector<std::string> sets = common;
            sets.push_back(mode);
            const json fast = run_cli_file(configs + name, sets);
            const json stepwise = run_cli_file(configs + name, sets, true);
            for (const char* part : {"metrics", "per_cpu", "per_device", "workloads", "batches"}) {
                INFO(part);
                CHECK(fast.value(part, json()) == stepwise.value(part, json()));
            }
        }
    }
}

namespace {

void check_conservation(const char* name) {
    {
        INFO(name);
        json cfg = example(name);
        apply_override(cfg, "run.warmup_ns=0");  // so the counters cover the whole run
        System sys(load_config(cfg));
        sys.run();
        const Totals t = totals(sys);
        const IommuStats& io = sys.host().iommu().stats();
        CHECK(t.completions > 1000);
        CHECK(t.completions == t.drained + t.in_flight);
        CHECK(t.lost == 0);
        CHECK(t.msis == t.completions);  // one MSI per completion
        CHECK(io.requests == t.msis);
        CHECK(sys.host().iommu().faults_total() == 0);
        CHECK(device_vector_calls(sys) == t.invocations);
        uint64_t eoi_errors = 0, stranded = 0;
        for (unsigned c = 0; c < sys.host().cpu_count(); ++c) {
            eoi_errors += sys.host().apic(c).stats().eoi_with_empty_isr;
            stranded += sys.host().cpu(c).stats().stranded;
        }
        CHECK(eoi_errors == 0);
        CHECK(stranded == 0);
        if (sys.config().mode == RemapMode::Posted) {
            CHECK(io.notifications + io.suppressed == io.posts);
            CHECK(io.posts <= io.requests);
            CHECK(io.requests - io.posts <= 8);  // only the few still in the pipeline
            uint64_t pmn = 0;
            for (unsigned c = 0; c < sys.host().cpu_count(); ++c) {
                pmn += sys.host().cpu(c).stats().notifications;
                CHECK(sys.host().cpu(c).stats().notifications > 0);
            }
            CHECK(pmn <= io.notifications);
            CHECK(io.notifications - pmn <= 2);  // at most one in flight per CPU
            CHECK(io.notifications < io.posts / 2);  // bursts coalesce
        } else {
            CHECK(io.posts == 0);
            CHECK(io.requests - io.remapped_messages <= 8);
        }
    }
}

}  // namespace

TEST_CASE("conservation, posted-bursty: completions = drained + in flight, none lost",
          "[system][conservation]") {
    check_conservation("posted-bursty.json");
}

TEST_CASE("conservation, remappable-bursty: completions = drained + in flight, none lost",
          "[system][conservation]") {
    check_conservation("remappable-bursty.json");
}

TEST_CASE("conservation with the shipped warm-up: nothing lost across the statistics reset",
          "[system][conservation]") {
    System sys(load_config(example("posted-bursty.json")));
    sys.run();
    CHECK(totals(sys).lost == 0);
    CHECK(totals(sys).drained > 0);
}
