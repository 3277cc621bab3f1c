#pragma once
// The one config loader: JSON -> SimConfig, every key checked against the
// Params descriptions (unknown keys and wrong types are errors naming the key
// path and the valid keys), `--set key.path=value` overrides applied to the
// JSON first so they use the same paths, and the effective config (every
// parameter, defaults included) written back out.
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/sim_config.h"

namespace cidsim {

// Bad input: the message names the key path and what was expected.
struct ConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

nlohmann::json read_json_file(const std::string& path);
// A config file with its "include" (a path or list of paths, relative to the
// including file) merged underneath it: included files first, in order, then
// the file's own keys on top (JSON merge patch).
nlohmann::json read_config_file(const std::string& path, int depth = 0);
// "a.b.0.c=value": value is JSON if it parses as JSON, else a string.
void apply_override(nlohmann::json& config, const std::string& assignment);
SimConfig load_config(const nlohmann::json& config);
nlohmann::json effective_config(const SimConfig& config);

// Every block's parameters, for `cidsim params`: {block: [{key, type, unit,
// default, min, max, description}]}.
nlohmann::json describe_parameters();

}  // namespace cidsim
