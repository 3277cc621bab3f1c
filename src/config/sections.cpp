#include "config/sections.h"

namespace cidsim {

const std::vector<ConfigSection>& config_sections() {
    static const std::vector<ConfigSection> all = [] {
        std::vector<ConfigSection> s = {object_section("run", "common", &SimConfig::run)};
        for (std::vector<ConfigSection> family :
             {x86_sections(), kvm_sections(), xen_sections(), power_sections()})
            s.insert(s.end(), family.begin(), family.end());
        return s;
    }();
    return all;
}

}  // namespace cidsim
