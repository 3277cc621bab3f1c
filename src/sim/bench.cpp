#include "sim/bench.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <systemc>

#include "config/config_loader.h"
#include "io/child_process.h"
#include "kernel/event_count.h"
#include "sim/system.h"

namespace cidsim {

namespace {

long self_max_rss_kb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The floor's only process: what tools/sc-floor calls `method`.
class FloorTick : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(FloorTick);
    FloorTick(sc_core::sc_module_name name, uint64_t n) : sc_module(name), m_n(n) {
        SC_METHOD(tick);
    }
    uint64_t count() const { return m_count; }

private:
    void tick() {
        if (++m_count < m_n) next_trigger(1, sc_core::SC_NS);
    }
    uint64_t m_n;
    uint64_t m_count = 0;
};

}  // namespace

nlohmann::json BenchRun::to_json() const {
    return {{"msis", msis},
            {"sim_seconds", sim_seconds},
            {"wall_seconds", wall_seconds},
            {"timed_events", timed_events},
            {"delta_events", delta_events},
            {"max_rss_kb", max_rss_kb}};
}

nlohmann::json FloorRun::to_json() const {
    return {{"events", events}, {"wall_seconds", wall_seconds}, {"max_rss_kb", max_rss_kb}};
}

BenchRun bench_model(const std::string& config_path, const std::vector<std::string>& overrides) {
    nlohmann::json j = read_config_file(config_path);
    for (const std::string& s : overrides) apply_override(j, s);
    const SimConfig config = load_config(j, config_path);
    System system(config);
    g_kernel_events = {};
    const auto t0 = std::chrono::steady_clock::now();
    system.run();
    BenchRun r;
    r.wall_seconds = seconds_since(t0);
    r.timed_events = g_kernel_events.timed;
    r.delta_events = g_kernel_events.delta;
    for (unsigned d = 0; d < system.host().device_count(); ++d)
        r.msis += system.host().device(d).posted_ever();
    r.sim_seconds = sc_core::sc_time_stamp().to_seconds();
    r.max_rss_kb = self_max_rss_kb();
    return r;
}

FloorRun bench_floor(uint64_t events) {
    FloorTick tick("floor", events);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    FloorRun r;
    r.wall_seconds = seconds_since(t0);
    r.events = tick.count();
    r.max_rss_kb = self_max_rss_kb();
    return r;
}

nlohmann::json run_child(const std::vector<std::string>& args) {
    std::vector<std::string> argv{"cidsim"};
    argv.insert(argv.end(), args.begin(), args.end());
    const ChildRun child = run_self(argv);
    if (!child.ok()) {
        std::string command;
        for (const std::string& a : args) command += (command.empty() ? "" : " ") + a;
        throw std::runtime_error("child `cidsim " + command + "` failed (" + child.outcome() + ")");
    }
    // The child prints one JSON object on its last line.
    const size_t start = child.out.rfind("\n{");
    nlohmann::json j =
        nlohmann::json::parse(child.out.substr(start == std::string::npos ? 0 : start + 1));
    j["child_max_rss_kb"] = child.max_rss_kb;
    return j;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace cidsim
