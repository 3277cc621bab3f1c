// Every value of the platform files and the device profiles names where it
// comes from (issue 22, item 2): config/provenance.h. The real files are
// checked in full; the cases after them show each rule can fail.
#include <catch2/catch.hpp>

#include <string>

#include "cli_runner.h"
#include "config/config_loader.h"
#include "config/platforms.h"
#include "config/provenance.h"

using namespace cidsim;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

std::string error_of(const json& doc) {
    try {
        read_provenance(doc, "f.json");
    } catch (const BadInput& e) {
        return e.what();
    }
    return "";
}

json one(const json& entry) {
    return {{"cpu", {{"eoi_ns", 40}}}, {"provenance", {{"cpu.eoi_ns", entry}}}};
}

}  // namespace

TEST_CASE("every value of every built-in platform has a source and a range holding it") {
    size_t checked = 0;
    for (const std::string& name : platform_names()) {
        if (name == kGenericPlatform) continue;
        const std::vector<Provenance> entries = platform_provenance(name);  // throws on any gap
        // Every value the platform gives a config is among them.
        const json values = platform_values(name);
        size_t leaves = 0;
        for (auto block = values.begin(); block != values.end(); ++block)
            if (block.value().is_object()) leaves += block.value().size();
        CHECK(entries.size() == leaves);
        for (const Provenance& p : entries) {
            INFO(p.key);
            CHECK(!p.source.empty());
            REQUIRE(p.value.is_number());
            CHECK(p.low <= p.value.get<double>());
            CHECK(p.value.get<double>() <= p.high);
        }
        checked += entries.size();
    }
    CHECK(checked > 0);
}

TEST_CASE("every value of the device profiles has a source, and every number a range holding it") {
    const std::vector<Provenance> entries =
        devices_provenance(std::string(CIDSIM_SOURCE_DIR) + "/configs/rfc/devices.json");
    CHECK(entries.size() > 10);
    size_t fitted = 0;
    for (const Provenance& p : entries) {
        INFO(p.key);
        CHECK(!p.source.empty());
        if (p.value.is_number()) CHECK((p.has_range && p.low <= p.value && p.value <= p.high));
        fitted += p.kind == "fitted";
    }
    CHECK(fitted == 2);  // max_iops_m and dsa's per_completion_ns (scripts/calibrate.py)
}

TEST_CASE("a gap in the provenance is an error naming the file and the key") {
    const json ok = {{"kind", "guess"}, {"range", {10, 100}}, {"source", "none found"}};
    CHECK(error_of(one(ok)).empty());
    CHECK_THAT(error_of({{"cpu", {{"eoi_ns", 40}}}}), Contains("f.json: provenance.cpu.eoi_ns: missing"));
    json e = ok;
    e["source"] = "";
    CHECK_THAT(error_of(one(e)), Contains("f.json: provenance.cpu.eoi_ns: source"));
    e = ok;
    e["range"] = {50, 100};
    CHECK_THAT(error_of(one(e)), Contains("does not contain the value 40"));
    e = ok;
    e.erase("range");
    CHECK_THAT(error_of(one(e)), Contains("needs its plausible range"));
    e = ok;
    e["kind"] = "known";
    CHECK_THAT(error_of(one(e)), Contains("kind: expected one of"));
    json stale = one(ok);
    stale["provenance"]["cpu.irq_exit_ns"] = ok;
    CHECK_THAT(error_of(stale), Contains("provenance.cpu.irq_exit_ns: names no value"));
    // A switch has no range: the setup gives it or its source states it,
    // but it cannot be a guess or fitted.
    json sw = {{"dsa", {{"threaded_irq", true}}},
               {"provenance", {{"dsa.threaded_irq", {{"kind", "measured"}, {"source", "the driver"}}}}}};
    CHECK(error_of(sw).empty());
    sw["provenance"]["dsa.threaded_irq"]["kind"] = "guess";
    CHECK_THAT(error_of(sw), Contains("provenance.dsa.threaded_irq: kind: a value that is not a number"));
    // A platform's own name and comment are not values.
    json named = one(ok);
    named["platform"] = "x";
    named["comment"] = "y";
    CHECK(error_of(named).empty());
}

TEST_CASE("only fitted, assumed and guessed numbers are uncertain") {
    Provenance p;
    p.has_range = true;
    for (const char* k : {"fitted", "assumed", "guess"}) {
        p.kind = k;
        CHECK(p.uncertain());
    }
    for (const char* k : {"measured", "setup"}) {
        p.kind = k;
        CHECK_FALSE(p.uncertain());
    }
}

TEST_CASE("a pid_line cost changes a posted run unless its description says the PID line does "
          "not use it") {
    // upgrade_ns was calibrated (spr.json) and described as a PID line cost
    // while no PID line is ever shared, so it changed nothing. Two sockets:
    // the remapping unit's RMW of CPU 1's PID crosses one (hop_ns).
    cidsim_test::Scratch s;
    const json params =
        json::parse(cidsim_test::run_cidsim(s, "params pid_line --format json").out);
    const std::string run = cidsim_test::example("posted-bursty.json") +
                            " --set topology.sockets=2 --set run.duration_ns=5e5";
    const json base = cidsim_test::run_result(s, run)["metrics"];
    size_t unused = 0, used = 0;
    for (const json& p : params["pid_line"]) {
        const std::string key = p["key"].get<std::string>();
        INFO(key);
        const double moved = 3 * p["default"].get<double>() + 50;
        const json m = cidsim_test::run_result(
            s, run + " --set pid_line." + key + "=" + std::to_string(moved))["metrics"];
        const bool not_used = p["description"].get<std::string>().find(
                                  "Not used by the PID line") != std::string::npos;
        CHECK((m == base) == not_used);
        ++(not_used ? unused : used);
    }
    CHECK(unused >= 2);  // upgrade_ns, home_occupancy_ns
    CHECK(used >= 6);
}
