#include "report/explain_section.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "config/config_loader.h"
#include "config/json_text.h"

namespace cidsim {

using nlohmann::json;

namespace {

// Times in ns are bounded: beyond this a time would not fit a simulated time.
constexpr double kMaxNs = 1e15;
constexpr uint64_t kMinColumns = 10, kMaxColumns = 400, kMaxNarrationLines = 100000;

double number_at(const json& obj, const char* key, const std::string& path, double dflt) {
    auto it = obj.find(key);
    if (it == obj.end()) return dflt;
    if (!it->is_number() || it->get<double>() < 0 || it->get<double>() > kMaxNs)
        throw ConfigError(path + "." + key + ": expected a number 0..1e15, found " + it->dump());
    return it->get<double>();
}

uint64_t index_at(const json& obj, const char* key, const std::string& path, uint64_t dflt) {
    auto it = obj.find(key);
    if (it == obj.end()) return dflt;
    try {
        return whole_number(*it, 0, std::numeric_limits<uint32_t>::max());  // 2.0 is 2
    } catch (const ConfigError& e) {
        throw ConfigError(path + "." + key + ": " + e.what());
    }
}

}  // namespace

void check_keys(const json& obj, const std::string& path, const std::vector<std::string>& keys) {
    if (!obj.is_object()) throw ConfigError(path + ": expected an object");
    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
            throw ConfigError(path + "." + it.key() + ": unknown key; valid keys here: " +
                              join_keys(keys));
}

AffinityMoveParams affinity_params(const json& j) {
    const std::string at = "explain.affinity_move";
    check_keys(j, at, {"at_ns", "device", "queue", "to_cpu", "cleanup_after_ns",
                       "cleanup_retry_ns", "check_pir"});
    AffinityMoveParams p;
    p.at = ns(number_at(j, "at_ns", at, ns_of(p.at)));
    p.cleanup_after = ns(number_at(j, "cleanup_after_ns", at, ns_of(p.cleanup_after)));
    p.cleanup_retry = ns(number_at(j, "cleanup_retry_ns", at, ns_of(p.cleanup_retry)));
    if (p.cleanup_retry <= sc_core::SC_ZERO_TIME)
        throw ConfigError(at + ".cleanup_retry_ns: must be > 0");
    p.queue = index_at(j, "queue", at, p.queue);
    p.to_cpu = index_at(j, "to_cpu", at, p.to_cpu);
    if (j.contains("device")) {
        if (!j["device"].is_string()) throw ConfigError(at + ".device: expected a device name");
        p.device = j["device"].get<std::string>();
    }
    if (j.contains("check_pir")) {
        if (!j["check_pir"].is_boolean()) throw ConfigError(at + ".check_pir: expected true or false");
        p.check_pir = j["check_pir"].get<bool>();
    }
    return p;
}

RetriggerParams retrigger_params(const json& j) {
    const std::string at = "explain.retrigger";
    check_keys(j, at, {"at_ns", "device", "queue"});
    RetriggerParams p;
    auto times = j.find("at_ns");
    if (times == j.end() || !times->is_array() || times->empty())
        throw ConfigError(at + ".at_ns: expected a non-empty array of times in ns");
    for (size_t i = 0; i < times->size(); ++i) {
        const json& t = (*times)[i];
        if (!t.is_number() || t.get<double>() < 0 || t.get<double>() > kMaxNs)
            throw ConfigError(at + ".at_ns[" + std::to_string(i) +
                              "]: expected a number 0..1e15, found " + t.dump());
        p.at.push_back(ns(t.get<double>()));
    }
    p.queue = index_at(j, "queue", at, p.queue);
    if (j.contains("device")) {
        if (!j["device"].is_string()) throw ConfigError(at + ".device: expected a device name");
        p.device = j["device"].get<std::string>();
    }
    return p;
}

ExplainView explain_view(const json& ex) {
    ExplainView v;
    const auto window_at = [&](const char* key, std::optional<std::pair<double, double>>& into) {
        auto it = ex.find(key);
        if (it == ex.end()) return;
        const json& win = *it;
        if (!win.is_array() || win.size() != 2 || !win[0].is_number() || !win[1].is_number() ||
            win[0].get<double>() < 0 || win[1].get<double>() <= win[0].get<double>() ||
            !(win[1].get<double>() <= kMaxNs))
            throw ConfigError(std::string("explain.") + key +
                              ": expected [from, to] in ns with 0 <= from < to <= 1e15, found " +
                              win.dump());
        // The simulation counts whole picoseconds: a window within one shows nothing.
        if (ns(win[1].get<double>()) <= ns(win[0].get<double>()))
            throw ConfigError(std::string("explain.") + key + ": " + win.dump() +
                              " is no window: its ends are the same picosecond");
        into = std::make_pair(win[0].get<double>(), win[1].get<double>());
    };
    // An integer in range by the loader's rule (80.0 is 80), so a huge
    // number cannot wrap into one.
    const auto integer_at = [&](const char* key, uint64_t lo, uint64_t hi, uint64_t dflt) {
        auto it = ex.find(key);
        if (it == ex.end()) return dflt;
        try {
            return whole_number(*it, lo, hi);
        } catch (const ConfigError& e) {
            throw ConfigError(std::string("explain.") + key + ": " + e.what());
        }
    };
    window_at("window_ns", v.window);
    window_at("narration_window_ns", v.narration_window);
    v.columns = unsigned(integer_at("columns", kMinColumns, kMaxColumns, v.columns));
    v.narration_lines = size_t(integer_at("narration_lines", 0, kMaxNarrationLines,
                                          v.narration_lines));
    // A column shorter than the simulation's picosecond shows nothing of its own.
    if (v.window &&
        ns(v.window->second) - ns(v.window->first) < sc_core::sc_time(v.columns, sc_core::SC_PS))
        throw ConfigError("explain.window_ns: " + ex["window_ns"].dump() + " in " +
                          std::to_string(v.columns) + " columns (explain.columns): one column "
                          "would be below a picosecond, the simulation's resolution");
    return v;
}

json describe_explain_section() {
    const ExplainView view;
    const AffinityMoveParams move;
    const RetriggerParams retrigger;
    // Required with its section: retrigger.at_ns.
    const auto required = [](json e) {
        e["required"] = true;
        return e;
    };
    const auto entry = [](const char* key, const char* type, const char* unit, json dflt,
                          json min, json max, const char* description) {
        return json{{"key", key},   {"type", type}, {"unit", unit},
                    {"default", dflt}, {"min", min}, {"max", max},
                    {"description", description}};
    };
    const auto whole = [](const sc_core::sc_time& t) { return json(uint64_t(ns_of(t))); };
    return json::array({
        entry("title", "string", "", nullptr, nullptr, nullptr,
              "the heading of explain's output (default: the scenario's file name)"),
        entry("variants", "objects", "", nullptr, nullptr, nullptr,
              "[{\"label\": \"...\", \"set\": {\"key.path\": value}}, ...]: each variant runs "
              "the scenario with its set applied (key paths as for --set); default: one run "
              "as the file is"),
        entry("window_ns", "window", "ns", nullptr, 0, kMaxNs,
              "[from, to]: the part of the run the timeline shows, within the run (default: all "
              "of it)"),
        entry("narration_window_ns", "window", "ns", nullptr, 0, kMaxNs,
              "[from, to]: the part of the run the narration tells (default: window_ns)"),
        entry("columns", "integer", "", view.columns, kMinColumns, kMaxColumns,
              "the timeline's width in characters"),
        entry("narration_lines", "integer", "", view.narration_lines, 0, kMaxNarrationLines,
              "at most this many narration lines per variant"),
        entry("affinity_move.at_ns", "number", "ns", whole(move.at), 0, kMaxNs,
              "when the device's IRTE is re-pointed to to_cpu (before the run's end)"),
        entry("affinity_move.device", "string", "", move.device, nullptr, nullptr,
              "the moved device, a host device of the config"),
        entry("affinity_move.queue", "integer", "", move.queue, nullptr, nullptr,
              "the moved queue, one of the device's vectors"),
        entry("affinity_move.to_cpu", "integer", "", move.to_cpu, nullptr, nullptr,
              "the CPU the queue moves to, one of topology.cpus"),
        entry("affinity_move.cleanup_after_ns", "number", "ns", whole(move.cleanup_after), 0,
              kMaxNs, "the cleanup timer that frees the old vector, after the move"),
        entry("affinity_move.cleanup_retry_ns", "number", "ns", whole(move.cleanup_retry), 0.001,
              kMaxNs, "the cleanup's re-arm interval while the old vector is pending"),
        entry("affinity_move.check_pir", "boolean", "", move.check_pir, nullptr, nullptr,
              "whether the pending check (is_vector_pending) looks at the PIR too"),
        required(entry("retrigger.at_ns", "numbers", "ns", nullptr, 0, kMaxNs,
                       "when irq_retrigger() sends the IPI, each before the run's end")),
        entry("retrigger.device", "string", "", retrigger.device, nullptr, nullptr,
              "the retriggered device, a host device of the config"),
        entry("retrigger.queue", "integer", "", retrigger.queue, nullptr, nullptr,
              "the retriggered queue, one of the device's vectors"),
    });
}

namespace {

std::string ns_text(const sc_core::sc_time& t) { return format_number(ns_of(t)); }

// A time the scenario names must fall inside the run, or nothing it asks for happens.
void check_in_run(const sc_core::sc_time& t, const std::string& key, const SimConfig& config) {
    const sc_core::sc_time end = config.run.warmup + config.run.duration;
    if (t >= end)
        throw ConfigError(key + ": " + ns_text(t) + " ns is not before the run's end (" +
                          ns_text(end) + " ns: run.warmup_ns + run.duration_ns)");
}

// Every digit: 6 would show a run just past the limit as the limit itself.
std::string exact_text(double v) {
    std::string s = nlohmann::json(v).dump();  // the shortest text that reads back as v
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

}  // namespace

// explain records every step of every variant, stepwise, and its scenarios
// last microseconds: 100 ms of the 8-CPU ipi-storm scenario already records
// about 100 MB of steps (a second, 1 GB), so a longer run is refused, and
// on more CPUs a shorter one (1 ms of 4 096 POWER CPUs records 1 GB).
constexpr double kMaxExplainRunNs = 1e8;
constexpr double kMaxExplainCpuNs = 8 * kMaxExplainRunNs;

void check_view_in_run(const ExplainView& v, const SimConfig& config) {
    const double end = ns_of(config.run.warmup + config.run.duration);
    const double cpus = double(config.simulated_cpus());
    const double most = std::min(kMaxExplainRunNs, kMaxExplainCpuNs / cpus);
    if (end > most)
        throw ConfigError("run.warmup_ns + run.duration_ns: " + exact_text(end) + " ns, but "
                          "explain records every step, so it runs at most " +
                          (most == kMaxExplainRunNs
                               ? std::string("100 ms of simulated time")
                               : exact_text(std::floor(most)) + " ns on " +
                                     exact_text(cpus) + " CPUs (100 ms on 8)") +
                          "; cidsim run simulates longer");
    for (const auto& [key, win] : {std::make_pair("window_ns", v.window),
                                   std::make_pair("narration_window_ns", v.narration_window)})
        // In whole picoseconds, as the run counts.
        if (win && ns(win->second) > config.run.warmup + config.run.duration)
            throw ConfigError(std::string("explain.") + key + ": the window [" +
                              exact_text(win->first) + ", " + exact_text(win->second) +
                              "] ends after the run (" + exact_text(end) +
                              " ns: run.warmup_ns + run.duration_ns)");
}

namespace {

// An affinity move and a retrigger act on a host device's vector: a
// guest's assigned device has none on the host, and beside a POWER
// partition the x86 host is idle.
void refuse_guest_or_idle_device(const std::string& at, const DeviceConfig& dev,
                                 const SimConfig& config) {
    if (config.power_machine)
        throw ConfigError(at + ": acts on the x86 host's interrupt path; beside a POWER "
                          "partition (power) that host is idle");
    if (config.is_assigned(dev))
        throw ConfigError(at + ".device: \"" + dev.name + "\" is assigned to " +
                          dev.assigned_to + ": it has no host vector to " +
                          (at.find("retrigger") != std::string::npos ? "retrigger" : "move"));
}

}  // namespace

// The affinity move's references, against the variant's loaded config.
void check_affinity_refs(const AffinityMoveParams& p, const SimConfig& config) {
    const std::string at = "explain.affinity_move";
    check_in_run(p.at, at + ".at_ns", config);
    const auto dev = std::find_if(config.devices.begin(), config.devices.end(),
                                  [&](const DeviceConfig& d) { return d.name == p.device; });
    if (dev == config.devices.end()) {
        std::vector<std::string> names;
        for (const DeviceConfig& d : config.devices) names.push_back(d.name);
        throw ConfigError(at + ".device: no device named " + show_json(json(p.device)) + " (devices: " +
                          join_keys(names) + ")");
    }
    refuse_guest_or_idle_device(at, *dev, config);
    if (p.queue >= dev->params.vectors)
        throw ConfigError(at + ".queue: " + std::to_string(p.queue) + " is no queue of device \"" +
                          p.device + "\", whose queues are 0.." +
                          std::to_string(dev->params.vectors - 1));
    if (p.to_cpu >= config.topology.cpus)
        throw ConfigError(at + ".to_cpu: CPU " + std::to_string(p.to_cpu) +
                          " does not exist (topology.cpus is " +
                          std::to_string(config.topology.cpus) + ")");
    // Linux keeps the vector of an interrupt already on a CPU of the new
    // mask (assign_vector_locked): no move, no cleanup.
    if (p.to_cpu == dev->irq_cpus[p.queue % dev->irq_cpus.size()])
        throw ConfigError(at + ".to_cpu: CPU " + std::to_string(p.to_cpu) + " is where queue " +
                          std::to_string(p.queue) + " of device \"" + p.device +
                          "\" interrupts already (its irq_cpus); Linux would not move it");
    // The move's point is the cleanup's check: one after the run shows nothing.
    check_in_run(p.at + p.cleanup_after,
                 at + ".at_ns + " + at + ".cleanup_after_ns (the cleanup's first check)", config);
}

void check_retrigger_refs(const RetriggerParams& p, const SimConfig& config) {
    const std::string at = "explain.retrigger";
    for (size_t i = 0; i < p.at.size(); ++i)
        check_in_run(p.at[i], at + ".at_ns[" + std::to_string(i) + "]", config);
    const auto dev = std::find_if(config.devices.begin(), config.devices.end(),
                                  [&](const DeviceConfig& d) { return d.name == p.device; });
    if (dev == config.devices.end())
        throw ConfigError(at + ".device: no device named " + show_json(json(p.device)));
    refuse_guest_or_idle_device(at, *dev, config);
    if (p.queue >= dev->params.vectors)
        throw ConfigError(at + ".queue: " + std::to_string(p.queue) + " is no queue of device \"" +
                          p.device + "\", whose queues are 0.." +
                          std::to_string(dev->params.vectors - 1));
}

}  // namespace cidsim
