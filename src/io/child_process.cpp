#include "io/child_process.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include "io/cleanup.h"

namespace cidsim {

std::string exit_text(int exit_code, int signal) {
    return signal ? std::string("killed by signal ") + strsignal(signal)
                  : "exit status " + std::to_string(exit_code);
}

ChildRun run_self(const std::vector<std::string>& args) {
    std::vector<std::string> copy = args;
    std::vector<char*> argv;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw std::runtime_error(std::string("cannot start a child process: ") +
                                 std::strerror(errno));
    }
    if (pid == 0) {  // only async-signal-safe calls until exec
        become_child_of(parent);
        ::dup2(fds[1], STDOUT_FILENO);
        ::close(fds[0]);
        ::close(fds[1]);
        ::execv("/proc/self/exe", argv.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    ChildRun r;
    char buf[65536];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        r.out.append(buf, size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    rusage usage{};
    while (::wait4(pid, &status, 0, &usage) < 0)
        if (errno != EINTR) throw std::runtime_error(std::string("wait4: ") + std::strerror(errno));
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    else r.exit_code = WEXITSTATUS(status);
    r.max_rss_kb = usage.ru_maxrss;
    return r;
}

}  // namespace cidsim
