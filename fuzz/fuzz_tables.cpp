// libFuzzer target: `cidsim reproduce --tables FILE`'s reader on arbitrary
// bytes (the rows' configs named by the input need not exist: a row whose
// config is missing is refused by name). It must give the tables or throw
// BadInput naming the file and key; anything else is a bug.
#include <systemc>  // declares sc_main with C linkage

#include "fuzz_file_input.h"
#include "io/bad_input.h"
#include "report/tables.h"

int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = cidsim_fuzz::write_input("tables.json", data, size);
    try {
        (void)cidsim::load_tables(path);
    } catch (const cidsim::BadInput&) {
    }
    return 0;
}
