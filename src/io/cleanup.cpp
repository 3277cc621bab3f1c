#include "io/cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <iterator>

namespace cidsim {

namespace {

constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;

struct Slot {
    std::atomic<int> state{0};  // 0 free, 1 being filled, 2 armed
    bool directory = false;
    char path[kPathMax];
};
Slot g_slots[kSlots];

// Empties a flat directory and removes it, with system calls only.
void remove_flat_dir(const char* path) {
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        alignas(8) char buf[8192];
        long n;
        while ((n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
            for (long off = 0; off < n;) {
                struct Entry {
                    ino64_t ino;
                    off64_t off;
                    unsigned short reclen;
                    unsigned char type;
                    char name[1];
                };
                const Entry* e = reinterpret_cast<const Entry*>(buf + off);
                if (std::strcmp(e->name, ".") != 0 && std::strcmp(e->name, "..") != 0)
                    ::unlinkat(fd, e->name, 0);
                off += e->reclen;
            }
        }
        ::close(fd);
    }
    ::rmdir(path);
}

void on_signal(int sig) {
    for (Slot& s : g_slots) {
        if (s.state.load() != 2) continue;
        if (s.directory) remove_flat_dir(s.path);
        else ::unlink(s.path);
    }
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

}  // namespace

namespace {
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
bool g_installed[std::size(kCleanupSignals)];  // by install_cleanup_handlers
}  // namespace

void install_cleanup_handlers() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < std::size(kCleanupSignals); ++i) {
        struct sigaction old;
        // A signal ignored on entry (nohup, a shell's background job) stays ignored.
        if (::sigaction(kCleanupSignals[i], nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        g_installed[i] = ::sigaction(kCleanupSignals[i], &sa, nullptr) == 0;
    }
}

void become_child_of(pid_t parent) {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < std::size(kCleanupSignals); ++i)
        if (g_installed[i]) ::sigaction(kCleanupSignals[i], &sa, nullptr);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
}

int register_cleanup(const std::string& path, bool directory) {
    if (path.size() >= kPathMax) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
        g_slots[i].directory = directory;
        std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
        g_slots[i].state.store(2);
        return i;
    }
    return -1;
}

void release_cleanup(int slot) {
    if (slot >= 0 && slot < kSlots) g_slots[slot].state.store(0);
}

}  // namespace cidsim
