// A POWER partition's sections (systems.md D): `power` (its chips, cores
// and the CPUs' costs), `xive` (each chip's interrupt router), `power_line`
// (its lines' costs, with their defaults and sources) and `ipistorm` (the
// kthreads that send the IPIs).
#include "config/sections.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "config/config_error.h"
#include "config/json_text.h"
#include "model/power/chip_layout.h"

namespace cidsim {

namespace {

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
         "Source (power_line): FITTED per machine (scripts/ipistorm_fit.py): P9's to its E2 "
         "IPI/sys figure at the end of the first chip (the in-chip hand-off), P10's to its "
         "cross-chip IPI/sys figure with hop_ns in P9's fitted ratio to it; range 34-188 ns "
         "(half P9's fit to twice P10's)"},
        {"snoop_modified_ns", "Source (power_line): guess, intervention from a modified copy; range 0-40 ns"},
        {"hop_ns",
         "Source (power_line): FITTED per machine to E2's cross-chip IPI/sys figure "
         "(scripts/ipistorm_fit.py); range 50-500 ns"},
        {"same_core_ns", "Source (power_line): guess, an L2 hit shared by the SMT threads; range 2-10 ns"},
        {"invalidate_per_sharer_ns",
         "Source (power_line): assumed, one invalidation and acknowledgement per copy; range "
         "1-10 ns"},
        {"home_occupancy_ns",
         "Source (power_line): guess, the coherence point's time per read it serves; range "
         "2-30 ns"},
    };
    const auto it = sources.find(key);
    return it == sources.end() ? nullptr : it->second;
}

// The partition's CPUs (a ConfigError naming power.cores_per_chip when the
// layout is not one).
unsigned partition_cpus(const PowerParams& p) {
    try {
        const ChipLayout layout(p.cores_per_chip, unsigned(p.threads_per_core));
        if (layout.cpus() > 4096)
            throw std::invalid_argument("expected at most 4096 CPUs (the cores of every "
                                        "chip times threads_per_core), found " +
                                        std::to_string(layout.cpus()));
        return layout.cpus();
    } catch (const std::invalid_argument& e) {
        throw ConfigError(std::string("power.cores_per_chip: ") + e.what());
    }
}

// A key of the idle host's (idle_x86_host) stated in `config`, or another
// of its sections: read and never spent, so refused.
void refuse_x86_costs(const nlohmann::json& config) {
    const std::string why = ": an x86 host's costs; a POWER partition (power) never spends them "
                            "(its costs are power, xive and power_line): drop it";
    for (const char* section : kIdleX86HostCostSections)
        if (config.contains(section)) throw ConfigError(section + why);
    const nlohmann::json idle = idle_x86_host();
    for (auto section = idle.begin(); section != idle.end(); ++section) {
        const auto s = config.find(section.key());
        if (s == config.end() || !s->is_object()) continue;
        for (auto k = s->begin(); k != s->end(); ++k) {
            const std::string at = section.key() + "." + k.key();
            if (!section->contains(k.key())) throw ConfigError(at + why);
            const bool cpus = k.key() == "cpus";
            if (*k != section->at(k.key()))
                throw ConfigError(at + ": the idle x86 host beside a POWER partition (power) "
                                  "has " + (cpus ? "one CPU" : "its timer off") + ", found " +
                                  show_json(*k) + ": drop it" +
                                  (cpus ? " (the partition's CPUs are power.cores_per_chip x "
                                          "power.threads_per_core)" : ""));
        }
    }
}

}  // namespace

const char* const kIdleX86HostCostSections[5] = {"cpu", "handler", "iommu", "pid_line",
                                                 "root_port"};

nlohmann::json idle_x86_host() {
    return {{"topology", {{"cpus", 1}}}, {"lapic", {{"timer_period_ns", 0}}}};
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

std::vector<ConfigSection> power_sections() {
    const auto present = [](const SimConfig& c) { return c.power_machine; };
    ConfigSection power = object_section("power", "power", &SimConfig::power);
    power.present = present;
    power.admit = [](const nlohmann::json& config, SimConfig& c) {
        if (c.has_vm() || c.xen_guest || config.contains("vm") || config.contains("vcpus"))
            throw ConfigError("power: a config runs a POWER partition or a guest (vm and vcpus, "
                              "or xen), not both");
        c.power_machine = true;
        // An x86 host's settings would be read and never used by the partition.
        if (config.contains("mode"))
            throw ConfigError("mode: the x86 host's interrupt mode; a POWER partition (power) "
                              "has none: drop it");
        if (const auto w = config.find("workloads"); w != config.end() && w->is_array() &&
                                                     !w->empty())
            throw ConfigError("workloads: a POWER partition (power) runs ipistorm, its own "
                              "section, and no device workload: drop them");
        refuse_x86_costs(config);
    };
    power.settle = [](const nlohmann::json&, SimConfig& c) {
        if (!c.power_machine) return;
        c.lapic.timer_period = sc_core::SC_ZERO_TIME;  // idle_x86_host()
        // A POWER core runs 1, 2, 4 or 8 threads (ppc64_cpu --smt); no other split exists.
        const uint64_t t = c.power.threads_per_core;
        if (t != 1 && t != 2 && t != 4 && t != 8)
            throw ConfigError("power.threads_per_core: expected 1, 2, 4 or 8 (a POWER core "
                              "runs SMT1, SMT2, SMT4 or SMT8), found " + std::to_string(t));
        partition_cpus(c.power);
    };
    std::vector<ConfigSection> s = {power, object_section("xive", "power", &SimConfig::xive),
                                    object_section("power_line", "power", &SimConfig::power_line),
                                    object_section("ipistorm", "power", &SimConfig::ipistorm)};
    for (size_t i = 1; i < s.size(); ++i) {
        s[i].present = present;
        s[i].admit = [key = s[i].key](const nlohmann::json&, SimConfig& c) {
            if (!c.power_machine)
                throw ConfigError(key + ": needs a power section (the POWER partition)");
        };
    }
    s[2].source = power_line_source;
    s[2].unread_keys = {{"device_rmw_ns", "no device writes the partition's lines (the "
                                          "descriptor's and the IPI's are the CPUs')"}};
    // The kthreads' CPUs, in the partition.
    s[3].settle = [](const nlohmann::json& config, SimConfig& c) {
        if (!c.power_machine) return;
        std::vector<unsigned> cpus;
        try {
            cpus = c.ipistorm.cpus();
        } catch (const std::invalid_argument& e) {
            throw ConfigError(std::string("ipistorm.cpulist: ") + e.what());
        }
        const auto given = config.find("ipistorm");
        const bool listed = given != config.end() && given->is_object() &&
                            given->contains("cpulist");
        const unsigned n = partition_cpus(c.power);
        if (cpus.back() >= n)
            throw ConfigError("ipistorm.cpulist: CPU " + std::to_string(cpus.back()) +
                              " is not in the partition's " + std::to_string(n) + " CPUs" +
                              (listed ? "" : " (the default \"" + c.ipistorm.cpulist +
                                                 "\"; set ipistorm.cpulist)"));
        // ipistorm's target is (cpu + offset) % n, n the list's length: if
        // it is each kthread's own CPU, every call is local and no IPI is sent.
        const uint64_t offset = c.ipistorm.offset;
        if (std::all_of(cpus.begin(), cpus.end(),
                        [&](unsigned cpu) { return (cpu + offset) % cpus.size() == cpu; }))
            throw ConfigError("ipistorm.offset: " + std::to_string(offset) + " sends each CPU " +
                              "of ipistorm.cpulist to itself ((cpu + offset) % " +
                              std::to_string(cpus.size()) + ", the list's length): every " +
                              "kthread would call itself and no IPI would be sent");
    };
    return s;
}

}  // namespace cidsim
