// The x86 host's sections: its topology and the Params of its blocks (every
// config has them; a guest's pCPUs and an idle host beside a POWER
// partition take them too).
#include "config/sections.h"

namespace cidsim {

std::vector<ConfigSection> x86_sections() {
    return {object_section("topology", "x86", &SimConfig::topology),
            object_section("cpu", "x86", &SimConfig::cpu),
            object_section("handler", "x86", &SimConfig::handler),
            object_section("lapic", "x86", &SimConfig::lapic),
            object_section("iommu", "x86", &SimConfig::iommu),
            object_section("pid_line", "x86", &SimConfig::pid_line),
            object_section("root_port", "x86", &SimConfig::root_port)};
}

}  // namespace cidsim
