// cidsim: argument dispatch only; each subcommand lives in src/cli/.
#include <cstdlib>
#include "version.h"
#include <cstring>
#include <iostream>

#include <systemc>

#include "cli/commands.h"

namespace {

struct Command {
    const char* name;
    int (*fn)(int, char**);
    const char* help;
};

const Command kCommands[] = {
    {"run", cidsim::cmd_run, "simulate one config and print/write its metrics"},
    {"params", cidsim::cmd_params, "list every parameter with unit, default and range"},
    {"reproduce", cidsim::cmd_reproduce, "regenerate the published tables (configs/rfc/)"},
    {"sweep", cidsim::cmd_sweep, "run a parameter sweep (local pool), or emit its commands"},
    {"collect", cidsim::cmd_collect, "merge a sweep's results into one CSV/JSON table"},
    {"explain", cidsim::cmd_explain, "show notification suppression and its races step by step"},
    {"bench", cidsim::cmd_bench, "simulation speed benchmark, side by side with the SystemC floor"},
};

void usage() {
    std::cerr << "usage: cidsim COMMAND [options]   (cidsim COMMAND --help for its options)\n"
                 "commands:\n";
    for (const Command& c : kCommands) std::cerr << "  " << c.name << "\t" << c.help << "\n";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        usage();
        return argc < 2 ? cidsim::kExitBadInput : cidsim::kExitOk;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "cidsim " << cidsim::version() << "\n";
        return cidsim::kExitOk;
    }
    for (const Command& c : kCommands)
        if (!std::strcmp(argv[1], c.name)) return c.fn(argc - 1, argv + 1);
    std::cerr << "cidsim: unknown command '" << argv[1] << "'\n";
    usage();
    return cidsim::kExitBadInput;
}

// Our own main, so SystemC's banner (printed when the kernel starts, before
// sc_main) stays out of results printed to stdout.
int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
