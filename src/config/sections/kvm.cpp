// A KVM guest's sections (systems.md A, B): `vm`, the hypervisor's costs,
// and `vcpus`, one entry per vCPU, each on its own pCPU after topology.cpus.
#include "config/sections.h"

#include "config/config_error.h"

namespace cidsim {

std::vector<ConfigSection> kvm_sections() {
    ConfigSection vm = object_section("vm", "kvm", &SimConfig::vm);
    vm.present = [](const SimConfig& c) { return c.has_vm(); };

    ConfigSection vcpus;
    vcpus.key = "vcpus";
    vcpus.family = "kvm";
    vcpus.describe = [](SimConfig& c, size_t i, ParamVisitor& v) {
        if (i == c.vcpus.size()) c.vcpus.emplace_back();
        c.vcpus[i].describe(v);
    };
    vcpus.present = vm.present;
    vcpus.settle = [](const nlohmann::json& config, SimConfig&) {
        // Beside a Xen domain or a POWER partition its own check names the clash.
        if (config.contains("vm") && !config.contains("vcpus") && !config.contains("xen") &&
            !config.contains("power"))
            throw ConfigError("vm: the VM section needs vcpus (an array of at least one vCPU)");
    };
    vcpus.max_entries = kMaxVcpus;
    vcpus.entry_noun = "vCPUs";
    vcpus.entries = [](const SimConfig& c) { return c.vcpus.size(); };
    return {vm, vcpus};
}

}  // namespace cidsim
