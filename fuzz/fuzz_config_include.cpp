// libFuzzer target: a config file whose "include" names another file, both
// from the input (split at the first line "----"): read_config_file's merge
// of includes (cycles, depth, types) and the loader after it must accept
// the pair or throw ConfigError; anything else is a bug.
#include <string>

#include <systemc>  // declares sc_main with C linkage

#include "config/config_loader.h"
#include "fuzz_file_input.h"

int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const size_t cut = text.find("\n----\n");
    const std::string top = cut == std::string::npos ? text : text.substr(0, cut);
    const std::string included = cut == std::string::npos ? "{}" : text.substr(cut + 6);
    cidsim_fuzz::write_input("inc.json", reinterpret_cast<const uint8_t*>(included.data()),
                             included.size());
    const std::string path = cidsim_fuzz::write_input(
        "top.json", reinterpret_cast<const uint8_t*>(top.data()), top.size());
    try {
        const nlohmann::json j = cidsim::read_config_file(path);
        (void)cidsim::load_config(j, path);
    } catch (const cidsim::ConfigError&) {
    }
    return 0;
}
