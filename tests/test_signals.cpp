// Interrupted commands leave nothing behind (issue 19): `cidsim reproduce`
// killed by SIGTERM or SIGINT while its runs are going removes its scratch
// directory (in $TMPDIR), and one killed while it writes a result or trace
// removes the temporary file, both still ending by that signal.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.h"

namespace fs = std::filesystem;
using cidsim_test::Scratch;

namespace {

size_t scratch_dirs(const fs::path& tmp) {
    size_t n = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(tmp))
        if (e.path().filename().string().rfind("cidsim-reproduce.", 0) == 0) ++n;
    return n;
}

// Starts a reproduce whose one row runs for a long while, waits for its
// scratch directory, sends `sig`; returns the signal that ended it.
int interrupt_reproduce(const Scratch& s, int sig) {
    const fs::path tmp = s.dir / "tmp";
    fs::create_directories(tmp);
    const std::string tables = s / "tables.json";
    std::ofstream(tables) << R"({"tables": [{"name": "long", "title": "t", "set": "prediction",
        "metrics": ["irq_rate_M"], "rows": [{"key": {"a": 1}, "config": ")"
                          << CIDSIM_SOURCE_DIR << R"(/configs/rfc/p2-dsa-1wq.json",
        "set": ["run.duration_ns=100000000000"]}]}]})";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setenv("TMPDIR", tmp.c_str(), 1);
        ::freopen("/dev/null", "w", stdout);
        ::freopen("/dev/null", "w", stderr);
        ::execl(CIDSIM_BINARY, CIDSIM_BINARY, "reproduce", "long", "--tables", tables.c_str(),
                "--jobs", "1", (char*)nullptr);
        ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (scratch_dirs(tmp) == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(scratch_dirs(tmp) == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the run has started
    ::kill(pid, sig);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(scratch_dirs(tmp) == 0);
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

}  // namespace

TEST_CASE("reproduce removes its scratch directory on SIGTERM", "[signals]") {
    Scratch s;
    CHECK(interrupt_reproduce(s, SIGTERM) == SIGTERM);
}

TEST_CASE("reproduce removes its scratch directory on SIGINT", "[signals]") {
    Scratch s;
    CHECK(interrupt_reproduce(s, SIGINT) == SIGINT);
}

TEST_CASE("reproduce removes its scratch directory on SIGPIPE (its reader gone)", "[signals]") {
    Scratch s;
    CHECK(interrupt_reproduce(s, SIGPIPE) == SIGPIPE);
}

namespace {

// The children of `parent` (from /proc), and whether `pid` still runs (a
// zombie nobody reaps yet has ended).
std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> out;
    for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(e.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const size_t close = line.rfind(')');
        if (close == std::string::npos) continue;
        char state = 0;
        int ppid = 0;
        if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == parent)
            out.push_back(pid_t(std::stoi(name)));
    }
    return out;
}

bool running(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    const size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

}  // namespace

TEST_CASE("bench's measured child dies with bench on SIGTERM", "[signals]") {
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::freopen("/dev/null", "w", stdout);
        ::freopen("/dev/null", "w", stderr);
        const std::string config = std::string(CIDSIM_SOURCE_DIR) + "/configs/bench/posted.json";
        ::execl(CIDSIM_BINARY, CIDSIM_BINARY, "bench", "--no-floor", "--reps", "1",
                "--duration-ns", "1e12", "--config", config.c_str(), (char*)nullptr);
        ::_exit(127);
    }
    std::vector<pid_t> kids;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (kids.empty() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        kids = children_of(pid);
    }
    REQUIRE(kids.size() == 1);
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status));
    const auto gone_by = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (running(kids[0]) && std::chrono::steady_clock::now() < gone_by)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool orphan_runs = running(kids[0]);
    if (orphan_runs) ::kill(kids[0], SIGKILL);
    CHECK_FALSE(orphan_runs);
}

TEST_CASE("reproduce removes its scratch directory when it ends normally", "[signals]") {
    Scratch s;
    const fs::path tmp = s.dir / "tmp";
    fs::create_directories(tmp);
    std::ofstream(s / "tables.json") << R"({"tables": [{"name": "short", "title": "t",
        "set": "prediction", "metrics": ["irq_rate_M"], "rows": [{"key": {"a": 1}, "config": ")"
                                     << CIDSIM_SOURCE_DIR << R"(/configs/rfc/p2-dsa-1wq.json",
        "set": ["run.duration_ns=100000", "run.warmup_ns=10000"]}]}]})";
    ::setenv("TMPDIR", tmp.c_str(), 1);  // inherited by the cidsim the shell starts
    const cidsim_test::Run r = cidsim_test::run_cidsim(
        s, "reproduce short --max-reruns 0 --tables '" + (s / "tables.json") + "'");
    ::unsetenv("TMPDIR");
    CHECK(r.status == 0);
    CHECK(scratch_dirs(tmp) == 0);
}

namespace {

std::vector<std::string> temporary_files(const fs::path& dir) {
    std::vector<std::string> out;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir))
        if (e.path().filename().string().find(".tmp.") != std::string::npos)
            out.push_back(e.path().string());
    return out;
}

// Runs `cidsim run` with `option FILE`, held (hold_rename.cpp) when its
// temporary file is written in full and about to be renamed onto FILE;
// sends `sig` then. Returns the signal that ended it.
int interrupt_write(const Scratch& s, const std::string& option, int sig) {
    const std::string out = s / "written.out", marker = s / "held";
    const std::string config = CIDSIM_SOURCE_DIR "/tests/hostile/fixtures/tiny.json";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setenv("LD_PRELOAD", HOLD_RENAME_LIB, 1);
        ::setenv("CIDSIM_TEST_HOLD_RENAME", marker.c_str(), 1);
        // The sanitizer build: its runtime is then not the first library loaded.
        const char* asan = std::getenv("ASAN_OPTIONS");
        ::setenv("ASAN_OPTIONS",
                 ((asan && *asan ? std::string(asan) + ":" : "") + "verify_asan_link_order=0").c_str(), 1);
        ::freopen("/dev/null", "w", stdout);
        ::freopen("/dev/null", "w", stderr);
        ::execl(CIDSIM_BINARY, CIDSIM_BINARY, "run", config.c_str(), "-q", option.c_str(),
                out.c_str(), (char*)nullptr);
        ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!fs::exists(marker) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool held = fs::exists(marker);
    // The test means something only if the temporary file is there when the signal comes.
    CHECK(held);
    CHECK(temporary_files(s.dir).size() == (held ? 1u : 0u));
    ::kill(pid, sig);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(temporary_files(s.dir).empty());
    CHECK_FALSE(fs::exists(out));  // nothing under the final name
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

}  // namespace

TEST_CASE("a run killed by SIGTERM while it writes its Perfetto trace leaves no temporary file",
          "[signals]") {
    Scratch s;
    CHECK(interrupt_write(s, "--trace-perfetto", SIGTERM) == SIGTERM);
}

TEST_CASE("a run killed by SIGINT while it writes its Perfetto trace leaves no temporary file",
          "[signals]") {
    Scratch s;
    CHECK(interrupt_write(s, "--trace-perfetto", SIGINT) == SIGINT);
}

TEST_CASE("a run killed by SIGTERM while it writes its VCD trace leaves no temporary file",
          "[signals]") {
    Scratch s;
    CHECK(interrupt_write(s, "--trace-vcd", SIGTERM) == SIGTERM);
}

TEST_CASE("a run killed by SIGINT while it writes its VCD trace leaves no temporary file",
          "[signals]") {
    Scratch s;
    CHECK(interrupt_write(s, "--trace-vcd", SIGINT) == SIGINT);
}

TEST_CASE("a run killed by SIGHUP while it writes its result leaves no temporary file",
          "[signals]") {
    Scratch s;
    CHECK(interrupt_write(s, "--out", SIGHUP) == SIGHUP);
}
