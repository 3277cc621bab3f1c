// cidsim: argument dispatch only; each subcommand lives in src/cli/.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include <systemc>

#include "cli/commands.h"
#include "io/bad_input.h"
#include "io/cleanup.h"
#include "io/data_files.h"
#include "io/printable_stream.h"
#include "version.h"

using namespace cidsim;

namespace {

struct Command {
    const char* name;
    int (*fn)(int, char**);
    const char* help;
};

const Command kCommands[] = {
    {"run", cidsim::cmd_run, "simulate one config and print/write its metrics"},
    {"params", cidsim::cmd_params, "list every parameter with unit, default and range"},
    {"reproduce", cidsim::cmd_reproduce,
     "regenerate the published tables (configs/rfc/, configs/vm/)"},
    {"sweep", cidsim::cmd_sweep, "run a parameter sweep (local pool), or emit its commands"},
    {"collect", cidsim::cmd_collect, "merge a sweep's results into one CSV/JSON table"},
    {"explain", cidsim::cmd_explain, "show notification suppression and its races step by step"},
    {"bench", cidsim::cmd_bench, "simulation speed benchmark, side by side with the SystemC floor"},
};

// SystemC prints its reports (warnings, info) on stdout, where they would
// mix with results; they go to stderr, the rest of its handling unchanged.
void report_to_stderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
    if (actions & sc_core::SC_DISPLAY)
        std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
    sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

void usage(std::ostream& out) {
    out << "usage: cidsim COMMAND [options]   (cidsim COMMAND --help for its options)\n"
           "commands:\n";
    for (const Command& c : kCommands) out << "  " << c.name << "\t" << c.help << "\n";
    out << "cidsim --version says which cidsim this is (the commit it was built from)\n";
}

// Results printed into a full disk or a closed pipe are lost: that is a
// failed write (1), not a success.
int stdout_written(const std::string& command, int status) {
    errno = 0;
    if ((std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) &&
        status == cidsim::kExitOk) {
        // Failed earlier, its errno since overwritten: one more byte (to
        // output already cut short) asks the system for the reason.
        if (errno == 0 && ::write(STDOUT_FILENO, "\n", 1) == 1) errno = 0;
        std::cerr << command << ": writing to standard output failed"
                  << (errno ? std::string(": ") + std::strerror(errno) : "") << "\n";
        return cidsim::kExitFailure;
    }
    return status;
}

// A standard stream the caller closed (`>&-`) would hand its descriptor to
// the next file cidsim opens (a sweep's lock, a result), which would then
// receive what was meant for the stream. Each gets /dev/null opened the
// wrong way round instead, so writing to it fails as writing to a closed
// stream should.
void hold_closed_standard_streams() {
    for (int fd = 0; fd <= 2; ++fd)
        if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF)
            ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
    cidsim::filter_standard_error();
    const bool help = argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"));
    if (argc < 2 || (help && argc == 2)) {
        usage(argc < 2 ? std::cerr : std::cout);
        return argc < 2 ? cidsim::kExitBadInput : stdout_written("cidsim --help", cidsim::kExitOk);
    }
    if ((help || !std::strcmp(argv[1], "--version")) && argc > 2) {
        std::cerr << "cidsim: " << argv[1] << " takes nothing after it, found '" << argv[2]
                  << "' (cidsim COMMAND --help for a command's options)\n";
        return cidsim::kExitBadInput;
    }
    // A folder the user named for the shipped files that is not one would
    // otherwise be passed over for the next place, without a word. Empty is
    // unset (`CIDSIM_DATA_DIR= cidsim ...` switches it off).
    if (const char* data = std::getenv("CIDSIM_DATA_DIR"); data && *data) {
        std::error_code ec;
        std::string wrong;
        if (!std::filesystem::is_directory(data, ec))
            wrong = ec && ec != std::errc::no_such_file_or_directory ? ec.message()
                                                                     : "not a directory";
        else if (!std::filesystem::is_directory(std::filesystem::path(data) / "configs", ec))
            wrong = "holds no configs/ folder";
        if (!wrong.empty()) {
            std::cerr << "cidsim: CIDSIM_DATA_DIR=" << data << ": " << wrong
                      << " (it names the folder of the shipped tables, profiles and scenarios, "
                      << "the one holding configs/; unset it for the installed ones)\n";
            return cidsim::kExitBadInput;
        }
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "cidsim " << cidsim::version() << "\n"
                  << "shipped tables, profiles and scenarios: "
                  << cidsim::data_file("configs") << "\n";
        return stdout_written("cidsim --version", cidsim::kExitOk);
    }
    sc_core::sc_report_handler::set_handler(report_to_stderr);
    install_cleanup_handlers();
    for (const Command& c : kCommands)
        if (!std::strcmp(argv[1], c.name)) {
            // The last line of defence: an exception a command did not
            // expect is reported as that command's failure, not as
            // SystemC's "(E549) uncaught exception".
            try {
                return stdout_written(std::string("cidsim ") + c.name, c.fn(argc - 1, argv + 1));
            } catch (const cidsim::BadInput& e) {
                std::cerr << "cidsim " << c.name << ": " << e.what() << "\n";
                return cidsim::kExitBadInput;
            } catch (const std::exception& e) {
                std::cerr << "cidsim " << c.name << ": failed: " << cidsim::failure_text(e) << "\n";
                return cidsim::kExitFailure;
            }
        }
    std::cerr << "cidsim: unknown command '" << argv[1] << "'\n";
    usage(std::cerr);
    return cidsim::kExitBadInput;
}

// Our own main, so SystemC's banner (printed when the kernel starts, before
// sc_main) stays out of results printed to stdout.
int main(int argc, char* argv[]) {
    hold_closed_standard_streams();
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
