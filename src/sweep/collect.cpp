#include "report/confidence.h"
#include "report/csv.h"
#include "sweep/collect.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>


#include "config/config_loader.h"
#include "config/json_text.h"
#include "config/printable.h"
#include "sweep/sweep_dir.h"
#include "sweep/sweep_spec.h"

namespace cidsim {

using nlohmann::json;

namespace {

std::string csv_cell(const json& v) {
    if (v.is_null()) return "";
    return csv_field(v.is_string() ? v.get<std::string>() : v.dump());
}

// The manifest is read back from disk, where anyone may have edited it:
// every field is checked before use, and a problem names the file and key.
struct ManifestReader {
    std::string file;
    [[noreturn]] void fail(const std::string& key, const std::string& what, const json& found) const {
        throw ConfigError(file + ": " + key + ": expected " + what + ", found " +
                          json_type_name(found));
    }
    const json& member(const json& obj, const std::string& at, const char* key) const {
        auto it = obj.find(key);
        if (it == obj.end())
            throw ConfigError(file + ": " + (at.empty() ? "" : at + ".") + key +
                              ": missing (not a sweep manifest written by `cidsim sweep`?)");
        return *it;
    }
    std::vector<std::string> strings(const json& obj, const char* key) const {
        const json& v = member(obj, "", key);
        if (!v.is_array()) fail(key, "an array of strings", v);
        std::vector<std::string> out;
        for (size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_string())
                fail(std::string(key) + "[" + std::to_string(i) + "]", "a string", v[i]);
            out.push_back(v[i].get<std::string>());
        }
        return out;
    }
    std::string string_at(const json& obj, const std::string& at, const char* key) const {
        const json& v = member(obj, at, key);
        if (!v.is_string()) fail(at + "." + key, "a string", v);
        return v.get<std::string>();
    }
    // A key `cidsim sweep` does not write is an edit (a typo) that would be ignored.
    void known_keys(const json& obj, const std::string& at,
                    const std::vector<std::string>& known) const {
        for (auto it = obj.begin(); it != obj.end(); ++it)
            if (std::find(known.begin(), known.end(), it.key()) == known.end())
                throw ConfigError(file + ": " + at + (at.empty() ? "" : ".") + it.key() +
                                  ": unknown key; valid keys here: " + join_keys(known));
    }
    // A result is read from the sweep directory only: a relative path without
    // "..", and no symbolic link out of it.
    std::string result_path(const std::string& dir, const std::string& at,
                            const std::string& result) const {
        const std::string key = file + ": " + at + ".result: " + show_json(result) + ": ";
        const std::filesystem::path p(result);
        if (result.empty() || p.is_absolute())
            throw ConfigError(key + "expected a path relative to the sweep directory " + dir);
        if (has_control_character(result))
            throw ConfigError(key + "a control character in the path; a sweep names its "
                              "results in printable characters");
        for (const auto& part : p)
            if (part == "..")
                throw ConfigError(key + "a path through \"..\"; expected one inside the sweep "
                                  "directory " + dir);
        const std::string path = dir + "/" + result;
        std::error_code ec1, ec2;
        const auto inside = std::filesystem::weakly_canonical(path, ec1);
        const auto base = std::filesystem::weakly_canonical(dir, ec2);
        if (!ec1 && !ec2) {
            const auto rel = inside.lexically_relative(base);
            if (rel.empty() || *rel.begin() == "..")
                throw ConfigError(key + "leads outside the sweep directory " + dir + " (to " +
                                  inside.string() + ", through a symbolic link)");
        }
        return path;
    }
};

// A parameter's value as a table cell: strings as they are, lists as JSON.
json param_cell(const json& v) { return v.is_string() || v.is_number() || v.is_boolean() ? v : json(v.dump()); }

void add_shape(const json& j, std::string& out) {
    if (j.is_array()) {
        out += "[" + std::to_string(j.size());
        for (const json& e : j) add_shape(e, out);
        out += "]";
    } else if (j.is_object()) {
        out += "{";
        for (auto it = j.begin(); it != j.end(); ++it) add_shape(it.value(), out);
        out += "}";
    }
}

}  // namespace

std::string table_column_clash(const std::string& metric, const std::vector<std::string>& params) {
    if (metric != "point" && metric != "seed" &&
        std::find(params.begin(), params.end(), metric) == params.end())
        return "";
    return "has a column of that name already (the point, its seed, its parameters): it would "
           "be two columns of one name";
}

std::string config_digest(const json& effective_config) {
    return fnv1a_hex(effective_config.dump());
}

std::string config_shape_digest(const json& effective_config) {
    std::string shape;
    add_shape(effective_config, shape);
    return fnv1a_hex(shape);
}

const json* json_at_path(const json& j, const std::string& path) {
    const json* node = &j;
    std::vector<std::string> keys;
    try {
        keys = key_segments(path);  // "[i]" is ".i", as in --set and vary
    } catch (const ConfigError&) {  // deeper than any result nests
        return nullptr;
    }
    for (const std::string& k : keys) {
        if (node->is_object()) {
            auto it = node->find(k);
            if (it == node->end()) return nullptr;
            node = &*it;
        } else if (node->is_array()) {
            const std::optional<size_t> i = array_index(k);
            if (!i || *i >= node->size()) return nullptr;
            node = &(*node)[*i];
        } else {
            return nullptr;
        }
    }
    return node;
}

bool indexed_path(const std::string& path) {
    for (const std::string& k : key_segments(path))
        if (!k.empty() && std::isdigit(static_cast<unsigned char>(k[0]))) return true;
    return false;
}

namespace {

// Whether `config` has `value` at a varied path (workloads[*].iodepth: at
// every element; [i] is .i).
bool holds_at(const json& node, const std::vector<std::string>& keys, size_t i, const json& value) {
    if (i == keys.size()) return node == value;
    if (node.is_array() && keys[i] == "*") {
        if (node.empty()) return false;
        for (const json& e : node)
            if (!holds_at(e, keys, i + 1, value)) return false;
        return true;
    }
    const json* next = json_at_path(node, keys[i]);
    return next && holds_at(*next, keys, i + 1, value);
}

bool config_holds(const json& config, const std::string& path, const json& value) {
    return holds_at(config, key_segments(path), 0, value);
}

// Whether the point's params, set onto the result's own config, give that
// config back after the loader's normalisation: a cpulist "0-1" is read as
// [0, 1], an object gets its defaults, so the result ran with those values
// although its config does not hold them as written.
bool config_normalises_to(const json& config, const json& params) {
    try {
        json c = config;
        for (auto it = params.begin(); it != params.end(); ++it)
            apply_override(c, it.key() + "=" + override_value_text(it.value()));
        return effective_config(load_config(c)) == config;
    } catch (const std::exception&) {  // not a config the loader takes: another one
        return false;
    }
}

// Whether a result was made for the point (its seed, varied values and, when
// the manifest has it, its whole config's digest).
bool result_matches(const json& result, const json& seed, const json& params,
                    const json* digest) {
    if (result.value("seed", json()) != seed) return false;
    if (!result.contains("config") || !result["config"].is_object()) return false;
    const json& config = result["config"];
    // The point's whole config (manifests written before the digest lack it).
    if (digest && *digest != config_digest(config)) return false;
    for (auto it = params.begin(); it != params.end(); ++it)
        if (!config_holds(config, it.key(), it.value()))
            return config_normalises_to(config, params);  // slower: only when needed
    return true;
}

// A list of metrics names each once: a metric twice would be two columns no
// one can tell apart. Named as given: the second --metric, or the manifest's key.
void refuse_repeated_metrics(const std::vector<std::string>& metrics, bool from_option,
                             const std::string& manifest_path) {
    for (size_t i = 0; i < metrics.size(); ++i) {
        const size_t first = size_t(
            std::find_if(metrics.begin(), metrics.end(),
                         [&](const std::string& m) { return same_key_path(m, metrics[i]); }) -
            metrics.begin());
        if (first == i) continue;
        const std::string as = metrics[first] == metrics[i] ? "" : " (as " + metrics[first] + ")";
        if (from_option)
            throw ConfigError("--metric " + metrics[i] + ": given twice" + as +
                              " (a column twice)");
        throw ConfigError(manifest_path + ": metrics[" + std::to_string(i) + "]: " + metrics[i] +
                          " is listed twice (first at [" + std::to_string(first) + "]" +
                          (as.empty() ? "" : ", " + metrics[first]) + ")");
    }
}

// The points of each group so far: --aggregate-seeds averages a group's
// points into one row, so each must be one combination of values, once per seed.
struct GroupsSeen {
    std::map<std::string, size_t> first;                    // group -> its first point
    std::map<std::string, size_t> combinations;             // params (JSON text) -> first point
    std::map<std::pair<std::string, uint64_t>, size_t> seeds;  // (group, seed) -> point
};

// Point `i` of the manifest's `points`, of group `group`: refused when the
// group's first point has other params (its result would be averaged with
// another config's), when its params are another group's (one combination
// split over two rows), or when the group holds its seed already (one run
// counted twice).
void check_group(GroupsSeen& seen, const std::string& file, const json& points, size_t i,
                 const std::string& group, uint64_t seed) {
    const std::string at = file + ": points[" + std::to_string(i) + "].group: " + show_json(group);
    const json& params = points[i]["params"];
    const auto [first, fresh] = seen.first.emplace(group, i);
    if (!fresh && points[first->second]["params"] != params)
        throw ConfigError(at + " is the group of points[" + std::to_string(first->second) +
                          "], whose params differ (" + show_json(points[first->second]["params"]) +
                          ", here " + show_json(params) + "): a group holds the seeds of one "
                          "combination of values");
    const auto [same, novel] = seen.combinations.emplace(params.dump(), i);
    if (!novel && points[same->second]["group"] != group)
        throw ConfigError(at + ": points[" + std::to_string(same->second) + "], of the same "
                          "params, is in group " + show_json(points[same->second]["group"]) +
                          ": the seeds of one combination of values are one group");
    if (const auto [it, added] = seen.seeds.emplace(std::make_pair(group, seed), i); !added)
        throw ConfigError(at + " holds seed " + std::to_string(seed) + " of points[" +
                          std::to_string(it->second) + "] too; a group holds each seed once");
}

}  // namespace

SweepTable collect_sweep(const std::string& dir, std::vector<std::string> metrics,
                         bool aggregate_seeds) {
    const std::string manifest_path = dir + "/sweep.json";
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::status(dir, ec)))
        throw ConfigError(dir + ": no such directory");
    if (!std::filesystem::is_directory(std::filesystem::status(dir, ec)))
        throw ConfigError(dir + ": not a directory; expected a sweep directory");
    if (!std::filesystem::exists(std::filesystem::symlink_status(manifest_path, ec)))
        throw ConfigError(manifest_path + ": no sweep manifest (run `cidsim sweep` with --out " + dir + " first)");
    const json manifest =
        read_json_file(manifest_path, "a sweep manifest (JSON)", kMaxManifestBytes);
    const ManifestReader mr{manifest_path};
    if (!manifest.is_object()) mr.fail("(top level)", "an object", manifest);
    // Where each metric was named, for a message about one no result has.
    const bool from_option = !metrics.empty();
    if (metrics.empty()) metrics = mr.strings(manifest, "metrics");
    // Where the m-th metric was named: the option or the manifest's list.
    const auto metric_label = [&](size_t m) {
        return from_option ? "--metric " + metrics[m]
                           : manifest_path + ": metrics[" + std::to_string(m) + "]: " + metrics[m];
    };
    for (size_t m = 0; m < metrics.size(); ++m) {
        if (has_empty_key(metrics[m]))
            throw ConfigError(metric_label(m) + ": an empty key in the path (expected a result "
                                                "path like metrics.msi_to_handler_ns.p99)");
        (void)key_segments_at(metric_label(m), metrics[m]);
    }
    refuse_repeated_metrics(metrics, from_option, manifest_path);
    const std::vector<std::string> params = mr.strings(manifest, "parameters");
    mr.known_keys(manifest, "", {"parameters", "metrics", "points"});
    // A metric named as the table's own column would be a second column of that name.
    if (!aggregate_seeds)
        for (size_t m = 0; m < metrics.size(); ++m)
            if (const std::string why = table_column_clash(metrics[m], params); !why.empty())
                throw ConfigError(metric_label(m) + ": the table " + why);
    const json& point_list = mr.member(manifest, "", "points");
    if (!point_list.is_array()) mr.fail("points", "an array of points", point_list);
    // A sweep has a point at least: an empty list is a damaged manifest, not an empty table.
    if (point_list.empty())
        throw ConfigError(manifest_path + ": points: expected at least one point, found an "
                          "empty array");

    SweepTable t;
    t.columns.push_back("point");
    for (const std::string& p : params) t.columns.push_back(p);

    // Per point: its cells, read from its result.
    struct Row {
        std::string name, group;
        std::vector<json> params;
        uint64_t seed;
        std::vector<json> values;
    };
    std::vector<Row> rows;
    std::map<std::string, size_t> names, results;  // -> the point that gave it first
    // A path through an array index names an element only points of some
    // shapes have (as the sweep's probe allows): absent elsewhere, it leaves
    // their cells empty, and only a path no result has is an error.
    std::vector<bool> indexed;
    for (const std::string& m : metrics) indexed.push_back(indexed_path(m));
    struct Absent {
        size_t count = 0;
        std::string first;
    };
    std::vector<Absent> absent(metrics.size()), undefined(metrics.size());
    std::map<std::string, size_t> versions;  // cidsim_version -> results
    size_t unversioned = 0;                  // results naming no version
    GroupsSeen groups_seen;
    for (size_t i = 0; i < point_list.size(); ++i) {
        const json& pt = point_list[i];
        const std::string at = "points[" + std::to_string(i) + "]";
        if (!pt.is_object()) mr.fail(at, "an object", pt);
        mr.known_keys(pt, at, {"name", "group", "params", "seed", "config_digest", "result"});
        const auto digest = pt.find("config_digest");
        if (digest != pt.end() && !digest->is_string())
            mr.fail(at + ".config_digest", "a string", *digest);
        const json& seed = mr.member(pt, at, "seed");
        if (!seed.is_number_unsigned()) mr.fail(at + ".seed", "an integer 0 or more", seed);
        const json& pparams = mr.member(pt, at, "params");
        if (!pparams.is_object()) mr.fail(at + ".params", "an object of key.path: value", pparams);
        Row r{mr.string_at(pt, at, "name"), mr.string_at(pt, at, "group"), {},
              seed.get<uint64_t>(), {}};
        for (const std::string& p : params) {
            auto v = pparams.find(p);
            if (v == pparams.end())
                throw ConfigError(manifest_path + ": " + at + ".params: no value for \"" + p +
                                  "\", which parameters lists");
            r.params.push_back(param_cell(*v));
        }
        const std::string result_name = mr.string_at(pt, at, "result");
        const std::string path = mr.result_path(dir, at, result_name);
        // A point listed twice would be a row twice; two points on one result, one result
        // read for both.
        if (const auto [it, fresh] = names.emplace(r.name, i); !fresh)
            throw ConfigError(manifest_path + ": " + at + ".name: " + show_json(r.name) +
                              " names points[" + std::to_string(it->second) + "] too");
        const std::string normal = std::filesystem::path(result_name).lexically_normal().string();
        if (const auto [it, fresh] = results.emplace(normal, i); !fresh)
            throw ConfigError(manifest_path + ": " + at + ".result: " + show_json(result_name) +
                              " is the result of points[" + std::to_string(it->second) + "] too");
        check_group(groups_seen, manifest_path, point_list, i, r.group, r.seed);
        std::error_code ec;
        if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
            t.missing.push_back(r.name);
            continue;
        }
        json result = read_result_json(path);  // not const: result["config"] may be absent
        if (result.is_discarded() || !result.is_object() || !result.contains("metrics"))
            throw ConfigError(path + ": not a cidsim result");
        // A result left by an earlier, different spec must not pass for this point.
        if (!result_matches(result, seed, pparams, digest != pt.end() ? &*digest : nullptr))
            throw ConfigError(path + ": the result is for another seed or config than point " +
                              r.name + " (remove it and rerun `cidsim sweep` to make it "
                              "again; other shipped files, a CIDSIM_DATA_DIR, make another "
                              "config too)");
        // One that names none is of an unknown version: not one of the others.
        if (const auto ver = result.find("cidsim_version"); ver != result.end() && ver->is_string())
            ++versions[ver->get<std::string>()];
        else
            ++unversioned;
        for (size_t m = 0; m < metrics.size(); ++m) {
            const json* v = json_at_path(result, metrics[m]);
            if (!v && indexed[m]) {
                if (!absent[m].count++) absent[m].first = r.name;
                r.values.push_back(nullptr);
                continue;
            }
            if (!v) throw ConfigError(metric_label(m) + ": not found in " + path);
            if (v->is_structured()) {
                const std::string leaf = first_single_value_path(*v, metrics[m]);
                if (leaf.empty())
                    throw ConfigError(metric_label(m) + " is " +
                                      (v->empty() ? "an empty " : "an ") +
                                      (v->is_object() ? "object" : "array") + " in " + path +
                                      ", not a single value (it holds no field to name)");
                throw ConfigError(metric_label(m) + " is not a single value in " + path +
                                  " (name a field inside it, e.g. " + leaf + ")");
            }
            // null: the run could not define it (a ratio of nothing, a
            // histogram without samples); a seed's mean leaves it out.
            if (aggregate_seeds && !v->is_number() && !v->is_null())
                throw ConfigError(metric_label(m) + " is " + v->dump() + " in " + path +
                                  ", not a number, so it cannot be averaged over seeds");
            if (v->is_null() && !undefined[m].count++) undefined[m].first = r.name;
            r.values.push_back(*v);
        }
        rows.push_back(std::move(r));
    }
    if (versions.size() + (unversioned > 0) > 1) {
        std::string which;
        for (const auto& [version, n] : versions)
            which += (which.empty() ? "" : ", ") + show_json(json(version)) + ": " +
                     std::to_string(n);
        if (unversioned) which += ", no version: " + std::to_string(unversioned);
        t.notes.push_back("the results were made by " +
                          std::to_string(versions.size() + (unversioned > 0)) +
                          " cidsim versions (" + which + " point(s)): to have them all from "
                          "one, remove the sweep's points/ and rerun `cidsim sweep` with it");
    }
    for (size_t m = 0; m < metrics.size(); ++m) {
        if (!absent[m].count) continue;
        if (absent[m].count == rows.size())
            throw ConfigError(metric_label(m) + ": not found in any point's result (" +
                              absent[m].first + " the first)");
        t.notes.push_back(metric_label(m) + ": not in " + std::to_string(absent[m].count) +
                           " point(s)' results (" + absent[m].first +
                           (absent[m].count > 1 ? ", ..." : "") + "): their cells are empty");
    }
    for (size_t m = 0; m < metrics.size(); ++m)
        if (undefined[m].count)
            t.notes.push_back(metric_label(m) + ": undefined (null) in " +
                              std::to_string(undefined[m].count) + " point(s)' results (" +
                              undefined[m].first + (undefined[m].count > 1 ? ", ..." : "") +
                              (aggregate_seeds ? "): left out of their group's mean"
                                               : "): their cells are empty"));

    if (!aggregate_seeds) {
        t.columns.push_back("seed");
        for (const std::string& m : metrics) t.columns.push_back(m);
        for (const Row& r : rows) {
            std::vector<json> cells{r.name};
            cells.insert(cells.end(), r.params.begin(), r.params.end());
            cells.push_back(r.seed);
            cells.insert(cells.end(), r.values.begin(), r.values.end());
            t.rows.push_back(std::move(cells));
        }
        return t;
    }

    t.columns.push_back("seeds");
    for (const std::string& m : metrics)
        for (const char* suffix : {".mean", ".ci95_lo", ".ci95_hi"}) t.columns.push_back(m + suffix);
    std::vector<std::string> beyond_double;  // "metric in group g"
    std::vector<std::string> order;  // groups in first-seen order
    std::map<std::string, std::vector<const Row*>> groups;
    for (const Row& r : rows) {
        if (!groups.count(r.group)) order.push_back(r.group);
        groups[r.group].push_back(&r);
    }
    for (const std::string& g : order) {
        const std::vector<const Row*>& members = groups[g];
        std::vector<json> cells{g};
        cells.insert(cells.end(), members[0]->params.begin(), members[0]->params.end());
        const size_t n = members.size();
        cells.push_back(n);
        for (size_t m = 0; m < metrics.size(); ++m) {
            std::vector<double> values;
            for (const Row* r : members)
                if (!r->values[m].is_null()) values.push_back(r->values[m].get<double>());
            if (values.empty()) {  // an element these points' results do not have
                cells.insert(cells.end(), 3, nullptr);
                continue;
            }
            const MeanCi ci = mean_ci95(values);
            const double lo = ci.mean - ci.half_width, hi = ci.mean + ci.half_width;
            // Values near the largest double: their sum, or squares, overflow.
            // A finite mean is kept when only its interval overflows.
            const bool interval = values.size() > 1;  // none from a single seed
            const bool mean_ok = std::isfinite(ci.mean);
            const bool interval_ok = interval && std::isfinite(lo) && std::isfinite(hi);
            if (!mean_ok || (interval && !interval_ok))
                beyond_double.push_back(metric_label(m) + (mean_ok ? "'s interval" : "") +
                                        " in group " + g);
            if (!mean_ok) {
                cells.insert(cells.end(), 3, nullptr);
                continue;
            }
            cells.push_back(ci.mean);
            if (!interval_ok) {
                cells.push_back(nullptr);
                cells.push_back(nullptr);
                continue;
            }
            cells.push_back(lo);
            cells.push_back(hi);
        }
        t.rows.push_back(std::move(cells));
    }
    if (!beyond_double.empty())
        t.notes.push_back(beyond_double.front() +
                          (beyond_double.size() > 1
                               ? " (and " + std::to_string(beyond_double.size() - 1) + " more)"
                               : std::string()) +
                          ": beyond a double's range: its cells left empty");
    return t;
}

std::string table_csv(const SweepTable& t) {
    std::string out;
    for (size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + csv_cell(t.columns[c]);
    out += "\n";
    for (const auto& row : t.rows) {
        for (size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_cell(row[c]);
        out += "\n";
    }
    return out;
}

json table_json(const SweepTable& t) {
    json rows = json::array();
    for (const auto& row : t.rows) {
        json o = json::object();
        for (size_t c = 0; c < row.size(); ++c) o[t.columns[c]] = row[c];
        rows.push_back(o);
    }
    return rows;
}

}  // namespace cidsim
