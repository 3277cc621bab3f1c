#include "report/confidence.h"
#include "sweep/collect.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>


#include "config/config_loader.h"
#include "sweep/sweep_dir.h"
#include "sweep/sweep_spec.h"

namespace cidsim {

using nlohmann::json;

namespace {

std::string csv_cell(const json& v) {
    if (v.is_null()) return "";
    std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

// A parameter's value as a table cell: strings as they are, lists as JSON.
json param_cell(const json& v) { return v.is_string() || v.is_number() || v.is_boolean() ? v : json(v.dump()); }

}  // namespace

const json* json_at_path(const json& j, const std::string& path) {
    const json* node = &j;
    std::stringstream parts(path);
    for (std::string k; std::getline(parts, k, '.');) {
        if (node->is_object()) {
            auto it = node->find(k);
            if (it == node->end()) return nullptr;
            node = &*it;
        } else if (node->is_array()) {
            char* end = nullptr;
            const unsigned long i = std::strtoul(k.c_str(), &end, 10);
            if (k.empty() || *end || i >= node->size()) return nullptr;
            node = &(*node)[i];
        } else {
            return nullptr;
        }
    }
    return node;
}


SweepTable collect_sweep(const std::string& dir, std::vector<std::string> metrics,
                         bool aggregate_seeds) {
    const std::string manifest_path = dir + "/sweep.json";
    std::ifstream in(manifest_path);
    if (!in) throw ConfigError(manifest_path + ": no sweep manifest (run `cidsim sweep` with --out " + dir + " first)");
    const json manifest = json::parse(in, nullptr, false);
    if (manifest.is_discarded() || !manifest.contains("points") || !manifest.contains("parameters"))
        throw ConfigError(manifest_path + ": not a sweep manifest");
    if (metrics.empty()) metrics = manifest["metrics"].get<std::vector<std::string>>();
    const std::vector<std::string> params = manifest["parameters"].get<std::vector<std::string>>();

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
    for (const json& pt : manifest["points"]) {
        Row r{pt["name"], pt["group"], {}, pt["seed"].get<uint64_t>(), {}};
        for (const std::string& p : params) r.params.push_back(param_cell(pt["params"][p]));
        const std::string path = dir + "/" + pt["result"].get<std::string>();
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec)) {
            t.missing.push_back(r.name);
            continue;
        }
        json result = read_result_json(path);  // not const: result["config"] may be absent
        if (result.is_discarded() || !result.contains("metrics"))
            throw ConfigError(path + ": not a cidsim result");
        // A result left by an earlier, different spec must not pass for this point.
        bool matches = result.value("seed", json()) == pt["seed"];
        for (auto it = pt["params"].begin(); it != pt["params"].end() && matches; ++it) {
            const json* v = json_at_path(result["config"], it.key());
            matches = v && *v == it.value();
        }
        if (!matches)
            throw ConfigError(path + ": the result is for another seed or config than point " +
                              r.name + " (rerun `cidsim sweep` to refresh it)");
        for (size_t m = 0; m < metrics.size(); ++m) {
            const json* v = json_at_path(result, metrics[m]);
            if (!v)
                throw ConfigError("metrics[" + std::to_string(m) + "]: " + metrics[m] +
                                  " not found in " + path);
            if (v->is_object() || v->is_array())
                throw ConfigError("metrics[" + std::to_string(m) + "]: " + metrics[m] +
                                  " is not a single value in " + path +
                                  " (name a field inside it, e.g. " + metrics[m] + "." +
                                  (v->is_object() && !v->empty() ? v->begin().key() : "0") + ")");
            if (aggregate_seeds && !v->is_number())
                throw ConfigError("metrics[" + std::to_string(m) + "]: " + metrics[m] +
                                  " is not a number, so it cannot be averaged over seeds");
            r.values.push_back(*v);
        }
        rows.push_back(std::move(r));
    }

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
            for (const Row* r : members) values.push_back(r->values[m].get<double>());
            const MeanCi ci = mean_ci95(values);
            cells.push_back(ci.mean);
            if (n < 2) {  // no interval from a single seed
                cells.push_back(nullptr);
                cells.push_back(nullptr);
                continue;
            }
            cells.push_back(ci.mean - ci.half_width);
            cells.push_back(ci.mean + ci.half_width);
        }
        t.rows.push_back(std::move(cells));
    }
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
