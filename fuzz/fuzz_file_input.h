#pragma once
// For libFuzzer targets whose reader takes a file: the bytes written to a
// file of this process's own scratch directory, reused across inputs.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace cidsim_fuzz {

inline const std::string& scratch_dir() {
    static const std::string dir = [] {
        const std::string d = (std::filesystem::temp_directory_path() /
                               ("cidsim-fuzz-" + std::to_string(::getpid())))
                                  .string();
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

inline std::string write_input(const std::string& name, const uint8_t* data, size_t size) {
    const std::string path = scratch_dir() + "/" + name;
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), std::streamsize(size));
    return path;
}

}  // namespace cidsim_fuzz
