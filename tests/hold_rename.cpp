// A preload library for test_signals: it holds a cidsim process at the one
// moment a killed write could leave its temporary file behind, the rename
// of a finished "X.tmp.PID" onto X. With CIDSIM_TEST_HOLD_RENAME=MARKER set,
// rename() of such a file creates MARKER and waits for the test's signal
// before renaming; without it, rename() is the C library's.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

extern "C" int rename(const char* from, const char* to) {
    using Rename = int (*)(const char*, const char*);
    static const Rename real = reinterpret_cast<Rename>(::dlsym(RTLD_NEXT, "rename"));
    const char* marker = std::getenv("CIDSIM_TEST_HOLD_RENAME");
    if (marker && std::strstr(from, ".tmp.")) {
        const int fd = ::open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) ::close(fd);
        // Until the test's signal ends the process, or, while cidsim holds
        // signals over its renames, is pending (then the rename goes on);
        // bounded, so a test that never sends its signal still ends.
        for (int i = 0; i < 6000; ++i) {
            sigset_t pending;
            if (::sigpending(&pending) == 0 && (sigismember(&pending, SIGINT) ||
                                                sigismember(&pending, SIGTERM) ||
                                                sigismember(&pending, SIGHUP)))
                break;
            ::usleep(10000);
        }
    }
    return real(from, to);
}
