#pragma once
// The one config loader: JSON -> SimConfig, every key checked against the
// Params descriptions (unknown keys and wrong types are errors naming the key
// path and the valid keys), `--set key.path=value` overrides applied to the
// JSON first so they use the same paths, and the effective config (every
// parameter, defaults included) written back out. What it reads is the
// table of sections (sections.h), the overrides (overrides.h) and the
// common keys; the JSON text and the words of its messages are json_text.h's.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config_error.h"
#include "config/json_text.h"
#include "config/overrides.h"
#include "config/sim_config.h"

namespace cidsim {

// Validates every key, type, range, reference and cross-parameter
// constraint; the first problem is a ConfigError "SOURCE: key.path: what was
// expected, found what" (SOURCE and its ": " only when given).
SimConfig load_config(const nlohmann::json& config, const std::string& source = "");
// A config (its --sets applied) whose includes bring the values of platform
// `included` (null: none) may not name another: load_config checks it for
// the file it is told the config came from.
void check_included_platform(const nlohmann::json& config, const nlohmann::json& included);
// Which of the --sets a final config's error `what` is told against: the
// one after which the config never loaded again (error_with(n): the error
// with the first n sets applied, none when it loads). broke_its_key: that
// set's own error names the key `what` does (messages compared without
// `prefix`); else the error is another's, the --set that gave its key.
struct SetBlame {
    size_t set;
    bool broke_its_key;
};
SetBlame blame_set(const std::string& what, size_t count, const std::string& prefix,
                   const std::function<std::optional<std::string>(size_t)>& error_with);
// Throws e, which load_config threw for `file` (the config `source` as read)
// with the --sets applied in order, told against the --set that caused it:
// the first after which the config no longer loads, with that load's
// message. When the file fails alone, against a --set that gave the key
// the error names (against_sets), else as it is.
[[noreturn]] void rethrow_against_sets(const ConfigError& e, const nlohmann::json& file,
                                       const std::string& source,
                                       const std::vector<std::string>& sets);
nlohmann::json effective_config(const SimConfig& config);
// What `cidsim run SOURCE --set S...` records as its result's `config`, with
// `file` the config as read (read_config_file): a result whose `config`
// differs was made from another file than this one (one edited since).
nlohmann::json effective_config(nlohmann::json file, const std::vector<std::string>& sets,
                                const std::string& source);

// Whether a platform value ("cpu.eoi_ns") reaches the machine a config (its
// --sets applied) runs: a POWER partition takes none, a Xen domain no host
// CPU cost (its idle host CPU runs only its timer).
bool takes_platform_value(const nlohmann::json& config, const std::string& key);

// Every block's parameters, for `cidsim params`: {block: [{key, type, unit,
// default, min, max, description}]}.
nlohmann::json describe_parameters();

}  // namespace cidsim
