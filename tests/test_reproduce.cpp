// `cidsim reproduce`: the JSON shape other tools read, and the golden check
// that the calibrated C1 table stays within its band with the published trend.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

json reproduce(const std::string& table) {
    const std::string cmd = std::string(CIDSIM_BINARY) + " reproduce " + table +
                            " --format json --tables " + CIDSIM_SOURCE_DIR +
                            "/configs/rfc/tables.json 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    REQUIRE(pclose(p) == 0);
    return json::parse(out);
}

}  // namespace

TEST_CASE("reproduce --format json has the documented shape", "[reproduce]") {
    const json t = reproduce("dsa-2wq");
    REQUIRE(t.is_object());
    CHECK(t["table"] == "dsa-2wq");
    REQUIRE(t["rows"].size() == 2);
    for (const json& r : t["rows"]) {
        CHECK(r["key"].is_object());
        CHECK(r["key"].contains("mode"));
        CHECK(r["metric"] == "irq_rate_M");
        CHECK(r["simulated"].is_number());
        CHECK(r["ci95"].is_number());
        CHECK(r["published"].is_number());
    }
}

TEST_CASE("nvme-disks stays within the calibration band with the published trend",
          "[reproduce][golden]") {
    const json t = reproduce("nvme-disks");
    std::map<std::pair<int, std::string>, double> sim;
    for (const json& r : t["rows"]) {
        const double s = r["simulated"].get<double>();
        sim[{r["key"]["disks"].get<int>(), r["key"]["mode"].get<std::string>()}] = s;
        // Batch means: the target is a 95% half-width under 1%; the 8-disk
        // remappable row oscillates slowly (root ports and the message port
        // push back on each other) and stays near 2% (docs/calibration.md).
        CHECK(r["ci95"].get<double>() <= 0.03 * s);
        if (!r["published"].is_null()) {
            const double p = r["published"].get<double>();
            INFO(r.dump());
            CHECK(std::abs(s - p) / p <= 0.10);
        }
    }
    // Remappable falls with disks; posted stays near the single-disk level.
    CHECK(sim[{2, "remappable"}] > sim[{4, "remappable"}]);
    CHECK(sim[{4, "remappable"}] > sim[{8, "remappable"}]);
    CHECK(sim[{8, "posted"}] > 0.9 * sim[{2, "posted"}]);
}
