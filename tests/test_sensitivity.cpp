// `cidsim reproduce --sensitivity` (report/sensitivity.h): which runs a row
// gets, the Latin hypercube, and a small table's tornado where one value
// cannot matter and one must.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "config/config_loader.h"
#include "config/provenance.h"
#include "report/sensitivity.h"

using namespace cidsim;
using nlohmann::json;

namespace {

const std::string kDevices = std::string(CIDSIM_SOURCE_DIR) + "/configs/rfc/devices.json";

const Assumption& named(const std::vector<Assumption>& as, const std::string& name) {
    for (const Assumption& a : as)
        if (a.name == name) return a;
    FAIL("no assumption " << name);
    return as.front();
}

}  // namespace

TEST_CASE("the assumptions are the uncertain values of the platform and the profiles") {
    json profiles;
    const std::vector<Assumption> as = load_assumptions(kDevices, profiles);
    std::set<std::string> names;
    for (const Assumption& a : as) {
        names.insert(a.name);
        CHECK((a.kind == "fitted" || a.kind == "assumed" || a.kind == "guess"));
        CHECK(a.low <= a.value);
        CHECK(a.value <= a.high);
    }
    CHECK(names.count("root_port.drain_ns"));
    CHECK(names.count("dsa.device.per_completion_ns"));
    CHECK_FALSE(names.count("optane_gen2.workload.max_iops_m"));  // measured: not varied
    CHECK_FALSE(names.count("dsa.workload.fill_bytes"));          // the setup
    CHECK(named(as, "nvme_pm174x.workload.iodepth").integer);
    CHECK_FALSE(named(as, "cpu.irq_entry_ns").integer);
}

TEST_CASE("a row's assignments reach the devices and workloads a profile made, and only those") {
    json profiles;
    const std::vector<Assumption> as = load_assumptions(kDevices, profiles);
    const json c2 = read_config_file(std::string(CIDSIM_SOURCE_DIR) + "/configs/rfc/c2-dsa-2wq.json");
    using V = std::vector<std::string>;
    CHECK(assignments(c2, profiles, {}, named(as, "dsa.device.per_completion_ns"), 50) ==
          V{"devices.0.per_completion_ns=50", "devices.1.per_completion_ns=50"});
    CHECK(assignments(c2, profiles, {}, named(as, "dsa.workload.wq_depth"), 16.4) ==
          V{"workloads.0.wq_depth=16", "workloads.1.wq_depth=16"});
    CHECK(assignments(c2, profiles, {}, named(as, "nvme_pm174x.device.per_completion_ns"), 150).empty());
    CHECK(assignments(c2, profiles, {}, named(as, "cpu.eoi_ns"), 10) == V{"cpu.eoi_ns=10"});
    // A row that sets the value itself keeps it; a row on another platform has none of spr's.
    CHECK(assignments(c2, profiles, {"cpu.eoi_ns=5"}, named(as, "cpu.eoi_ns"), 10).empty());
    CHECK(assignments(c2, profiles, {"platform=generic"}, named(as, "cpu.eoi_ns"), 10).empty());
}

TEST_CASE("a Xen row takes no host CPU cost of its platform and a POWER row none at all") {
    json profiles;
    const std::vector<Assumption> as = load_assumptions(kDevices, profiles);
    const std::string dir = std::string(CIDSIM_SOURCE_DIR) + "/configs/";
    const json xen = read_config_file(dir + "vm/e1-xen-eoi.json");
    CHECK(assignments(xen, profiles, {}, named(as, "cpu.eoi_ns"), 10).empty());
    CHECK(assignments(xen, profiles, {}, named(as, "lapic.timer_period_ns"), 1e5).empty());
    CHECK(assignments(xen, profiles, {}, named(as, "iommu.iec_miss_ns"), 100) ==
          std::vector<std::string>{"iommu.iec_miss_ns=100"});
    const json power = read_config_file(dir + "power/e2-p9.json");
    CHECK(assignments(power, profiles, {}, named(as, "iommu.iec_miss_ns"), 100).empty());
}

TEST_CASE("the Latin hypercube puts one point in each stratum of every range") {
    std::vector<Assumption> as(2);
    as[0] = {"a", "guess", 5, 0, 10, false, ""};
    as[1] = {"b", "guess", 50, 10, 90, true, ""};
    const unsigned n = 8;
    const auto points = latin_hypercube(as, n, 1);
    REQUIRE(points.size() == n);
    for (size_t i = 0; i < as.size(); ++i) {
        std::set<int> strata;
        for (const auto& p : points) {
            CHECK(p[i] >= as[i].low);
            CHECK(p[i] <= as[i].high);
            if (!as[i].integer) strata.insert(int((p[i] - as[i].low) / (as[i].high - as[i].low) * n));
            else CHECK(p[i] == std::round(p[i]));
        }
        if (!as[i].integer) CHECK(strata.size() == n);
    }
}

TEST_CASE("reproduce --sensitivity: the tornado swings on a value that must matter and not on one that cannot",
          "[reproduce]") {
    cidsim_test::Scratch s;
    // C2 posted is bound by the interrupt CPU's per-completion work; its two
    // vectors always fit the Interrupt Entry Cache, so its size cannot matter.
    {
        std::ofstream t(s / "tables.json");
        t << json{{"tables",
                   {{{"name", "small"},
                     {"title", "C2 posted only"},
                     {"set", "calibration"},
                     {"metrics", {"irq_rate_M"}},
                     {"rows",
                      {{{"key", {{"mode", "posted"}}},
                        {"config", std::string(CIDSIM_SOURCE_DIR) + "/configs/rfc/c2-dsa-2wq.json"},
                        {"set", {"mode=posted"}}}}}}}}}
                 .dump();
    }
    const auto r = cidsim_test::run_cidsim(
        s, "reproduce small --sensitivity --lhs 4 --jobs 2 --format json --tables '" + s / "tables.json" +
               "' --devices '" + kDevices + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const json t = json::parse(r.out);
    REQUIRE(t["sensitivity"]["rows"].size() == 1);
    const json& row = t["sensitivity"]["rows"][0];
    CHECK(row["interval_points"].size() == 4);
    REQUIRE(row["interval"].is_array());
    CHECK(row["interval"][0] <= row["interval"][1]);
    std::map<std::string, double> swing;
    for (const json& d : row["tornado"]) {
        CHECK(d["at_low"].is_number());
        CHECK(d["at_high"].is_number());
        swing[d["parameter"]] = d["swing_pct"];
    }
    REQUIRE(swing.count("dsa.device.per_completion_ns"));
    CHECK(std::fabs(swing["dsa.device.per_completion_ns"]) > 20);
    REQUIRE(swing.count("iommu.iec_entries"));
    CHECK(std::fabs(swing["iommu.iec_entries"]) < 0.5);
    CHECK_FALSE(swing.count("nvme_pm174x.device.per_completion_ns"));  // no NVMe device in C2
    // Strongest first.
    CHECK(std::fabs(row["tornado"][0]["swing_pct"].get<double>()) >=
          std::fabs(row["tornado"][1]["swing_pct"].get<double>()));
}

TEST_CASE("reproduce --sensitivity refuses a device file with a value of no provenance, naming both",
          "[reproduce]") {
    cidsim_test::Scratch s;
    json devices = read_json_file(kDevices);
    devices["provenance"].erase("dsa.workload.wq_depth");
    std::ofstream(s / "devices.json") << devices.dump(2);
    const auto r = cidsim_test::run_cidsim(
        s, "reproduce dsa-2wq --sensitivity --devices '" + s / "devices.json" + "'");
    CHECK(r.status == 2);
    CHECK(r.err.find(s / "devices.json") != std::string::npos);
    CHECK(r.err.find("provenance.dsa.workload.wq_depth: missing") != std::string::npos);
}
