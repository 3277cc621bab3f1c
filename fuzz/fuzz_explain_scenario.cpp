// libFuzzer target: the explain-scenario reader on arbitrary bytes. It must
// accept the scenario or throw BadInput (ConfigError names the key);
// anything else (a crash, another exception) is a bug.
#include <systemc>  // declares sc_main with C linkage

#include "fuzz_file_input.h"
#include "io/bad_input.h"
#include "report/explain.h"

int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = cidsim_fuzz::write_input("scenario.json", data, size);
    try {
        (void)cidsim::load_scenario(path);
    } catch (const cidsim::BadInput&) {
    }
    return 0;
}
