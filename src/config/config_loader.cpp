#include "config/config_loader.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

namespace cidsim {

using nlohmann::json;

const char* const kRemapModeNames[2] = {"remappable", "posted"};
const char* const kWorkloadTypes[2] = {"bursty", "trace"};

void RunParams::describe(ParamVisitor& v) {
    v.time("duration_ns", duration, 1, 1e13, "simulated time measured");
    v.time("warmup_ns", warmup, 0, 1e13, "simulated time run before measuring");
    v.integer("seed", seed, "", 0, UINT64_MAX, "seed of every stochastic workload");
}

void TopologyParams::describe(ParamVisitor& v) {
    v.integer("sockets", sockets, "", 1, 8, "sockets; CPUs are split evenly across them");
    v.integer("cpus", cpus, "", 1, 63, "logical CPUs (APIC id = index)");
    v.integer("root_ports", root_ports, "", 1, 64, "PCIe root ports (IIO stacks)");
}

void DeviceConfig::describe(ParamVisitor& v) {
    v.text("name", name, "unique device name");
    v.integer("root_port", root_port, "", 0, 63, "root port the device sits behind");
    v.integers("irq_cpus", irq_cpus, 0, 62, "CPU of each queue's interrupt, cycled over queues");
    v.integer("first_vector", first_vector, "", 0x20, 0xEA,
              "first Linux vector allocated on each CPU for this device");
    params.describe(v);
}

namespace {

std::string join_keys(const std::vector<std::string>& keys) {
    std::string s;
    for (const std::string& k : keys) s += (s.empty() ? "" : ", ") + k;
    return s;
}

std::string type_name(const json& j) {
    return j.is_null() ? "null" : j.is_boolean() ? "a boolean" : j.is_number() ? "a number"
         : j.is_string() ? "a string" : j.is_array() ? "an array" : "an object";
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
            if (!j->is_boolean()) fail(key, "expected true or false, found " + type_name(*j));
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
        fail(key, "expected one of " + join_keys(allowed) + ", found " + j->dump());
    }
    void text(const char* key, std::string& value, const char*) override {
        if (const json* j = find(key)) {
            if (!j->is_string()) fail(key, "expected a string, found " + type_name(*j));
            value = j->get<std::string>();
        }
    }
    void integers(const char* key, std::vector<uint64_t>& value, uint64_t min, uint64_t max,
                  const char*) override {
        const json* j = find(key);
        if (!j) return;
        if (!j->is_array() || j->empty())
            fail(key, "expected a non-empty array of integers, found " + type_name(*j));
        value.clear();
        for (const json& e : *j) value.push_back(whole(key, e, min, max));
    }

    // Accepts a key handled outside the visitor (arrays of sections).
    void allow(const std::string& key) { m_known.push_back(key); }
    // After visiting: every key present must be known.
    void check_unknown() const {
        for (auto it = m_obj.begin(); it != m_obj.end(); ++it)
            if (std::find(m_known.begin(), m_known.end(), it.key()) == m_known.end())
                throw ConfigError(m_path + it.key() + ": unknown key; valid keys here: " +
                                  join_keys(m_known));
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
        if (!j.is_number()) fail(key, "expected a number, found " + type_name(j));
        const double v = j.get<double>();
        if (!std::isfinite(v) || v < min || v > max) {
            std::ostringstream os;
            os << "expected a number in [" << min << ", " << max << "], found " << j.dump();
            fail(key, os.str());
        }
        return v;
    }
    uint64_t whole(const char* key, const json& j, uint64_t min, uint64_t max) const {
        if (!j.is_number_integer() || (j.is_number_integer() && !j.is_number_unsigned()))
            fail(key, "expected a non-negative integer, found " + j.dump());
        const uint64_t v = j.get<uint64_t>();
        if (v < min || v > max)
            fail(key, "expected an integer in [" + std::to_string(min) + ", " +
                          std::to_string(max) + "], found " + j.dump());
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
    v.text("type", w.type, "workload type: bursty | trace");
    if (w.type == "bursty") w.bursty.describe(v);
}

const json& object_at(const json& j, const std::string& path) {
    if (!j.is_object()) throw ConfigError(path + ": expected an object, found " + type_name(j));
    return j;
}

void check_references(const SimConfig& c) {
    std::set<std::string> names;
    for (size_t i = 0; i < c.devices.size(); ++i) {
        const DeviceConfig& d = c.devices[i];
        const std::string at = "devices[" + std::to_string(i) + "].";
        if (d.name.empty()) throw ConfigError(at + "name: a device needs a name");
        if (!names.insert(d.name).second)
            throw ConfigError(at + "name: duplicate device name '" + d.name + "'");
        if (d.root_port >= c.topology.root_ports)
            throw ConfigError(at + "root_port: " + std::to_string(d.root_port) +
                              " but topology.root_ports is " +
                              std::to_string(c.topology.root_ports));
        for (uint64_t cpu : d.irq_cpus)
            if (cpu >= c.topology.cpus)
                throw ConfigError(at + "irq_cpus: CPU " + std::to_string(cpu) +
                                  " does not exist (topology.cpus is " +
                                  std::to_string(c.topology.cpus) + ")");
    }
    for (size_t i = 0; i < c.workloads.size(); ++i) {
        const WorkloadConfig& w = c.workloads[i];
        const std::string at = "workloads[" + std::to_string(i) + "].";
        if (w.type == "bursty" && !names.count(w.bursty.device))
            throw ConfigError(at + "device: no device named '" + w.bursty.device + "'");
    }
}

}  // namespace

json read_json_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ConfigError(path + ": cannot open the config file");
    try {
        return json::parse(in);
    } catch (const json::parse_error& e) {
        throw ConfigError(path + ": not valid JSON: " + e.what());
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

    json* node = &config;
    std::stringstream parts(path);
    std::string part, walked;
    std::vector<std::string> keys;
    while (std::getline(parts, part, '.')) keys.push_back(part);
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
            throw ConfigError("--set " + walked + ": " + type_name(*node) + " has no keys");
        }
    }
    *node = value;
}

SimConfig load_config(const json& config) {
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
    top.allow("devices");
    top.allow("workloads");
    top.allow("comment");  // free text for the config's author
    top.allow("explain");  // cidsim explain's section; a run ignores it
    top.check_unknown();

    if (auto it = config.find("devices"); it != config.end()) {
        if (!it->is_array()) throw ConfigError("devices: expected an array of devices");
        for (size_t i = 0; i < it->size(); ++i) {
            const std::string at = "devices[" + std::to_string(i) + "]";
            DeviceConfig d;
            d.name = "dev" + std::to_string(i);
            JsonReader r(object_at((*it)[i], at), at + ".");
            d.describe(r);
            r.check_unknown();
            c.devices.push_back(d);
        }
    }
    if (auto it = config.find("workloads"); it != config.end()) {
        if (!it->is_array()) throw ConfigError("workloads: expected an array of workloads");
        for (size_t i = 0; i < it->size(); ++i) {
            const std::string at = "workloads[" + std::to_string(i) + "]";
            const json& obj = object_at((*it)[i], at);
            WorkloadConfig w;
            JsonReader r(obj, at + ".");
            describe_workload(w, r);
            if (std::find(std::begin(kWorkloadTypes), std::end(kWorkloadTypes), w.type) ==
                std::end(kWorkloadTypes))
                throw ConfigError(at + ".type: expected one of bursty, trace, found \"" + w.type +
                                  "\"");
            if (w.type == "trace") {
                r.allow("events");
                if (obj.contains("events")) w.events = obj["events"];
            }
            r.check_unknown();
            c.workloads.push_back(w);
        }
    }
    check_references(c);
    return c;
}

json effective_config(const SimConfig& config) {
    SimConfig c = config;  // visitors take non-const references
    json out;
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

json describe_parameters() {
    SimConfig c;
    json out;
    {
        json top = json::array();
        Describer d(top);
        describe_top(c, d);
        out["(top level)"] = top;
    }
    for (const Section& s : sections()) {
        json list = json::array();
        Describer d(list);
        s.describe(c, d);
        out[s.key] = list;
    }
    DeviceConfig dev;
    json devices = json::array();
    Describer dd(devices);
    dev.describe(dd);
    out["devices[]"] = devices;
    WorkloadConfig bursty;
    bursty.type = "bursty";
    json b = json::array();
    Describer bd(b);
    describe_workload(bursty, bd);
    out["workloads[] (type bursty)"] = b;
    return out;
}

}  // namespace cidsim
