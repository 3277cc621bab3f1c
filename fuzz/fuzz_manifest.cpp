// libFuzzer target: `cidsim collect`'s reading of a sweep manifest
// (DIR/sweep.json) on arbitrary bytes, with no point results present. It
// must give a table or throw BadInput naming the file and key; anything
// else (a crash, another exception) is a bug.
#include <filesystem>

#include <systemc>  // declares sc_main with C linkage

#include "fuzz_file_input.h"
#include "io/bad_input.h"
#include "sweep/collect.h"

int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    cidsim_fuzz::write_input("sweep.json", data, size);
    try {
        (void)cidsim::collect_sweep(cidsim_fuzz::scratch_dir(), {}, false);
    } catch (const cidsim::BadInput&) {
    }
    return 0;
}
