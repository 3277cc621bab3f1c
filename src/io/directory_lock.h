#pragma once
// An exclusive lock on a directory for a command's lifetime, so that two
// commands writing files of the same names there (reproduce --keep) never
// read each other's. flock(2) on the directory itself: nothing is left in
// it, and the kernel drops the lock when the process dies, even by SIGKILL.
#include <string>

namespace cidsim {

class DirectoryLock {
public:
    // Throws std::runtime_error when another process holds it or the
    // directory cannot be opened; where the file system cannot lock a
    // directory, holds none.
    explicit DirectoryLock(const std::string& dir);
    ~DirectoryLock();
    DirectoryLock(const DirectoryLock&) = delete;
    DirectoryLock& operator=(const DirectoryLock&) = delete;

private:
    int m_fd = -1;
};

}  // namespace cidsim
