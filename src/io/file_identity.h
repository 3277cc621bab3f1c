#pragma once
// What "the same file" means when cidsim refuses to write over one of its
// own inputs or outputs: the same path once symlinks are resolved, or, for
// a file that exists, the same device and inode (hard links, bind mounts).
#include <sys/types.h>

#include <string>

namespace cidsim {

struct FileId {
    std::string resolved;  // absolute, symlinks resolved (as far as they exist)
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    // Its folder, which names a file yet to be made: one folder may have
    // two paths (a bind mount) that symlinks do not tell.
    bool folder_exists = false;
    dev_t folder_dev = 0;
    ino_t folder_ino = 0;
};

// `path` with every symlink along it followed (also a dangling final link,
// so a write through it creates the link's target), made absolute.
std::string resolve_path(const std::string& path);
FileId identify(const std::string& path);
bool same_file(const FileId& a, const FileId& b);

}  // namespace cidsim
