#pragma once
// A parameter sweep described in JSON, and its expansion into points.
//
//   {
//     "base":  "../examples/posted-bursty.json"  (path, relative to the spec)
//              or { ...an inline config... },
//     "set":   {"run.duration_ns": 500000},        fixed overrides, every point
//     "vary":  {"handler.loop_limit": [1, 2, 3]},  cartesian product
//     "zip":   [{"workloads.0.on_rate_mpps": [1, 2],
//                "workloads.1.on_rate_mpps": [1, 2]}],  move together
//     "seeds": 3  (seeds 1..3)  or  [7, 11],       repetitions, innermost
//     "metrics": ["metrics.notification_rate_mps", "metrics.msi_to_handler_ns.p99"]
//   }
//
// Keys are the config key paths `cidsim run --set` takes. A point is one
// combination of varied values and one seed; its name is derived from those
// values (paths sorted, `path=value,...,seed=S`, sanitised into a file
// name), so the same spec always maps a point to the same result file.
// Every point's config is checked with the one config loader before any
// point runs: bad input is a ConfigError naming the spec key or the point.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace cidsim {

// One axis of the product: a `vary` key alone, or a `zip` group whose paths
// take their i-th values together.
struct SweepDimension {
    std::string origin;  // spec key it came from: "vary" or "zip[g]"
    std::vector<std::string> paths;
    std::vector<std::vector<nlohmann::json>> values;  // values[path index][step]
    size_t steps() const { return values.empty() ? 0 : values.front().size(); }
};

struct SweepSpec {
    nlohmann::json base;    // the base config as JSON (inline or read from base_path)
    std::string base_path;  // absolute path when the base is a file; empty when inline
    nlohmann::json included_platform;  // the platform the base's includes bring, or null
    std::vector<std::pair<std::string, nlohmann::json>> set;  // fixed overrides
    std::vector<SweepDimension> dimensions;                   // sorted by first path
    std::vector<uint64_t> seeds;
    std::vector<std::string> metrics;  // JSON paths into a result, e.g. metrics.msis
};

struct SweepPoint {
    std::string name;   // file-name safe, stable: derived from params and seed
    std::string group;  // the same without the seed: points that differ only by seed
    std::vector<std::pair<std::string, nlohmann::json>> params;  // varied path -> value, sorted
    uint64_t seed = 0;
    // Of the effective config (what `cidsim run` will record for this point),
    // which point_config() rebuilds: a sweep keeps no point's config, since
    // it may have 100 000 points of many KiB each.
    std::string config_digest;  // config_digest() of it
    std::string shape_digest;   // config_shape_digest() of it
    std::string platform;       // the platform it names
};

// The most points one sweep may have (each is a process and a result file).
constexpr size_t kMaxSweepPoints = 100000;

// Parses and checks the spec; `spec_dir` resolves a relative base path.
// Throws ConfigError naming the key path (e.g. "vary.handler.loop_limit: ...").
SweepSpec parse_sweep_spec(const nlohmann::json& spec, const std::string& spec_dir);
SweepSpec read_sweep_spec(const std::string& path);

// Every point, in a fixed order (dimensions outermost first, seeds
// innermost), each validated by load_config. Throws ConfigError naming the
// point and the config key it breaks.
std::vector<SweepPoint> expand_points(const SweepSpec& spec);
// A point's effective config, as expand_points checked it.
nlohmann::json point_config(const SweepSpec& spec, const SweepPoint& point);

// The text after `key=` in `--set key=value` such that apply_override gives
// back exactly `value` (a string that would parse as JSON is quoted).
std::string override_value_text(const nlohmann::json& value);
// A value as it appears in point names and table cells (strings unquoted).
std::string display_value(const nlohmann::json& value);
// `raw` made into a portable file name; a hash of `raw` is appended when
// characters had to be replaced or the name shortened, so names stay unique.
std::string sanitise_name(const std::string& raw);

}  // namespace cidsim
