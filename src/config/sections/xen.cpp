// A Xen HVM domain's sections (systems.md C): `xen`, the domain and its
// hypervisor's costs, and `xen_line`, the cache-line costs of the box its
// lock and pirq lines live on, with their defaults and sources.
#include "config/sections.h"

#include <map>

#include "config/config_error.h"

namespace cidsim {

namespace {

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
    };
    const auto it = sources.find(key);
    return it == sources.end() ? nullptr : it->second;
}

// A 2018-era two-socket Intel server from public core-to-core figures
// (each one's source above): modified intervention in the socket
// miss + snoop_modified = 40 ns, across sockets + hop = 120 ns; the split
// is assumed.
}  // namespace

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

std::vector<ConfigSection> xen_sections() {
    const auto present = [](const SimConfig& c) { return c.xen_guest; };
    ConfigSection xen = object_section("xen", "xen", &SimConfig::xen);
    xen.present = present;
    xen.admit = [](const nlohmann::json& config, SimConfig& c) {
        if (c.has_vm() || config.contains("vm"))
            throw ConfigError("xen: a config runs a KVM guest (vm, vcpus) or a Xen one (xen), "
                              "not both");
        c.xen_guest = true;
        // The host's mode does not reach the domain's devices: a stated
        // "posted" would be printed but never taken.
        if (const auto mode = config.find("mode"); mode != config.end() && *mode == "posted")
            throw ConfigError("mode: \"posted\" is Linux's posted MSI on the host; a Xen "
                              "domain's devices are remapped by Xen (xen.variant \"intpost\" "
                              "posts them into the vCPUs): drop mode or set it to \"remappable\"");
        // The host's CPUs only keep time; the vCPUs' pCPUs are laid out by
        // xen.sockets, one core each: a host split into sockets or SMT threads
        // would be read and change nothing.
        if (const auto t = config.find("topology"); t != config.end() && t->is_object())
            for (const char* key : {"sockets", "threads_per_core"})
                // (A value of the wrong type is the topology reader's to name.)
                if (const auto k = t->find(key);
                    k != t->end() && k->is_number() && k->get<double>() >= 2)
                    throw ConfigError(std::string("topology.") + key + ": beside a Xen domain "
                                      "the host's CPUs only keep time, and the vCPUs' pCPUs are "
                                      "laid out by xen.sockets, one core each: drop it");
        // For the same reason Linux's posted-MSI notification handler never runs.
        if (config.contains("handler"))
            throw ConfigError("handler: Linux's posted-MSI notification handler on the host; a "
                              "Xen domain's devices are remapped by Xen, never posted to the "
                              "host, so it never runs: drop it");
    };
    // intpost delivers with VID, whose guest EOIs never exit, whatever EOI
    // mode the config states for the other variants: the effective config
    // says so, so a result never records a mode its run did not take.
    // Likewise its devices are remapped by Xen whatever mode is unstated:
    // the effective config says "remappable", which reads back.
    xen.settle = [](const nlohmann::json&, SimConfig& c) {
        if (!c.xen_guest) return;
        c.mode = RemapMode::Remappable;
        if (c.xen.variant == XenVariant::Intpost) c.xen.eoi = XenEoi::Virtualised;
    };
    ConfigSection line = object_section("xen_line", "xen", &SimConfig::xen_line);
    line.present = present;
    line.admit = [](const nlohmann::json&, SimConfig& c) {
        if (!c.xen_guest) throw ConfigError("xen_line: the Xen domain's line costs need a xen section");
    };
    line.source = xen_line_source;
    line.unread_keys = {
        {"same_core_ns", "each vCPU runs on a core of its own, so no SMT sibling supplies the "
                         "domain's lines"},
        {"device_rmw_ns", "no device writes the domain's lines (the lock and pirq lines are "
                          "the vCPUs')"}};
    return {xen, line};
}

}  // namespace cidsim
