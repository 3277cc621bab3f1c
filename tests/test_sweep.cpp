// Sweeps: point expansion, the local pool (same table at any width), resume
// after SIGKILL, and the emitted commands under GNU parallel and Slurm.
// Sweeps run the real cidsim binary with short simulated durations.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "report/confidence.h"
#include "config/config_loader.h"
#include "sweep/collect.h"
#include "sweep/sweep_dir.h"
#include "sweep/sweep_spec.h"

using namespace cidsim;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kBinary = CIDSIM_BINARY;
const std::string kBase = std::string(CIDSIM_SOURCE_DIR) + "/configs/examples/posted-bursty.json";

// A fresh directory per test case (each runs in its own process), removed
// when the process exits.
struct TempDirs {
    std::vector<std::string> dirs;
    ~TempDirs() {
        std::error_code ec;
        for (const std::string& d : dirs) fs::remove_all(d, ec);
    }
};

std::string temp_dir(const std::string& tag) {
    static TempDirs all;
    std::string tmpl = (fs::temp_directory_path() / ("cidsim-sweep-" + tag + "-XXXXXX")).string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    all.dirs.push_back(tmpl);
    return tmpl;
}

void write(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
}

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int sh(const std::string& cmd) {
    const int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Output and exit status of a shell command.
std::pair<int, std::string> capture(const std::string& cmd) {
    FILE* p = ::popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int st = ::pclose(p);
    return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

// 2 harvest strategies x 2 loop limits x 2 seeds = 8 points.
std::string small_spec(const std::string& dir, uint64_t duration_ns) {
    const json spec = {
        {"base", kBase},
        {"set", {{"run.duration_ns", duration_ns}, {"run.warmup_ns", 10000}}},
        {"vary", {{"handler.harvest", {"xchg_all", "no_copy"}}, {"handler.loop_limit", {1, 3}}}},
        {"seeds", 2},
        {"metrics", {"metrics.msis", "metrics.notification_rate_mps", "metrics.msi_to_handler_ns.p99"}}};
    const std::string path = dir + "/spec.json";
    write(path, spec.dump(2));
    return path;
}

std::vector<std::string> result_files(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir + "/points")) out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

bool complete_result(const std::string& path) {
    const json r = json::parse(read(path), nullptr, false);
    return !r.is_discarded() && r.contains("metrics") && r.contains("config") && r.contains("seed");
}

}  // namespace

TEST_CASE("sweep expansion: product, zip groups and seeds, with stable readable names", "[sweep]") {
    const json spec = json::parse(R"({
        "base": {"devices": [{"name": "a"}, {"name": "b"}],
                 "workloads": [{"type": "bursty", "device": "a"}, {"type": "bursty", "device": "b"}]},
        "vary": {"mode": ["remappable", "posted"], "handler.loop_limit": [2, 3, 4]},
        "zip": [{"workloads.0.on_rate_mpps": [1, 2.5], "workloads.1.on_rate_mpps": [1, 2.5]}],
        "seeds": [7, 9]
    })");
    const SweepSpec parsed = parse_sweep_spec(spec, ".");
    const std::vector<SweepPoint> points = expand_points(parsed);
    REQUIRE(points.size() == 2 * 3 * 2 * 2);  // zip group counts once, not 2 x 2

    std::set<std::string> names;
    for (const SweepPoint& p : points) {
        names.insert(p.name);
        // Zipped paths move together.
        const json* a = nullptr;
        const json* b = nullptr;
        for (const auto& [path, value] : p.params) {
            if (path == "workloads.0.on_rate_mpps") a = &value;
            if (path == "workloads.1.on_rate_mpps") b = &value;
        }
        REQUIRE(a);
        REQUIRE(b);
        CHECK(*a == *b);
        const json config = point_config(parsed, p);
        CHECK(config["run"]["seed"] == p.seed);
        CHECK(config["workloads"][0]["on_rate_mpps"] == *a);
        CHECK(config_digest(config) == p.config_digest);
        CHECK(p.platform == config["platform"]);
    }
    CHECK(names.size() == points.size());

    // Paths sorted in the name, seeds innermost, dimension order by first path.
    CHECK(points[0].name ==
          "handler.loop_limit=2,mode=remappable,workloads.0.on_rate_mpps=1,workloads.1.on_rate_mpps=1,seed=7");
    CHECK(points[1].name ==
          "handler.loop_limit=2,mode=remappable,workloads.0.on_rate_mpps=1,workloads.1.on_rate_mpps=1,seed=9");
    CHECK(points[0].group == "handler.loop_limit=2,mode=remappable,workloads.0.on_rate_mpps=1,workloads.1.on_rate_mpps=1");
    CHECK(points[2].name ==
          "handler.loop_limit=2,mode=remappable,workloads.0.on_rate_mpps=2.5,workloads.1.on_rate_mpps=2.5,seed=7");
    CHECK(points.back().name ==
          "handler.loop_limit=4,mode=posted,workloads.0.on_rate_mpps=2.5,workloads.1.on_rate_mpps=2.5,seed=9");

    // The same spec with its keys written in another order gives the same points.
    const json reordered = json::parse(R"({
        "seeds": [7, 9],
        "zip": [{"workloads.1.on_rate_mpps": [1, 2.5], "workloads.0.on_rate_mpps": [1, 2.5]}],
        "vary": {"handler.loop_limit": [2, 3, 4], "mode": ["remappable", "posted"]},
        "base": {"devices": [{"name": "a"}, {"name": "b"}],
                 "workloads": [{"type": "bursty", "device": "a"}, {"type": "bursty", "device": "b"}]}
    })");
    const std::vector<SweepPoint> again = expand_points(parse_sweep_spec(reordered, "."));
    REQUIRE(again.size() == points.size());
    for (size_t i = 0; i < points.size(); ++i) CHECK(again[i].name == points[i].name);

    // A count of seeds means 1..N; no seeds means the base's run.seed.
    json counted = spec;
    counted["seeds"] = 3;
    CHECK(expand_points(parse_sweep_spec(counted, ".")).size() == 2 * 3 * 2 * 3);
    json unseeded = spec;
    unseeded.erase("seeds");
    unseeded["base"]["run"] = {{"seed", 42}};
    const auto one = expand_points(parse_sweep_spec(unseeded, "."));
    CHECK(one.size() == 12);
    CHECK(one[0].seed == 42);
}

TEST_CASE("a sweep's points keep no config: 10 000 points of a Xen guest in a few MiB",
          "[sweep]") {
    // Each effective config of configs/vm/e1-xen-eoi.json is about 23 KiB in
    // memory: kept per point, 10 000 points would hold 230 MB (100 000: 2.3 GB).
    const json spec = {{"base", std::string(CIDSIM_SOURCE_DIR) + "/configs/vm/e1-xen-eoi.json"},
                       {"seeds", 10000}};
    const SweepSpec parsed = parse_sweep_spec(spec, ".");
    auto peak_kib = [] {
        struct rusage usage {};
        ::getrusage(RUSAGE_SELF, &usage);
        return usage.ru_maxrss;
    };
    json one = spec;
    one["seeds"] = 1;
    expand_points(parse_sweep_spec(one, "."));  // the loader's one-time tables, not the points'
    const long before = peak_kib();
    const std::vector<SweepPoint> points = expand_points(parsed);
    REQUIRE(points.size() == 10000);
#if !defined(__SANITIZE_ADDRESS__)  // the sanitizers' quarantine and shadow are not the points'
    CHECK(peak_kib() - before < 32 * 1024);
#endif
    CHECK(points.back().config_digest == config_digest(point_config(parsed, points.back())));
}

TEST_CASE("sweep names: unsafe characters are replaced and a hash keeps names distinct", "[sweep]") {
    CHECK(sanitise_name("handler.loop_limit=3,mode=posted,seed=1") ==
          "handler.loop_limit=3,mode=posted,seed=1");
    const std::string a = sanitise_name("devices.0.irq_cpus=[0,1],seed=1");
    const std::string b = sanitise_name("devices.0.irq_cpus=[0_1],seed=1");
    CHECK(a.find('[') == std::string::npos);
    CHECK(a.find('/') == std::string::npos);
    CHECK(a != b);
    CHECK(sanitise_name(std::string(400, 'x')).size() < 200);
    // A string value that reads as JSON stays a string through --set.
    json config = json::parse(R"({"devices": [{}]})");
    apply_override(config, "devices.0.name=" + override_value_text("3"));
    CHECK(config["devices"][0]["name"] == "3");
    apply_override(config, "mode=" + override_value_text("posted"));
    CHECK(config["mode"] == "posted");
}

TEST_CASE("sweep spec errors name the spec key", "[sweep]") {
    auto error_of = [](const std::string& text) {
        try {
            expand_points(parse_sweep_spec(json::parse(text), CIDSIM_SOURCE_DIR));
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string base = R"("base": "configs/examples/posted-bursty.json")";
    CHECK_THAT(error_of("{" + base + R"(, "vary": {"handler.loop_limit": []}})"),
               Catch::Contains("vary.handler.loop_limit: expected a non-empty array"));
    CHECK_THAT(error_of("{" + base + R"(, "vary": {"handler.loop_limit": 3}})"),
               Catch::Contains("vary.handler.loop_limit: expected a non-empty array"));
    CHECK_THAT(error_of("{" + base + R"(, "varied": {}})"), Catch::Contains("varied: unknown key"));
    CHECK_THAT(error_of("{" + base + R"(, "zip": [{"workloads.0.on_rate_mpps": [1, 2], "workloads.1.on_rate_mpps": [1]}]})"),
               Catch::Contains("zip[0].workloads.1.on_rate_mpps: 1 values"));
    CHECK_THAT(error_of("{" + base + R"(, "vary": {"handler.loop_limit": [3, 99]}})"),
               Catch::Contains("vary.handler.loop_limit[1] = 99") &&
                   Catch::Contains("handler.loop_limit: expected an integer in [1, 64]"));
    CHECK_THAT(error_of("{" + base + R"(, "vary": {"handler.loop_limt": [3]}})"),
               Catch::Contains("handler.loop_limt: unknown key"));
    CHECK_THAT(error_of("{" + base + R"(, "seeds": 0})"), Catch::Contains("seeds: expected"));
    CHECK_THAT(error_of("{" + base + R"(, "metrics": []})"), Catch::Contains("metrics: expected"));
    CHECK_THAT(error_of(R"({"vary": {"mode": ["posted"]}})"), Catch::Contains("base: required"));
    CHECK_THAT(error_of("{" + base + R"(, "set": {"mode": "posted"}, "vary": {"mode": ["posted"]}})"),
               Catch::Contains("vary.mode: mode is already fixed"));

    // The command line: bad input is exit status 2, and nothing is created.
    const std::string dir = temp_dir("bad");
    write(dir + "/spec.json", "{" + std::string(R"("base": ")") + kBase +
                                  R"(", "vary": {"handler.loop_limit": [3, 0]}})");
    const auto [rc, out] = capture(kBinary + " sweep " + dir + "/spec.json --out " + dir + "/out 2>&1");
    CHECK(rc == 2);
    CHECK_THAT(out, Catch::Contains("vary.handler.loop_limit[1] = 0"));
    CHECK_FALSE(fs::exists(dir + "/out"));

    // Metric paths are checked against a real result before any point runs.
    write(dir + "/metrics.json", "{" + std::string(R"("base": ")") + kBase +
                                     R"(", "metrics": ["metrics.msis", "metrics.pid_line.nope"]})");
    const auto [mrc, mout] = capture(kBinary + " sweep " + dir + "/metrics.json --out " + dir + "/out 2>&1");
    CHECK(mrc == 2);
    CHECK_THAT(mout, Catch::Contains("metrics[1]: metrics.pid_line.nope: not in a cidsim result"));
    CHECK_FALSE(fs::exists(dir + "/out"));
}

TEST_CASE("sweep --jobs 2 gives the same collected table as --jobs 1", "[sweep]") {
    const std::string dir = temp_dir("jobs");
    const std::string spec = small_spec(dir, 200000);
    REQUIRE(sh(kBinary + " sweep " + spec + " --out " + dir + "/j1 --jobs 1 > /dev/null") == 0);
    REQUIRE(sh(kBinary + " sweep " + spec + " --out " + dir + "/j2 --jobs 2 > /dev/null") == 0);
    REQUIRE(sh(kBinary + " collect " + dir + "/j1 --csv " + dir + "/j1.csv") == 0);
    REQUIRE(sh(kBinary + " collect " + dir + "/j2 --csv " + dir + "/j2.csv") == 0);
    const std::string t1 = read(dir + "/j1.csv");
    CHECK(t1 == read(dir + "/j2.csv"));
    // Header + 8 rows, each a point with its seed.
    CHECK(std::count(t1.begin(), t1.end(), '\n') == 9);
    CHECK(t1.rfind("point,handler.harvest,handler.loop_limit,seed,metrics.msis,", 0) == 0);

    // Aggregated: one row per combination, mean inside its 95% interval.
    REQUIRE(sh(kBinary + " collect " + dir + "/j1 --aggregate-seeds --json " + dir + "/agg.json") == 0);
    const json agg = json::parse(read(dir + "/agg.json"));
    REQUIRE(agg.size() == 4);
    for (const json& row : agg) {
        CHECK(row["seeds"] == 2);
        const double mean = row["metrics.msis.mean"];
        CHECK(row["metrics.msis.ci95_lo"].get<double>() <= mean);
        CHECK(row["metrics.msis.ci95_hi"].get<double>() >= mean);
    }
    // A metric path that is not in the results is bad input naming the path.
    const auto [rc, out] = capture(kBinary + " collect " + dir + "/j1 --metric metrics.nope 2>&1");
    CHECK(rc == 2);
    CHECK_THAT(out, Catch::Contains("--metric metrics.nope: not found"));
}

TEST_CASE("collect: 95% interval uses Student's t", "[sweep]") {
    CHECK(t_quantile_95(1) == Approx(12.706).epsilon(1e-4));
    CHECK(t_quantile_95(2) == Approx(4.303).epsilon(1e-4));
    CHECK(t_quantile_95(30) == Approx(2.042).epsilon(1e-3));
}

TEST_CASE("a sweep killed with SIGKILL and rerun completes without truncated or rerun results",
          "[sweep]") {
    const std::string dir = temp_dir("kill");
    const std::string spec = small_spec(dir, 40000000);  // ~0.2 s per point
    const std::string out = dir + "/out";

    const pid_t runner = ::fork();
    REQUIRE(runner >= 0);
    if (runner == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::execl(kBinary.c_str(), kBinary.c_str(), "sweep", spec.c_str(), "--out", out.c_str(),
                "--jobs", "2", (char*)nullptr);
        ::_exit(127);
    }
    auto count_results = [&] {
        size_t n = 0;
        if (fs::exists(out + "/points"))
            for (const auto& e : fs::directory_iterator(out + "/points"))
                n += e.path().extension() == ".json";
        return n;
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (count_results() < 3 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(runner, SIGKILL);
    int status = 0;
    ::waitpid(runner, &status, 0);
    REQUIRE(WIFSIGNALED(status));

    // The runner's children die with it: no result appears afterwards (a
    // point takes ~0.2 s, so an orphan would finish within the second).
    const size_t after_kill = count_results();
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    CHECK(count_results() == after_kill);
    REQUIRE(after_kill >= 3);
    REQUIRE(after_kill < 8);  // killed partway

    // Every result present is whole; remember each one's identity.
    std::map<std::string, std::pair<ino_t, timespec>> before;
    for (const std::string& f : result_files(out)) {
        if (fs::path(f).extension() != ".json") continue;  // a killed child's temp file
        CHECK(complete_result(f));
        struct stat st;
        REQUIRE(::stat(f.c_str(), &st) == 0);
        before[f] = {st.st_ino, st.st_mtim};
    }
    // What a child killed mid-write leaves: a partial temp file.
    write(out + "/points/handler.harvest=no_copy,handler.loop_limit=3,seed=2.json.tmp.99999",
          "{\"cidsim_version\": ");

    const auto [rc, summary] = capture(kBinary + " sweep " + spec + " --out " + out + " --jobs 2");
    CHECK(rc == 0);
    CHECK_THAT(summary, Catch::Contains(std::to_string(8 - before.size()) + " ran, " +
                                        std::to_string(before.size()) + " already done, 0 failed"));
    const std::vector<std::string> files = result_files(out);
    CHECK(files.size() == 8);  // temp files are gone
    for (const std::string& f : files) {
        CHECK(fs::path(f).extension() == ".json");
        CHECK(complete_result(f));
    }
    for (const auto& [f, id] : before) {  // not run again
        struct stat st;
        REQUIRE(::stat(f.c_str(), &st) == 0);
        CHECK(st.st_ino == id.first);
        CHECK(st.st_mtim.tv_sec == id.second.tv_sec);
        CHECK(st.st_mtim.tv_nsec == id.second.tv_nsec);
    }
    // A third run has nothing left to do.
    CHECK_THAT(capture(kBinary + " sweep " + spec + " --out " + out).second,
               Catch::Contains("0 ran, 8 already done, 0 failed"));
}

TEST_CASE("emitted commands run under GNU parallel give the same table as the local pool",
          "[sweep]") {
    REQUIRE(sh("command -v parallel > /dev/null") == 0);  // scripts/setup.sh installs it
    const std::string dir = temp_dir("parallel");
    const std::string spec = small_spec(dir, 200000);
    REQUIRE(sh(kBinary + " sweep " + spec + " --out " + dir + "/local --jobs 2 > /dev/null") == 0);
    REQUIRE(sh(kBinary + " sweep " + spec + " --out " + dir + "/gnu --emit-commands > " + dir + "/cmds") == 0);
    const std::string cmds = read(dir + "/cmds");
    CHECK(std::count(cmds.begin(), cmds.end(), '\n') == 8);
    CHECK(fs::is_empty(dir + "/gnu/points"));  // emitting runs nothing
    // Run from elsewhere: the commands are self-contained.
    REQUIRE(sh("cd / && parallel --will-cite -j2 < " + dir + "/cmds") == 0);
    REQUIRE(sh(kBinary + " collect " + dir + "/local --csv " + dir + "/local.csv") == 0);
    REQUIRE(sh(kBinary + " collect " + dir + "/gnu --csv " + dir + "/gnu.csv") == 0);
    CHECK(read(dir + "/local.csv") == read(dir + "/gnu.csv"));
    // The local runner accepts what parallel produced as complete.
    CHECK_THAT(capture(kBinary + " sweep " + spec + " --out " + dir + "/gnu").second,
               Catch::Contains("0 ran, 8 already done"));
}

TEST_CASE("the Slurm script is a job array of one task per point, each running one line",
          "[sweep]") {
    const std::string dir = temp_dir("slurm");
    const std::string spec = small_spec(dir, 200000);
    const std::string out = dir + "/out";
    REQUIRE(sh(kBinary + " sweep " + spec + " --out " + out + " --emit-slurm " + dir + "/job.sh 2> /dev/null") == 0);
    const std::string script = read(dir + "/job.sh");
    const std::string cmds = read(dir + "/job.commands");
    CHECK(std::count(cmds.begin(), cmds.end(), '\n') == 8);
    std::smatch m;
    REQUIRE(std::regex_search(script, m, std::regex("\n#SBATCH --array=0-([0-9]+)\n")));
    CHECK(m[1] == "7");
    CHECK(script.rfind("#!/bin/bash\n", 0) == 0);

    // Task i runs line i+1 and nothing else.
    const auto [_, expected] = capture(kBinary + " sweep " + spec + " --out " + out + " --emit-commands");
    std::vector<std::string> lines;
    std::stringstream ss(expected);
    for (std::string l; std::getline(ss, l);) lines.push_back(l);
    REQUIRE(lines.size() == 8);
    for (int task : {0, 5}) {
        const std::vector<std::string> before = result_files(out);
        REQUIRE(sh("cd / && SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " bash " + dir + "/job.sh") == 0);
        const std::vector<std::string> after = result_files(out);
        REQUIRE(after.size() == before.size() + 1);
        std::vector<std::string> added;
        std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                            std::back_inserter(added));
        REQUIRE(added.size() == 1);
        // The new result is the one named in that task's command line.
        CHECK_THAT(lines[task], Catch::Contains(added[0]));
    }
    CHECK(sh("SLURM_ARRAY_TASK_ID=8 bash " + dir + "/job.sh 2> /dev/null") != 0);
}

TEST_CASE("a sweep over a trace replay with events after the metric probe's run is accepted",
          "[sweep]") {
    const std::string dir = temp_dir("trace-base");
    const std::string spec = dir + "/spec.json";
    std::ofstream(spec) << json{{"base", std::string(CIDSIM_SOURCE_DIR) +
                                             "/configs/examples/rfc-burst-posted.json"},
                                {"vary", {{"handler.loop_limit", {2, 3}}}},
                                {"metrics", {"metrics.msis"}}}
                               .dump();
    const auto [rc, out] = capture(kBinary + " sweep " + spec + " --out " + dir + "/out 2>&1");
    INFO(out);
    CHECK(rc == 0);
    REQUIRE(sh(kBinary + " collect " + dir + "/out --csv " + dir + "/t.csv") == 0);
    const std::string t = read(dir + "/t.csv");
    // The whole trace ran at every point: its nine MSIs, not those of a shortened run.
    CHECK(std::count(t.begin(), t.end(), '\n') == 3);
    CHECK_THAT(t, Catch::Contains(",9\n"));
}

TEST_CASE("every RFC config, each of which includes its platform, is accepted as a sweep base",
          "[sweep]") {
    const std::string dir = temp_dir("rfc-bases");
    size_t bases = 0;
    for (const auto& e : std::filesystem::directory_iterator(std::string(CIDSIM_SOURCE_DIR) + "/configs/rfc")) {
        const std::string name = e.path().filename().string();
        if (name == "tables.json" || name == "devices.json") continue;  // not run configs
        const json cfg = json::parse(read(e.path().string()));
        CHECK(cfg.contains("include"));  // what the sweep once refused
        const std::string spec = dir + "/" + name;
        std::ofstream(spec) << json{{"base", e.path().string()},
                                    {"vary", {{"handler.loop_limit", {2, 3}}}}}
                                   .dump();
        const auto [rc, out] = capture(kBinary + " sweep " + spec + " --out " + dir + "/out-" + name +
                                       " --emit-commands 2>&1");
        INFO(name << ": " << out);
        CHECK(rc == 0);
        ++bases;
    }
    CHECK(bases >= 8);
}

TEST_CASE("collect refuses a result made with another fixed setting than its sweep's", "[sweep]") {
    const std::string dir = temp_dir("other-set");
    fs::create_directories(dir + "/a");
    fs::create_directories(dir + "/b");
    // Two sweeps that differ only in a fixed `set`: their points share names.
    REQUIRE(sh(kBinary + " sweep " + small_spec(dir + "/a", 100000) + " --out " + dir + "/a/out > /dev/null") == 0);
    REQUIRE(sh(kBinary + " sweep " + small_spec(dir + "/b", 200000) + " --out " + dir + "/b/out > /dev/null") == 0);
    REQUIRE(sh(kBinary + " collect " + dir + "/a/out --csv " + dir + "/a.csv") == 0);
    const std::vector<std::string> a = result_files(dir + "/a/out"), b = result_files(dir + "/b/out");
    REQUIRE(a.size() == b.size());
    REQUIRE(fs::path(a[0]).filename() == fs::path(b[0]).filename());
    fs::copy_file(b[0], a[0], fs::copy_options::overwrite_existing);
    const auto [rc, out] = capture(kBinary + " collect " + dir + "/a/out --csv " + dir + "/mixed.csv 2>&1");
    CHECK(rc == 2);
    CHECK_THAT(out, Catch::Contains("another seed or config"));
    CHECK_FALSE(fs::exists(dir + "/mixed.csv"));
}

TEST_CASE("a sweep whose points' results were made with another config refuses to replace them",
          "[sweep]") {
    const std::string dir = temp_dir("other-config");
    fs::create_directories(dir + "/b");
    const std::string out = dir + "/out";
    const std::string spec = small_spec(dir, 100000);
    REQUIRE(sh(kBinary + " sweep " + spec + " --out " + out + " > /dev/null") == 0);
    const std::vector<std::string> results = result_files(out);
    std::vector<std::string> before;
    for (const std::string& f : results) before.push_back(read(f));
    // The same `vary`, another fixed `set`: every point keeps its name.
    const std::string other = small_spec(dir + "/b", 200000);
    for (const char* emit : {"", " --emit-commands"}) {
        const auto [rc, msg] = capture(kBinary + " sweep " + other + " --out " + out + emit +
                                       " 2>&1 >/dev/null");
        INFO(msg);
        CHECK(rc == 2);
        CHECK_THAT(msg, Catch::Contains("holds 8 result(s) made with another config") &&
                            Catch::Contains("point handler.harvest=") &&
                            Catch::Contains("remove " + out + "/sweep.json to replace them"));
    }
    for (size_t i = 0; i < results.size(); ++i) CHECK(read(results[i]) == before[i]);
    // Said deliberately: without the manifest they are replaced, and the summary
    // tells them from unreadable results.
    fs::remove(out + "/sweep.json");
    write(results[0], "{");
    const auto [rc, summary] = capture(kBinary + " sweep " + other + " --out " + out);
    CHECK(rc == 0);
    CHECK_THAT(summary, Catch::Contains("1 earlier result(s) were unreadable") &&
                            Catch::Contains("7 earlier result(s) were for another config"));
}

TEST_CASE("a sweep into a directory another sweep holds writes nothing there", "[sweep]") {
    const std::string dir = temp_dir("busy");
    const std::string spec = small_spec(dir, 100000);
    REQUIRE(sh(kBinary + " sweep " + spec + " --out " + dir + "/out > /dev/null") == 0);
    const std::string manifest = read(dir + "/out/sweep.json");
    const int fd = ::open((dir + "/out/.sweep.lock").c_str(), O_RDWR);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);  // as a running sweep holds it
    // A grown sweep (a value more), which could otherwise resume here.
    json grown = json::parse(read(spec));
    grown["vary"]["handler.loop_limit"] = {1, 3, 5};
    write(dir + "/spec2.json", grown.dump());
    const auto [rc, out] = capture(kBinary + " sweep " + dir + "/spec2.json --out " + dir + "/out 2>&1");
    CHECK(rc != 0);
    CHECK_THAT(out, Catch::Contains("another cidsim sweep is running"));
    // Another config for the same points: the busy directory is said first,
    // not its results (whose advice, to remove sweep.json, would lose the
    // running sweep's manifest).
    json other = json::parse(read(spec));
    other["set"]["mode"] = "remappable";
    write(dir + "/spec3.json", other.dump());
    const auto [rc3, out3] =
        capture(kBinary + " sweep " + dir + "/spec3.json --out " + dir + "/out 2>&1");
    ::close(fd);
    CHECK(rc3 == 1);
    CHECK_THAT(out3, Catch::Contains("another cidsim sweep is running") &&
                         !Catch::Contains("remove"));
    CHECK(read(dir + "/out/sweep.json") == manifest);
}

TEST_CASE("collect leaves empty the cells of an indexed metric some points' results lack",
          "[sweep][collect]") {
    const std::string dir = temp_dir("absent");
    const json spec = {
        {"base",
         {{"platform", "generic"},
          {"run", {{"duration_ns", 20000}, {"warmup_ns", 0}}},
          {"topology", {{"cpus", 2}}},
          {"devices", {{{"name", "d0"}, {"vectors", 1}, {"irq_cpus", {0}}}}},
          {"workloads",
           {{{"type", "bursty"}, {"device", "d0"}, {"on_rate_mpps", 1}, {"off_mean_ns", 0}}}}}},
        {"vary", {{"topology.cpus", {2, 1}}}},
        {"metrics", {"per_cpu.1.busy_fraction", "metrics.msis"}}};
    write(dir + "/spec.json", spec.dump());
    REQUIRE(sh(kBinary + " sweep " + dir + "/spec.json --out " + dir + "/o --jobs 1 > /dev/null") ==
            0);
    // One CPU has no per_cpu[1]: its cell is empty, the other point's is not.
    const auto [rc, out] = capture(kBinary + " collect " + dir + "/o 2>&1");
    CHECK(rc == 0);
    CHECK_THAT(out, Catch::Contains("per_cpu.1.busy_fraction: not in 1 point(s)' results "
                                    "(topology.cpus=1,seed=1): their cells are empty"));
    CHECK_THAT(out, Catch::Contains("\"topology.cpus=1,seed=1\",1,1,,"));
    CHECK_THAT(out, Catch::Contains("\"topology.cpus=2,seed=1\",2,1,0"));
    // "[i]" is ".i" in a metric path too, as in --set and vary.
    const auto [brackets, table] =
        capture(kBinary + " collect " + dir + "/o --metric 'per_cpu[1].busy_fraction' 2>/dev/null");
    CHECK(brackets == 0);
    CHECK_THAT(table, Catch::Contains("\"topology.cpus=2,seed=1\",2,1,0"));
    // An element no point has is still an error.
    const auto [bad, msg] =
        capture(kBinary + " collect " + dir + "/o --metric per_cpu.5.busy_fraction 2>&1");
    CHECK(bad == 2);
    CHECK_THAT(msg, Catch::Contains("not found in any point's result"));
}

TEST_CASE("collect names a table whose results come from more than one cidsim version",
          "[sweep][collect]") {
    const std::string dir = temp_dir("version");
    const std::string spec = small_spec(dir, 20000);
    REQUIRE(sh(kBinary + " sweep " + spec + " --out " + dir + "/o > /dev/null") == 0);
    const std::string point = result_files(dir + "/o").front();
    json other = json::parse(read(point));
    other["cidsim_version"] = "0000000-other";
    write(point, other.dump());
    const auto [mixed, note] = capture(kBinary + " collect " + dir + "/o 2>&1 >/dev/null");
    CHECK(mixed == 0);
    CHECK_THAT(note, Catch::Contains("the results were made by 2 cidsim versions"));
}

TEST_CASE("collect reads a manifest larger than a config may be (70 000 points, ~20 MB)",
          "[sweep]") {
    const std::string dir = temp_dir("big-manifest");
    const SweepSpec spec = parse_sweep_spec(
        {{"base", std::string(CIDSIM_SOURCE_DIR) + "/tests/hostile/fixtures/tiny.json"},
         {"vary", {{"handler.loop_limit", {1, 2}}}}},
        ".");
    std::vector<SweepPoint> points(70000);
    for (size_t i = 0; i < points.size(); ++i) {
        points[i].name = "a-point-whose-name-is-long-enough-" + std::to_string(i);
        points[i].group = points[i].name;
        points[i].params = {{"handler.loop_limit", int(i)}};
        points[i].seed = 1;
        points[i].config_digest = "0123456789abcdef";
    }
    const std::string manifest = manifest_text(spec, points);
    REQUIRE(manifest.size() > kMaxConfigBytes);
    std::ofstream(dir + "/sweep.json") << manifest;
    const SweepTable table = collect_sweep(dir, {"metrics.msis"}, false);
    CHECK(table.missing.size() == points.size());
}

TEST_CASE("a list of seeds counts against the sweep's point limit", "[sweep]") {
    json seeds = json::array();
    for (size_t i = 1; i <= kMaxSweepPoints + 1; ++i) seeds.push_back(i);
    const json spec = {
        {"base", std::string(CIDSIM_SOURCE_DIR) + "/tests/hostile/fixtures/tiny.json"},
        {"seeds", seeds}};
    CHECK_THROWS_WITH(parse_sweep_spec(spec, "."),
                      Catch::Contains("seeds: 100001 seeds, more than 100000 points"));
}

TEST_CASE("a sweep value longer than one argument of a point's command is refused", "[sweep]") {
    json events = json::array();
    while (events.dump().size() <= kMaxSetBytes) events.push_back({0, "dev0", 0});
    const json spec = {
        {"base", std::string(CIDSIM_SOURCE_DIR) + "/tests/hostile/fixtures/tiny.json"},
        {"set", {{"workloads.0.events", events}}},
        {"vary", {{"mode", {"posted", "remappable"}}}}};
    CHECK_THROWS_WITH(parse_sweep_spec(spec, "."),
                      Catch::Contains("set.workloads.0.events: ") &&
                          Catch::Contains("more than one argument of a point's command"));
    json varied = spec;
    varied.erase("set");
    varied["vary"]["workloads.0.events"] = {events, json::array({{0, "dev0", 0}})};
    CHECK_THROWS_WITH(parse_sweep_spec(varied, "."),
                      Catch::Contains("vary.workloads.0.events[0]: "));
}
