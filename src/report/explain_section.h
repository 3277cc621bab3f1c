#pragma once
// The "explain" section of a scenario (report/explain.h), read and checked:
// its display settings and the affinity move. Every check is made when the
// scenario is read, per variant, so a bad value is refused before any
// variant runs; messages name the key ("explain.columns: ...") and the
// caller prefixes the scenario file.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/sim_config.h"
#include "sim/affinity_move.h"
#include "sim/retrigger.h"

namespace cidsim {

// ConfigError "PATH.KEY: unknown key; valid keys here: ..." unless `obj` is
// an object holding only `keys`.
void check_keys(const nlohmann::json& obj, const std::string& path,
                const std::vector<std::string>& keys);

struct ExplainView {
    std::optional<std::pair<double, double>> window, narration_window;  // [from, to] in ns
    unsigned columns = 100;
    size_t narration_lines = 80;
};
ExplainView explain_view(const nlohmann::json& explain);
// Every key of the section with its unit, range and default, as cidsim
// params describes a config section's.
nlohmann::json describe_explain_section();
// Its windows end within the variant's run.
void check_view_in_run(const ExplainView& view, const SimConfig& config);

AffinityMoveParams affinity_params(const nlohmann::json& affinity_move);
// Its device, queue and CPU exist in the variant's config.
void check_affinity_refs(const AffinityMoveParams& p, const SimConfig& config);

RetriggerParams retrigger_params(const nlohmann::json& retrigger);
// Its device and queue exist in the variant's config.
void check_retrigger_refs(const RetriggerParams& p, const SimConfig& config);

}  // namespace cidsim
