#include "io/file_identity.h"

#include <sys/stat.h>

#include <filesystem>

namespace cidsim {

namespace fs = std::filesystem;

std::string resolve_path(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (ec) p = path;
    // Follow a final symlink by hand: weakly_canonical stops at a dangling
    // one, and a write must go to where the link points, not replace it.
    for (int hops = 0; hops < 40; ++hops) {
        if (!fs::is_symlink(fs::symlink_status(p, ec))) break;
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) break;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    const fs::path canon = fs::weakly_canonical(p, ec);
    return (ec ? p.lexically_normal() : canon).string();
}

FileId identify(const std::string& path) {
    FileId id;
    id.resolved = resolve_path(path);
    struct stat st;
    if (::stat(id.resolved.c_str(), &st) == 0) {
        id.exists = true;
        id.dev = st.st_dev;
        id.ino = st.st_ino;
    }
    const std::string folder = fs::path(id.resolved).parent_path().string();
    if (::stat(folder.empty() ? "." : folder.c_str(), &st) == 0) {
        id.folder_exists = true;
        id.folder_dev = st.st_dev;
        id.folder_ino = st.st_ino;
    }
    return id;
}

bool same_file(const FileId& a, const FileId& b) {
    if (a.resolved == b.resolved) return true;
    if (a.exists || b.exists) return a.exists && b.exists && a.dev == b.dev && a.ino == b.ino;
    return a.folder_exists && b.folder_exists && a.folder_dev == b.folder_dev &&
           a.folder_ino == b.folder_ino &&
           fs::path(a.resolved).filename() == fs::path(b.resolved).filename();
}

}  // namespace cidsim
