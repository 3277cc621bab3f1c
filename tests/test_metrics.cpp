// Every metric a result file holds is described by `cidsim params
// --metrics`, with a unit and a meaning: checked on results of the real
// binary, so a key added to the writer without a description fails here.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {

const std::string kShort = " --set run.duration_ns=200000 --set run.warmup_ns=20000";

json listing(const Scratch& s) {
    const Run r = run_cidsim(s, "params --metrics --format json");
    REQUIRE(r.status == 0);
    return json::parse(r.out);
}

std::set<std::string> keys_of(const json& list, const std::string& section) {
    std::set<std::string> keys;
    if (list.contains(section))
        for (const json& m : list[section]) keys.insert(m["key"].get<std::string>());
    return keys;
}

// The keys of `o` (dotted when nested) that `described` does not cover; a
// described key covers everything under it (a histogram's summary, the
// fault records).
void undescribed(const json& o, const std::string& prefix, const std::set<std::string>& described,
                 std::set<std::string>& missing) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = prefix + it.key();
        if (described.count(key)) continue;
        if (it->is_object())
            undescribed(*it, key + ".", described, missing);
        else
            missing.insert(key);
    }
}

// "iec.hits" -> /iec/hits
json::json_pointer pointer(std::string dotted) {
    for (char& c : dotted)
        if (c == '.') c = '/';
    return json::json_pointer("/" + dotted);
}

json short_run(const Scratch& s, const std::string& config, const std::string& extra = "") {
    return run_result(s, config + kShort + extra);
}

void check_entries(const json& result, const json& list, const char* array,
                   const std::string& section) {
    const std::set<std::string> described = keys_of(list, section);
    REQUIRE(!result[array].empty());
    for (const json& entry : result[array]) {
        std::set<std::string> missing;
        undescribed(entry, "", described, missing);
        INFO(array << " keys not described in section '" << section << "'");
        CHECK(missing == std::set<std::string>{});
    }
}

}  // namespace

TEST_CASE("every key of a result's metrics object is described by the listing") {
    Scratch s;
    const json list = listing(s);
    const json r = short_run(s, example("posted-bursty.json"));
    std::set<std::string> missing;
    undescribed(r["metrics"], "", keys_of(list, "metrics"), missing);
    CHECK(missing == std::set<std::string>{});
    // And the other way round: nothing listed for metrics that is not there.
    std::set<std::string> absent;
    for (const std::string& key : keys_of(list, "metrics"))
        if (!r["metrics"].contains(pointer(key))) absent.insert(key);
    CHECK(absent == std::set<std::string>{});
}

// A port's hold is counted whole when it is taken: writes queued past the
// end of the run (or of the warmup) belong to no window, or to the next.
TEST_CASE("a root port backlogged past the end of the run is busy at most all of it") {
    Scratch s;
    const json r =
        short_run(s, example("posted-bursty.json"), " --set root_port.bandwidth_gbps=0.001");
    REQUIRE(r["metrics"]["msis"].get<uint64_t>() > 0);
    CHECK(r["root_ports"][0]["utilization"].get<double>() == Approx(1.0));
    // Its bytes likewise: no more than the bandwidth moves in the window.
    CHECK(r["root_ports"][0]["dma_gb_per_s"].get<double>() <= 0.001);
    CHECK(r["root_ports"][0]["dma_gb_per_s"].get<double>() > 0.0009);
}

TEST_CASE("every key of a result's per-block entries is described by the listing") {
    Scratch s;
    const json list = listing(s);
    for (const char* mode : {"posted", "remappable"}) {
        const json r = short_run(s, example("posted-bursty.json"), std::string(" --set mode=") + mode);
        check_entries(r, list, "per_cpu", "per_cpu[]");
        check_entries(r, list, "per_vector", "per_vector[]");
        check_entries(r, list, "per_device", "per_device[]");
        check_entries(r, list, "root_ports", "root_ports[]");
    }
}

TEST_CASE("every key of a Xen result's xen section is described by the listing") {
    Scratch s;
    const json list = listing(s);
    const json r = short_run(s, std::string("'" CIDSIM_SOURCE_DIR "/configs/vm/e1-xen-eoi.json'"));
    REQUIRE(r.contains("xen"));
    json top = r["xen"];
    top.erase("event_lock");
    top.erase("per_vcpu");
    std::set<std::string> missing;
    undescribed(top, "", keys_of(list, "xen"), missing);
    undescribed(r["xen"]["event_lock"], "", keys_of(list, "xen.event_lock"), missing);
    CHECK(missing == std::set<std::string>{});
    check_entries(r["xen"], list, "per_vcpu", "xen.per_vcpu[]");
}

TEST_CASE("every key of each kind of workload's report is described by the listing") {
    Scratch s;
    const json list = listing(s);
    const std::string rfc = std::string("'" CIDSIM_SOURCE_DIR "/configs/rfc/");
    const std::pair<std::string, const char*> runs[] = {
        {example("posted-bursty.json"), "bursty"},
        {example("rfc-burst-posted.json"), "trace"},
        {rfc + "c1-nvme-2disks.json'", "nvme"},
        {rfc + "c2-dsa-2wq.json'", "dsa"},
    };
    for (const auto& [config, type] : runs) {
        const json r = short_run(s, config);
        check_entries(r, list, "workloads", std::string("workloads[] (type ") + type + ")");
    }
}

TEST_CASE("every listed metric has its type and source and meaning (and a unit if numeric)") {
    Scratch s;
    const json list = listing(s);
    for (auto section = list.begin(); section != list.end(); ++section) {
        std::set<std::string> seen;
        for (const json& m : *section) {
            const std::string key = m["key"].get<std::string>();
            INFO(section.key() << ": " << key);
            CHECK(!m["type"].get<std::string>().empty());
            CHECK(!m["source"].get<std::string>().empty());
            CHECK(m["description"].get<std::string>().size() > 3);
            const std::string type = m["type"].get<std::string>();
            if (type != "string" && type != "boolean") CHECK(!m["unit"].get<std::string>().empty());
            // The unreported list may name a field of two blocks alike.
            if (section.key() != "not in result files") CHECK(seen.insert(key).second);
        }
    }
}

namespace {

// Every number of a result outside its windows and half-widths, by JSON path.
void totals(const json& o, const std::string& at, std::map<std::string, double>& out) {
    if (o.is_object()) {
        for (auto it = o.begin(); it != o.end(); ++it)
            if (at.empty() && (it.key() == "batches" || it.key() == "ci95" ||
                               it.key() == "config" || it.key() == "cidsim_version"))
                continue;
            else
                totals(*it, at + "/" + it.key(), out);
    } else if (o.is_array()) {
        for (size_t i = 0; i < o.size(); ++i) totals(o[i], at + "/" + std::to_string(i), out);
    } else if (o.is_number()) {
        out[at] = o.get<double>();
    } else if (o.is_null()) {
        out[at] = -1;  // undefined (a ratio of nothing): so in either run (no total is < 0)
    }
}

}  // namespace

TEST_CASE("a run's totals do not depend on how many windows it is measured in") {
    // An interrupt or work item under way at a window's end counts its part
    // in that window, so cutting the run into windows loses no busy time.
    Scratch s;
    for (const char* config : {"/configs/examples/posted-bursty.json",
                               "/configs/examples/remappable-bursty.json"}) {
        INFO(config);
        const std::string path = std::string(CIDSIM_SOURCE_DIR) + config;
        std::map<std::string, double> one, five;
        totals(short_run(s, path, " --set run.batches=1"), "", one);
        totals(short_run(s, path, " --set run.batches=5"), "", five);
        REQUIRE(one.size() > 50);
        for (const auto& [key, value] : one) {
            INFO(key);
            REQUIRE(five.count(key));
            CHECK(five[key] == Approx(value).epsilon(1e-12).margin(1e-12));
        }
    }
}

TEST_CASE("a guest's, a Xen domain's and a POWER partition's totals do not depend on the windows") {
    // Three windows of a duration that does not divide evenly are the same
    // run as one: time under way at an edge (a Xen pCPU's mode, event_lock's
    // hold, a csd_lock_wait) counts on both sides, an exit in the window
    // where it ends, and the whole run's ratios come from its sums (not a
    // mean of the windows', nor the last window's; descs is not summed).
    Scratch s;
    for (const char* config : {"/configs/vm/e1-xen-eoi.json", "/configs/vm/host-and-guest.json",
                               "/configs/vm/e3-vfio.json", "/configs/power/e2-p9.json"}) {
        INFO(config);
        const std::string path = std::string("'") + CIDSIM_SOURCE_DIR + config + "'" +
                                 " --set run.duration_ns=1e6 --set run.warmup_ns=1e5";
        std::map<std::string, double> one, three;
        totals(run_result(s, path + " --set run.batches=1"), "", one);
        totals(run_result(s, path + " --set run.batches=3"), "", three);
        REQUIRE(one.size() > 150);
        for (const auto& [key, value] : one) {
            INFO(key);
            REQUIRE(three.count(key));
            CHECK(three[key] == Approx(value).epsilon(1e-9).margin(1e-12));
        }
    }
}
