#pragma once
// The config's sections as one table (load, echo and `cidsim params` are
// each one loop over it): a family adds its sections as one line in
// config_sections() (sections.cpp) and a file of its own under sections/,
// which keeps its defaults and their sources beside its section.
//
// A section is an object of one Params struct ("lapic": {...}) or an
// array of them ("vcpus": [{...}, ...]). The top level's own keys (mode,
// platform, comment, ...), devices[], workloads[] and overrides[] are
// common to every config and stay in config_loader.cpp.
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/sim_config.h"

namespace cidsim {

struct ConfigSection {
    std::string key;
    const char* family;  // common | x86 | kvm | xen | power
    // An object section's parameters in c; for an array section, entry i's
    // (loading calls it with i == the entries read so far, to append one).
    std::function<void(SimConfig& c, size_t i, ParamVisitor& v)> describe;
    // Whether c has the section (what the effective config writes); always,
    // when empty.
    std::function<bool(const SimConfig& c)> present;
    // Runs when the config has the key, before it is read: refuses a section
    // that cannot go with what was read before it, and marks the family.
    std::function<void(const nlohmann::json& config, SimConfig& c)> admit;
    // Runs at the section's turn whether or not the config has it, after it
    // is read: the checks that need the whole section.
    std::function<void(const nlohmann::json& config, SimConfig& c)> settle;
    // For `cidsim params`: where a key's default comes from (appended to its
    // description), or nullptr.
    const char* (*source)(const std::string& key) = nullptr;
    // Keys describe() has that this family never reads, each with why: a
    // config stating one is refused, and the echo and `cidsim params` leave
    // them out (an object section's).
    std::vector<std::pair<std::string, std::string>> unread_keys;
    // An array section: at most this many entries (at least one), and how
    // many c holds; 0 for an object section.
    size_t max_entries = 0;
    const char* entry_noun = "";  // "vCPUs", for the array's error
    std::function<size_t(const SimConfig& c)> entries;
};

// Every section, in the order a config's sections are read (which decides
// which of two errors a config is told first).
const std::vector<ConfigSection>& config_sections();

// Each family's sections (sections/*.cpp), in their order.
std::vector<ConfigSection> x86_sections();
std::vector<ConfigSection> kvm_sections();
std::vector<ConfigSection> xen_sections();
std::vector<ConfigSection> power_sections();

// Beside a POWER partition stands an idle x86 host: one CPU, its timer off,
// its device silent. Its cost sections are never spent (a POWER config
// refuses them and its effective config leaves them out); of its layout a
// config may state only what idle_x86_host() holds, with those values.
extern const char* const kIdleX86HostCostSections[5];
nlohmann::json idle_x86_host();

// An object section whose parameters are the member `params` of SimConfig.
template <class Params>
ConfigSection object_section(std::string key, const char* family, Params SimConfig::*params) {
    ConfigSection s;
    s.key = std::move(key);
    s.family = family;
    s.describe = [params](SimConfig& c, size_t, ParamVisitor& v) { (c.*params).describe(v); };
    return s;
}

}  // namespace cidsim
