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
#include "io/bad_input.h"

namespace cidsim {

// Bad input: the message names the key path and what was expected.
struct ConfigError : BadInput {
    using BadInput::BadInput;
};

// Documented maxima: together with the Params ranges they bound the memory
// any input can make cidsim allocate (listed by `cidsim params` as "(limits)").
constexpr size_t kMaxConfigBytes = 16u << 20;  // config file size
constexpr int kMaxJsonDepth = 32;              // nesting of arrays and objects
constexpr size_t kMaxDevices = 1024;           // entries of `devices` (one per CPU at kMaxCpus)
constexpr size_t kMaxWorkloads = 2048;         // entries of `workloads`
constexpr size_t kMaxVcpus = 8;                // entries of `vcpus` (each with its own pCPU)
constexpr size_t kMaxTraceEvents = 1000000;    // events of one trace workload
constexpr size_t kMaxListLength = 2048;        // any integer list (irq_cpus)
constexpr size_t kMaxNameLength = 64;          // any string value (names)

// Reads and parses a config file: a missing file, a directory, an oversized
// file and text that is not JSON (with line and column) are ConfigErrors
// naming the file.
nlohmann::json read_json_file(const std::string& path);
// A config file with its "include" (a path or list of paths, relative to the
// including file) merged underneath it: included files first, in order, then
// the file's own keys on top (JSON merge patch).
nlohmann::json read_config_file(const std::string& path, int depth = 0);
// The "include" of a config already read (an inline sweep base, say) merged
// the same way, relative paths resolved against `dir`; `source` names the
// config in messages.
nlohmann::json merge_includes(nlohmann::json config, const std::string& dir,
                              const std::string& source, int depth = 0);
// Parses config text; duplicate keys in an object and nesting deeper than
// kMaxJsonDepth are errors too. `source` names the text in messages.
nlohmann::json parse_config_text(const std::string& text, const std::string& source);
// "a.b.0.c=value": value is JSON if it parses as JSON, else a string.
void apply_override(nlohmann::json& config, const std::string& assignment);
// Validates every key, type, range, reference and cross-parameter
// constraint; the first problem is a ConfigError "SOURCE: key.path: what was
// expected, found what" (SOURCE and its ": " only when given).
SimConfig load_config(const nlohmann::json& config, const std::string& source = "");
nlohmann::json effective_config(const SimConfig& config);
// Each POWER CPU's params: the base `power` section with every entry of
// config.overrides selecting that CPU applied in order. Empty when there
// are no overrides (every CPU then shares config.power).
std::vector<PowerParams> power_cpu_params(const SimConfig& config);
// Each chip's XIVE params likewise (empty without a chip's xive override).
std::vector<XiveParams> xive_chip_params(const SimConfig& config);
// Each x86 host CPU's `cpu` and `lapic` params likewise (empty without
// overrides of that section).
std::vector<CpuCoreParams> x86_cpu_params(const SimConfig& config);
std::vector<LocalApicParams> x86_lapic_params(const SimConfig& config);

// The words of every input error message, shared by the other JSON inputs
// (sweep specs, explain scenarios): "a, b, c"; "a number", "an object", ...
std::string join_keys(const std::vector<std::string>& keys);
std::string json_type_name(const nlohmann::json& j);

// Every block's parameters, for `cidsim params`: {block: [{key, type, unit,
// default, min, max, description}]}.
nlohmann::json describe_parameters();

}  // namespace cidsim
