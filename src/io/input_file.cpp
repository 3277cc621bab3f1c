#include "io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "io/bad_input.h"

namespace cidsim {

namespace {

std::mutex g_mutex;
std::vector<FileId> g_inputs;

std::string kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "is a directory";
    if (S_ISFIFO(mode)) return "is a FIFO, not a regular file";
    if (S_ISSOCK(mode)) return "is a socket, not a regular file";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device, not a regular file";
    return "is not a regular file";
}

// Why a path whose stat() failed with ENOTDIR names nothing: the first
// leading part that exists and is not a directory.
std::string not_a_directory(const std::string& path) {
    for (size_t slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
        const std::string part = path.substr(0, slash);
        struct stat st;
        if (::stat(part.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
            return part + " is not a directory";
    }
    return "a part of the path is not a directory";
}

}  // namespace

void note_input(const std::string& path) {
    const FileId id = identify(path);
    std::lock_guard<std::mutex> lock(g_mutex);
    g_inputs.push_back(id);
}

std::vector<FileId> inputs_so_far() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_inputs;
}

std::string read_input_file(const std::string& path, const std::string& what, size_t max_bytes) {
    if (path.empty()) throw BadInput("an empty file name; expected " + what);
    struct stat st;
    // The type is checked before open(): opening a FIFO with no writer blocks.
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOTDIR)
            throw BadInput(path + ": no such file (" + not_a_directory(path) + ")");
        if (errno == ENOENT) throw BadInput(path + ": no such file");
        throw BadInput(path + ": cannot read: " + std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) throw BadInput(path + ": " + kind_of(st.st_mode) + "; expected " + what);
    note_input(path);
    // O_NONBLOCK: should the path be swapped for a FIFO after the check,
    // open() still returns; fstat below then refuses it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw BadInput(path + ": cannot read: " + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        throw BadInput(path + ": " + kind_of(st.st_mode) + "; expected " + what);
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw BadInput(path + ": cannot read: " + std::strerror(errno));
        }
        if (n == 0) break;
        text.append(buf, size_t(n));
        if (text.size() > max_bytes)
            throw BadInput(path + ": larger than the maximum size of " + std::to_string(max_bytes) +
                           " bytes");
    }
    return text;
}

void check_directory_option(const std::string& option, const std::string& path, bool must_exist) {
    if (path.empty()) throw BadInput(option + ": expected a directory, found an empty string");
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            throw BadInput(option + " " + path + ": " +
                           (S_ISREG(st.st_mode) ? std::string("is a file") : kind_of(st.st_mode)) +
                           "; expected a directory");
        // Read-only (EROFS) or immutable (EPERM): the runs writing into it
        // would each fail midway.
        if (!must_exist && ::access(path.c_str(), W_OK) != 0)
            throw BadInput(option + " " + path + ": cannot write here: " + std::strerror(errno));
        return;
    }
    if (must_exist || errno != ENOENT)
        throw BadInput(option + " " + path + ": " + std::strerror(errno));
}

}  // namespace cidsim
