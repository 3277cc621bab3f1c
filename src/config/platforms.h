#pragma once
// The platforms a config can name with "platform": NAME. A platform is a set
// of calibrated block parameters (configs/platform/NAME.json, compiled into
// the binary so that a config names one wherever cidsim runs). "generic" is
// the Params defaults themselves: uncalibrated, round numbers. The named
// platform goes underneath everything the config (and its includes) sets.
// A config that names none runs on the calibrated one (issue 20: a config
// written from scratch and the published tables must not disagree).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cidsim {

// A config that names no platform runs on this one ("spr").
extern const char* const kDefaultPlatform;
// The Params defaults themselves, and what a result without a platform
// (written before platforms existed) ran on.
extern const char* const kGenericPlatform;

// Every platform name, kGenericPlatform first.
std::vector<std::string> platform_names();
// The platform's values as a config fragment (empty for "generic"); a
// ConfigError naming the key and the known platforms for any other name.
nlohmann::json platform_values(const std::string& name);
// One line for summaries: "spr (Sapphire Rapids-like ..., calibrated)",
// with "the default" when it is kDefaultPlatform.
std::string platform_summary(const std::string& name);
// The same for a result's effective config: a POWER partition takes no
// platform (its costs are its own sections'), which the line says.
std::string config_platform_summary(const nlohmann::json& config);

}  // namespace cidsim
