#include "config/platforms.h"

#include "config/config_loader.h"
#include "config/json_text.h"
#include "config/platforms_data.h"

namespace cidsim {

using nlohmann::json;

const char* const kDefaultPlatform = "spr";
const char* const kGenericPlatform = "generic";

std::vector<std::string> platform_names() {
    std::vector<std::string> out{kGenericPlatform};
    for (const auto& [name, text] : builtin_platform_texts()) out.push_back(name);
    return out;
}

json platform_values(const std::string& name) {
    if (name == kGenericPlatform) return json::object();
    for (const auto& [n, text] : builtin_platform_texts())
        if (name == n) {
            json j = parse_config_text(text, std::string("platform ") + n);
            // Its own name and notes are not parameters of the config using it.
            j.erase("comment");
            j.erase("provenance");
            return j;
        }
    throw ConfigError("platform: unknown platform " + show_json(nlohmann::json(name)) +
                      "; known platforms: " +
                      join_keys(platform_names()) +
                      " (values of your own: a file you \"include\", on top of one of these)");
}

std::string platform_summary(const std::string& name) {
    if (name == kGenericPlatform)
        return name + " (uncalibrated defaults; \"platform\": \"" + kDefaultPlatform +
               "\", the default, for the calibrated one)";
    for (const auto& [n, text] : builtin_platform_texts())
        if (name == n) {
            const json j = json::parse(text);
            std::string c = j.value("comment", std::string());
            const size_t cut = c.find_first_of(".(");
            if (cut != std::string::npos) c = c.substr(0, cut);
            while (!c.empty() && c.back() == ' ') c.pop_back();
            const std::string note = name == kDefaultPlatform ? ", calibrated, the default" : ", calibrated";
            return c.empty() ? name : name + " (" + c + note + ")";
        }
    return name;
}

std::string config_platform_summary(const json& config) {
    if (config.contains("power"))
        return std::string(kGenericPlatform) + " (the idle x86 host's defaults; a POWER " +
               "partition takes no platform: its costs are its power, xive and power_line " +
               "sections')";
    return platform_summary(config.value("platform", std::string(kGenericPlatform)));
}

}  // namespace cidsim
