#pragma once
// `cidsim explain`: scenarios that show notification suppression and its
// races step by step. A scenario is an ordinary run config plus an optional
// "explain" section:
//   "explain": {
//     "title": "...",
//     "variants": [{"label": "remappable", "set": {"mode": "remappable"}}, ...],
//     "window_ns": [A, B], "columns": 100, "narration_lines": 80,
//     "narration_window_ns": [A, B] (default: window_ns),
//     "affinity_move": {"at_ns", "device", "queue", "to_cpu",
//                       "cleanup_after_ns", "cleanup_retry_ns", "check_pir"}
//   }
// Each variant applies its "set" (key paths as for --set, also into the
// explain section) and runs in its own process (SystemC elaborates once per
// process); run_variant is what one such process does, render_explain lays
// the variants' results side by side: one timeline (MSIs once, then one row
// per variant), each variant's narration, and a table of counts.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/timeline.h"

namespace cidsim {

struct ExplainVariant {
    std::string label;
    nlohmann::json set = nlohmann::json::object();
};

struct ExplainScenario {
    std::string path;
    std::string name;   // file name without .json
    std::string title;
    std::string comment;
    nlohmann::json document;  // the whole file
    std::vector<ExplainVariant> variants;
};

// Resolves a built-in name (configs/explain/NAME.json) or a path.
// Throws ConfigError when neither exists.
std::string find_scenario(const std::string& name_or_path);
// Built-in scenarios: (name, title).
std::vector<std::pair<std::string, std::string>> list_scenarios();
// Reads and checks a scenario (ConfigError names the bad key path).
ExplainScenario load_scenario(const std::string& path);
// `cidsim explain --set key.path=value`: applied to the scenario's config
// under every variant (a variant's own "set" still wins for its keys), and
// every variant checked again; ConfigError names the --set.
void apply_sets(ExplainScenario& scenario, const std::vector<std::string>& sets);

// Runs one variant in this process and returns its result:
// {label, mode, rows, narration, counts, affinity_move?}.
nlohmann::json run_variant(const ExplainScenario& scenario, size_t variant);
std::string render_explain(const ExplainScenario& scenario,
                           const std::vector<nlohmann::json>& results);

}  // namespace cidsim
