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
        ::close(m_fd);
        throw std::runtime_error(dir + ": another cidsim command is writing its runs there");
    }
}

DirectoryLock::~DirectoryLock() {
    if (m_fd >= 0) ::close(m_fd);
}

}  // namespace cidsim
