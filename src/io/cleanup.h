#pragma once
// What cidsim removes when it is interrupted: the temporary files of writes
// in progress (io/output_file.h) and scratch directories (cidsim reproduce).
// SIGINT, SIGTERM, SIGHUP and SIGPIPE (a reader of stdout or stderr gone:
// `cidsim reproduce ... | head`) remove them, then end the process by the same
// signal (so the caller still sees "killed by SIGINT"). The handler does
// only async-signal-safe work: the paths live in fixed slots, and a scratch
// directory (flat: files only) is emptied with getdents64/unlinkat.
#include <sys/types.h>

#include <string>

namespace cidsim {

void install_cleanup_handlers();
// In a forked child of `parent`, before it execs or runs: the parent's
// handlers back to the default, so a signal there never removes the
// parent's files, and the child killed when the parent dies (it exits 127
// at once when the parent died before it could ask). Async-signal-safe.
void become_child_of(pid_t parent);

// A slot for `path` (a file, or with `directory` a flat directory), removed
// on a signal until released; -1 when every slot is taken or the path is
// too long (it is then only removed on a normal exit).
int register_cleanup(const std::string& path, bool directory);
void release_cleanup(int slot);

// RAII: registers a path for removal on a signal while it lives.
class CleanupGuard {
public:
    CleanupGuard(const std::string& path, bool directory)
        : m_slot(register_cleanup(path, directory)) {}
    ~CleanupGuard() { release_cleanup(m_slot); }
    CleanupGuard(const CleanupGuard&) = delete;
    CleanupGuard& operator=(const CleanupGuard&) = delete;

private:
    int m_slot;
};

}  // namespace cidsim
