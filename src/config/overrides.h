#pragma once
// A config's `overrides`: entries that set some CPUs' (or chips') costs
// apart from the base sections. Read and checked here against the machine
// the config builds (the POWER partition's chips, cores and cpulists, or the
// x86 host's sockets, cores and cpulists); kept as given and applied over
// the base sections when the CPUs are built, so that whatever sets the base
// (the platform, --set, a sweep) stays underneath every key they leave alone.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/sim_config.h"

namespace cidsim {

// Reads `overrides` (after the topology and power sections: the layout is known).
void load_overrides(const nlohmann::json& list, SimConfig& c);
// The x86 host CPUs one override selects, ascending (sockets and cores as
// the topology numbers them); `at` prefixes its errors.
std::vector<unsigned> x86_override_cpus(const Override& o, const TopologyParams& t,
                                        const std::string& at);
// Each POWER CPU's params: the base `power` section with every entry of
// config.overrides selecting that CPU applied in order. Empty when there
// are no overrides (every CPU then shares config.power).
std::vector<PowerParams> power_cpu_params(const SimConfig& config);
// Each chip's XIVE params likewise (empty without a chip's xive override).
std::vector<XiveParams> xive_chip_params(const SimConfig& config);
// Each x86 host CPU's `cpu` and `lapic` params likewise (empty without
// overrides of that section).
std::vector<CpuCoreParams> x86_cpu_params(const SimConfig& config);
std::vector<LocalApicParams> x86_lapic_params(const SimConfig& config);
// An override entry's keys, for `cidsim params` ("overrides[]").
nlohmann::json describe_overrides();

}  // namespace cidsim
