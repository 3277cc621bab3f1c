#include "sweep/sweep_spec.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "config/config_loader.h"
#include "config/json_text.h"
#include "config/platforms.h"
#include "config/printable.h"
#include "report/renamed_metrics.h"
#include "sweep/collect.h"

namespace cidsim {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kSpecKeys = {"comment", "base", "set",   "vary",
                                            "zip",     "seeds", "metrics"};

const std::vector<std::string> kDefaultMetrics = {
    "metrics.msi_rate_mps",           "metrics.handler_invocation_rate_mps",
    "metrics.notification_rate_mps",  "metrics.cpu_busy_fraction_mean",
    "metrics.msi_to_handler_ns.p50",  "metrics.msi_to_handler_ns.p99"};

void check_path(const std::string& at, const std::string& path) {
    // The path is a --set of every point's one-line command.
    if (has_control_character(path))
        throw ConfigError(show_json(at) + ": a control character in a key path; expected a "
                          "config key path like handler.loop_limit");
    if (has_empty_key(path) || path.find('=') != std::string::npos)
        throw ConfigError(at + ": '" + path + "' is not a config key path like handler.loop_limit");
    if (path == "run.seed" || path.rfind("run.seed.", 0) == 0)
        throw ConfigError(at + ": vary the seed with the spec's \"seeds\" key, not run.seed");
}

// A run section given whole, holding the seed, varies it past "seeds" too.
void refuse_seed_in(const std::string& at, const std::string& path, const json& value) {
    if (path == "run" && holds_key(value, {"seed"}))
        throw ConfigError(at + ": " + show_json(value) + " holds run.seed: vary the seed with "
                          "the spec's \"seeds\" key");
}

// A control character anywhere in a value (a string, or an array's or
// object's strings and keys).
bool has_control(const json& j) {
    if (j.is_string()) return has_control_character(j.get_ref<const std::string&>());
    if (j.is_array()) return std::any_of(j.begin(), j.end(), has_control);
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it)
            if (has_control_character(it.key()) || has_control(it.value())) return true;
    return false;
}

// A list of values for `path`: non-empty, no nulls, no duplicates.
std::vector<json> value_list(const std::string& at, const std::string& path, const json& j) {
    if (!j.is_array() || j.empty())
        throw ConfigError(at + ": expected a non-empty array of values, found " +
                          (j.is_array() ? "an empty array" : json_type_name(j)));
    std::vector<json> out;
    std::set<std::string> seen;
    for (size_t i = 0; i < j.size(); ++i) {
        if (j[i].is_null()) throw ConfigError(at + "[" + std::to_string(i) + "]: null is not a value");
        // Each point is one line of --emit-commands and of the Slurm
        // commands file: a newline in a value would split its command.
        if (has_control(j[i]))
            throw ConfigError(at + "[" + std::to_string(i) + "]: " + j[i].dump() +
                              ": a control character in a varied value; expected printable "
                              "characters only (each point is one command line)");
        // 2 and 2.0 are one value: both set the same parameter.
        const bool integral_float = j[i].is_number_float() &&
                                    std::abs(j[i].get<double>()) < 9e15 &&
                                    j[i].get<double>() == std::floor(j[i].get<double>());
        const std::string canonical =
            integral_float ? json(int64_t(j[i].get<double>())).dump() : j[i].dump();
        if (!seen.insert(canonical).second)
            throw ConfigError(at + "[" + std::to_string(i) + "]: " + j[i].dump() +
                              " appears twice (an earlier value equals it)");
        refuse_seed_in(at + "[" + std::to_string(i) + "]", path, j[i]);
        out.push_back(j[i]);
    }
    return out;
}

// Why varying the key path `segments` changes no run, or "": a result's
// config does not echo a comment, so every point would be the same run (and
// collect could not tell a varied comment's points apart); neither does
// what `cidsim run` does not read.
std::string varying_changes_no_run(const std::vector<std::string>& segments) {
    if (std::find(segments.begin(), segments.end(), "comment") != segments.end())
        return "a comment does not change the run; vary a setting instead";
    if (const std::string why = read_by_no_run(segments); !why.empty())
        return why + "; vary a setting instead";
    return "";
}

std::string join_params(const std::vector<std::pair<std::string, json>>& params) {
    std::string s;
    for (const auto& [path, value] : params) {
        // A string that could pass for more parts ("a,b.c=d") or for JSON is
        // quoted; a comma alone cannot (every part has its "="), so a cpulist
        // keeps its plain name. Values that still read alike ("1" and 1) are
        // caught where the names are made.
        const bool quoted =
            value.is_string() &&
            value.get_ref<const std::string&>().find_first_of("=\"[{") != std::string::npos;
        s += (s.empty() ? "" : ",") + path + "=" + (quoted ? value.dump() : display_value(value));
    }
    return s;
}

// The spec keys behind a point's config error: the one varied value that
// fails the same way on the base alone, else every varied value of the point.
std::string blame(const SweepSpec& spec, const json& base, const std::vector<size_t>& step,
                  const std::string& error) {
    std::vector<std::string> keys;
    for (size_t d = 0; d < spec.dimensions.size(); ++d) {
        const SweepDimension& dim = spec.dimensions[d];
        for (size_t p = 0; p < dim.paths.size(); ++p) {
            const json& value = dim.values[p][step[d]];
            const std::string key = dim.origin + "." + dim.paths[p] + "[" + std::to_string(step[d]) + "]";
            json config = base;
            try {
                apply_override(config, dim.paths[p] + "=" + override_value_text(value));
                load_config(config);
            } catch (const ConfigError& e) {
                if (error == e.what()) return key + " = " + value.dump() + ": ";
            }
            keys.push_back(key);
        }
    }
    return keys.empty() ? std::string() : "the combination " + join_keys(keys) + ", ";
}

// Two points of one seed with one effective config are one run twice: a
// value the loader reads as another one ("0" and [0] as irq_cpus). Names the
// later point's value that differs, as a value given twice is named.
std::string same_run_text(const SweepSpec& spec, const std::vector<size_t>& earlier,
                          const std::vector<size_t>& later, const std::string& earlier_raw,
                          const std::string& later_raw) {
    std::vector<std::string> keys;
    std::string first_key, first_value;
    for (size_t d = 0; d < spec.dimensions.size(); ++d) {
        if (earlier[d] == later[d]) continue;
        const SweepDimension& dim = spec.dimensions[d];
        for (size_t p = 0; p < dim.paths.size(); ++p) {
            const json& a = dim.values[p][earlier[d]];
            const json& b = dim.values[p][later[d]];
            if (a == b) continue;
            const std::string at = dim.origin + "." + dim.paths[p];
            keys.push_back(at + "[" + std::to_string(later[d]) + "]");
            if (first_key.empty()) {
                first_key = keys.back() + " = " + b.dump();
                first_value = at + "[" + std::to_string(earlier[d]) + "] = " + a.dump();
            }
        }
    }
    // The result records the loaded config: two values it does not tell
    // apart ("0" and [0]; any two of a key no result depends on, as
    // run.run_ahead) are one run.
    if (keys.size() == 1)
        return first_key + ": appears twice: it gives the same run as " + first_value +
               " (point " + earlier_raw + "): the config loader reads the two values as one, "
               "or the key changes no result";
    return "the combination " + join_keys(keys) + ", point " + later_raw +
           ": appears twice: it gives the same run as point " + earlier_raw +
           " (the config loader reads their values as one, or they change no result)";
}

}  // namespace

std::string override_value_text(const json& value) {
    if (!value.is_string()) return value.dump();
    const std::string& s = value.get_ref<const std::string&>();
    // apply_override parses the text as JSON first: keep "3" a string.
    return json::parse(s, nullptr, false).is_discarded() ? s : value.dump();
}

std::string display_value(const json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string sanitise_name(const std::string& raw) {
    constexpr size_t kMaxLength = 160;  // file systems allow 255 bytes; leave room for suffixes
    std::string out;
    bool changed = false;
    for (char c : raw) {
        const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' ||
                        c == '-' || c == '=' || c == ',' || c == '+';
        out += ok ? c : '_';
        changed |= !ok;
    }
    if (out.size() > kMaxLength) {
        out.resize(kMaxLength);
        changed = true;
    }
    // All 64 bits: FNV's low bits depend on the low bits before them only,
    // so a cut hash that collides for one point collides for its every seed.
    if (changed) out += "~" + fnv1a_hex(raw);
    return out;
}

SweepSpec parse_sweep_spec(const json& spec, const std::string& spec_dir) {
    if (!spec.is_object()) throw ConfigError("sweep spec: expected an object, found " + json_type_name(spec));
    for (auto it = spec.begin(); it != spec.end(); ++it)
        if (std::find(kSpecKeys.begin(), kSpecKeys.end(), it.key()) == kSpecKeys.end())
            throw ConfigError(it.key() + ": unknown key; valid keys here: " + join_keys(kSpecKeys));

    if (auto c = spec.find("comment"); c != spec.end() && !c->is_string())
        throw ConfigError("comment: expected a string, found " + json_type_name(*c));
    SweepSpec s;
    auto base = spec.find("base");
    if (base == spec.end())
        throw ConfigError("base: required (a config file path, or an inline config object)");
    if (base->is_string()) {
        if (base->get<std::string>().empty())
            throw ConfigError("base: expected a config file path, found an empty string");
        fs::path p = base->get<std::string>();
        if (p.is_relative()) p = fs::path(spec_dir) / p;
        s.base_path = fs::absolute(p).lexically_normal().string();
        // The path is in every point's one-line command (--emit-commands, Slurm).
        if (has_control_character(s.base_path))
            throw ConfigError("base: " + show_json(s.base_path) +
                              ": a control character in the base config's path; expected "
                              "printable characters only (each point is one command line)");
        try {
            s.base = read_config_file(s.base_path);
        } catch (const ConfigError& e) {
            throw ConfigError(std::string("base: ") + e.what());
        }
        s.included_platform = included_platform(s.base_path);
    } else if (base->is_object()) {
        // Its includes are relative to the spec, and merged now: the base is
        // written to DIR/base.json, where those paths would mean nothing.
        try {
            const std::string dir = spec_dir.empty() ? std::string(".") : spec_dir;
            s.base = merge_includes(*base, dir, "base");
            if (base->contains("include"))
                s.included_platform = merge_includes({{"include", (*base)["include"]}}, dir, "base")
                                          .value("platform", nlohmann::json());
        } catch (const ConfigError& e) {
            const std::string what = e.what();
            throw ConfigError(what.rfind("base", 0) == 0 ? what : "base: " + what);
        }
    } else {
        throw ConfigError("base: expected a config file path or an inline config object, found " +
                          json_type_name(*base));
    }

    // Every path fixed or varied, once: "workloads[0].iodepth",
    // "workloads.0.iodepth" and "workloads[*].iodepth" name one value, and
    // "workloads" holds it too, so two of them would decide it by order.
    std::vector<std::pair<std::string, std::vector<std::string>>> used;
    auto claim = [&](const std::string& at, const std::string& path) {
        check_path(at, path);
        std::vector<std::string> segments = key_segments_at(at, path);
        // A fixed comment is harmless; a fixed explain key would fail every
        // point (run refuses it), a provenance key change nothing.
        const std::string why = at.rfind("set.", 0) == 0 ? read_by_no_run(segments)
                                                         : varying_changes_no_run(segments);
        if (!why.empty()) throw ConfigError(at + ": " + why);
        for (const auto& [other, theirs] : used) {
            bool overlap = true;
            for (size_t i = 0; overlap && i < std::min(segments.size(), theirs.size()); ++i)
                overlap = segments[i] == theirs[i] || segments[i] == "*" || theirs[i] == "*";
            if (overlap)
                throw ConfigError(at + ": " + path + (other == path ? " is" : " overlaps " + other +
                                  ",") + " already fixed or varied elsewhere in the spec");
        }
        used.emplace_back(path, std::move(segments));
    };

    if (auto set = spec.find("set"); set != spec.end()) {
        if (!set->is_object()) throw ConfigError("set: expected an object {path: value}, found " + json_type_name(*set));
        for (auto it = set->begin(); it != set->end(); ++it) {
            claim("set." + it.key(), it.key());
            if (it.value().is_null()) throw ConfigError("set." + it.key() + ": null is not a value");
            if (has_control(it.value()))
                throw ConfigError("set." + it.key() + ": " + it.value().dump() +
                                  ": a control character in a value; expected printable "
                                  "characters only (each point is one command line)");
            refuse_seed_in("set." + it.key(), it.key(), it.value());
            s.set.emplace_back(it.key(), it.value());
        }
    }
    if (auto vary = spec.find("vary"); vary != spec.end()) {
        if (!vary->is_object()) throw ConfigError("vary: expected an object {path: [values]}, found " + json_type_name(*vary));
        if (vary->empty())
            throw ConfigError("vary: empty; vary a path, or drop vary (seeds alone repeat the "
                              "base)");
        for (auto it = vary->begin(); it != vary->end(); ++it) {
            const std::string at = "vary." + it.key();
            claim(at, it.key());
            s.dimensions.push_back({"vary", {it.key()}, {value_list(at, it.key(), it.value())}});
        }
    }
    if (auto zip = spec.find("zip"); zip != spec.end()) {
        if (!zip->is_array()) throw ConfigError("zip: expected an array of groups {path: [values]}, found " + json_type_name(*zip));
        if (zip->empty())
            throw ConfigError("zip: empty; give a group {path: [values]}, or drop zip");
        for (size_t g = 0; g < zip->size(); ++g) {
            const json& group = (*zip)[g];
            const std::string at = "zip[" + std::to_string(g) + "]";
            if (!group.is_object() || group.empty())
                throw ConfigError(at + ": expected a non-empty object {path: [values]}, found " + json_type_name(group));
            SweepDimension d;
            d.origin = at;
            for (auto it = group.begin(); it != group.end(); ++it) {
                const std::string pat = at + "." + it.key();
                claim(pat, it.key());
                d.paths.push_back(it.key());
                d.values.push_back(value_list(pat, it.key(), it.value()));
                if (d.values.back().size() != d.values.front().size())
                    throw ConfigError(pat + ": " + std::to_string(d.values.back().size()) +
                                      " values, but " + d.paths.front() + " in the same group has " +
                                      std::to_string(d.values.front().size()) +
                                      " (values in a zip group move together)");
            }
            s.dimensions.push_back(std::move(d));
        }
    }
    std::sort(s.dimensions.begin(), s.dimensions.end(),
              [](const SweepDimension& a, const SweepDimension& b) { return a.paths[0] < b.paths[0]; });

    if (auto seeds = spec.find("seeds"); seeds != spec.end()) {
        // Read by the loader's rule for integers, as run.seed is (2.0 is 2).
        if (seeds->is_number()) {
            uint64_t n = 0;
            try {
                n = whole_number(*seeds, 1, kMaxSweepPoints);
            } catch (const ConfigError& e) {
                throw ConfigError(std::string("seeds: ") + e.what() +
                                  " (a count of repetitions)");
            }
            for (uint64_t i = 1; i <= n; ++i) s.seeds.push_back(i);
        } else if (seeds->is_array() && !seeds->empty()) {
            if (seeds->size() > kMaxSweepPoints)
                throw ConfigError("seeds: " + std::to_string(seeds->size()) + " seeds, more than " +
                                  std::to_string(kMaxSweepPoints) + " points; split the sweep");
            std::set<uint64_t> seen;
            for (size_t i = 0; i < seeds->size(); ++i) {
                const std::string at = "seeds[" + std::to_string(i) + "]";
                uint64_t seed = 0;
                try {
                    seed = whole_number((*seeds)[i], 0, UINT64_MAX);
                } catch (const ConfigError& e) {
                    throw ConfigError(at + ": " + e.what());
                }
                if (!seen.insert(seed).second)
                    throw ConfigError(at + ": seed " + std::to_string(seed) + " appears twice");
                s.seeds.push_back(seed);
            }
        } else {
            throw ConfigError("seeds: expected a count >= 1 or a non-empty array of seeds, found " + seeds->dump());
        }
    }

    if (auto metrics = spec.find("metrics"); metrics != spec.end()) {
        if (!metrics->is_array() || metrics->empty())
            throw ConfigError("metrics: expected a non-empty array of result paths like metrics.msis");
        for (size_t i = 0; i < metrics->size(); ++i) {
            const json& m = (*metrics)[i];
            if (!m.is_string() || m.get<std::string>().empty())
                throw ConfigError("metrics[" + std::to_string(i) + "]: expected a result path like metrics.msi_to_handler_ns.p99, found " + m.dump());
            const std::string at = "metrics[" + std::to_string(i) + "]: " + m.get<std::string>();
            (void)key_segments_at(at, m.get<std::string>());
            std::vector<std::string> params;
            for (const SweepDimension& d : s.dimensions)
                params.insert(params.end(), d.paths.begin(), d.paths.end());
            if (const std::string why = table_column_clash(m, params); !why.empty())
                throw ConfigError(at + ": collect's table " + why);
            // A metric twice would be two columns no one can tell apart.
            const auto first =
                std::find_if(s.metrics.begin(), s.metrics.end(), [&](const std::string& earlier) {
                    return same_key_path(earlier, m.get<std::string>());
                });
            if (first != s.metrics.end())
                throw ConfigError("metrics[" + std::to_string(i) + "]: " + m.get<std::string>() +
                                  " is listed twice (first at [" +
                                  std::to_string(first - s.metrics.begin()) + "]" +
                                  (*first == m.get<std::string>() ? "" : ", " + *first) + ")");
            s.metrics.push_back(m.get<std::string>());
            if (const std::string note = renamed_note(s.metrics.back()); !note.empty())
                std::cerr << "cidsim sweep: metrics[" << i << "]: " << note << "\n";
        }
    } else {
        s.metrics = kDefaultMetrics;
    }

    // Each value is one argument of its point's command, which Linux bounds.
    const auto check_argument = [](const std::string& at, const std::string& path,
                                   const json& value) {
        const std::string why = set_too_long(path.size() + 1 + override_value_text(value).size(),
                                             "a point's", "the base config");
        if (!why.empty()) throw ConfigError(at + ": " + path + "=VALUE: " + why);
    };
    for (const auto& [path, value] : s.set) check_argument("set." + path, path, value);
    for (const SweepDimension& d : s.dimensions)
        for (size_t p = 0; p < d.paths.size(); ++p)
            for (size_t v = 0; v < d.values[p].size(); ++v)
                check_argument(d.origin + "." + d.paths[p] + "[" + std::to_string(v) + "]",
                               d.paths[p], d.values[p][v]);

    // Each point is a process and a file: refuse a product no one can run.
    size_t points = std::max<size_t>(s.seeds.size(), 1);
    for (const SweepDimension& d : s.dimensions) {
        points *= d.values.front().size();
        if (points > kMaxSweepPoints)
            throw ConfigError("vary/zip/seeds: more than " + std::to_string(kMaxSweepPoints) +
                              " points; split the sweep");
    }
    return s;
}

SweepSpec read_sweep_spec(const std::string& path) {
    const json j = read_json_file(path, "a JSON sweep spec");
    try {
        return parse_sweep_spec(j, fs::absolute(path).parent_path().string());
    } catch (const ConfigError& e) {
        throw ConfigError(path + ": " + e.what());
    }
}

namespace {

// The base config with the spec's fixed overrides.
json base_with_set(const SweepSpec& spec) {
    json base = spec.base;
    for (const auto& [path, value] : spec.set) {
        try {
            apply_override(base, path + "=" + override_value_text(value));
        } catch (const ConfigError& e) {
            throw ConfigError("set." + path + ": " + e.what());
        }
    }
    return base;
}

json point_effective_config(const SweepSpec& spec, json config,
                            const std::vector<std::pair<std::string, json>>& params,
                            uint64_t seed) {
    for (const auto& [path, value] : params)
        apply_override(config, path + "=" + override_value_text(value));
    config["run"]["seed"] = seed;
    check_included_platform(config, spec.included_platform);
    return effective_config(load_config(config));
}

}  // namespace

json point_config(const SweepSpec& spec, const SweepPoint& point) {
    return point_effective_config(spec, base_with_set(spec), point.params, point.seed);
}

std::vector<SweepPoint> expand_points(const SweepSpec& spec) {
    const json base = base_with_set(spec);
    std::vector<uint64_t> seeds = spec.seeds;
    try {
        check_included_platform(base, spec.included_platform);
        // The base alone first, for clearer errors: a base file's is told
        // against its path and the include that states the key.
        const SimConfig c = load_config(base, spec.base_path);
        if (seeds.empty()) seeds.push_back(c.run.seed);
    } catch (const ConfigError& e) {
        throw ConfigError(std::string("base") + (spec.set.empty() ? "" : " with set") + ": " + e.what());
    }

    size_t combos = 1;
    for (const SweepDimension& d : spec.dimensions) combos *= d.steps();

    std::vector<SweepPoint> points;
    std::map<std::string, std::string> names;  // sanitised -> raw, to catch collisions
    // Digest of an effective config -> the point that has it, and its steps
    // (a digest, not the text: a sweep may have 100 000 points).
    std::map<std::string, std::pair<size_t, std::vector<size_t>>> runs;
    std::vector<size_t> step(spec.dimensions.size(), 0);
    for (size_t c = 0; c < combos; ++c) {
        // Mixed-radix counter, last dimension fastest.
        size_t rest = c;
        for (size_t d = spec.dimensions.size(); d-- > 0;) {
            step[d] = rest % spec.dimensions[d].steps();
            rest /= spec.dimensions[d].steps();
        }
        std::vector<std::pair<std::string, json>> params;
        for (size_t d = 0; d < spec.dimensions.size(); ++d)
            for (size_t p = 0; p < spec.dimensions[d].paths.size(); ++p)
                params.emplace_back(spec.dimensions[d].paths[p], spec.dimensions[d].values[p][step[d]]);
        std::sort(params.begin(), params.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        const std::string joined_params = join_params(params);
        const std::string group = sanitise_name(params.empty() ? "base" : joined_params);

        for (uint64_t seed : seeds) {
            SweepPoint pt;
            const std::string raw = (params.empty() ? "" : joined_params + ",") +
                                    "seed=" + std::to_string(seed);
            pt.name = sanitise_name(raw);
            pt.group = group;
            pt.params = params;
            pt.seed = seed;
            auto [it, fresh] = names.emplace(pt.name, raw);
            if (!fresh)
                throw ConfigError("points '" + it->second + "' and '" + raw +
                                  "' get the same file name " + pt.name);
            json effective;
            try {
                effective = point_effective_config(spec, base, params, seed);
            } catch (const ConfigError& e) {
                throw ConfigError(blame(spec, base, step, e.what()) + "point " + raw + ": " + e.what());
            }
            pt.config_digest = config_digest(effective);
            pt.shape_digest = config_shape_digest(effective);
            pt.platform = effective.value("platform", std::string(kGenericPlatform));
            const auto [run, unique] = runs.emplace(pt.config_digest,
                                                     std::make_pair(points.size(), step));
            if (!unique && point_config(spec, points[run->second.first]) == effective)
                throw ConfigError(same_run_text(spec, run->second.second, step,
                                                names[points[run->second.first].name], raw));
            points.push_back(std::move(pt));
        }
    }
    return points;
}

}  // namespace cidsim
