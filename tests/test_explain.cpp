// cidsim explain's scenarios and run's observation outputs, through the
// binary as a user runs them: each scenario's counts, the VCD and Perfetto
// files parse and hold what the docs promise, and the /proc/interrupts
// table sums to the run's counters.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

std::string temp(const std::string& name) {
    return "/tmp/cidsim-test-" + std::to_string(::getpid()) + "-" + name;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Runs the cidsim binary; returns its exit status, stdout in `out`.
int cidsim(const std::string& args, std::string* out = nullptr) {
    const std::string stdout_path = temp("stdout");
    const std::string cmd = std::string(CIDSIM_BINARY) + " " + args + " > " + stdout_path;
    const int rc = std::system(cmd.c_str());
    if (out) *out = slurp(stdout_path);
    std::remove(stdout_path.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

json explain(const std::string& scenario, const std::string& flags = "") {
    const std::string path = temp(scenario + ".json");
    REQUIRE(cidsim("explain " + scenario + " " + flags + " --out " + path) == 0);
    json j = json::parse(slurp(path));
    std::remove(path.c_str());
    return j;
}

const json& variant(const json& result, const std::string& label) {
    for (const json& v : result["variants"])
        if (v["label"] == label) return v;
    FAIL("no variant " << label);
    return result;
}

std::string config(const std::string& rel) { return std::string(CIDSIM_SOURCE_DIR) + "/" + rel; }

}  // namespace

TEST_CASE("burst: 9 interrupts remappable, 4 notifications posted", "[explain]") {
    const json r = explain("burst");
    const json& remap = variant(r, "remappable");
    const json& posted = variant(r, "posted");
    CHECK(remap["counts"]["msis"] == 9);
    CHECK(remap["counts"]["notifications"] == 9);
    CHECK(posted["counts"]["notifications"] == 4);
    CHECK(posted["counts"]["notifications_suppressed"] == 5);
    CHECK(posted["counts"]["lost_completions"] == 0);
    // The timeline rows show it: 9 N (or N') in remappable, 4 N in posted.
    auto marks = [](const json& v) {
        for (const json& row : v["rows"])
            if (row["label"] != "MSIs") {
                const std::string cells = row["cells"];
                return std::count(cells.begin(), cells.end(), 'N');
            }
        return std::ptrdiff_t(-1);
    };
    CHECK(marks(remap) == 9);
    CHECK(marks(posted) == 4);
}

TEST_CASE("race-final-harvest: one stranded interrupt without the final harvest, none with it",
          "[explain]") {
    const json r = explain("race-final-harvest");
    const json& without = variant(r, "no final harvest");
    const json& with = variant(r, "final harvest");
    CHECK(without["counts"]["stranded_interrupts"] == 1);
    CHECK(with["counts"]["stranded_interrupts"] == 0);
    // Stranded, not lost: the later MSI's notification drains it, late.
    CHECK(without["counts"]["lost_completions"] == 0);
    CHECK(without["counts"]["msi_to_handler_max_ns"].get<double>() >
          5 * with["counts"]["msi_to_handler_max_ns"].get<double>());
    bool suppressed_then_stranded = false;
    for (const json& line : without["narration"])
        if (line.get<std::string>().find("STRANDED") != std::string::npos)
            suppressed_then_stranded = true;
    CHECK(suppressed_then_stranded);
}

TEST_CASE("affinity-move: the post lands in the old CPU's PIR and is delivered, not lost",
          "[explain]") {
    const json r = explain("affinity-move");
    const json& linux_way = variant(r, "IRR or PIR");
    const json& a = linux_way["affinity_move"];
    CHECK(a["moved"] == true);
    CHECK(a["from_cpu"] == 0);
    CHECK(a["to_cpu"] == 1);
    CHECK(a["found_pending_in_pir"] == true);  // is_vector_pending saw the PIR bit
    CHECK(a["cleanup_checks"].get<int>() >= 2);  // deferred, then freed
    CHECK(a["freed"] == true);
    const json& c = linux_way["counts"];
    CHECK(c["completions_handled"] == 2);
    CHECK(c["lost_completions"] == 0);
    CHECK(c["in_flight_completions_at_end"] == 0);
    CHECK(c["unhandled_vector_calls"] == 0);
    // A is handled on the old CPU by its notification handler.
    bool old_cpu_handled = false;
    for (const json& line : linux_way["narration"])
        if (line.get<std::string>().find("CPU0 handler of dev0 drains 1 completion") !=
            std::string::npos)
            old_cpu_handled = true;
    CHECK(old_cpu_handled);
    // Checking IRR only frees the vector too early: the harvest finds no handler.
    CHECK(variant(r, "IRR only")["counts"]["unhandled_vector_calls"] == 1);
}

TEST_CASE("affinity-move, remappable: the old vector's cleanup waits for the old CPU's "
          "interrupt", "[explain]") {
    // The cleanup timer fires while CPU0 is inside vector 0x24's interrupt;
    // its callback (softirq context) runs after iret, so A is handled, not lost.
    const json r = explain("affinity-move", "--set mode=remappable");
    for (const std::string label : {"IRR or PIR", "IRR only"}) {
        const json& v = variant(r, label);
        CHECK(v["affinity_move"]["freed"] == true);
        CHECK(v["affinity_move"]["cleanup_checks"] == 1);
        CHECK(v["affinity_move"]["freed_at_ns"].get<double>() > 430);  // after A's EOI
        CHECK(v["counts"]["unhandled_vector_calls"] == 0);
        CHECK(v["counts"]["handler_invocations"] == 2);
        bool waited = false, a_on_cpu0 = false;
        for (const json& line : v["narration"]) {
            const std::string s = line;
            if (s.find("CPU0 handler of dev0 drains 1 completion") != std::string::npos)
                a_on_cpu0 = true;
            if (s.find("CPU0 vector cleanup of 0x24 (its timer fired at 300 ns") !=
                std::string::npos)
                waited = a_on_cpu0;  // after A's handler, not before
        }
        CHECK(waited);
    }
}

TEST_CASE("timer-blocking: the demux loop delays the local timer", "[explain]") {
    const json r = explain("timer-blocking");
    CHECK(variant(r, "posted")["counts"]["timer_delay_max_ns"].get<double>() >
          2 * variant(r, "remappable")["counts"]["timer_delay_max_ns"].get<double>());
}

TEST_CASE("explain rejects an unknown key in a user's scenario with exit status 2", "[explain]") {
    const std::string path = temp("bad.json");
    std::ofstream(path) << R"({"explain": {"windw_ns": [0, 10]}, "devices": []})";
    CHECK(cidsim("explain " + path + " 2>/dev/null") == 2);
    std::remove(path.c_str());
    std::string list;
    CHECK(cidsim("explain --list", &list) == 0);
    CHECK(list.find("race-final-harvest") != std::string::npos);
}

TEST_CASE("run with trace-vcd writes a VCD with a header, definitions and ON/PIR changes", "[trace]") {
    const std::string vcd = temp("run.vcd");
    REQUIRE(cidsim("run " + config("configs/explain/burst.json") + " -q --trace-vcd " + vcd) == 0);
    std::ifstream in(vcd);
    std::string line, scope;
    std::map<std::string, std::string> id_of;  // "cpu0.on" -> id
    bool timescale = false, enddefs = false;
    while (std::getline(in, line) && !enddefs) {
        std::istringstream ls(line);
        std::string tok;
        ls >> tok;
        if (tok == "$timescale") timescale = true;
        if (tok == "$scope") {
            std::string kind;
            ls >> kind >> scope;
        }
        if (tok == "$var") {
            std::string type, width, id, name;
            ls >> type >> width >> id >> name;
            id_of[scope + "." + name] = id;
        }
        if (tok == "$enddefinitions") enddefs = true;
    }
    REQUIRE(timescale);
    REQUIRE(enddefs);
    REQUIRE(id_of.count("cpu0.on"));
    REQUIRE(id_of.count("cpu0.pir"));
    REQUIRE(id_of.count("devices.dev0_msi"));
    const std::string on = id_of["cpu0.on"], pir = id_of["cpu0.pir"];
    int on_rises = 0, on_falls = 0, pir_set = 0, times = 0;
    long long last_time = -1;
    bool monotonic = true;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line[0] == '#') {
            const long long t = std::stoll(line.substr(1));
            monotonic = monotonic && t >= last_time;
            last_time = t;
            ++times;
        } else if (line == "1" + on) {
            ++on_rises;
        } else if (line == "0" + on) {
            ++on_falls;
        } else if (line[0] == 'b' && line.size() > pir.size() + 1 &&
                   line.compare(line.size() - pir.size() - 1, std::string::npos, " " + pir) == 0 &&
                   line.find('1') != std::string::npos) {
            ++pir_set;
        }
    }
    CHECK(monotonic);
    CHECK(times > 10);
    CHECK(on_rises == 4);  // one per notification sent (burst, posted mode)
    CHECK(on_falls >= 4);
    CHECK(pir_set >= 4);
    std::remove(vcd.c_str());
}

TEST_CASE("run with trace-perfetto writes trace-event JSON with handler spans on the CPU track",
          "[trace]") {
    const std::string path = temp("run.perfetto.json");
    REQUIRE(cidsim("run " + config("configs/examples/posted-bursty.json") +
                   " -q --window-ns 100000:150000 --trace-perfetto " + path) == 0);
    const json doc = json::parse(slurp(path));
    std::remove(path.c_str());
    REQUIRE(doc.contains("traceEvents"));
    int cpu0_tid = -1;
    for (const json& e : doc["traceEvents"])
        if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"] == "CPU0")
            cpu0_tid = e["tid"];
    REQUIRE(cpu0_tid >= 0);
    int handlers = 0, notifications = 0, counters = 0, outside = 0;
    for (const json& e : doc["traceEvents"]) {
        if (e["ph"] == "M") continue;
        const double ts = e["ts"];
        if (ts < 100.0 || ts >= 150.0) ++outside;
        if (e["ph"] == "X" && e["tid"] == cpu0_tid) {
            const std::string name = e["name"];
            CHECK(e["dur"].get<double>() >= 0);
            if (name.rfind("handler ", 0) == 0) ++handlers;
            if (name.rfind("notification ", 0) == 0) ++notifications;
        }
        if (e["ph"] == "C") ++counters;
    }
    CHECK(handlers > 0);
    CHECK(notifications > 0);
    CHECK(counters > 0);
    CHECK(outside == 0);

    // The event limit bounds the file.
    REQUIRE(cidsim("run " + config("configs/examples/posted-bursty.json") +
                   " -q --trace-limit 50 --trace-perfetto " + path) == 0);
    const json small = json::parse(slurp(path));
    std::remove(path.c_str());
    size_t non_meta = 0;
    for (const json& e : small["traceEvents"]) non_meta += e["ph"] != "M";
    CHECK(non_meta == 50);
    CHECK(small["metadata"]["truncated"] == true);
}

TEST_CASE("run with interrupts: the table sums to the run's counters", "[trace]") {
    for (const char* cfg : {"configs/examples/posted-bursty.json",
                            "configs/examples/remappable-bursty.json"}) {
        const std::string res = temp("res.json");
        std::string out;
        REQUIRE(cidsim("run " + config(cfg) + " --interrupts --out " + res, &out) == 0);
        const json r = json::parse(slurp(res));
        std::remove(res.c_str());
        const size_t head = out.find("CPU0");
        REQUIRE(head != std::string::npos);
        std::istringstream table(out.substr(out.rfind('\n', head) + 1));
        std::string line;
        std::getline(table, line);  // CPU header
        const size_t cpus = r["per_cpu"].size();
        uint64_t device_total = 0;
        size_t device_rows = 0;
        std::vector<uint64_t> pmn, loc;
        while (std::getline(table, line)) {
            std::istringstream ls(line);
            std::string label;
            ls >> label;
            std::vector<uint64_t> cols(cpus);
            for (auto& c : cols) ls >> c;
            if (label == "PMN:") pmn = cols;
            else if (label == "LOC:") loc = cols;
            else if (label == "ERR:" || label == "MIS:") CHECK(cols[0] == 0);
            else if (label != "SPU:" && !label.empty() && label.back() == ':') {
                const size_t route = std::stoul(label) - 24;
                uint64_t sum = 0;
                for (auto c : cols) sum += c;
                CHECK(sum == r["per_vector"][route]["handler_calls"].get<uint64_t>());
                device_total += sum;
                ++device_rows;
            }
        }
        CHECK(device_rows == r["per_vector"].size());
        // The file's own format: chip, hwirq, flow and name on each device line.
        CHECK(out.find("IR-PCI-MSIX-0000:01:00.0   0-edge      ") != std::string::npos);
        CHECK(out.rfind("MIS:          0\n") != std::string::npos);
        CHECK(device_total == r["metrics"]["handler_invocations"].get<uint64_t>());
        REQUIRE(pmn.size() == cpus);
        REQUIRE(loc.size() == cpus);
        uint64_t pmn_total = 0;
        for (size_t c = 0; c < cpus; ++c) {
            CHECK(pmn[c] == r["per_cpu"][c]["notifications_handled"].get<uint64_t>());
            CHECK(loc[c] == r["per_cpu"][c]["timer_delay_ns"]["count"].get<uint64_t>());
            pmn_total += pmn[c];
        }
        CHECK(pmn_total == r["metrics"]["notifications_handled"].get<uint64_t>());
    }
}

TEST_CASE("run with timeline prints the MSI and notification rows for the chosen window", "[trace]") {
    std::string out;
    REQUIRE(cidsim("run " + config("configs/examples/rfc-burst-posted.json") +
                       " -q --timeline --window-ns 0:16000",
                   &out) == 0);
    CHECK(out.find("MSIs") != std::string::npos);
    CHECK(out.find("(9 MSIs)") != std::string::npos);
    CHECK(out.find("(4 notifications)") != std::string::npos);
    CHECK(cidsim("run " + config("configs/examples/rfc-burst-posted.json") +
                 " -q --timeline --window-ns 5:1 2>/dev/null") == 2);
}

TEST_CASE("retrigger-eoi: without the fix the retriggered vector's ISR bit stalls the next one",
          "[explain]") {
    const json r = explain("retrigger-eoi");
    const json& before = variant(r, "before the fix");
    const json& fixed = variant(r, "with the fix");
    CHECK(before["retrigger"]["sent"] == 2);
    CHECK(before["retrigger"]["without_eoi"] == 1);  // the second is never taken
    CHECK(before["retrigger"]["stale_isr_at_end"] == true);
    CHECK(before["retrigger"]["pending_at_end"] == true);
    CHECK(fixed["retrigger"]["without_eoi"] == 0);
    CHECK(fixed["retrigger"]["stale_isr_at_end"] == false);
    CHECK(fixed["retrigger"]["pending_at_end"] == false);
    // The posted path itself is not blocked: 0xeb is of a higher class.
    CHECK(before["counts"]["lost_completions"] == 0);
    CHECK(before["counts"]["completions_handled"] == fixed["counts"]["completions_handled"]);
}
