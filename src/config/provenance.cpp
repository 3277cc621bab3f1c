#include "config/provenance.h"

#include <filesystem>
#include <set>

#include "io/data_files.h"
#include "config/config_loader.h"
#include "config/platforms.h"
#include "config/platforms_data.h"

namespace cidsim {

using nlohmann::json;

namespace {

const std::set<std::string> kKinds{"fitted", "measured", "assumed", "guess", "setup"};
const std::set<std::string> kNotValues{"comment", "platform", "provenance"};

void leaves(const json& node, const std::string& path, std::vector<std::pair<std::string, json>>& out) {
    if (!node.is_object()) {
        out.emplace_back(path, node);
        return;
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (path.empty() && kNotValues.count(it.key())) continue;
        leaves(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
    }
}

BadInput bad(const std::string& file, const std::string& key, const std::string& what) {
    return BadInput(file + ": provenance." + key + ": " + what);
}

}  // namespace

bool Provenance::uncertain() const {
    return has_range && (kind == "fitted" || kind == "assumed" || kind == "guess");
}

std::vector<Provenance> read_provenance(const json& doc, const std::string& file) {
    if (!doc.is_object()) throw BadInput(file + ": expected an object");
    const json empty = json::object();
    const json& prov = doc.contains("provenance") ? doc["provenance"] : empty;
    if (!prov.is_object())
        throw BadInput(file + ": provenance: expected an object of entries, found " + json_type_name(prov));
    std::vector<std::pair<std::string, json>> values;
    leaves(doc, "", values);
    std::set<std::string> seen;
    std::vector<Provenance> out;
    for (const auto& [key, value] : values) {
        seen.insert(key);
        if (!prov.contains(key))
            throw bad(file, key, "missing: every value needs {\"kind\", \"range\", \"source\"}");
        const json& e = prov[key];
        if (!e.is_object()) throw bad(file, key, "expected an object, found " + json_type_name(e));
        Provenance p;
        p.file = file;
        p.key = key;
        p.value = value;
        if (!e.contains("kind") || !e["kind"].is_string() || !kKinds.count(e["kind"].get<std::string>()))
            throw bad(file, key, "kind: expected one of " +
                                     join_keys({kKinds.begin(), kKinds.end()}));
        p.kind = e["kind"];
        if (!e.contains("source") || !e["source"].is_string() || e["source"].get<std::string>().empty())
            throw bad(file, key, "source: expected a non-empty string naming where the value comes from");
        p.source = e["source"];
        if (e.contains("note")) {
            if (!e["note"].is_string()) throw bad(file, key, "note: expected a string");
            p.note = e["note"];
        }
        for (auto it = e.begin(); it != e.end(); ++it)
            if (it.key() != "kind" && it.key() != "range" && it.key() != "source" && it.key() != "note")
                throw bad(file, key, "unknown key '" + it.key() + "'; keys: kind, range, source, note");
        if (e.contains("range")) {
            const json& r = e["range"];
            if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number() ||
                r[0].get<double>() > r[1].get<double>())
                throw bad(file, key, "range: expected [low, high] with low <= high, found " + r.dump());
            p.has_range = true;
            p.low = r[0];
            p.high = r[1];
        }
        if (value.is_number()) {
            if (!p.has_range) throw bad(file, key, "range: a number needs its plausible range [low, high]");
            const double v = value.get<double>();
            if (v < p.low || v > p.high)
                throw bad(file, key, "range [" + json(p.low).dump() + ", " + json(p.high).dump() +
                                         "] does not contain the value " + value.dump());
        } else if (p.kind != "setup" && p.kind != "measured") {
            // A switch or a name has no range to vary: the experiment's setup
            // gives it, or a source states it (a driver's own code).
            throw bad(file, key,
                      "kind: a value that is not a number is part of the setup (\"setup\") or stated by its "
                      "source (\"measured\")");
        }
        out.push_back(p);
    }
    for (auto it = prov.begin(); it != prov.end(); ++it)
        if (!seen.count(it.key())) throw bad(file, it.key(), "names no value of the file");
    return out;
}

const json* described_parameter(const json& params, const json& profiles, const Provenance& p) {
    const size_t dot = p.key.find('.');
    if (dot == std::string::npos) return nullptr;
    std::string block, key = p.key.substr(dot + 1);
    if (profiles.is_null()) {
        block = p.key.substr(0, dot);
    } else {
        const std::string profile = p.key.substr(0, dot);
        const size_t dot2 = p.key.find('.', dot + 1);
        if (dot2 == std::string::npos) return nullptr;
        const std::string part = p.key.substr(dot + 1, dot2 - dot - 1);
        key = p.key.substr(dot2 + 1);
        if (part == "device") block = "devices[]";
        const json& workload = profiles[profile]["workload"];
        for (auto b = params.begin(); part == "workload" && b != params.end(); ++b) {
            if (b.key().rfind("workloads[]", 0) != 0) continue;
            bool all = true;
            for (auto it = workload.begin(); it != workload.end(); ++it) {
                bool found = false;
                for (const json& d : b.value()) found = found || d["key"] == it.key();
                all = all && found;
            }
            if (all) block = b.key();
        }
    }
    if (!params.contains(block)) return nullptr;
    for (const json& d : params[block])
        if (d["key"] == key) return &d;
    return nullptr;
}

std::vector<Provenance> platform_provenance(const std::string& platform) {
    for (const auto& [name, text] : builtin_platform_texts())
        if (platform == name) {
            const std::string file = std::string("configs/platform/") + name + ".json";
            return read_provenance(parse_config_text(text, file), file);
        }
    return {};
}

std::string default_devices_file() {
    return data_file("configs/rfc/devices.json");
}

std::vector<Provenance> devices_provenance(const std::string& path) {
    return read_provenance(read_json_file(path), path);
}

}  // namespace cidsim
