#pragma once
// Runs this binary again as a child (bench's measured runs, explain's
// variants: SystemC elaborates one system per process) and captures what
// it prints. The child dies with its parent (PR_SET_PDEATHSIG): a parent
// ended by a signal leaves no run going on unseen.
#include <string>
#include <vector>

namespace cidsim {

// How a child ended: "exit status 2" or "killed by signal Terminated".
std::string exit_text(int exit_code, int signal);

struct ChildRun {
    int exit_code = 0;  // when it exited
    int signal = 0;     // when a signal ended it (then exit_code is meaningless)
    long max_rss_kb = 0;
    std::string out;  // its stdout

    bool ok() const { return signal == 0 && exit_code == 0; }
    std::string outcome() const { return exit_text(exit_code, signal); }
};

// `args` follow the program name (args[0] is passed as argv[0]). Throws
// std::runtime_error when no child could be started.
ChildRun run_self(const std::vector<std::string>& args);

}  // namespace cidsim
