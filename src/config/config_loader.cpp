#include "config/config_loader.h"
#include "io/input_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "config/platforms.h"
#include "model/power/chip_layout.h"
#include "model/base/vector_bits.h"

namespace cidsim {

using nlohmann::json;

const char* const kRemapModeNames[2] = {"remappable", "posted"};
const char* const kWorkloadTypes[5] = {"bursty", "trace", "nvme", "dsa", "periodic"};

const std::string& WorkloadConfig::device() const {
    static const std::string none;
    return type == "bursty" ? bursty.device : type == "nvme" ? nvme.device
         : type == "dsa"    ? dsa.device    : type == "periodic" ? periodic.device : none;
}

void RunParams::describe(ParamVisitor& v) {
    v.time("duration_ns", duration, 1, 1e13, "simulated time measured");
    v.time("warmup_ns", warmup, 0, 1e13, "simulated time run before measuring");
    v.integer("seed", seed, "", 0, UINT64_MAX, "seed of every stochastic workload");
    v.integer("batches", batches, "", 1, 1000,
              "split the duration into this many windows (batches[] in the result, for "
              "batch-means ci95); metrics are totals over all of them");
    v.option("run_ahead", run_ahead,
             "let blocks act ahead of the kernel's time where that is exact (false: stepwise, "
             "every act at the kernel's time; the results are the same, only slower)");
    v.option("check_lookahead", check_lookahead,
             "abort when a message arrives earlier than a lookahead already relied on (always "
             "on in the sanitizer build)");
}

const char* const kSmtNumberingNames[2] = {"split", "adjacent"};

void TopologyParams::describe(ParamVisitor& v) {
    v.integer("sockets", sockets, "", 1, 16, "sockets; cores are split evenly across them, socket-major");
    v.integer("cpus", cpus, "", 1, kMaxCpus, "logical CPUs (x2APIC id = index)");
    v.integer("threads_per_core", threads_per_core, "", 1, 8,
              "SMT threads per core: siblings share their L1/L2, so a line one of them holds "
              "reaches the other at pid_line.same_core_ns (the pipeline's sharing is not modelled)");
    visit_choice(v, "smt_numbering", smt_numbering, kSmtNumberingNames,
             "how Linux numbers SMT siblings: split (CPU c and c + cores share a core, as Intel "
             "servers' firmware lists them) | adjacent (a core's threads consecutive)");
    v.integer("root_ports", root_ports, "", 1, 64, "PCIe root ports (IIO stacks)");
}

void DeviceConfig::describe(ParamVisitor& v) {
    v.text("name", name, "unique device name");
    v.integer("root_port", root_port, "", 0, 63, "root port the device sits behind");
    v.integers("irq_cpus", irq_cpus, 0, kMaxCpus - 1, "CPU of each queue's interrupt, cycled over queues");
    v.integer("first_vector", first_vector, "", 0x20, 0xEA,
              "first Linux vector allocated on each CPU for this device");
    params.describe(v);
    if (!vm_keys) return;
    v.text("assigned_to", assigned_to,
           "the vCPU (\"vcpu0\", ...) this device is assigned to through VFIO, \"guest\" "
           "(Xen: the whole domain, its queues dealt to the vCPUs round robin in device order), or \"\" for the "
           "host; an assigned device's queues interrupt their vCPU's pCPU (irq_cpus is "
           "ignored) and the guest vector is first_vector upward");
    visit_choice(v, "host_handler", host_handler, kHostHandlerNames,
                 "VFIO's MSI handler on the host: hard (IRQF_NO_THREAD) | threaded (forced "
                 "threading, threadirqs) | bypass_inject (the hard handler injects through the "
                 "irq-bypass consumer). Source: systems.md B, kernel/irq/manage.c");
}

// A 2018-era two-socket Intel server from public core-to-core figures
// (each one's source above): modified intervention in the socket
// miss + snoop_modified = 40 ns, across sockets + hop = 120 ns; the split
// is assumed.
// Where each of xen_line's defaults comes from (its description in
// `cidsim params` gets it; the generic texts are SharedLineParams').
const char* xen_line_source(const std::string& key) {
    static const std::map<std::string, const char*> sources = {
        {"hit_ns", "Source (xen_line): guess, an L1 hit in a spin loop; range 1-2 ns"},
        {"locked_op_ns",
         "Source (xen_line): assumed, LOCK XADD about 18 cycles on Skylake (A. Fog, "
         "instruction tables); range 5-15 ns"},
        {"upgrade_ns",
         "Source (xen_line): assumed, an ownership request for a line shared in the socket, "
         "about an LLC round trip; range 10-40 ns"},
        {"miss_ns",
         "Source (xen_line): assumed, an LLC hit in the socket; with snoop_modified_ns the "
         "40-42 ns modified intervention Intel MLC reports on a Broadwell-EP E5-2660 v4 (J. "
         "McCalpin, Intel developer forum, 2016); range 15-40 ns"},
        {"snoop_modified_ns",
         "Source (xen_line): the rest of that 40 ns intervention; range 10-30 ns"},
        {"hop_ns",
         "Source (xen_line): assumed, cross-socket core-to-core latency of 100-150 ns on "
         "two-socket Intel servers (Chips and Cheese, \"Core to Core Latency Data on Large "
         "Systems\", 2023) less the in-socket 40 ns; range 60-120 ns"},
        {"device_rmw_ns", "Source (xen_line): unused, no device writes the domain's lines"},
    };
    const auto it = sources.find(key);
    return it == sources.end() ? nullptr : it->second;
}

SharedLineParams xen_line_defaults() {
    SharedLineParams p;
    p.miss = ns(25);
    p.snoop_modified = ns(15);
    p.hop = ns(80);
    p.upgrade = ns(20);
    p.invalidate_per_sharer = ns(2);
    p.home_occupancy = ns(5);
    return p;
}

// A POWER9/POWER10 partition's lines (128 bytes). The in-chip transfer and
// the cross-chip hop are fitted to E2's IPI/sys figures per machine (the
// machine configs set them); the rest are assumed.
const char* power_line_source(const std::string& key) {
    static const std::map<std::string, const char*> sources = {
        {"hit_ns", "Source (power_line): guess, an L1 hit; range 1-2 ns"},
        {"locked_op_ns",
         "Source (power_line): assumed, a larx/stcx. pair with its sync; range 5-30 ns"},
        {"upgrade_ns",
         "Source (power_line): assumed, an ownership claim on a line shared in the chip, an "
         "L3/fabric round trip; range 20-80 ns"},
        {"miss_ns",
         "Source (power_line): FITTED per machine to E2's IPI/sys figure at the end of the "
         "first chip (the in-chip hand-off; scripts/calibrate_ipistorm.sh); range 40-200 ns"},
        {"snoop_modified_ns", "Source (power_line): guess, intervention from a modified copy; range 0-40 ns"},
        {"hop_ns",
         "Source (power_line): FITTED per machine to E2's cross-chip IPI/sys figure "
         "(scripts/calibrate_ipistorm.sh); range 50-500 ns"},
        {"same_core_ns", "Source (power_line): guess, an L2 hit shared by the SMT threads; range 2-10 ns"},
        {"invalidate_per_sharer_ns",
         "Source (power_line): assumed, one invalidation and acknowledgement per copy; range "
         "1-10 ns"},
        {"home_occupancy_ns",
         "Source (power_line): guess, the coherence point's time per read it serves; range "
         "2-30 ns"},
        {"device_rmw_ns", "Source (power_line): unused, no device writes these lines"},
    };
    const auto it = sources.find(key);
    return it == sources.end() ? nullptr : it->second;
}

// The POWER partition's config sections, in the order they are written.
struct PowerSection {
    std::string key;
    std::function<void(ParamVisitor&)> describe;
};
std::vector<PowerSection> power_sections(SimConfig& c) {
    return {{"power", [&c](ParamVisitor& v) { c.power.describe(v); }},
            {"xive", [&c](ParamVisitor& v) { c.xive.describe(v); }},
            {"power_line", [&c](ParamVisitor& v) { c.power_line.describe(v); }},
            {"ipistorm", [&c](ParamVisitor& v) { c.ipistorm.describe(v); }}};
}

SharedLineParams power_line_defaults() {
    SharedLineParams p;
    p.miss = ns(80);
    p.snoop_modified = ns(10);
    p.hop = ns(150);
    p.upgrade = ns(40);
    p.locked_op = ns(15);
    p.same_core = ns(5);
    p.invalidate_per_sharer = ns(3);
    p.home_occupancy = ns(10);
    return p;
}

int SimConfig::assigned_vcpu(const DeviceConfig& d) const {
    if (d.assigned_to.size() < 5 || d.assigned_to.compare(0, 4, "vcpu") != 0) return -1;
    const std::string n = d.assigned_to.substr(4);
    if (n.empty() || n.size() > 2 || n.find_first_not_of("0123456789") != std::string::npos)
        return -1;
    const unsigned i = unsigned(std::stoul(n));
    return i < guest_vcpus() ? int(i) : -1;
}

std::string join_keys(const std::vector<std::string>& keys) {
    std::string s;
    for (const std::string& k : keys) s += (s.empty() ? "" : ", ") + k;
    return s;
}

std::string json_type_name(const json& j) {
    return j.is_null() ? "null" : j.is_boolean() ? "a boolean" : j.is_number() ? "a number"
         : j.is_string() ? "a string" : j.is_array() ? "an array" : "an object";
}

namespace {

// Levenshtein distance, for "did you mean" on unknown keys.
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

// The known key closest to `key` when it is a plausible typo, else "".
std::string near_miss(const std::string& key, const std::vector<std::string>& known) {
    std::string best;
    if (key.size() > 2 * kMaxNameLength) return best;  // not a typo; keeps this cheap
    size_t best_d = std::max<size_t>(2, key.size() / 3) + 1;
    for (const std::string& k : known) {
        const size_t d = edit_distance(key, k);
        if (d < best_d) best_d = d, best = k;
    }
    return best;
}

std::string fmt(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

// A JSON value for a message: never throws, never longer than a line.
std::string show(const json& j) {
    std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
    if (s.size() > 80) s = s.substr(0, 77) + "...";
    return s;
}

std::string hex(uint64_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%llX", (unsigned long long)v);
    return buf;
}

// Fills Params from one JSON object; remembers which keys it knows.
class JsonReader final : public ParamVisitor {
public:
    JsonReader(const json& obj, std::string path) : m_obj(obj), m_path(std::move(path)) {}

    void time(const char* key, sc_core::sc_time& value, double min_ns, double max_ns,
              const char*) override {
        if (const json* j = find(key)) value = ns(number(key, *j, min_ns, max_ns));
    }
    void real(const char* key, double& value, const char*, double min, double max,
              const char*) override {
        if (const json* j = find(key)) value = number(key, *j, min, max);
    }
    void integer(const char* key, uint64_t& value, const char*, uint64_t min, uint64_t max,
                 const char*) override {
        if (const json* j = find(key)) value = whole(key, *j, min, max);
    }
    void flag(const char* key, bool& value, const char*) override {
        if (const json* j = find(key)) {
            if (!j->is_boolean()) fail(key, "expected true or false, found " + json_type_name(*j));
            value = j->get<bool>();
        }
    }
    void choice(const char* key, int& value, const char* const* names, int count,
                const char*) override {
        const json* j = find(key);
        if (!j) return;
        std::vector<std::string> allowed(names, names + count);
        if (j->is_string())
            for (int i = 0; i < count; ++i)
                if (*j == names[i]) {
                    value = i;
                    return;
                }
        fail(key, "expected one of " + join_keys(allowed) + ", found " + show(*j));
    }
    void text(const char* key, std::string& value, const char*) override {
        if (const json* j = find(key)) {
            if (!j->is_string()) fail(key, "expected a string, found " + json_type_name(*j));
            value = j->get<std::string>();
            if (value.size() > kMaxNameLength)
                fail(key, "expected at most " + std::to_string(kMaxNameLength) +
                              " characters, found " + std::to_string(value.size()));
        }
    }
    void integers(const char* key, std::vector<uint64_t>& value, uint64_t min, uint64_t max,
                  const char*) override {
        const json* j = find(key);
        if (!j) return;
        if (!j->is_array() || j->empty())
            fail(key, "expected a non-empty array of integers, found " + json_type_name(*j));
        if (j->size() > kMaxListLength)
            fail(key, "expected at most " + std::to_string(kMaxListLength) + " elements, found " +
                          std::to_string(j->size()));
        value.clear();
        for (size_t i = 0; i < j->size(); ++i)
            value.push_back(whole((std::string(key) + "[" + std::to_string(i) + "]").c_str(),
                                  (*j)[i], min, max));
    }

    // Accepts a key handled outside the visitor (arrays of sections).
    void allow(const std::string& key) { m_known.push_back(key); }
    // After visiting: every key present must be known.
    void check_unknown() const {
        for (auto it = m_obj.begin(); it != m_obj.end(); ++it)
            if (std::find(m_known.begin(), m_known.end(), it.key()) == m_known.end()) {
                const std::string guess = near_miss(it.key(), m_known);
                const std::string shown =
                    it.key().size() > 80 ? it.key().substr(0, 77) + "..." : it.key();
                throw ConfigError(m_path + shown + ": unknown key" +
                                  (guess.empty() ? "" : " (did you mean \"" + guess + "\"?)") +
                                  "; valid keys here: " + join_keys(m_known));
            }
    }

private:
    const json* find(const char* key) {
        m_known.push_back(key);
        auto it = m_obj.find(key);
        return it == m_obj.end() ? nullptr : &*it;
    }
    [[noreturn]] void fail(const char* key, const std::string& what) const {
        throw ConfigError(m_path + key + ": " + what);
    }
    double number(const char* key, const json& j, double min, double max) const {
        if (!j.is_number()) fail(key, "expected a number, found " + json_type_name(j) + " " + show(j));
        const double v = j.get<double>();
        if (!std::isfinite(v)) fail(key, "expected a finite number, found " + show(j));
        if (min > 0 && v <= 0)
            fail(key, "expected a positive number (at least " + fmt(min) + "), found " + show(j));
        if (v < min || v > max)
            fail(key, "expected a number in [" + fmt(min) + ", " + fmt(max) + "], found " +
                          show(j));
        return v;
    }
    uint64_t whole(const char* key, const json& j, uint64_t min, uint64_t max) const {
        const std::string range =
            "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
        if (!j.is_number()) fail(key, "expected an integer in " + range + ", found " +
                                          json_type_name(j) + " " + show(j));
        uint64_t v = 0;
        if (j.is_number_unsigned()) {
            v = j.get<uint64_t>();
        } else if (j.is_number_integer()) {  // signed: configs built in code, --set
            if (j.get<int64_t>() < 0)
                fail(key, "expected a non-negative integer in " + range + ", found " + show(j));
            v = uint64_t(j.get<int64_t>());
        } else {
            // JSON integers beyond 64 bits arrive as doubles.
            const double d = j.get<double>();
            if (!std::isfinite(d)) fail(key, "expected a finite integer, found " + show(j));
            if (d < 0)
                fail(key, "expected a non-negative integer in " + range + ", found " + show(j));
            if (d >= 18446744073709551616.0)
                fail(key, "integer overflow: " + show(j) +
                              " does not fit in 64 bits; expected an integer in " + range);
            if (d != std::floor(d) || d > 9007199254740992.0)
                fail(key, "expected a whole number in " + range + ", found " + show(j));
            v = uint64_t(d);
        }
        if (min > 0 && v == 0)
            fail(key, "expected a positive integer in " + range + ", found 0");
        if (v < min || v > max) fail(key, "expected an integer in " + range + ", found " + show(j));
        return v;
    }

    const json& m_obj;
    std::string m_path;
    std::vector<std::string> m_known;
};

// Writes Params out as JSON (the effective config).
class JsonWriter final : public ParamVisitor {
public:
    explicit JsonWriter(json& out) : m_out(out) {}
    void time(const char* key, sc_core::sc_time& v, double, double, const char*) override {
        m_out[key] = ns_of(v);
    }
    void real(const char* key, double& v, const char*, double, double, const char*) override {
        m_out[key] = v;
    }
    void integer(const char* key, uint64_t& v, const char*, uint64_t, uint64_t,
                 const char*) override {
        m_out[key] = v;
    }
    void flag(const char* key, bool& v, const char*) override { m_out[key] = v; }
    void option(const char*, bool&, const char*) override {}
    void choice(const char* key, int& v, const char* const* names, int, const char*) override {
        m_out[key] = names[v];
    }
    void text(const char* key, std::string& v, const char*) override { m_out[key] = v; }
    void integers(const char* key, std::vector<uint64_t>& v, uint64_t, uint64_t,
                  const char*) override {
        m_out[key] = v;
    }

private:
    json& m_out;
};

// Lists parameters with their documentation (for `cidsim params`).
class Describer final : public ParamVisitor {
public:
    explicit Describer(json& out) : m_out(out) {}
    void time(const char* key, sc_core::sc_time& v, double min, double max,
              const char* desc) override {
        add(key, "number", "ns", ns_of(v), min, max, desc);
    }
    void real(const char* key, double& v, const char* unit, double min, double max,
              const char* desc) override {
        add(key, "number", unit, v, min, max, desc);
    }
    void integer(const char* key, uint64_t& v, const char* unit, uint64_t min, uint64_t max,
                 const char* desc) override {
        add(key, "integer", unit, v, min, max, desc);
    }
    void flag(const char* key, bool& v, const char* desc) override {
        add(key, "boolean", "", v, nullptr, nullptr, desc);
    }
    void choice(const char* key, int& v, const char* const* names, int count,
                const char* desc) override {
        json e = entry(key, "choice", "", names[v], nullptr, nullptr, desc);
        e["allowed"] = std::vector<std::string>(names, names + count);
        m_out.push_back(e);
    }
    void text(const char* key, std::string& v, const char* desc) override {
        add(key, "string", "", v, nullptr, nullptr, desc);
    }
    void integers(const char* key, std::vector<uint64_t>& v, uint64_t min, uint64_t max,
                  const char* desc) override {
        add(key, "integer list", "", v, min, max, desc);
    }

private:
    static json entry(const char* key, const char* type, const char* unit, json def, json min,
                      json max, const char* desc) {
        return {{"key", key}, {"type", type},  {"unit", unit},       {"default", def},
                {"min", min}, {"max", max},    {"description", desc}};
    }
    void add(const char* key, const char* type, const char* unit, json def, json min, json max,
             const char* desc) {
        m_out.push_back(entry(key, type, unit, std::move(def), std::move(min), std::move(max),
                              desc));
    }
    json& m_out;
};

// The config's sections, each one Params struct.
struct Section {
    const char* key;
    std::function<void(SimConfig&, ParamVisitor&)> describe;
};

const std::vector<Section>& sections() {
    static const std::vector<Section> s = {
        {"run", [](SimConfig& c, ParamVisitor& v) { c.run.describe(v); }},
        {"topology", [](SimConfig& c, ParamVisitor& v) { c.topology.describe(v); }},
        {"cpu", [](SimConfig& c, ParamVisitor& v) { c.cpu.describe(v); }},
        {"handler", [](SimConfig& c, ParamVisitor& v) { c.handler.describe(v); }},
        {"lapic", [](SimConfig& c, ParamVisitor& v) { c.lapic.describe(v); }},
        {"iommu", [](SimConfig& c, ParamVisitor& v) { c.iommu.describe(v); }},
        {"pid_line", [](SimConfig& c, ParamVisitor& v) { c.pid_line.describe(v); }},
        {"root_port", [](SimConfig& c, ParamVisitor& v) { c.root_port.describe(v); }},
    };
    return s;
}

void describe_top(SimConfig& c, ParamVisitor& v) {
    visit_choice(v, "mode", c.mode, kRemapModeNames,
                 "interrupt remapping mode of every device vector: remappable | posted");
}

void describe_workload(WorkloadConfig& w, ParamVisitor& v) {
    v.text("type", w.type, "workload type: bursty | trace | nvme | dsa | periodic");
    if (w.type == "bursty") w.bursty.describe(v);
    if (w.type == "periodic") w.periodic.describe(v);
    if (w.type == "nvme") w.nvme.describe(v);
    if (w.type == "dsa") w.dsa.describe(v);
}

const json& object_at(const json& j, const std::string& path) {
    if (!j.is_object()) throw ConfigError(path + ": expected an object, found " + json_type_name(j));
    return j;
}

// Passes on to `inner` only the keys an override may set: the per-CPU
// costs (every duration of PowerParams), each with the base section's range
// and checks. The rest (the chips' layout, the IPI path's options) is one
// for the whole partition; their keys are collected to name them in errors.
class PerCpuCosts final : public ParamVisitor {
public:
    explicit PerCpuCosts(ParamVisitor& inner) : m_inner(inner) {}
    void time(const char* key, sc_core::sc_time& value, double min_ns, double max_ns,
              const char* desc) override {
        m_inner.time(key, value, min_ns, max_ns, desc);
        per_cpu.push_back(key);
    }
    void real(const char* key, double&, const char*, double, double, const char*) override {
        partition_wide.push_back(key);
    }
    void integer(const char* key, uint64_t&, const char*, uint64_t, uint64_t, const char*) override {
        partition_wide.push_back(key);
    }
    void flag(const char* key, bool&, const char*) override { partition_wide.push_back(key); }
    void choice(const char* key, int&, const char* const*, int, const char*) override {
        partition_wide.push_back(key);
    }
    void text(const char* key, std::string&, const char*) override { partition_wide.push_back(key); }
    void integers(const char* key, std::vector<uint64_t>&, uint64_t, uint64_t, const char*) override {
        partition_wide.push_back(key);
    }

    std::vector<std::string> per_cpu, partition_wide;

private:
    ParamVisitor& m_inner;
};

// Applies one override's `power` object to p; `path` prefixes its errors.
void apply_power_keys(const json& obj, const std::string& path, PowerParams& p) {
    JsonReader r(obj, path);
    PerCpuCosts costs(r);
    p.describe(costs);
    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (std::find(costs.partition_wide.begin(), costs.partition_wide.end(), it.key()) !=
            costs.partition_wide.end())
            throw ConfigError(path + it.key() +
                              ": not per-CPU, one value for the whole partition (set it in the "
                              "power section); per-CPU keys: " + join_keys(costs.per_cpu));
    r.check_unknown();
}

// Whole cores, and a core at least in every socket.
void check_topology(const TopologyParams& t) {
    if (t.cpus % t.threads_per_core)
        throw ConfigError("topology.threads_per_core: " + std::to_string(t.cpus) +
                          " CPUs (topology.cpus) are not whole cores of " +
                          std::to_string(t.threads_per_core) + " threads");
    if (t.sockets > t.cores())
        throw ConfigError("topology.sockets: " + std::to_string(t.sockets) + " sockets but only " +
                          std::to_string(t.cores()) +
                          " cores (topology.cpus / threads_per_core): a socket would have no CPU");
}

// Applies one override's `xive`, `cpu` or `lapic` object to p (every key of
// those is per chip or per CPU).
template <class Params>
void apply_section_keys(const json& obj, const std::string& path, Params& p) {
    JsonReader r(obj, path);
    p.describe(r);
    r.check_unknown();
}

// The CPUs of a cpulist, each below n; `at` prefixes its errors.
std::vector<unsigned> cpulist_cpus(const std::string& text, unsigned n, const char* whose,
                                   const std::string& at) {
    IpistormParams list;
    list.cpulist = text;
    std::vector<unsigned> cpus;
    try {
        cpus = list.cpus();
    } catch (const std::invalid_argument& e) {
        throw ConfigError(at + "cpus: " + e.what());
    }
    if (cpus.back() >= n)
        throw ConfigError(at + "cpus: CPU " + std::to_string(cpus.back()) + " is not in the " +
                          whose + "'s " + std::to_string(n) + " CPUs");
    return cpus;
}

// The CPUs with an index of `wanted` (chips, cores or sockets, by `index_of`
// over n CPUs), ascending; each index must be below `count`.
template <class IndexOf>
std::vector<unsigned> cpus_in(const std::vector<uint64_t>& wanted, const char* key,
                              const char* noun, unsigned count, unsigned n, const char* whose,
                              IndexOf index_of, const std::string& at) {
    for (size_t i = 0; i < wanted.size(); ++i)
        if (wanted[i] >= count)
            throw ConfigError(at + key + "[" + std::to_string(i) + "]: " + noun + " " +
                              std::to_string(wanted[i]) + " is not in the " + whose + "'s " +
                              std::to_string(count) + " " + key);
    std::vector<unsigned> cpus;
    for (unsigned c = 0; c < n; ++c)
        if (std::count(wanted.begin(), wanted.end(), index_of(c))) cpus.push_back(c);
    return cpus;
}

// The POWER CPUs one override selects, ascending; `at` prefixes its errors.
std::vector<unsigned> override_cpus(const Override& o, const ChipLayout& layout,
                                    const std::string& at) {
    const char* whose = "partition";
    if (!o.chips.empty())
        return cpus_in(o.chips, "chips", "chip", layout.chips(), layout.cpus(), whose,
                       [&](unsigned c) { return layout.chip_of(c); }, at);
    if (!o.cores.empty())
        return cpus_in(o.cores, "cores", "core", layout.cpus() / layout.threads_per_core(),
                       layout.cpus(), whose, [&](unsigned c) { return layout.core_of(c); }, at);
    return cpulist_cpus(o.cpus, layout.cpus(), whose, at);
}

// The x86 host CPUs one override selects, ascending (sockets and cores as
// the topology numbers them).
std::vector<unsigned> x86_override_cpus(const Override& o, const TopologyParams& t,
                                        const std::string& at) {
    const unsigned n = unsigned(t.cpus);
    if (!o.sockets.empty())
        return cpus_in(o.sockets, "sockets", "socket", unsigned(t.sockets), n, "host",
                       [&](unsigned c) { return t.socket_of(c); }, at);
    if (!o.cores.empty())
        return cpus_in(o.cores, "cores", "core", t.cores(), n, "host",
                       [&](unsigned c) { return t.core_of(c); }, at);
    return cpulist_cpus(o.cpus, n, "host", at);
}

// Refuses a key of an override that the other kind of machine takes.
void refuse_other_machine(const json& e, const std::string& at, bool power) {
    const std::vector<const char*> power_keys{"chips", "power", "xive"},
        x86_keys{"sockets", "cpu", "lapic"};
    for (const char* key : power ? x86_keys : power_keys)
        if (e.contains(key))
            throw ConfigError(at + key + (power ? ": an x86 host key; a POWER partition's override "
                                                  "selects chips, cores or cpus and sets power or xive"
                                                : ": a POWER partition's key (a config with a power "
                                                  "section); an x86 host's override selects sockets, "
                                                  "cores or cpus and sets cpu or lapic"));
}

// Reads `overrides` (after the topology and power sections: the layout is known).
void load_overrides(const json& list, SimConfig& c) {
    if (!list.is_array())
        throw ConfigError("overrides: expected an array of overrides, found " + json_type_name(list));
    if (list.size() > kMaxListLength)
        throw ConfigError("overrides: expected at most " + std::to_string(kMaxListLength) +
                          " entries, found " + std::to_string(list.size()));
    const bool power = c.power_machine;
    if (!power) check_topology(c.topology);  // the sockets and cores the entries select
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string at = "overrides[" + std::to_string(i) + "].";
        const std::string entry = at.substr(0, at.size() - 1);
        const json& e = object_at(list[i], entry);
        Override o;
        JsonReader r(e, at);
        r.integers("chips", o.chips, 0, 255, "");
        r.integers("sockets", o.sockets, 0, 255, "");
        r.integers("cores", o.cores, 0, 4095, "");
        r.text("cpus", o.cpus, "");
        for (const char* section : {"power", "xive", "cpu", "lapic"}) r.allow(section);
        r.check_unknown();
        refuse_other_machine(e, at, power);
        const int selectors = int(e.contains("chips")) + int(e.contains("sockets")) +
                              int(e.contains("cores")) + int(e.contains("cpus"));
        if (selectors != 1)
            throw ConfigError(entry + ": expected exactly one of " +
                              (power ? "chips, cores or cpus" : "sockets, cores or cpus") +
                              " (which CPUs the override sets), found " + std::to_string(selectors));
        if (e.contains("cpus") && o.cpus.empty())
            throw ConfigError(at + "cpus: expected a cpulist such as \"0-7,16\", found \"\"");
        if (power)
            override_cpus(o, ChipLayout(c.power.cores_per_chip, unsigned(c.power.threads_per_core)), at);
        else
            x86_override_cpus(o, c.topology, at);
        const auto section = [&](const char* key, auto check, json& keep) {
            auto it = e.find(key);
            if (it == e.end()) return false;
            apply_section_keys(object_at(*it, at + key), at + key + ".", check);
            keep = *it;
            return true;
        };
        bool sets = false;
        if (power) {
            if (auto it = e.find("power"); it != e.end()) {
                PowerParams check = c.power;
                apply_power_keys(object_at(*it, at + "power"), at + "power.", check);
                o.power = *it;
                sets = true;
            }
            if (e.contains("xive") && o.chips.empty())
                throw ConfigError(at + "xive: a XIVE is per chip, so an override of it selects "
                                  "chips (not cores or cpus)");
            sets = section("xive", c.xive, o.xive) || sets;
        } else {
            sets = section("cpu", c.cpu, o.cpu) || sets;
            sets = section("lapic", c.lapic, o.lapic) || sets;
        }
        if (!sets)
            throw ConfigError(entry + ": an override needs the costs it sets (" +
                              (power ? "power, or xive for chips" : "cpu or lapic") + ")");
        c.overrides.push_back(std::move(o));
    }
}

// Trace events: [t_ns, "device", queue], inside the run, on existing queues.
void check_trace(const SimConfig& c, const WorkloadConfig& w, const std::string& at) {
    const json& events = w.events;
    if (!events.is_array())
        throw ConfigError(at + "events: expected an array of [t_ns, \"device\", queue], found " +
                          show(events));
    if (events.size() > kMaxTraceEvents)
        throw ConfigError(at + "events: expected at most " + std::to_string(kMaxTraceEvents) +
                          " events, found " + std::to_string(events.size()));
    const double end_ns = ns_of(c.run.warmup + c.run.duration);
    for (size_t i = 0; i < events.size(); ++i) {
        const json& e = events[i];
        const std::string ev = at + "events[" + std::to_string(i) + "]";
        if (!e.is_array() || e.size() != 3 || !e[0].is_number() || !e[1].is_string() ||
            !e[2].is_number())
            throw ConfigError(ev + ": expected [t_ns, \"device\", queue], found " + show(e));
        const double t = e[0].get<double>();
        if (!std::isfinite(t) || t < 0)
            throw ConfigError(ev + ": expected a time >= 0 ns, found " + show(e[0]));
        if (t >= end_ns)
            throw ConfigError(ev + ": at " + fmt(t) +
                              " ns, beyond the end of the run (run.warmup_ns + run.duration_ns = " +
                              fmt(end_ns) + " ns); it would never be replayed");
        const std::string name = e[1].get<std::string>();
        auto dev = std::find_if(c.devices.begin(), c.devices.end(),
                                [&](const DeviceConfig& d) { return d.name == name; });
        if (dev == c.devices.end()) {
            std::vector<std::string> names;
            for (const DeviceConfig& d : c.devices) names.push_back(d.name);
            throw ConfigError(ev + ": no device named " + show(e[1]) + " (devices: " +
                              join_keys(names) + ")");
        }
        if (!e[2].is_number_integer() || e[2].get<int64_t>() < 0 ||
            e[2].get<uint64_t>() >= dev->params.vectors)
            throw ConfigError(ev + ": queue " + show(e[2]) + " does not exist: " + name + " has " +
                              std::to_string(dev->params.vectors) + " queues (vectors)");
    }
}

// Ids that must exist, names that must be unique.
void check_references(const SimConfig& c) {
    std::set<std::string> names;
    std::vector<std::string> name_list;
    for (size_t i = 0; i < c.devices.size(); ++i) {
        const DeviceConfig& d = c.devices[i];
        const std::string at = "devices[" + std::to_string(i) + "].";
        if (d.name.empty()) throw ConfigError(at + "name: a device needs a name");
        // A name is printed in tables and in one-line commands (sweep
        // --emit-commands): a control character would break them.
        if (std::any_of(d.name.begin(), d.name.end(),
                        [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; }))
            throw ConfigError(at + "name: a control character in device name; expected printable "
                                   "characters only");
        if (!names.insert(d.name).second)
            throw ConfigError(at + "name: duplicate device name '" + d.name + "'");
        name_list.push_back(d.name);
        if (d.root_port >= c.topology.root_ports)
            throw ConfigError(at + "root_port: " + std::to_string(d.root_port) +
                              " but topology.root_ports is " +
                              std::to_string(c.topology.root_ports));
        if (!d.assigned_to.empty() && !c.is_assigned(d))
            throw ConfigError(at + "assigned_to: " + show(json(d.assigned_to)) +
                              " is not a vCPU: expected \"vcpu0\" .. \"vcpu" +
                              std::to_string(c.guest_vcpus() - 1) + "\"" +
                              (c.xen_guest ? ", \"guest\"" : "") + " or \"\" (the host)");
        for (size_t k = 0; k < d.irq_cpus.size(); ++k)
            if (d.irq_cpus[k] >= c.topology.cpus)
                throw ConfigError(at + "irq_cpus[" + std::to_string(k) + "]: CPU " +
                                  std::to_string(d.irq_cpus[k]) +
                                  " does not exist (topology.cpus is " +
                                  std::to_string(c.topology.cpus) +
                                  "): its IRTE would target a missing CPU");
    }
    for (size_t i = 0; i < c.workloads.size(); ++i) {
        const WorkloadConfig& w = c.workloads[i];
        const std::string at = "workloads[" + std::to_string(i) + "].";
        if (w.type != "trace" && !names.count(w.device()))
            throw ConfigError(at + "device: no device named '" + w.device() +
                              "' (devices: " + join_keys(name_list) + ")");
        if (w.type == "trace") check_trace(c, w, at);
        // NVMe jobs and DSA submitters are host threads on host CPUs; a Xen
        // guest runs NVMe jobs as its own I/O threads (xen_pcpu.h), a KVM
        // guest's driver stack is not modelled.
        if (w.type == "dsa" || (w.type == "nvme" && !c.xen_guest))
            for (const DeviceConfig& d : c.devices)
                if (d.name == w.device() && !d.assigned_to.empty())
                    throw ConfigError(at + "device: '" + d.name + "' is assigned to " +
                                      d.assigned_to + ": only bursty, periodic and trace "
                                      "workloads drive an assigned device");
    }
}

// Settings that are each in range but cannot work together.
// Where a host CPU's `section`.`key` comes from, for an error: the last
// override that sets it there ("overrides[2].lapic.tpr"), else the base
// section ("lapic.tpr").
std::string key_of_cpu(const SimConfig& c, unsigned cpu, const char* section, const char* key) {
    for (size_t i = c.overrides.size(); i-- > 0;) {
        const Override& o = c.overrides[i];
        const json& keys = std::string(section) == "lapic" ? o.lapic : o.cpu;
        const std::string at = "overrides[" + std::to_string(i) + "].";
        if (keys.contains(key)) {
            const std::vector<unsigned> cpus = x86_override_cpus(o, c.topology, at);
            if (std::count(cpus.begin(), cpus.end(), cpu)) return at + section + "." + key;
        }
    }
    return std::string(section) + "." + key;
}

void check_consistency(const SimConfig& c) {
    for (size_t i = 0; i < c.vcpus.size(); ++i)
        if (c.vcpus[i].vid && !c.vcpus[i].apicv)
            throw ConfigError("vcpus[" + std::to_string(i) +
                              "].vid: virtual-interrupt delivery needs apicv (vcpus[" +
                              std::to_string(i) + "].apicv is false)");
    if (c.topology.cpus + c.guest_vcpus() > kMaxCpus)
        throw ConfigError(std::string(c.xen_guest ? "xen.vcpus: " : "vcpus: ") +
                          std::to_string(c.guest_vcpus()) +
                          " vCPUs, each on its own pCPU after topology.cpus (" +
                          std::to_string(c.topology.cpus) + "), exceed " + std::to_string(kMaxCpus) +
                          " CPUs");
    check_topology(c.topology);
    // Each host CPU's lapic and cpu values: the base sections', or an override's.
    const std::vector<LocalApicParams> lapics = x86_lapic_params(c);
    const std::vector<CpuCoreParams> cpu_costs = x86_cpu_params(c);
    const auto lapic_of = [&](unsigned cpu) -> const LocalApicParams& {
        return lapics.empty() ? c.lapic : lapics[cpu];
    };
    const auto cpu_of = [&](unsigned cpu) -> const CpuCoreParams& {
        return cpu_costs.empty() ? c.cpu : cpu_costs[cpu];
    };
    uint64_t vectors = 0;
    for (size_t i = 0; i < c.devices.size(); ++i) {
        const DeviceConfig& d = c.devices[i];
        const std::string at = "devices[" + std::to_string(i) + "].";
        vectors += d.params.vectors;
        if (d.irq_cpus.size() > d.params.vectors)
            throw ConfigError(at + "irq_cpus: " + std::to_string(d.irq_cpus.size()) +
                              " CPUs listed but the device has " +
                              std::to_string(d.params.vectors) +
                              " vectors (" + at + "vectors): the extra CPUs would get no queue");
        // The LAPIC delivers a vector only when its priority class exceeds
        // the TPR's class (SDM vol. 3 11.8.3.1).
        for (uint64_t cpu : d.irq_cpus) {
            const uint64_t tpr = lapic_of(unsigned(cpu)).tpr;
            if (c.mode == RemapMode::Remappable && (d.first_vector >> 4) <= (tpr >> 4))
                throw ConfigError(key_of_cpu(c, unsigned(cpu), "lapic", "tpr") + ": " + hex(tpr) +
                                  " masks " + at + "first_vector " + hex(d.first_vector) +
                                  " (priority class " + std::to_string(d.first_vector >> 4) +
                                  " <= " + std::to_string(tpr >> 4) +
                                  "): its interrupts would never be delivered in remappable mode");
        }
    }
    for (unsigned cpu = 0; cpu < c.topology.cpus; ++cpu) {
        const LocalApicParams& lapic = lapic_of(cpu);
        if (c.mode == RemapMode::Posted && (kPostedMsiNotificationVector >> 4) <= (lapic.tpr >> 4))
            throw ConfigError(key_of_cpu(c, cpu, "lapic", "tpr") + ": " + hex(lapic.tpr) +
                              " masks the posted-MSI notification vector " +
                              hex(kPostedMsiNotificationVector) + ": no notification would be taken");
        const CpuCoreParams& costs = cpu_of(cpu);
        const sc_core::sc_time timer_cost =
            costs.irq_entry + costs.timer_handler + costs.eoi + costs.irq_exit;
        if (lapic.timer_period > sc_core::SC_ZERO_TIME && lapic.timer_period <= timer_cost)
            throw ConfigError(key_of_cpu(c, cpu, "lapic", "timer_period_ns") + ": " +
                              fmt(ns_of(lapic.timer_period)) +
                              " ns is not longer than one timer interrupt (cpu.irq_entry_ns + "
                              "timer_handler_ns + eoi_ns + irq_exit_ns = " +
                              fmt(ns_of(timer_cost)) + " ns): the CPUs would do nothing else");
    }
    if (vectors > c.iommu.irte_entries)
        throw ConfigError("iommu.irte_entries: " + std::to_string(c.iommu.irte_entries) +
                          " entries but the devices have " + std::to_string(vectors) +
                          " vectors, one IRTE each");
}

SimConfig load_unprefixed(const json& config) {
    SimConfig c;
    JsonReader top(object_at(config, "config"), "");
    describe_top(c, top);
    for (const Section& s : sections()) {
        top.allow(s.key);
        auto it = config.find(s.key);
        if (it == config.end()) continue;
        JsonReader r(object_at(*it, s.key), std::string(s.key) + ".");
        s.describe(c, r);
        r.check_unknown();
    }
    top.allow("vm");
    top.allow("vcpus");
    if (auto it = config.find("vm"); it != config.end()) {
        JsonReader r(object_at(*it, "vm"), "vm.");
        c.vm.describe(r);
        r.check_unknown();
    }
    if (auto it = config.find("vcpus"); it != config.end()) {
        if (!it->is_array() || it->empty() || it->size() > kMaxVcpus)
            throw ConfigError("vcpus: expected an array of 1 to " + std::to_string(kMaxVcpus) +
                              " vCPUs, found " + show(*it));
        for (size_t i = 0; i < it->size(); ++i) {
            const std::string at = "vcpus[" + std::to_string(i) + "]";
            VcpuConfig v;
            JsonReader r(object_at((*it)[i], at), at + ".");
            v.describe(r);
            r.check_unknown();
            c.vcpus.push_back(v);
        }
    } else if (config.contains("vm")) {
        throw ConfigError("vm: the VM section needs vcpus (an array of at least one vCPU)");
    }
    top.allow("xen");
    if (auto it = config.find("xen"); it != config.end()) {
        if (c.has_vm() || config.contains("vm"))
            throw ConfigError("xen: a config runs a KVM guest (vm, vcpus) or a Xen one (xen), "
                              "not both");
        JsonReader r(object_at(*it, "xen"), "xen.");
        c.xen.describe(r);
        r.check_unknown();
        c.xen_guest = true;
    }
    top.allow("xen_line");
    if (auto it = config.find("xen_line"); it != config.end()) {
        if (!c.xen_guest) throw ConfigError("xen_line: the Xen domain's line costs need a xen section");
        JsonReader r(object_at(*it, "xen_line"), "xen_line.");
        c.xen_line.describe(r);
        r.check_unknown();
    }
    top.allow("power");
    if (auto it = config.find("power"); it != config.end()) {
        if (c.has_vm() || c.xen_guest)
            throw ConfigError("power: a config runs a POWER partition or a guest, not both");
        JsonReader r(object_at(*it, "power"), "power.");
        c.power.describe(r);
        r.check_unknown();
        c.power_machine = true;
        try {
            const ChipLayout layout(c.power.cores_per_chip, unsigned(c.power.threads_per_core));
            if (layout.cpus() > 4096) throw std::invalid_argument("at most 4096 CPUs");
        } catch (const std::invalid_argument& e) {
            throw ConfigError(std::string("power.cores_per_chip: ") + e.what());
        }
    }
    for (const PowerSection& section : power_sections(c)) {
        if (section.key == "power") continue;
        top.allow(section.key);
        auto it = config.find(section.key);
        if (it == config.end()) continue;
        if (!c.power_machine)
            throw ConfigError(section.key + ": needs a power section (the POWER partition)");
        JsonReader r(object_at(*it, section.key), section.key + ".");
        section.describe(r);
        r.check_unknown();
    }
    if (c.power_machine) {
        std::vector<unsigned> cpus;
        try {
            cpus = c.ipistorm.cpus();
        } catch (const std::invalid_argument& e) {
            throw ConfigError(std::string("ipistorm.cpulist: ") + e.what());
        }
        const unsigned n = ChipLayout(c.power.cores_per_chip, unsigned(c.power.threads_per_core)).cpus();
        if (cpus.back() >= n)
            throw ConfigError("ipistorm.cpulist: CPU " + std::to_string(cpus.back()) +
                              " is not in the partition's " + std::to_string(n) + " CPUs");
    }
    top.allow("overrides");
    if (auto it = config.find("overrides"); it != config.end()) load_overrides(*it, c);
    top.allow("devices");
    top.allow("workloads");
    top.allow("comment");     // free text for the config's author
    if (auto it = config.find("comment"); it != config.end() && !it->is_string())
        throw ConfigError("comment: expected a string, found " + json_type_name(*it));
    top.allow("provenance");  // where fitted values came from (docs/calibration.md)
    top.allow("platform");    // applied by with_platform()
    c.platform = config.value("platform", std::string(kDefaultPlatform));
    top.allow("explain");     // cidsim explain's section; a run ignores it
    top.check_unknown();

    if (auto it = config.find("devices"); it != config.end()) {
        if (!it->is_array())
            throw ConfigError("devices: expected an array of devices, found " + json_type_name(*it));
        if (it->size() > kMaxDevices)
            throw ConfigError("devices: expected at most " + std::to_string(kMaxDevices) +
                              " devices, found " + std::to_string(it->size()));
        for (size_t i = 0; i < it->size(); ++i) {
            const std::string at = "devices[" + std::to_string(i) + "]";
            DeviceConfig d;
            d.name = "dev" + std::to_string(i);
            d.vm_keys = c.has_vm() || c.xen_guest;
            JsonReader r(object_at((*it)[i], at), at + ".");
            d.describe(r);
            r.check_unknown();
            c.devices.push_back(d);
        }
    }
    // The model has nothing to deliver without a device (and SystemC would
    // fail elaborating the unbound IOMMU port): a missing or empty list is
    // bad input, named here rather than as a SystemC error.
    if (c.devices.empty())
        throw ConfigError("devices: expected at least one device, found none");
    if (auto it = config.find("workloads"); it != config.end()) {
        if (!it->is_array())
            throw ConfigError("workloads: expected an array of workloads, found " +
                              json_type_name(*it));
        if (it->size() > kMaxWorkloads)
            throw ConfigError("workloads: expected at most " + std::to_string(kMaxWorkloads) +
                              " workloads, found " + std::to_string(it->size()));
        for (size_t i = 0; i < it->size(); ++i) {
            const std::string at = "workloads[" + std::to_string(i) + "]";
            const json& obj = object_at((*it)[i], at);
            WorkloadConfig w;
            JsonReader r(obj, at + ".");
            describe_workload(w, r);
            if (std::find(std::begin(kWorkloadTypes), std::end(kWorkloadTypes), w.type) ==
                std::end(kWorkloadTypes))
                throw ConfigError(
                    at + ".type: expected one of " +
                    join_keys(std::vector<std::string>(std::begin(kWorkloadTypes),
                                                       std::end(kWorkloadTypes))) +
                    ", found " + show(json(w.type)));
            if (w.type == "trace") {
                r.allow("events");
                if (obj.contains("events")) w.events = obj["events"];
            }
            r.check_unknown();
            c.workloads.push_back(w);
        }
    }
    check_references(c);
    check_consistency(c);
    return c;
}

}  // namespace

json read_json_file(const std::string& path) {
    std::string text;
    try {
        text = read_input_file(path, "a JSON config file", kMaxConfigBytes);
    } catch (const BadInput& e) {
        throw ConfigError(e.what());
    }
    return parse_config_text(text, path);
}

json read_config_file(const std::string& path, int depth) {
    if (depth > 8) throw ConfigError(path + ": includes nested too deeply (a cycle?)");
    json config = read_json_file(path);
    // Checked here, before any --set is applied to it, so that every
    // command's message names the file.
    if (!config.is_object())
        throw ConfigError(path + ": config: expected an object, found " + json_type_name(config));
    const std::string dir = path.find('/') == std::string::npos
                                ? std::string(".")
                                : path.substr(0, path.find_last_of('/'));
    return merge_includes(std::move(config), dir, path, depth);
}

json merge_includes(json config, const std::string& dir, const std::string& source, int depth) {
    if (!config.is_object() || !config.contains("include")) return config;
    const json includes = config["include"];
    config.erase("include");
    json merged = json::object();
    for (const json& inc : includes.is_array() ? includes : json::array({includes})) {
        if (!inc.is_string() || inc.get<std::string>().empty())
            throw ConfigError(source + ": include: expected a file name or a list of them");
        const std::string file = inc.get<std::string>();
        json included;
        try {
            included = read_config_file(file[0] == '/' ? file : dir + "/" + file, depth + 1);
        } catch (const ConfigError& e) {
            // The included file's own message, and which config and key led there.
            throw ConfigError(source + ": include \"" + file + "\": " + e.what());
        }
        merged.merge_patch(included);
    }
    // One platform per config: an included platform file's values under a
    // different "platform" name would run on one and report the other.
    if (auto own = config.find("platform"), inc = merged.find("platform");
        own != config.end() && inc != merged.end() && *own != *inc)
        throw ConfigError(source + ": platform: " + own->dump() + ", but an include is platform " +
                          inc->dump() + " and brings its values; name one platform (drop the "
                          "key or the include)");
    merged.merge_patch(config);
    return merged;
}

json parse_config_text(const std::string& text, const std::string& source) {
    // Where the parser is: one frame per open object or array.
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string key;   // objects: the current member
        size_t count = 0;  // arrays: elements started so far
    };
    std::vector<Frame> stack;
    auto path = [&stack]() {
        std::string p;
        for (size_t i = 0; i + 1 < stack.size(); ++i)
            p += stack[i].object ? (p.empty() ? "" : ".") + stack[i].key
                                 : "[" + std::to_string(stack[i].count - 1) + "]";
        return p.empty() ? std::string("(top level)") : p;
    };
    const std::string prefix = source.empty() ? "" : source + ": ";
    auto callback = [&](int depth, json::parse_event_t event, json& parsed) {
        if (depth > kMaxJsonDepth)
            throw ConfigError(prefix + path() + ": nested deeper than " +
                              std::to_string(kMaxJsonDepth) + " levels");
        using E = json::parse_event_t;
        const bool starts = event == E::object_start || event == E::array_start;
        if ((starts || event == E::value) && !stack.empty() && !stack.back().object)
            ++stack.back().count;
        if (starts) stack.push_back({event == E::object_start, {}, {}, 0});
        if (event == E::object_end || event == E::array_end) stack.pop_back();
        if (event == E::key) {
            const std::string key = parsed.get<std::string>();
            stack.back().key = key;
            if (!stack.back().keys.insert(key).second)
                throw ConfigError(prefix + path() + ": duplicate key \"" +
                                  (key.size() > 80 ? key.substr(0, 77) + "..." : key) +
                                  "\" (only one value per key is allowed)");
        }
        return true;
    };
    try {
        return json::parse(text, callback);
    } catch (const json::parse_error& e) {
        size_t line = 1, column = 1;
        for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
            if (text[i] == '\n') ++line, column = 1;
            else ++column;
        }
        std::string what = e.what();
        const size_t col = what.find("column ");
        const size_t colon = what.find(": ", col == std::string::npos ? 0 : col);
        if (colon != std::string::npos) what = what.substr(colon + 2);
        throw ConfigError((source.empty() ? "" : source + ":") + std::to_string(line) + ":" +
                          std::to_string(column) + ": not valid JSON: " + what);
    } catch (const json::out_of_range& e) {
        // e.g. 1e400: JSON has no infinity, and cidsim takes no non-finite numbers.
        std::string what = e.what();
        if (const size_t sp = what.find("] "); sp != std::string::npos) what = what.substr(sp + 2);
        throw ConfigError(prefix + "non-finite number: " + what + " (JSON numbers must be finite)");
    } catch (const json::exception& e) {
        throw ConfigError(prefix + "not valid JSON: " + e.what());
    }
}

void apply_override(json& config, const std::string& assignment) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("--set " + assignment + ": expected key.path=value");
    const std::string path = assignment.substr(0, eq);
    const std::string text = assignment.substr(eq + 1);
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded()) value = text;
    try {
        (void)value.dump();
    } catch (const json::exception&) {
        throw ConfigError("--set " + path + ": the value is not valid UTF-8");
    }

    json* node = &config;
    std::stringstream parts(path);
    std::string part, walked;
    std::vector<std::string> keys;
    while (std::getline(parts, part, '.')) keys.push_back(part);
    // "a..b", ".a", "a." name no key: a typo, not a key called "".
    if (path.front() == '.' || path.back() == '.' || path.find("..") != std::string::npos)
        throw ConfigError("--set " + assignment + ": empty key in the path " + path +
                          " (expected key.path=value, e.g. handler.loop_limit=5)");
    for (size_t i = 0; i < keys.size(); ++i) {
        const std::string& k = keys[i];
        walked += (walked.empty() ? "" : ".") + k;
        if (node->is_array()) {
            char* end = nullptr;
            const unsigned long idx = std::strtoul(k.c_str(), &end, 10);
            if (*end || idx >= node->size())
                throw ConfigError("--set " + walked + ": no element " + k + " in an array of " +
                                  std::to_string(node->size()));
            node = &(*node)[idx];
        } else if (node->is_object() || node->is_null()) {
            node = &(*node)[k];
        } else {
            throw ConfigError("--set " + walked + ": " + json_type_name(*node) + " has no keys");
        }
    }
    *node = value;
}

namespace {

// `top` over `base`, object by object. Unlike a JSON merge patch a null
// stays, so that the checks below still see (and refuse) it.
void overlay(json& base, const json& top) {
    if (!base.is_object() || !top.is_object()) {
        base = top;
        return;
    }
    for (auto it = top.begin(); it != top.end(); ++it) {
        auto b = base.find(it.key());
        if (b != base.end() && b->is_object() && it->is_object())
            overlay(*b, *it);
        else
            base[it.key()] = *it;
    }
}

// The named platform's values underneath everything the config sets: a
// config that names none runs on kDefaultPlatform, and says so.
json with_platform(const json& config) {
    if (!config.is_object()) return config;  // load_unprefixed names the problem
    std::string name = kDefaultPlatform;
    if (auto it = config.find("platform"); it != config.end()) {
        if (!it->is_string())
            throw ConfigError("platform: expected a platform name (" + join_keys(platform_names()) +
                              "), found " + json_type_name(*it));
        name = it->get<std::string>();
    }
    json merged = platform_values(name);
    overlay(merged, config);
    merged["platform"] = name;
    return merged;
}

}  // namespace

SimConfig load_config(const json& config, const std::string& source) {
    try {
        return load_unprefixed(with_platform(config));
    } catch (const ConfigError& e) {
        if (source.empty()) throw;
        throw ConfigError(source + ": " + e.what());
    }
}

json effective_config(const SimConfig& config) {
    SimConfig c = config;  // visitors take non-const references
    json out;
    out["platform"] = c.platform;
    JsonWriter top(out);
    describe_top(c, top);
    for (const Section& s : sections()) {
        json section = json::object();
        JsonWriter w(section);
        s.describe(c, w);
        out[s.key] = section;
    }
    out["devices"] = json::array();
    for (DeviceConfig& d : c.devices) {
        json dev;
        JsonWriter w(dev);
        d.describe(w);
        out["devices"].push_back(dev);
    }
    if (c.has_vm()) {
        json vm = json::object();
        JsonWriter w(vm);
        c.vm.describe(w);
        out["vm"] = vm;
        out["vcpus"] = json::array();
        for (VcpuConfig& v : c.vcpus) {
            json o;
            JsonWriter wv(o);
            v.describe(wv);
            out["vcpus"].push_back(o);
        }
    }
    if (c.xen_guest) {
        json xen = json::object();
        JsonWriter w(xen);
        c.xen.describe(w);
        out["xen"] = xen;
        json line = json::object();
        JsonWriter wl(line);
        c.xen_line.describe(wl);
        out["xen_line"] = line;
    }
    if (c.power_machine) {
        for (const PowerSection& section : power_sections(c)) {
            json o = json::object();
            JsonWriter w(o);
            section.describe(w);
            out[section.key] = o;
        }
    }
    if (!c.overrides.empty()) {
        out["overrides"] = json::array();
        for (const Override& o : c.overrides) {
            json e;
            if (!o.chips.empty()) e["chips"] = o.chips;
            else if (!o.sockets.empty()) e["sockets"] = o.sockets;
            else if (!o.cores.empty()) e["cores"] = o.cores;
            else e["cpus"] = o.cpus;
            for (const auto& [key, keys] : {std::pair<const char*, const json*>{"power", &o.power},
                                            {"xive", &o.xive}, {"cpu", &o.cpu}, {"lapic", &o.lapic}})
                if (!keys->empty()) e[key] = *keys;
            out["overrides"].push_back(e);
        }
    }
    out["workloads"] = json::array();
    for (WorkloadConfig& wl : c.workloads) {
        json o;
        JsonWriter w(o);
        describe_workload(wl, w);
        if (wl.type == "trace") o["events"] = wl.events;
        out["workloads"].push_back(o);
    }
    return out;
}

std::vector<PowerParams> power_cpu_params(const SimConfig& config) {
    std::vector<PowerParams> params;
    if (config.overrides.empty() || !config.power_machine) return params;
    const ChipLayout layout(config.power.cores_per_chip, unsigned(config.power.threads_per_core));
    params.assign(layout.cpus(), config.power);
    for (size_t i = 0; i < config.overrides.size(); ++i) {
        const Override& o = config.overrides[i];
        const std::string at = "overrides[" + std::to_string(i) + "].";
        if (o.power.empty()) continue;
        for (unsigned cpu : override_cpus(o, layout, at))
            apply_power_keys(o.power, at + "power.", params[cpu]);
    }
    return params;
}

std::vector<XiveParams> xive_chip_params(const SimConfig& config) {
    std::vector<XiveParams> params;
    for (size_t i = 0; i < config.overrides.size(); ++i) {
        const Override& o = config.overrides[i];
        if (o.xive.empty()) continue;
        if (params.empty()) params.assign(config.power.cores_per_chip.size(), config.xive);
        for (uint64_t chip : o.chips)
            apply_section_keys(o.xive, "overrides[" + std::to_string(i) + "].xive.", params[chip]);
    }
    return params;
}

namespace {

// Each x86 host CPU's copy of `base` with every override's `keys` (the
// member `section` of Override) applied to the CPUs it selects; empty when
// no override sets that section.
template <class Params>
std::vector<Params> x86_params(const SimConfig& config, const Params& base,
                               json Override::*section, const char* key) {
    std::vector<Params> params;
    for (size_t i = 0; i < config.overrides.size(); ++i) {
        const Override& o = config.overrides[i];
        if ((o.*section).empty()) continue;
        if (params.empty()) params.assign(config.topology.cpus, base);
        const std::string at = "overrides[" + std::to_string(i) + "].";
        for (unsigned cpu : x86_override_cpus(o, config.topology, at))
            apply_section_keys(o.*section, at + key + ".", params[cpu]);
    }
    return params;
}

}  // namespace

std::vector<CpuCoreParams> x86_cpu_params(const SimConfig& config) {
    return x86_params(config, config.cpu, &Override::cpu, "cpu");
}

std::vector<LocalApicParams> x86_lapic_params(const SimConfig& config) {
    return x86_params(config, config.lapic, &Override::lapic, "lapic");
}

json describe_parameters() {
    SimConfig c;
    json out;
    {
        json top = json::array();
        Describer d(top);
        // Not a Params field: the values underneath the config (platforms.h).
        top.push_back({{"key", "platform"}, {"type", "choice"}, {"unit", ""},
                       {"default", kDefaultPlatform}, {"min", nullptr}, {"max", nullptr},
                       {"description",
                        "the platform whose values lie underneath the config: spr (calibrated, "
                        "configs/platform/spr.json; the default, whose values the default "
                        "column shows) | generic (the uncalibrated Params defaults, shown as "
                        "[generic: X] where they differ)"},
                       {"allowed", platform_names()}});
        describe_top(c, d);
        out["(top level)"] = top;
    }
    // A section's defaults are what a config naming no platform gets; where
    // the generic platform (the Params defaults) differs, it is said too.
    SimConfig on_default;
    const json platform = platform_values(kDefaultPlatform);
    for (const Section& s : sections())
        if (auto it = platform.find(s.key); it != platform.end()) {
            JsonReader r(object_at(*it, s.key), std::string(s.key) + ".");
            s.describe(on_default, r);
        }
    for (const Section& s : sections()) {
        json list = json::array(), generic = json::array();
        Describer d(list), g(generic);
        s.describe(on_default, d);
        s.describe(c, g);
        for (size_t i = 0; i < list.size() && i < generic.size(); ++i)
            if (list[i]["default"] != generic[i]["default"]) {
                list[i]["generic_default"] = generic[i]["default"];
                list[i]["description"] = list[i]["description"].get<std::string>() +
                                         " [generic: " + generic[i]["default"].dump() + "]";
            }
        out[s.key] = list;
    }
    {
        json list = json::array();
        Describer d(list);
        c.vm.describe(d);
        out["vm"] = list;
        VcpuConfig v;
        json vl = json::array();
        Describer dv(vl);
        v.describe(dv);
        out["vcpus[]"] = vl;
        json xl = json::array();
        Describer dx(xl);
        c.xen.describe(dx);
        out["xen"] = xl;
        json ll = json::array();
        Describer dl(ll);
        c.xen_line.describe(dl);
        for (json& p : ll)
            if (const char* src = xen_line_source(p["key"].get<std::string>()))
                p["description"] = p["description"].get<std::string>() + ". " + src;
        out["xen_line"] = ll;
        for (const PowerSection& section : power_sections(c)) {
            json list = json::array();
            Describer d(list);
            section.describe(d);
            if (section.key == "power_line")
                for (json& p : list)
                    if (const char* src = power_line_source(p["key"].get<std::string>()))
                        p["description"] = p["description"].get<std::string>() + ". " + src;
            out[section.key] = list;
        }
        // The per-CPU keys, as an override's reader lets them through.
        PowerParams base;
        const json none = json::object();
        JsonReader reader(none, "");
        PerCpuCosts keys(reader);
        base.describe(keys);
        const auto entry = [](const char* key, const char* type, json min, json max, const char* desc) {
            return json{{"key", key}, {"type", type}, {"unit", ""}, {"default", nullptr},
                        {"min", min}, {"max", max}, {"description", desc}};
        };
        out["overrides[]"] = json::array(
            {entry("chips", "integer list", 0, 255,
                   "a POWER partition's chips (nodes) whose CPUs the entry sets; give exactly "
                   "one of chips, cores, cpus (POWER) or sockets, cores, cpus (the x86 host). Entries "
                   "apply in order, a later one winning where they meet"),
             entry("sockets", "integer list", 0, 255,
                   "the x86 host's sockets whose CPUs the entry sets (topology.sockets splits "
                   "the cores evenly, in order)"),
             entry("cores", "integer list", 0, 4095,
                   "the cores whose CPUs the entry sets: a POWER partition's numbered "
                   "chip-major (core c holds CPUs c * threads_per_core up), the x86 host's "
                   "socket-major (with topology.smt_numbering=split core c holds CPUs c, "
                   "c + cores, ...)"),
             entry("cpus", "string", nullptr, nullptr,
                   "the CPUs as a cpulist, like ipistorm.cpulist (\"0-7,16\"): the partition's "
                   "with a power section, else the x86 host's"),
             entry("power", "object", nullptr, nullptr,
                   ("power's per-CPU costs for those CPUs, each with power's range: " +
                    join_keys(keys.per_cpu)).c_str()),
             entry("xive", "object", nullptr, nullptr,
                   "xive's costs for those chips' XIVEs (entries selecting chips only), each "
                   "with xive's range; cross_chip_ns is the extra time of a trigger from "
                   "another chip to this one"),
             entry("cpu", "object", nullptr, nullptr,
                   "the x86 host's cpu keys for those CPUs, each with cpu's range (a guest's "
                   "pCPUs take the base sections)"),
             entry("lapic", "object", nullptr, nullptr,
                   "the x86 host's lapic keys for those CPUs' local APICs, each with lapic's "
                   "range")});
    }
    DeviceConfig dev;
    dev.vm_keys = true;
    json devices = json::array();
    Describer dd(devices);
    dev.describe(dd);
    out["devices[]"] = devices;
    for (const char* type : {"bursty", "nvme", "dsa", "periodic"}) {
        WorkloadConfig w;
        w.type = type;
        json list = json::array();
        Describer d(list);
        describe_workload(w, d);
        out[std::string("workloads[] (type ") + type + ")"] = list;
    }
    json limits = json::array();
    auto limit = [&limits](const char* key, size_t max, const char* desc) {
        limits.push_back({{"key", key}, {"type", "count"}, {"unit", ""}, {"default", nullptr},
                          {"min", 0}, {"max", max}, {"description", desc}});
    };
    limit("config bytes", kMaxConfigBytes, "size of a config file");
    limit("json depth", size_t(kMaxJsonDepth), "nesting of arrays and objects");
    limit("devices", kMaxDevices, "entries of devices[]");
    limit("workloads", kMaxWorkloads, "entries of workloads[]");
    limit("vcpus", kMaxVcpus, "entries of vcpus[] (each on its own pCPU after topology.cpus)");
    limit("trace events", kMaxTraceEvents, "events of one trace workload");
    limit("list length", kMaxListLength, "elements of an integer list (irq_cpus)");
    limit("name length", kMaxNameLength, "characters of a string value (device names)");
    out["(limits)"] = limits;
    return out;
}

}  // namespace cidsim
