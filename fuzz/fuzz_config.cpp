// libFuzzer target: the config loader on arbitrary bytes. Parsing, every
// validation and the effective-config writer must either accept the input
// or throw ConfigError: any other exception, crash, leak, sanitizer report
// or hang is a bug. No SystemC elaboration happens (load_config only fills
// Params), so one process can try millions of inputs.
#include <cstddef>
#include <cstdint>
#include <string>

#include "config/config_loader.h"

// libsystemc.so refers to sc_main; libFuzzer provides main.
int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string doc(reinterpret_cast<const char*>(data), size), assignment;
    // An input whose first line looks like "key.path=value" exercises --set
    // on the JSON document that follows.
    const size_t eol = doc.find('\n');
    if (eol != std::string::npos && doc[0] != '{' && doc.find('=') < eol) {
        assignment = doc.substr(0, eol);
        doc.erase(0, eol + 1);
    }
    try {
        nlohmann::json j = cidsim::parse_config_text(doc, "fuzz-input");
        if (!assignment.empty()) cidsim::apply_override(j, assignment);
        const cidsim::SimConfig config = cidsim::load_config(j, "fuzz-input");
        (void)cidsim::effective_config(config).dump();
    } catch (const cidsim::ConfigError&) {
        // Rejected with a message: the expected outcome for most inputs.
    }
    return 0;
}
