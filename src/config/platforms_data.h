#pragma once
// The text of every configs/platform/*.json, compiled in (CMake generates
// the definition): {name, json text}.
#include <utility>
#include <vector>

namespace cidsim {

const std::vector<std::pair<const char*, const char*>>& builtin_platform_texts();

}  // namespace cidsim
