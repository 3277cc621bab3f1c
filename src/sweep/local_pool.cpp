#include "sweep/local_pool.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>
#include <thread>

#include "io/child_process.h"
#include "io/cleanup.h"

namespace cidsim {

std::string outcome_text(const PoolOutcome& o) { return exit_text(o.exit_code, o.signal); }

namespace {

using Clock = std::chrono::steady_clock;

// Between fork and exec only async-signal-safe calls: everything the child
// needs is prepared by the parent.
[[noreturn]] void exec_child(char* const* argv, const char* stderr_path, pid_t parent) {
    become_child_of(parent);
    // A fresh file: truncating the name in place would empty every other
    // name of a hard-linked file, and follow a symbolic link planted since.
    ::unlink(stderr_path);
    const int err = ::open(stderr_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
        ::dup2(null, STDIN_FILENO);
        ::dup2(null, STDOUT_FILENO);
    }
    if (err >= 0) ::dup2(err, STDERR_FILENO);
    ::execv(argv[0], argv);
    const char msg[] = "cidsim sweep: exec failed: ";
    (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
    const char* why = std::strerror(errno);
    (void)!::write(STDERR_FILENO, why, std::strlen(why));
    (void)!::write(STDERR_FILENO, "\n", 1);
    ::_exit(127);
}

}  // namespace

void run_pool(const std::vector<PoolJob>& jobs, unsigned width,
              const std::function<void(size_t, const PoolOutcome&)>& on_done,
              const std::function<void()>& on_tick, std::chrono::milliseconds tick) {
    std::vector<PoolJob> copy = jobs;
    run_pool_growing(copy, width, on_done, on_tick, tick);
}

void run_pool_growing(std::vector<PoolJob>& jobs, unsigned width,
                      const std::function<void(size_t, const PoolOutcome&)>& on_done,
                      const std::function<void()>& on_tick, std::chrono::milliseconds tick) {
    if (width == 0) width = 1;
    struct Running {
        size_t job;
        Clock::time_point start;
    };
    std::map<pid_t, Running> running;
    size_t next = 0;
    const pid_t self = ::getpid();
    auto last_tick = Clock::now();

    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && running.size() < width) {
            const PoolJob& job = jobs[next];
            std::vector<char*> argv;
            for (const std::string& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            const pid_t pid = ::fork();
            if (pid < 0) {
                if (running.empty()) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
                break;  // out of processes for now: wait for one to end
            }
            if (pid == 0) exec_child(argv.data(), job.stderr_path.c_str(), self);
            running[pid] = {next++, Clock::now()};
        }

        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            auto it = running.find(pid);
            if (it == running.end()) continue;  // not one of ours
            PoolOutcome out;
            if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
            else out.exit_code = WEXITSTATUS(status);
            out.seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
            const size_t job = it->second.job;
            running.erase(it);
            on_done(job, out);
            continue;
        }
        if (pid < 0 && errno != EINTR && errno != ECHILD)
            throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
        if (Clock::now() - last_tick >= tick) {
            on_tick();
            last_tick = Clock::now();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

unsigned available_cpus() {
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return static_cast<unsigned>(CPU_COUNT(&set));
    const unsigned n = std::thread::hardware_concurrency();
    return n ? n : 1;
}

}  // namespace cidsim
