#include "config/overrides.h"

#include <algorithm>

#include "config/checks.h"
#include "config/param_io.h"
#include "model/power/chip_layout.h"

namespace cidsim {

using nlohmann::json;

namespace {

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
    if (cpus.back() >= n)  // ascending: name the first CPU past the end
        throw ConfigError(at + "cpus: CPU " +
                          std::to_string(*std::lower_bound(cpus.begin(), cpus.end(), n)) +
                          " is not in the " + whose + "'s " + std::to_string(n) + " CPUs (0-" +
                          std::to_string(n - 1) + ")");
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
        for (const auto& [key, ids] : {std::pair<const char*, const std::vector<uint64_t>*>{
                                           "chips", &o.chips},
                                       {"sockets", &o.sockets},
                                       {"cores", &o.cores}}) {
            std::vector<uint64_t> sorted = *ids;
            std::sort(sorted.begin(), sorted.end());
            const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
            if (twice != sorted.end())
                throw ConfigError(at + key + ": " + std::to_string(*twice) + " is listed twice");
        }
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
            if (it->is_object() && it->empty())
                throw ConfigError(at + key + ": an empty section sets nothing; drop it");
            apply_section_keys(object_at(*it, at + key), at + key + ".", check);
            keep = *it;
            return true;
        };
        bool sets = false;
        if (power) {
            if (auto it = e.find("power"); it != e.end()) {
                if (it->is_object() && it->empty())
                    throw ConfigError(at + "power: an empty section sets nothing; drop it");
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

std::vector<CpuCoreParams> x86_cpu_params(const SimConfig& config) {
    return x86_params(config, config.cpu, &Override::cpu, "cpu");
}

std::vector<LocalApicParams> x86_lapic_params(const SimConfig& config) {
    return x86_params(config, config.lapic, &Override::lapic, "lapic");
}

json describe_overrides() {
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
    return json::array(
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

}  // namespace cidsim
