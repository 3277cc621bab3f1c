// libFuzzer target: the sweep-spec loader on arbitrary bytes. Parsing the
// spec and expanding its points (each point's config through the config
// loader) must accept the input or throw ConfigError; anything else is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "config/config_loader.h"
#include "sweep/sweep_spec.h"

int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const nlohmann::json j = cidsim::parse_config_text(text, "fuzz-spec");
        const cidsim::SweepSpec spec = cidsim::parse_sweep_spec(j, "/nonexistent");
        size_t points = std::max<size_t>(spec.seeds.size(), 1);
        for (const cidsim::SweepDimension& d : spec.dimensions) points *= d.steps();
        if (points <= 64) (void)cidsim::expand_points(spec);  // each point loads a config
    } catch (const cidsim::ConfigError&) {
    }
    return 0;
}
