#include "io/data_files.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace cidsim {

namespace {

// <prefix>/share/cidsim for the running binary at <prefix>/bin/cidsim; none
// for a binary elsewhere (a copy in /tmp/x would read /tmp/share/cidsim,
// which anyone may create).
std::string installed_root() {
    char exe[4096];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return "";
    const std::filesystem::path bin = std::filesystem::path(std::string(exe, size_t(n))).parent_path();
    if (bin.filename() != "bin") return "";
    return (bin.parent_path() / "share" / "cidsim").string();
}

std::string source_tree_file(const std::string& rel) {
    return std::string(CIDSIM_SOURCE_DIR) + "/" + rel;
}

}  // namespace

std::vector<std::string> data_candidates(const std::string& rel) {
    std::vector<std::string> out;
    if (const char* env = std::getenv("CIDSIM_DATA_DIR"); env && *env)
        out.push_back(std::string(env) + "/" + rel);
    if (const std::string root = installed_root(); !root.empty()) out.push_back(root + "/" + rel);
    out.push_back(source_tree_file(rel));
    out.push_back(rel);
    return out;
}

std::string data_file(const std::string& rel) {
    std::error_code ec;
    for (const std::string& p : data_candidates(rel))
        if (std::filesystem::exists(p, ec)) return p;
    return source_tree_file(rel);
}

}  // namespace cidsim
