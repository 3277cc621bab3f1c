#include "io/directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cidsim {

DirectoryLock::DirectoryLock(const std::string& dir) {
    m_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m_fd < 0) throw std::runtime_error(dir + ": " + std::strerror(errno));
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        ::close(m_fd);
        m_fd = -1;
        if (err == EWOULDBLOCK)
            throw std::runtime_error(dir + ": another cidsim command is writing its runs there");
        // A file system without flock on a directory (NFS emulates it with
        // byte-range locks, refused on a read-only descriptor): unlocked,
        // as before there was a lock at all, rather than refused.
    }
}

DirectoryLock::~DirectoryLock() {
    if (m_fd >= 0) ::close(m_fd);
}

}  // namespace cidsim
