#pragma once
// The ConfigError message load_config gives for a config ("" when it loads).
#include <string>

#include <nlohmann/json.hpp>

#include "config/config_loader.h"

namespace cidsim_test {

inline std::string config_error(const nlohmann::json& config, const std::string& source = "") {
    try {
        cidsim::load_config(config, source);
    } catch (const cidsim::ConfigError& e) {
        return e.what();
    }
    return "";
}

}  // namespace cidsim_test
