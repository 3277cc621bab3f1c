#pragma once
// JSON text in and the words of every input error message: config files
// read with their includes, `--set` assignments applied, and the phrases
// ("a number", "a, b, c", a value shown on one line) every loader shares.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config_error.h"

namespace cidsim {

// Reads and parses a config file: a missing file, a directory, an oversized
// file and text that is not JSON (with line and column) are ConfigErrors
// naming the file.
nlohmann::json read_json_file(const std::string& path,
                              const std::string& what = "a JSON config file",
                              size_t max_bytes = kMaxConfigBytes);
// A config file with its "include" (a path or list of paths, relative to the
// including file) merged underneath it: included files first, in order, then
// the file's own keys on top (overlay).
nlohmann::json read_config_file(const std::string& path, int depth = 0);
// The platform a config file's includes name (as read_config_file merges
// them), null when none does or the file does not read.
nlohmann::json included_platform(const std::string& path);
// `top` over `base`, object by object. Unlike a JSON merge patch a null
// stays, so that the loader still sees (and refuses) it.
void overlay(nlohmann::json& base, const nlohmann::json& top);
// The "include" of a config already read (an inline sweep base, say) merged
// the same way, relative paths resolved against `dir`; `source` names the
// config in messages.
nlohmann::json merge_includes(nlohmann::json config, const std::string& dir,
                              const std::string& source, int depth = 0);
// Parses config text; duplicate keys in an object and nesting deeper than
// kMaxJsonDepth are errors too. `source` names the text in messages, and
// `top_path` the key path its top level sits at (a --set's value).
nlohmann::json parse_config_text(const std::string& text, const std::string& source,
                                 const std::string& top_path = "");
// "a.b.0.c=value": value is JSON if it parses as JSON, else a string; "*"
// for an index is every element of the array.
void apply_override(nlohmann::json& config, const std::string& assignment);
// A key path's keys: "workloads[0].iodepth" and "workloads.0.iodepth" are
// {"workloads", "0", "iodepth"} (the loader's messages write the first,
// --set and sweeps either).
std::vector<std::string> key_segments(const std::string& path);
// The same, its error told as `at`'s (a sweep's key, a --metric), not a --set's.
std::vector<std::string> key_segments_at(const std::string& at, const std::string& path);
// The key path an error message "key.path: what" starts with, as
// key_segments reads it; empty when that is no path.
std::vector<std::string> error_key_segments(const std::string& what);
// Whether `--set assignment` gives the key path `key` a value: it names the
// key or a section holding it (whose value replaces the key's).
bool set_reaches(const std::string& assignment, const std::vector<std::string>& key);
// Why `--set assignment` changes no run (read_by_no_run of its key path), or "".
std::string set_changes_no_run(const std::string& assignment);
// Whether the key path names an empty key: "", ".a", "a.", "a..b" (a typo,
// not a key called "").
bool has_empty_key(const std::string& path);
// Why a value given at the key path `segments` changes no run, or "": the
// explain section is read by `cidsim explain` only; provenance documents values.
std::string read_by_no_run(const std::vector<std::string>& segments);
// Whether `--set assignment` states the key: names it, or gives a section
// whose value holds it (a section's value without it leaves it to a later
// setter, as --seed after every --set).
bool set_states(const std::string& assignment, const std::vector<std::string>& key);
// Whether a section's value holds the key path `key` below it.
bool holds_key(const nlohmann::json& section, const std::vector<std::string>& key);
// The path of the first single value inside `v` (at `path`), in order of
// keys and elements; `path` itself when `v` is one, "" when it holds none.
std::string first_single_value_path(const nlohmann::json& v, const std::string& path);
// Whether two key paths name one value ("per_cpu[1].x" and "per_cpu.1.x").
bool same_key_path(const std::string& a, const std::string& b);
// Of "key.path=value" assignments applied in order, the first (later,
// earlier) pair where the later sets the earlier's key or a section above it
// ("run" after "run.batches"): the earlier value would be lost without a
// word. Layers stay apart: "run={...}" then "run.batches=1".
std::optional<std::pair<size_t, size_t>> key_given_twice(const std::vector<std::string>& sets);
// Its message for --set options, or "" when none is given twice.
std::string set_given_twice(const std::vector<std::string>& sets);
// The message `what` of the config `source` (prefixed "source: "), told
// against the --sets that built it: when a --set gave its key (the key, a
// key inside it, or one below it: a section the --set created), the last
// such --set's ("--set a.b=5: a.b: ..."); otherwise as it is.
std::string against_sets(const std::string& what, const std::string& source,
                         const std::vector<std::string>& sets);

// The words of every input error message, shared by the other JSON inputs
// (sweep specs, explain scenarios): "a, b, c"; "a number", "an object", ...
std::string join_keys(const std::vector<std::string>& keys);
std::string json_type_name(const nlohmann::json& j);
// A found value for a message: "null", or its type and text ("a string \"x\"").
std::string found_json(const nlohmann::json& j);
// An integer as a config states it, the one rule for every integer a JSON
// input gives: 2.0 is 2; a fraction, a negative, beyond 2^53 as a double or
// outside [min, max] is a ConfigError saying what is wrong (no key: the
// caller's).
uint64_t whole_number(const nlohmann::json& j, uint64_t min, uint64_t max);
// FNV-1a of a text, and as 16 hex digits: the fingerprint of a JSON text (a
// point's config digest, an explain variant's run digest).
uint64_t fnv1a(const std::string& text);
std::string fnv1a_hex(const std::string& text);
// A JSON value for a message: never throws, never longer than a line.
std::string show_json(const nlohmann::json& j);
// A number as a message writes it (6 significant digits), and 0x1F.
std::string format_number(double v);
// The array index a key path segment names: digits only (" 0", "+0" and
// "-0" would be second names of element 0), at most 9 of them.
inline std::optional<size_t> array_index(const std::string& segment) {
    if (segment.empty() || segment.size() > 9 ||
        segment.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return size_t(std::stoul(segment));
}
// A key=value a sweep point or reproduce row runs with, `bytes` long, that
// one argument of its command cannot hold (kMaxSetBytes): the message, or "".
std::string set_too_long(size_t bytes, const std::string& whose, const std::string& put_in);
// `text` without `prefix` ("c.json: " before a message), or as it is.
inline std::string without_prefix(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text;
}
std::string format_hex(uint64_t v);
// "1 CPU", "2 CPUs".
std::string plural(uint64_t n, const char* noun);
// The known key closest to `key` when it is a plausible typo, else "".
std::string near_miss(const std::string& key, const std::vector<std::string>& known);

}  // namespace cidsim
