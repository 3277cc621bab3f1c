#include "io/output_file.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "io/bad_input.h"
#include "io/cleanup.h"
#include "io/file_identity.h"
#include "io/input_file.h"

namespace cidsim {

namespace {

struct Claimed {
    std::string role;
    FileId id;
};
std::mutex g_mutex;
std::vector<Claimed> g_outputs;

std::string parent_of(const std::string& resolved) {
    const std::string dir = std::filesystem::path(resolved).parent_path().string();
    return dir.empty() ? "." : dir;
}

// "" when `target` (symlinks resolved) may be replaced by a regular file.
std::string type_problem(const std::string& target) {
    struct stat st;
    // Still a link after resolve_path: a loop, or a chain too long to follow.
    if (::lstat(target.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        return std::string("cannot write here: ") + std::strerror(ELOOP);
    if (::stat(target.c_str(), &st) != 0) return "";
    if (S_ISREG(st.st_mode)) return "";
    if (S_ISDIR(st.st_mode)) return "is a directory; expected a file name";
    if (S_ISFIFO(st.st_mode)) return "is a FIFO; cidsim writes only regular files";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return "is a device; cidsim writes only regular files";
    return "is not a regular file; cidsim writes only regular files";
}

// An input of this command (BadInput naming it), checked again at write
// time for inputs read after the claim.
void refuse_inputs(const std::string& role, const std::string& path, const FileId& id) {
    for (const FileId& in : inputs_so_far())
        if (same_file(in, id))
            throw BadInput(role + " " + path + ": this file is an input of this command (" +
                           in.resolved + "); refusing to overwrite it");
}

// `path` with `suffix` after its file name, the name cut to fit NAME_MAX:
// an output's temporary or probe file beside it.
std::string beside(const std::string& path, const std::string& suffix) {
    const size_t slash = path.rfind('/');
    const size_t base = slash == std::string::npos ? 0 : slash + 1;
    const size_t room = NAME_MAX > suffix.size() ? NAME_MAX - suffix.size() : 0;
    return path.size() - base <= room ? path + suffix : path.substr(0, base + room) + suffix;
}

}  // namespace

ForeignFile foreign_file(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(path, ec);
    if (fs::is_symlink(st))
        return {true, "a symbolic link (to " + fs::read_symlink(path, ec).string() + ")"};
    if (fs::exists(st) && !fs::is_regular_file(st))
        return {false, std::string("not a regular file (") +
                           (fs::is_directory(st) ? "a directory" : "a FIFO, socket or device") +
                           ")"};
    if (fs::is_regular_file(st) && fs::hard_link_count(path, ec) > 1)
        return {false, "a hard link (a file with another name too)"};
    return {};
}

void claim_output(const std::string& role, const std::string& path) {
    if (path.empty()) throw BadInput(role + ": expected a file name, found an empty string");
    // Many tools read "-" as standard output; here it would be a file of that name.
    if (path == "-")
        throw BadInput(role + " -: cidsim writes each output as a file of its own, not to "
                       "standard output (./- names a file called -)");
    // Renamed over, the file behind a stream (a shell's >> log) would lose
    // what it held, and what is printed after would go nowhere.
    for (const char* stream : {"/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/fd/",
                               "/proc/self/fd/", "/proc/thread-self/fd/"})
        if (path.rfind(stream, 0) == 0)
            throw BadInput(role + " " + path + ": a stream of this process, not a file; cidsim "
                           "writes each output as a file of its own");
    const FileId id = identify(path);
    if (const std::string p = type_problem(id.resolved); !p.empty())
        throw BadInput(role + " " + path + ": " + p);
    // Found only at the rename, after all the work: the probe below, its
    // name cut to fit, would not find it.
    if (const std::string name = std::filesystem::path(id.resolved).filename().string();
        name.size() > NAME_MAX)
        throw BadInput(role + " " + path + ": cannot write here: " + std::strerror(ENAMETOOLONG) +
                       " (a file name has at most " + std::to_string(NAME_MAX) + " bytes)");
    refuse_inputs(role, path, id);
    // By its own name, the file behind a redirection (`> log`): renamed
    // over, what the command prints after would go nowhere.
    for (const auto& [fd, stream] : {std::make_pair(STDOUT_FILENO, "standard output"),
                                     std::make_pair(STDERR_FILENO, "standard error")}) {
        struct stat st;
        if (id.exists && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == id.dev &&
            st.st_ino == id.ino)
            throw BadInput(role + " " + path + ": is the file " + stream + " goes to (a `>` or "
                           "`>>` of this command); it would be replaced, and what is printed "
                           "there lost");
    }
    if (const FileId self = identify("/proc/self/exe"); self.exists && same_file(self, id))
        throw BadInput(role + " " + path + ": is the cidsim binary itself");
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        for (const Claimed& c : g_outputs)
            if (same_file(c.id, id))
                throw BadInput(role + " " + path + ": this file is also written as " + c.role +
                               "; give each output its own file");
    }
    // An old file that cannot be replaced: immutable or append-only
    // (chattr +i, +a: EPERM), or a read-only file mounted over it (EROFS).
    // Opened, never written; a file merely without write permission is
    // replaced by the rename, as every other output is.
    if (id.exists) {
        const int fd = ::open(id.resolved.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) ::close(fd);
        else if (errno == EPERM || errno == EROFS)
            throw BadInput(role + " " + path + ": cannot write here: " + std::strerror(errno));
    }
    // Can a file be created beside the target? Only trying tells (read-only
    // mounts, ACLs); the probe is removed at once, or on a signal.
    const std::string dir = parent_of(id.resolved);
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0)
        throw BadInput(role + " " + path + ": cannot write here: " + dir + ": " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode))
        throw BadInput(role + " " + path + ": cannot write here: " + dir + " is not a directory");
    // A name of this process's own: whatever else is there (a file, a
    // directory) must not pass for a successful probe.
    for (int attempt = 0;; ++attempt) {
        const std::string probe =
            beside(id.resolved, ".cidsim-probe." + std::to_string(::getpid()) +
                                    (attempt ? "." + std::to_string(attempt) : ""));
        CleanupGuard guard(probe, false);
        const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno == EEXIST && attempt < 100) continue;
        if (fd < 0)
            throw BadInput(role + " " + path + ": cannot write here: " + std::strerror(errno));
        ::close(fd);
        ::unlink(probe.c_str());
        break;
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    g_outputs.push_back({role, id});
}

namespace {

// A whole file written beside its target, not yet in place; removed unless
// renamed (and on a signal while it waits).
class StagedFile {
public:
    StagedFile(const std::string& path, const std::string& text);
    ~StagedFile() {
        if (!m_placed || m_exchanged) ::unlink(m_tmp.c_str());
    }
    StagedFile(const StagedFile&) = delete;
    StagedFile& operator=(const StagedFile&) = delete;
    void place();
    // Puts back what place() replaced (the old file, or no file).
    void undo() noexcept;

private:
    std::string m_path, m_target, m_tmp;
    std::unique_ptr<CleanupGuard> m_guard;
    bool m_placed = false;
    bool m_exchanged = false;  // the old file waits under m_tmp until done
};

StagedFile::StagedFile(const std::string& path, const std::string& text) : m_path(path) {
    if (path.empty()) throw BadInput("an output with an empty file name");
    const FileId id = identify(path);
    m_target = id.resolved;
    if (const std::string p = type_problem(m_target); !p.empty()) throw BadInput(path + ": " + p);
    refuse_inputs("the output", path, id);

    const auto fail = [&](const std::string& what) -> std::runtime_error {
        const std::string why = std::strerror(errno);
        ::unlink(m_tmp.c_str());
        return std::runtime_error(path + ": " + what + ": " + why);
    };
    // A name no other file has: two outputs whose long names are cut to the
    // same temporary name, or a file an earlier process left, are not this one.
    int fd = -1;
    for (int attempt = 0; fd < 0; ++attempt) {
        m_tmp = beside(m_target, ".tmp." + std::to_string(::getpid()) +
                                     (attempt ? "." + std::to_string(attempt) : ""));
        fd = ::open(m_tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && (errno != EEXIST || attempt == 100))
            throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    }
    m_guard = std::make_unique<CleanupGuard>(m_tmp, false);
    // A file written over keeps its permissions, as an in-place write would.
    struct stat st;
    if (id.exists && ::stat(m_target.c_str(), &st) == 0) (void)::fchmod(fd, st.st_mode & 07777);
    for (size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const std::runtime_error e = fail("write failed");
            ::close(fd);
            throw e;
        }
        done += size_t(n);
    }
    if (::close(fd) != 0) throw fail("write failed");
}

void StagedFile::place() {
    // An old file is swapped out, not overwritten, so that a later output's
    // failure can put it back; a file system that cannot swap gets a rename.
    if (::renameat2(AT_FDCWD, m_tmp.c_str(), AT_FDCWD, m_target.c_str(), RENAME_EXCHANGE) == 0) {
        m_placed = m_exchanged = true;
        return;
    }
    if (std::rename(m_tmp.c_str(), m_target.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        throw std::runtime_error(m_path + ": cannot rename the file into place: " + why);
    }
    m_placed = true;
}

void StagedFile::undo() noexcept {
    if (!m_placed) return;
    if (m_exchanged)
        (void)::renameat2(AT_FDCWD, m_tmp.c_str(), AT_FDCWD, m_target.c_str(), RENAME_EXCHANGE);
    else
        ::unlink(m_target.c_str());
    m_placed = m_exchanged = false;  // the destructor removes m_tmp
}

}  // namespace

void write_file_atomically(const std::string& path, std::string text) {
    if (path.empty()) throw BadInput("an output with an empty file name");
    OutputBatch one;
    one.add(path, std::move(text));
    one.write();
}

void OutputBatch::add(const std::string& path, std::string text) {
    if (!path.empty()) m_files.emplace_back(path, std::move(text));
}

namespace {

// The signals that end cidsim (io/cleanup.h) wait while the files are
// renamed: one between two renames would leave new files beside old ones
// (and, the old ones waiting under the temporary names, remove those).
class SignalsHeld {
public:
    SignalsHeld() {
        sigset_t held;
        sigemptyset(&held);
        for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&held, sig);
        ::pthread_sigmask(SIG_BLOCK, &held, &m_before);
    }
    ~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &m_before, nullptr); }
    SignalsHeld(const SignalsHeld&) = delete;
    SignalsHeld& operator=(const SignalsHeld&) = delete;
    // One came while they were held that ends the process once let through
    // (not one it ignores: nohup's SIGHUP is pending too, then discarded).
    bool one_came() const {
        sigset_t pending;
        if (::sigpending(&pending) != 0) return false;
        for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
            struct sigaction now;
            if (sigismember(&pending, sig) && !sigismember(&m_before, sig) &&
                ::sigaction(sig, nullptr, &now) == 0 && now.sa_handler != SIG_IGN)
                return true;
        }
        return false;
    }

private:
    sigset_t m_before;
};

}  // namespace

void OutputBatch::write(const std::string& printed) {
    // What the command prints comes first: printed into a full disk or a
    // closed pipe (SIGPIPE ends the process), it is lost, and then so are
    // the files, as on any failed write.
    errno = 0;
    if (!printed.empty() && !(std::cout << printed << std::flush)) {
        const std::string why = errno ? std::strerror(errno) : "an error";
        throw std::runtime_error("writing to standard output failed: " + why +
                                 (m_files.empty() ? "" : "; no output file was written"));
    }
    std::vector<std::unique_ptr<StagedFile>> staged;
    for (const auto& [path, text] : m_files) staged.push_back(std::make_unique<StagedFile>(path, text));
    const SignalsHeld held;
    // One that cannot be placed (an immutable target, a mount point) takes
    // back those placed before it: all are in place, or none.
    for (size_t i = 0; i < staged.size(); ++i) {
        try {
            staged[i]->place();
        } catch (...) {
            while (i-- > 0) staged[i]->undo();
            throw;
        }
    }
    // Interrupted, the command ends with none of its files: old ones swapped
    // back (where the file system cannot swap, one a rename replaced is gone).
    if (held.one_came())
        for (size_t i = staged.size(); i-- > 0;) staged[i]->undo();
    m_files.clear();
}

}  // namespace cidsim
