// The config loader: JSON -> SimConfig with key-path errors, --set
// overrides, and the effective config (spec: README "Configs").
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "config/config_loader.h"
#include "config/json_text.h"
#include "config_error.h"

using namespace cidsim;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

json example(const std::string& name) {
    return read_json_file(std::string(CIDSIM_SOURCE_DIR) + "/configs/examples/" + name);
}


json minimal() {
    return json::parse(R"({"devices": [{"name": "d0"}],
                           "workloads": [{"type": "bursty", "device": "d0"}]})");
}

const char* const kExamples[] = {"posted-bursty.json", "remappable-bursty.json",
                                 "rfc-burst-posted.json", "rfc-burst-remappable.json"};

}  // namespace

TEST_CASE("an unknown key is an error naming its path and the valid keys", "[config]") {
    json c = minimal();
    c["iommu"] = {{"iec_entrys", 8}};
    const std::string e = cidsim_test::config_error(c);
    CHECK_THAT(e, Contains("iommu.iec_entrys"));
    CHECK_THAT(e, Contains("unknown key"));
    CHECK_THAT(e, Contains("iec_entries"));
    CHECK_THAT(e, Contains("irte_entries"));
    CHECK_THAT(e, Contains("message_latency_ns"));
}

TEST_CASE("unknown keys at the top level, in devices[] and in workloads[] name their path",
          "[config]") {
    json c = minimal();
    c["handlers"] = json::object();
    std::string e = cidsim_test::config_error(c);
    CHECK_THAT(e, Contains("handlers: unknown key"));
    CHECK_THAT(e, Contains("handler"));
    CHECK_THAT(e, Contains("devices"));
    CHECK_THAT(e, Contains("mode"));

    c = minimal();
    c["devices"].push_back({{"name", "d1"}, {"vector", 2}});
    e = cidsim_test::config_error(c);
    CHECK_THAT(e, Contains("devices[1].vector: unknown key"));
    CHECK_THAT(e, Contains("vectors"));
    CHECK_THAT(e, Contains("irq_cpus"));

    c = minimal();
    c["workloads"][0]["rate"] = 3;
    e = cidsim_test::config_error(c);
    CHECK_THAT(e, Contains("workloads[0].rate: unknown key"));
    CHECK_THAT(e, Contains("on_rate_mpps"));
}

TEST_CASE("a value of the wrong type is an error naming the key", "[config]") {
    json c = minimal();
    c["iommu"] = {{"iec_entries", "many"}};
    CHECK_THAT(cidsim_test::config_error(c), Contains("iommu.iec_entries: expected an integer in [0, 4096], found a string"));

    c = minimal();
    c["cpu"] = {{"eoi_ns", "fast"}};
    CHECK_THAT(cidsim_test::config_error(c), Contains("cpu.eoi_ns: expected a number, found a string"));

    c = minimal();
    c["handler"] = {{"final_harvest", 0}};
    CHECK_THAT(cidsim_test::config_error(c), Contains("handler.final_harvest: expected true or false"));

    c = minimal();
    c["handler"] = {{"harvest", "xchg_some"}};
    std::string e = cidsim_test::config_error(c);
    CHECK_THAT(e, Contains("handler.harvest: expected one of"));
    CHECK_THAT(e, Contains("read_then_xchg"));
    CHECK_THAT(e, Contains("xchg_some"));

    c = minimal();
    c["mode"] = "compat";
    CHECK_THAT(cidsim_test::config_error(c), Contains("mode: expected one of remappable, posted"));

    c = minimal();
    c["iommu"] = 3;
    CHECK_THAT(cidsim_test::config_error(c), Contains("iommu: expected an object"));

    c = minimal();
    c["devices"][0]["irq_cpus"] = 0;
    CHECK_THAT(cidsim_test::config_error(c), Contains("devices[0].irq_cpus: expected a non-empty array"));

    c = minimal();
    c["devices"][0]["name"] = 7;
    CHECK_THAT(cidsim_test::config_error(c), Contains("devices[0].name: expected a string"));
}

TEST_CASE("values out of range and negative integers are errors naming the key", "[config]") {
    json c = minimal();
    c["iommu"] = {{"irte_entries", 0}};
    CHECK_THAT(cidsim_test::config_error(c), Contains("iommu.irte_entries: expected a positive integer in [1, 65536]"));
    c["iommu"] = {{"iec_entries", -1}};
    CHECK_THAT(cidsim_test::config_error(c), Contains("iommu.iec_entries: expected a non-negative integer"));
    c["iommu"] = {{"iec_entries", 2.5}};
    CHECK_THAT(cidsim_test::config_error(c), Contains("iommu.iec_entries"));
    c = minimal();
    c["pid_line"] = {{"miss_ns", -3}};
    CHECK_THAT(cidsim_test::config_error(c), Contains("pid_line.miss_ns: expected a number in"));
}

TEST_CASE("integers built in code (signed in nlohmann::json) load like parsed ones",
          "[config]") {
    json c = minimal();
    c["iommu"] = {{"iec_entries", int(7)}};
    c["topology"] = {{"cpus", int64_t(2)}};
    const SimConfig s = load_config(c);
    CHECK(s.iommu.iec_entries == 7);
    CHECK(s.topology.cpus == 2);
}

TEST_CASE("references between sections are checked", "[config]") {
    json c = minimal();
    c["devices"][0]["irq_cpus"] = {3};
    CHECK_THAT(cidsim_test::config_error(c), Contains("devices[0].irq_cpus[0]: CPU 3 does not exist"));
    c = minimal();
    c["workloads"][0]["device"] = "nvme9";
    CHECK_THAT(cidsim_test::config_error(c), Contains("workloads[0].device: no device named \"nvme9\""));
    c = minimal();
    c["devices"].push_back({{"name", "d0"}});
    CHECK_THAT(cidsim_test::config_error(c), Contains("devices[1].name: duplicate device name"));
    c = minimal();
    c["workloads"][0]["type"] = "tape";
    CHECK_THAT(cidsim_test::config_error(c), Contains("workloads[0].type: expected one of bursty, trace, nvme, dsa"));
}

TEST_CASE("apply_override sets key paths, with array indices and JSON or string values",
          "[config][override]") {
    json c = example("posted-bursty.json");
    apply_override(c, "handler.harvest=xchg_all");           // not JSON: a string
    apply_override(c, "handler.loop_limit=5");               // a number
    apply_override(c, "handler.final_harvest=false");        // a boolean
    apply_override(c, "devices.1.vectors=4");                // array element
    apply_override(c, "devices.0.irq_cpus=[1]");             // a JSON array
    apply_override(c, "workloads.0.on_rate_mpps=0.5");
    apply_override(c, "iommu.iec_hit_ns=7");                 // creates the section
    apply_override(c, "mode=\"remappable\"");                // a JSON string
    const SimConfig s = load_config(c);
    CHECK(s.handler.harvest == HarvestStrategy::XchgAll);
    CHECK(s.handler.loop_limit == 5);
    CHECK_FALSE(s.handler.final_harvest);
    CHECK(s.devices[1].params.vectors == 4);
    CHECK(s.devices[0].params.vectors == 2);
    CHECK(s.devices[0].irq_cpus == std::vector<uint64_t>{1});
    CHECK(s.workloads[0].bursty.on_rate_mpps == Approx(0.5));
    CHECK(s.iommu.iec_hit == ns(7));
    CHECK(s.mode == RemapMode::Remappable);
}

TEST_CASE("apply_override errors name the path", "[config][override]") {
    json c = example("posted-bursty.json");
    auto error = [&](const std::string& a) -> std::string {
        try {
            apply_override(c, a);
        } catch (const ConfigError& e) {
            return e.what();
        }
        return "";
    };
    CHECK_THAT(error("devices.5.vectors=1"), Contains("devices.5: no element 5 in an array of 2"));
    CHECK_THAT(error("devices.x.vectors=1"), Contains("devices.x"));
    CHECK_THAT(error("handler.harvest"), Contains("expected key.path=value"));
    CHECK_THAT(error("=3"), Contains("expected key.path=value"));
    CHECK_THAT(error("mode.sub=1"), Contains("--set mode.sub: a string has no keys"));
    // A misspelt key is accepted by the override and rejected by the loader.
    CHECK(error("handler.loop_limt=2").empty());
    CHECK_THAT(cidsim_test::config_error(c), Contains("handler.loop_limt: unknown key"));
}

TEST_CASE("effective_config lists every parameter and round-trips through load_config",
          "[config]") {
    for (const char* name : kExamples) {
        INFO(name);
        const SimConfig a = load_config(example(name));
        const json e = effective_config(a);
        const SimConfig b = load_config(e);
        CHECK(effective_config(b) == e);
        // Defaults appear even where the file says nothing.
        CHECK(e["iommu"]["iec_entries"] == IommuParams().iec_entries);
        CHECK(e["handler"]["harvest"] == "read_then_xchg");
        CHECK(e["pid_line"].contains("hop_ns"));
        CHECK(e["devices"][0].contains("handler_base_ns"));
    }
    // And with every value changed from its default.
    json c = example("posted-bursty.json");
    apply_override(c, "handler.harvest=no_copy");
    apply_override(c, "lapic.tpr=32");
    apply_override(c, "pid_line.hop_ns=33.5");
    const json e = effective_config(load_config(c));
    CHECK(e["handler"]["harvest"] == "no_copy");
    CHECK(e["lapic"]["tpr"] == 32);
    CHECK(e["pid_line"]["hop_ns"] == Approx(33.5));
    CHECK(effective_config(load_config(e)) == e);
}

TEST_CASE("every described parameter is accepted by the loader under its key", "[config]") {
    const json d = describe_parameters();
    json c = minimal();
    for (auto it = d.begin(); it != d.end(); ++it) {
        const std::string section = it.key();
        if (section == "(limits)") continue;  // sizes, not keys
        // One workload type's keys at a time: the config's workload is bursty.
        if (section.rfind("workloads[]", 0) == 0 && section != "workloads[] (type bursty)") continue;
        // Guests' keys need vcpus or a xen section: the next test cases.
        if (section == "vm" || section == "vcpus[]" || section == "xen" || section == "xen_line")
            continue;
        // A POWER partition's keys need a power section: a test case of their own
        // (overrides[]: test_power_overrides.cpp).
        if (section == "power" || section == "xive" || section == "power_line" || section == "ipistorm" ||
            section == "overrides[]")
            continue;
        for (const json& p : it.value()) {
            if (p["key"] == "assigned_to" || p["key"] == "host_handler") continue;
            CHECK_FALSE(p["description"].get<std::string>().empty());
            // A key with no default (include, profile, a required key) has no value
            // that leaves the config as it is.
            if (p["default"].is_null()) continue;
            if (section == "(top level)") {
                c[p["key"].get<std::string>()] = p["default"];
            } else if (section == "devices[]") {
                if (p["key"] != "name") c["devices"][0][p["key"].get<std::string>()] = p["default"];
            } else if (section.rfind("workloads[]", 0) == 0) {
                if (p["key"] != "device" && p["key"] != "type")
                    c["workloads"][0][p["key"].get<std::string>()] = p["default"];
            } else {
                c[section][p["key"].get<std::string>()] = p["default"];
            }
        }
    }
    INFO(c.dump());
    CHECK(cidsim_test::config_error(c).empty());
    CHECK(effective_config(load_config(c)) == effective_config(load_config(minimal())));
}

TEST_CASE("every described VM parameter is accepted by the loader under its key", "[config][vm]") {
    const json d = describe_parameters();
    json base = minimal();
    base["vcpus"] = json::array({json::object()});
    base["devices"][0]["assigned_to"] = "vcpu0";
    json c = base;
    c["vm"] = json::object();
    for (const json& p : d["vm"]) c["vm"][p["key"].get<std::string>()] = p["default"];
    for (const json& p : d["vcpus[]"]) c["vcpus"][0][p["key"].get<std::string>()] = p["default"];
    for (const json& p : d["devices[]"])
        if (p["key"] == "host_handler") c["devices"][0]["host_handler"] = p["default"];
    INFO(c.dump());
    CHECK(cidsim_test::config_error(c).empty());
    const json e = effective_config(load_config(c));
    CHECK(e == effective_config(load_config(base)));
    CHECK(e.contains("vm"));
    CHECK(e["devices"][0]["assigned_to"] == "vcpu0");
}

// A run's result and a sweep's points carry the effective config; a sweep
// reloads it, and a user may rerun it: every shipped config's must read
// back as the same config.
TEST_CASE("every shipped config's effective config reads back as itself", "[config]") {
    namespace fs = std::filesystem;
    unsigned n = 0;
    for (const char* dir : {"bench", "examples", "power", "rfc", "vm"})
        for (const auto& entry : fs::directory_iterator(std::string(CIDSIM_SOURCE_DIR) +
                                                        "/configs/" + dir)) {
            const std::string path = entry.path().string();
            const std::string file = entry.path().filename().string();
            if (entry.path().extension() != ".json" || file == "tables.json" ||
                file == "devices.json")
                continue;
            INFO(path);
            const json e = effective_config(load_config(read_config_file(path)));
            const std::string error = cidsim_test::config_error(e);
            CHECK(error.empty());
            if (error.empty()) CHECK(effective_config(load_config(e)) == e);
            ++n;
        }
    CHECK(n >= 20);
}

TEST_CASE("every described Xen parameter is accepted by the loader under its key", "[config][xen]") {
    const json d = describe_parameters();
    json base = minimal();
    base["xen"] = {{"vcpus", 2}};
    base["devices"][0]["assigned_to"] = "guest";
    json c = base;
    for (const char* section : {"xen", "xen_line"})
        for (const json& p : d[section]) c[section][p["key"].get<std::string>()] = p["default"];
    c["xen"]["vcpus"] = 2;
    INFO(c.dump());
    CHECK(cidsim_test::config_error(c).empty());
    const json e = effective_config(load_config(c));
    CHECK(e == effective_config(load_config(base)));
    CHECK(e["xen_line"]["hop_ns"] == Approx(80));  // the 2018 box's, not pid_line's
    CHECK(e["devices"][0]["assigned_to"] == "guest");
    // What the domain never reads is not echoed, and its devices are
    // remapped whatever mode is unstated: the echo reads back.
    CHECK_FALSE(base.contains("mode"));
    CHECK(e["mode"] == "remappable");
    CHECK_FALSE(e.contains("handler"));
    CHECK_FALSE(e["xen_line"].contains("same_core_ns"));
    CHECK_FALSE(e["xen_line"].contains("device_rmw_ns"));
    CHECK(effective_config(load_config(e)) == e);
}

TEST_CASE("every described POWER parameter is accepted by the loader under its key", "[config][ipistorm]") {
    const json d = describe_parameters();
    json base = minimal();
    base.erase("workloads");  // a partition's x86 device is idle
    base["power"] = json::object();
    json c = base;
    for (const char* section : {"power", "xive", "power_line", "ipistorm"})
        for (const json& p : d[section]) c[section][p["key"].get<std::string>()] = p["default"];
    INFO(c.dump());
    CHECK(cidsim_test::config_error(c).empty());
    const json e = effective_config(load_config(c));
    CHECK(e == effective_config(load_config(base)));
    CHECK(e["power_line"]["hop_ns"] == Approx(150));  // the partition's, not pid_line's
    CHECK(e["ipistorm"]["offset"] == 8);
}

TEST_CASE("Xen configs: bad values are rejected naming the key", "[config][xen]") {
    json c = minimal();
    c["xen"] = {{"vcpus", 4}};
    c["devices"][0]["assigned_to"] = "guest";
    CHECK(cidsim_test::config_error(c).empty());
    json bad = c;
    bad["xen"]["variant"] = "fast";
    CHECK_THAT(cidsim_test::config_error(bad), Contains("xen.variant"));
    bad = c;
    bad["xen"]["pirqs"] = 0;
    CHECK_THAT(cidsim_test::config_error(bad), Contains("xen.pirqs"));
    bad = c;
    bad["xen"]["vcpus"] = 63;
    CHECK_THAT(cidsim_test::config_error(bad), Contains("xen.vcpus"));
    bad = c;
    bad["xen_line"] = {{"hop_ns", -1}};
    CHECK_THAT(cidsim_test::config_error(bad), Contains("xen_line.hop_ns"));
    bad = c;
    bad["vm"] = json::object();
    bad["vcpus"] = json::array({json::object()});
    CHECK_THAT(cidsim_test::config_error(bad), Contains("xen:"));
    bad = minimal();
    bad["xen_line"] = json::object();
    CHECK_THAT(cidsim_test::config_error(bad), Contains("xen_line"));
    bad = c;
    bad["devices"][0]["assigned_to"] = "vcpu4";
    CHECK_THAT(cidsim_test::config_error(bad), Contains("assigned_to"));
}

TEST_CASE("cidsim run: bad input exits with status 2 and names the key", "[config][cli]") {
    char dir[] = "/tmp/cidsim-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    const std::string err = std::string(dir) + "/stderr";
    const std::string base = std::string(CIDSIM_BINARY) + " run " + CIDSIM_SOURCE_DIR +
                             "/configs/examples/rfc-burst-posted.json -q ";
    auto run = [&](const std::string& args) {
        const int st = std::system((base + args + " 2>" + err).c_str());
        REQUIRE(WIFEXITED(st));
        std::ifstream in(err);
        return std::make_pair(WEXITSTATUS(st),
                              std::string(std::istreambuf_iterator<char>(in), {}));
    };
    auto r = run("--set iommu.iec_entrys=3");
    CHECK(r.first == 2);
    CHECK_THAT(r.second, Contains("iommu.iec_entrys: unknown key"));
    r = run("--set handler.loop=fast");
    CHECK(r.first == 2);
    CHECK_THAT(r.second, Contains("handler.loop"));
    r = run("--set devices.3.vectors=1");
    CHECK(r.first == 2);
    CHECK_THAT(r.second, Contains("devices.3"));
    r = run("--set handler.harvest=no_copy");
    CHECK(r.first == 0);
    std::remove(err.c_str());
    rmdir(dir);
}

// reproduce checks every run's result against the row's config as read at
// its start (a run reads the file again, which may have been edited since).
TEST_CASE("effective_config(file, sets) is what a run with those --sets records",
          "[config][cli]") {
    char dir[] = "/tmp/cidsim-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    const std::string config = std::string(CIDSIM_SOURCE_DIR) + "/configs/examples/" +
                               kExamples[0], out = std::string(dir) + "/r.json";
    const std::vector<std::string> sets = {"mode=posted", "run.duration_ns=200000.000000",
                                           "run.batches=10"};
    std::string cmd = std::string(CIDSIM_BINARY) + " run " + config + " -q --out " + out;
    for (const std::string& s : sets) cmd += " --set " + s;
    const int st = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(st));
    REQUIRE(WEXITSTATUS(st) == 0);
    const json result = read_json_file(out);
    const json file = read_config_file(config);
    CHECK(effective_config(file, sets, config) == result["config"]);
    json edited = file;
    edited["workloads"][0]["dma_bytes"] = 512;
    CHECK(effective_config(edited, sets, config) != result["config"]);
    CHECK(effective_config(file, {"mode=posted"}, config) != result["config"]);
    std::filesystem::remove_all(dir);
}
