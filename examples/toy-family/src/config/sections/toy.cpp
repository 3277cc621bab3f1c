// The toy family's one config section, `toy`.
#include "config/sections.h"

namespace cidsim {

std::vector<ConfigSection> toy_sections() {
    ConfigSection toy = object_section("toy", "toy", &SimConfig::toy);
    toy.present = [](const SimConfig& c) { return c.toy_machine; };
    toy.admit = [](const nlohmann::json&, SimConfig& c) { c.toy_machine = true; };
    return {toy};
}

}  // namespace cidsim
