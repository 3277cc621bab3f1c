#include "config/config_loader.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/checks.h"
#include "config/param_io.h"
#include "config/platforms.h"
#include "config/provenance.h"
#include "config/sections.h"

namespace cidsim {

using nlohmann::json;

namespace {

// The keys of device d that its machine never reads, each with why: the
// loader refuses them where a config gives them, and the effective config
// leaves them out (so that it reads back).
std::vector<std::pair<std::string, std::string>> unread_device_keys(const SimConfig& c,
                                                                    const DeviceConfig& d) {
    std::vector<std::pair<std::string, std::string>> out;
    if (c.power_machine) {
        // The idle host's device only has to exist: it never sends.
        json all;
        JsonWriter w(all);
        DeviceConfig copy = d;
        copy.describe(w);
        for (auto it = all.begin(); it != all.end(); ++it)
            if (it.key() != "name" && it.key() != "vectors" && it.key() != "irq_cpus")
                out.push_back({it.key(), "the idle x86 host's device never sends beside a POWER "
                                         "partition (power): drop it"});
        return out;
    }
    if (c.is_assigned(d)) {
        out.push_back({"irq_cpus", "a host device's setting; an assigned device's queues "
                                   "interrupt the vCPUs they are assigned to (assigned_to): "
                                   "drop it"});
        out.push_back({"threaded_irq", "a host driver's setting; an assigned device's handler "
                                       "runs in its guest: drop it"});
    }
    // host_handler is how KVM's host runs VFIO's handler for a device
    // assigned to a vCPU (unused while it is posted: a variant turning
    // posting on keeps its base's); a host device's or a Xen domain's has none.
    if (c.xen_guest && !d.assigned_to.empty())
        out.push_back({"host_handler", "a KVM host's setting; a Xen domain's device "
                                       "interrupts go through Xen's do_IRQ and softirq "
                                       "(xen.variant): drop it"});
    else if (d.assigned_to.empty())
        out.push_back({"host_handler", "only a device assigned to a vCPU (assigned_to) has "
                                       "its handler run by the KVM host: drop it or assign "
                                       "the device"});
    return out;
}

void describe_top(SimConfig& c, ParamVisitor& v) {
    visit_choice(v, "mode", c.mode, kRemapModeNames,
                 "interrupt remapping mode of every device vector: remappable | posted");
}

void describe_workload(WorkloadConfig& w, ParamVisitor& v) {
    v.text("type", w.type,
           "workload type, required: bursty | trace | nvme | dsa | periodic; a trace replays "
           "\"events\": [[t_ns, \"device\", queue], ...] (a completion each, inside the run)");
    if (w.type == "bursty") w.bursty.describe(v);
    if (w.type == "periodic") w.periodic.describe(v);
    if (w.type == "nvme") w.nvme.describe(v);
    if (w.type == "dsa") w.dsa.describe(v);
}

// One section of the config: an object of one Params struct, or an array
// of them.
void read_section(const ConfigSection& s, const json& value, SimConfig& c) {
    if (!s.max_entries) {
        JsonReader r(object_at(value, s.key), s.key + ".");
        s.describe(c, 0, r);
        r.check_unknown();
        return;
    }
    if (!value.is_array() || value.empty() || value.size() > s.max_entries)
        throw ConfigError(s.key + ": expected an array of 1 to " + std::to_string(s.max_entries) +
                          " " + s.entry_noun + ", found " + show_json(value));
    for (size_t i = 0; i < value.size(); ++i) {
        const std::string at = s.key + "[" + std::to_string(i) + "]";
        JsonReader r(object_at(value[i], at), at + ".");
        s.describe(c, i, r);
        r.check_unknown();
    }
}

SimConfig load_unprefixed(const json& config) {
    SimConfig c;
    JsonReader top(object_at(config, "config"), "");
    describe_top(c, top);
    for (const ConfigSection& s : config_sections()) {
        top.allow(s.key);
        if (auto it = config.find(s.key); it != config.end()) {
            if (s.admit) s.admit(config, c);
            for (const auto& [key, why] : s.unread_keys)
                if (it->is_object() && it->contains(key))
                    throw ConfigError(s.key + "." + key + ": " + why + ": drop it");
            read_section(s, *it, c);
        }
        if (s.settle) s.settle(config, c);
    }
    top.allow("overrides");
    if (auto it = config.find("overrides"); it != config.end()) load_overrides(*it, c);
    top.allow("devices");
    top.allow("workloads");
    top.allow("comment");     // free text for the config's author
    if (auto it = config.find("comment"); it != config.end() && !it->is_string())
        throw ConfigError("comment: expected a string, found " + json_type_name(*it));
    top.allow("provenance");  // where fitted values came from (docs/calibration.md)
    top.allow("explain");     // cidsim explain's section; a run ignores it
    // Read by other commands (reproduce, explain), yet of their shape here:
    // `--set explain=5` is nonsense to every reader.
    for (const char* key : {"provenance", "explain"})
        if (auto it = config.find(key); it != config.end() && !it->is_object())
            throw ConfigError(std::string(key) + ": expected an object, found " +
                              json_type_name(*it));
    top.allow("platform");    // applied by with_platform()
    c.platform = config.value("platform", std::string(kDefaultPlatform));
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
            if (!d.vm_keys)
                for (const char* key : {"assigned_to", "host_handler"})
                    if ((*it)[i].contains(key))
                        throw ConfigError(at + "." + key + ": a key of a device assigned to a "
                                          "guest; this config runs none (a vm and vcpus, or a "
                                          "xen section, make one): drop it");
            r.check_unknown();
            // Read and ignored where it means nothing: refused.
            for (const auto& [key, why] : unread_device_keys(c, d))
                if ((*it)[i].contains(key))
                    throw ConfigError(at + "." + key + ": " + why);
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
                    (obj.contains("type") ? ", found " + show_json(json(w.type))
                                          : " (it is required), found none"));
            if (w.type == "trace") {
                r.allow("events");
                if (obj.contains("events")) w.events = obj["events"];
            }
            r.check_unknown();
            c.workloads.push_back(w);
        }
    }
    check_references(c);
    // The host's posted MSI reaches the host's own devices only: with every
    // device the guest's, a stated "posted" or handler would be printed but
    // never taken, and an unstated mode is remapping (as VT-d does for them).
    if (c.kvm_guest_owns_every_device()) {
        if (config.contains("mode") && config["mode"] == "posted")
            throw ConfigError("mode: \"posted\" is Linux's posted MSI on the host, and every "
                              "device is the KVM guest's (devices[].assigned_to), remapped by "
                              "VT-d (vm.irq_posting posts them into the vCPUs): drop mode, set "
                              "it to \"remappable\" or give the host a device");
        if (config.contains("handler"))
            throw ConfigError("handler: Linux's posted-MSI notification handler on the host; "
                              "every device is the KVM guest's (devices[].assigned_to), none "
                              "posted to the host, so it never runs: drop it");
        c.mode = RemapMode::Remappable;
    }
    check_consistency(c);
    return c;
}

// The named platform's values underneath everything the config sets: a
// config that names none runs on kDefaultPlatform, and says so.
json with_platform(const json& config) {
    if (!config.is_object()) return config;  // load_unprefixed names the problem
    // A Xen domain's vCPUs spend the xen section's costs: a stated Linux CPU
    // cost would act on the idle host CPU's timer tick alone. (Its lapic
    // stays: a timer period of 0 keeps that CPU quiet.)
    if (config.contains("xen"))
        for (const char* section : {"cpu", "overrides"})
            if (config.contains(section))
                throw ConfigError(std::string(section) +
                                  ": Linux's costs on an x86 host CPU; a Xen domain's vCPUs "
                                  "spend the xen section's (cidsim params xen), and the host's "
                                  "CPU only runs its timer: drop it");
    // A platform holds an x86 host's costs, which a POWER partition's idle
    // host never spends: it takes none, so that its config's x86 keys are
    // its own (the power section refuses them).
    const bool power = config.contains("power");
    std::string name = power ? kGenericPlatform : kDefaultPlatform;
    if (auto it = config.find("platform"); it != config.end()) {
        if (!it->is_string())
            throw ConfigError("platform: expected a platform name (" + join_keys(platform_names()) +
                              "), found " + json_type_name(*it));
        name = it->get<std::string>();
        // A guest beside the partition is the contradiction to name (the power
        // section does), not the guest's platform.
        const bool guest = config.contains("xen") || config.contains("vm") ||
                           config.contains("vcpus");
        if (power && !guest && name != kGenericPlatform)
            throw ConfigError("platform: \"" + name + "\" holds an x86 host's costs; a POWER "
                              "partition (power) takes none (its costs are power, xive and "
                              "power_line): drop it");
    }
    json merged = platform_values(name);
    overlay(merged, config);
    merged["platform"] = name;
    return merged;
}

std::vector<std::string> device_profile_names(const json& profiles) {
    std::vector<std::string> names;
    for (auto it = profiles.begin(); it != profiles.end(); ++it)
        if (it.value().is_object() && it.value().contains("device")) names.push_back(it.key());
    return names;
}

// The workload type ("nvme", "dsa") whose keys a profile's workload values are.
std::string profile_workload_type(const json& values) {
    for (const char* type : {"nvme", "dsa"}) {
        WorkloadConfig w;
        w.type = type;
        json described = json::array();
        Describer d(described);
        describe_workload(w, d);
        bool all = true;
        for (auto it = values.begin(); all && it != values.end(); ++it)
            all = std::any_of(described.begin(), described.end(),
                              [&](const json& e) { return e["key"] == it.key(); });
        if (all) return type;
    }
    return "";
}

// A device's name as the loader gives it: its own, else "dev<i>".
json device_name(const json& devices, size_t i) {
    const json& d = devices[i];
    return d.is_object() && d.contains("name") ? d["name"] : json("dev" + std::to_string(i));
}

// A device naming a profile of configs/rfc/devices.json ("profile":
// "nvme_pm174x") gets the profile's device values, and the workloads of the
// profile's type that drive it the profile's workload values, under their own
// keys. A key the config gives, null too, is the config's (the loader then
// names a wrong one): the profile's values are overlaid, not merge-patched.
json with_profiles(json config) {
    if (!config.is_object() || !config.contains("devices") || !config["devices"].is_array())
        return config;  // load_unprefixed names the problem
    json profiles;
    json& devices = config["devices"];
    for (size_t i = 0; i < devices.size(); ++i) {
        json& d = devices[i];
        if (!d.is_object() || !d.contains("profile")) continue;
        const std::string at = "devices[" + std::to_string(i) + "].profile";
        if (profiles.is_null()) profiles = read_json_file(default_devices_file());
        const std::vector<std::string> names = device_profile_names(profiles);
        const json& name = d["profile"];
        if (!name.is_string() || std::find(names.begin(), names.end(), name.get<std::string>()) == names.end())
            throw ConfigError(at + ": " + found_json(name) + " is not a device profile (" +
                              default_devices_file() + ": " + join_keys(names) + ")");
        const std::string profile_name = name.get<std::string>();
        const json& profile = profiles[profile_name];
        // The profiles file is data a user may edit (CIDSIM_DATA_DIR): a
        // part that is no object of values would be dropped without a word.
        const std::string in = at + ": " + default_devices_file() + ": " + profile_name + ".";
        for (const char* part : {"device", "workload"})
            if (!profile.contains(part) || !profile[part].is_object())
                throw ConfigError(in + part + ": expected an object of the profile's " + part +
                                  " values, found " +
                                  (profile.contains(part) ? show_json(profile[part]) : "none"));
        const json type = profile_workload_type(profile["workload"]);
        if (type == "")
            throw ConfigError(in + "workload: " + show_json(profile["workload"]) +
                              ": not the keys of an nvme or a dsa workload");
        json device = profile["device"];
        d.erase("profile");
        overlay(device, d);
        d = device;
        if (!config.contains("workloads") || !config["workloads"].is_array()) continue;
        // A name two devices share is the loader's error, not a workload's.
        const json own_name = device_name(devices, i);
        size_t same_name = 0;
        for (size_t k = 0; k < devices.size(); ++k) same_name += device_name(devices, k) == own_name;
        if (same_name > 1) continue;
        for (size_t k = 0; k < config["workloads"].size(); ++k) {
            json& w = config["workloads"][k];
            if (!w.is_object() || w.value("device", json()) != own_name) continue;
            const json wtype = w.value("type", json());
            if (wtype != "nvme" && wtype != "dsa") continue;
            if (wtype != type)
                throw ConfigError("workloads[" + std::to_string(k) + "].type: " + show_json(wtype) +
                                  " drives devices[" + std::to_string(i) + "] (" +
                                  show_json(own_name) + "), whose profile " +
                                  show_json(json(profile_name)) + " is for a " +
                                  show_json(type) + " workload");
            json workload = profile["workload"];
            overlay(workload, w);
            w = workload;
        }
    }
    return config;
}

// The value at `keys` in `doc` ("devices", "0", "name"), or nullptr.
const json* value_at(const json& doc, const std::vector<std::string>& keys) {
    const json* node = &doc;
    for (const std::string& k : keys) {
        if (node->is_object()) {
            const auto it = node->find(k);
            if (it == node->end()) return nullptr;
            node = &*it;
        } else if (node->is_array() && !k.empty() &&
                   k.find_first_not_of("0123456789") == std::string::npos && k.size() < 10 &&
                   std::stoul(k) < node->size()) {
            node = &(*node)[std::stoul(k)];
        } else {
            return nullptr;
        }
    }
    return node;
}

// Which included file of `path` states `value` at `keys` (the file itself
// wins, then the last include, as merge_includes overlays them): the chain
// `include "x.json": dir/x.json` to it, or nullopt when the file itself does
// or none does (the value came from a --set). `named`: the include of
// `path` the chain starts with, as written and as found.
std::optional<std::string> included_origin(const std::string& path,
                                           const std::vector<std::string>& keys,
                                           const json& value, int depth = 0,
                                           std::pair<std::string, std::string>* named = nullptr) {
    if (depth > 8) return std::nullopt;
    json doc;
    try {
        doc = read_json_file(path);
    } catch (const ConfigError&) {
        return std::nullopt;
    }
    if (!doc.is_object() || value_at(doc, keys)) return std::nullopt;
    const auto inc = doc.find("include");
    if (inc == doc.end()) return std::nullopt;
    const json files = inc->is_array() ? *inc : json::array({*inc});
    const std::string dir = path.find('/') == std::string::npos
                                ? std::string(".")
                                : path.substr(0, path.find_last_of('/'));
    for (auto f = files.rbegin(); f != files.rend(); ++f) {
        if (!f->is_string() || f->get<std::string>().empty()) continue;
        const std::string name = f->get<std::string>();
        const std::string file = name[0] == '/' ? name : dir + "/" + name;
        const std::string here = "include \"" + name + "\": " + file;
        if (named) *named = {name, file};
        if (const auto deeper = included_origin(file, keys, value, depth + 1))
            return here + ": " + *deeper;
        json included;
        try {
            included = read_json_file(file);
        } catch (const ConfigError&) {
            continue;
        }
        if (const json* v = value_at(included, keys)) {
            if (*v == value) return here;
            return std::nullopt;  // overridden after it was read: not this file's
        }
    }
    return std::nullopt;
}

// A device key its profile brought, not the config: the profile's error.
[[noreturn]] void rethrow_against_profile(const ConfigError& e, const json& config) {
    const std::string what = e.what();
    const std::vector<std::string> keys = error_key_segments(what);
    if (keys.size() == 3 && keys[0] == "devices") {
        const json* device = value_at(config, {keys[0], keys[1]});
        if (device && device->is_object() && device->contains("profile") &&
            !device->contains(keys[2])) {
            std::string why = what.substr(what.find(": ") + 2);
            if (const size_t drop = why.rfind(": drop it"); drop != std::string::npos &&
                                                            drop + 9 == why.size())
                why = why.substr(0, drop) + ": name another profile, or none";
            throw ConfigError("devices[" + keys[1] + "].profile: " +
                              show_json((*device)["profile"]) + " (" + default_devices_file() +
                              ") sets " + keys[2] + ": " + why);
        }
    }
    throw e;
}

}  // namespace

bool takes_platform_value(const json& config, const std::string& key) {
    if (config.contains("power")) return false;
    // A Xen domain's idle host CPU spends them, which no figure of the domain reads.
    const std::string section = key.substr(0, key.find('.'));
    return !config.contains("xen") || (section != "cpu" && section != "lapic");
}

void check_included_platform(const json& config, const json& included) {
    if (!included.is_null() && config.is_object() && config.contains("platform") &&
        config["platform"] != included)
        throw ConfigError("platform: " + show_json(config["platform"]) +
                          ", but an include brings platform " + show_json(included) +
                          "'s values, which would run under the other name: name platform " +
                          show_json(included) + " or none (the include's), or drop the include");
}

SimConfig load_config(const json& config, const std::string& source) {
    try {
        try {
            if (!source.empty()) check_included_platform(config, included_platform(source));
            return load_unprefixed(with_platform(with_profiles(config)));
        } catch (const ConfigError& e) {
            rethrow_against_profile(e, config);
        }
    } catch (const ConfigError& e) {
        if (source.empty()) throw;
        // A key an included file states is that file's error when the file
        // has it alone (told as that file tells it, through its own
        // includes); else what is added to it clashes with it.
        const std::string what = e.what();
        const std::vector<std::string> keys = error_key_segments(what);
        std::pair<std::string, std::string> included;  // as named, as found
        if (const json* value = value_at(config, keys); value && !keys.empty())
            if (const auto origin = included_origin(source, keys, *value, 0, &included)) {
                std::string alone;
                try {
                    (void)load_config(read_config_file(included.second), included.second);
                } catch (const BadInput& f) {
                    alone = f.what();
                }
                if (alone.find(what) != std::string::npos)
                    throw ConfigError(source + ": include \"" + included.first + "\": " + alone);
                throw ConfigError(source + ": " + what + " (with what is added to " + *origin +
                                  (alone.empty() ? ", which loads alone)" : ")"));
            }
        throw ConfigError(source + ": " + what);
    }
}

SetBlame blame_set(const std::string& what, size_t count, const std::string& prefix,
                   const std::function<std::optional<std::string>(size_t)>& error_with) {
    // The --set after the longest run of sets that still loads: one that
    // broke the check of another key (xen.vcpus that of xen.sockets) too.
    // Sought from the end, where it mostly is: a refusal costs few loads.
    SetBlame blame{0, false};
    for (size_t k = count; k-- > 1;)
        if (!error_with(k)) {
            blame.set = k;
            break;
        }
    const auto broke = error_with(blame.set + 1);
    blame.broke_its_key = !broke || error_key_segments(without_prefix(*broke, prefix)) ==
                                        error_key_segments(without_prefix(what, prefix));
    return blame;
}

void rethrow_against_sets(const ConfigError& e, const json& file, const std::string& source,
                          const std::vector<std::string>& sets) {
    const auto error_with = [&](size_t n) -> std::optional<std::string> {
        json config = file;
        for (size_t i = 0; i < n; ++i) apply_override(config, sets[i]);
        try {
            load_config(config, source);
            return std::nullopt;
        } catch (const ConfigError& f) {
            return std::string(f.what());
        }
    };
    const std::string what = e.what(), prefix = source + ": ";
    if (error_with(0)) {
        // The file fails alone: a --set that gave the key the error names owns it.
        const std::string told = against_sets(what, source, sets);
        if (told != what) throw ConfigError(told);
        throw e;
    }
    // The error is the final config's (one a later --set fixed is no error).
    if (sets.empty()) throw e;
    const SetBlame blame = blame_set(what, sets.size(), prefix, error_with);
    if (!blame.broke_its_key) {
        const std::string told = against_sets(what, source, sets);
        if (told != what) throw ConfigError(told);
    }
    throw ConfigError("--set " + sets[blame.set] + ": " + without_prefix(what, prefix));
}

json effective_config(json file, const std::vector<std::string>& sets, const std::string& source) {
    for (const std::string& s : sets) apply_override(file, s);
    return effective_config(load_config(file, source));
}

json effective_config(const SimConfig& config) {
    SimConfig c = config;  // visitors take non-const references
    json out;
    out["platform"] = c.platform;
    JsonWriter top(out);
    describe_top(c, top);
    out["devices"] = json::array();
    for (DeviceConfig& d : c.devices) {
        json dev;
        JsonWriter w(dev);
        d.describe(w);
        for (const auto& unread : unread_device_keys(c, d)) dev.erase(unread.first);
        out["devices"].push_back(dev);
    }
    for (const ConfigSection& s : config_sections()) {
        if (s.present && !s.present(c)) continue;
        if (!s.max_entries) {
            json section = json::object();
            JsonWriter w(section);
            s.describe(c, 0, w);
            for (const auto& unread : s.unread_keys) section.erase(unread.first);
            out[s.key] = section;
            continue;
        }
        out[s.key] = json::array();
        for (size_t i = 0; i < s.entries(c); ++i) {
            json entry;
            JsonWriter w(entry);
            s.describe(c, i, w);
            out[s.key].push_back(entry);
        }
    }
    // A POWER partition has no x86 interrupt mode and spends no x86 host's
    // costs: its loader refuses them.
    if (c.power_machine) {
        out.erase("mode");
        for (const char* section : kIdleX86HostCostSections) out.erase(section);
        out.update(idle_x86_host());
    }
    // Linux's posted-MSI handler never runs (xen_sections); the host CPU's
    // costs are the platform's, which the config names (with_platform).
    if (c.xen_guest)
        for (const char* section : {"handler", "cpu"}) out.erase(section);
    if (c.kvm_guest_owns_every_device()) out.erase("handler");
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
        // Keys of the document rather than of a Params struct.
        auto key = [&top](const char* name, const char* type, const char* desc) {
            top.push_back({{"key", name}, {"type", type}, {"unit", ""}, {"default", nullptr},
                           {"min", nullptr}, {"max", nullptr}, {"description", desc}});
        };
        key("include", "paths",
            "a config file, or a list of them, relative to this one, merged underneath it in "
            "order, object by object; (limits) says how many");
        key("comment", "string", "free text for the config's author; nothing reads it");
        key("overrides", "objects", "costs per chip, socket, core or CPU: the overrides[] block");
        key("provenance", "object",
            "where each fitted or assumed value comes from: \"key\": {\"kind\", \"range\", "
            "\"source\"} (docs/calibration.md); cidsim params shows it, a run ignores it");
        key("explain", "object",
            "cidsim explain's scenario: the explain block (docs/teaching.md, 9. Your own "
            "scenario); a run ignores it");
        out["(top level)"] = top;
    }
    // A section's defaults are what a config naming no platform gets; where
    // the generic platform (the Params defaults) differs, it is said too.
    SimConfig on_default;
    const json platform = platform_values(kDefaultPlatform);
    for (const ConfigSection& s : config_sections())
        if (auto it = platform.find(s.key); it != platform.end()) {
            JsonReader r(object_at(*it, s.key), s.key + ".");
            s.describe(on_default, 0, r);
        }
    for (const ConfigSection& s : config_sections()) {
        json list = json::array(), generic = json::array();
        Describer d(list), g(generic);
        s.describe(on_default, 0, d);
        s.describe(c, 0, g);
        for (size_t i = 0; i < list.size() && i < generic.size(); ++i) {
            if (list[i]["default"] != generic[i]["default"]) {
                list[i]["generic_default"] = generic[i]["default"];
                list[i]["description"] = list[i]["description"].get<std::string>() +
                                         " [generic: " + generic[i]["default"].dump() + "]";
            }
            if (const char* src = s.source ? s.source(list[i]["key"].get<std::string>()) : nullptr)
                list[i]["description"] = list[i]["description"].get<std::string>() + ". " + src;
        }
        for (const auto& unread : s.unread_keys)
            list.erase(std::remove_if(list.begin(), list.end(),
                                      [&](const json& e) { return e["key"] == unread.first; }),
                       list.end());
        out[s.max_entries ? s.key + "[]" : s.key] = list;
    }
    out["overrides[]"] = describe_overrides();
    DeviceConfig dev;
    dev.vm_keys = true;
    json devices = json::array();
    Describer dd(devices);
    dev.describe(dd);
    devices[0]["default"] = "dev<index>";
    nlohmann::json profile = {
        {"key", "profile"}, {"type", "choice"}, {"unit", ""}, {"default", nullptr},
        {"min", nullptr}, {"max", nullptr},
        {"description", "a device profile of configs/rfc/devices.json: its device values, and "
                        "its workload values for the workloads of its type (nvme or dsa) on "
                        "this device, lie under the keys the config sets"}};
    if (std::filesystem::exists(default_devices_file()))
        profile["allowed"] = device_profile_names(read_json_file(default_devices_file()));
    devices.insert(devices.begin() + 1, profile);
    out["devices[]"] = devices;
    for (const char* type : {"bursty", "nvme", "dsa", "periodic"}) {
        WorkloadConfig w;
        w.type = type;
        json list = json::array();
        Describer d(list);
        describe_workload(w, d);
        for (nlohmann::json& e : list)
            if (e["key"] == "type" || e["key"] == "device") {
                e["default"] = nullptr;
                e["required"] = true;
            }
        out[std::string("workloads[] (type ") + type + ")"] = list;
    }
    // A trace's events are a list of the document, no Params field.
    out["workloads[] (type trace)"] = json::array(
        {{{"key", "type"}, {"type", "choice"}, {"unit", ""}, {"default", nullptr},
          {"min", nullptr}, {"max", nullptr}, {"required", true},
          {"description", "trace: replays the MSIs listed in events"}},
         {{"key", "events"}, {"type", "events"}, {"unit", ""}, {"default", nullptr},
          {"min", nullptr}, {"max", nullptr}, {"required", true},
          {"description", "[[t_ns, \"device\", queue], ...]: an MSI of the named device's queue "
                          "at t_ns from the run's start (run.warmup_ns included), before its "
                          "end; (limits) says how many"}}});
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
    limit("included files", kMaxIncludedFiles,
          "files one config includes, directly or not, each time counted");
    limit("set bytes", kMaxSetBytes,
          "bytes of one key=value a sweep point or reproduce row runs with (one argument of "
          "its command: Linux's MAX_ARG_STRLEN)");
    limit("outstanding I/Os", kMaxOutstandingIos,
          "I/Os the workloads keep outstanding: NVMe jobs x iodepth plus DSA wq_depth, summed");
    limit("window records (MB)", size_t(kMaxWindowBytes / 1e6),
          "memory the windows of run.batches (2 or more) keep until the run ends: each about "
          "5 kB an x86 CPU or vCPU, 2 kB a vector and 16 kB an NVMe job");
    out["(limits)"] = limits;
    return out;
}

}  // namespace cidsim
