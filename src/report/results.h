#pragma once
// The result of one run as JSON: the cidsim version, the seed, the effective
// config, and every metric with its unit in its name; plus the short human
// summary `cidsim run` prints, and the all-or-nothing file writer.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/system.h"

namespace cidsim {

nlohmann::json collect_results(const System& system);
std::string summary_text(const nlohmann::json& results);

// Writes `text` to a temporary file beside `path` and renames it into place,
// so a reader never sees a partial file. Throws on failure.
void write_file_atomically(const std::string& path, const std::string& text);
// Fails early (before a long run) when `path` cannot be written.
void check_writable(const std::string& path);

}  // namespace cidsim
