#pragma once
// The three ways a config section's Params are visited: read from a JSON
// object (every key checked: type, range, unknown keys with a "did you
// mean"), written back out (the effective config) and listed with their
// documentation (`cidsim params`).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/json_text.h"
#include "model/base/param_visitor.h"
#include "model/linux/cpulist.h"

namespace cidsim {

// Fills Params from one JSON object; remembers which keys it knows.
class JsonReader final : public ParamVisitor {
public:
    JsonReader(const nlohmann::json& obj, std::string path) : m_obj(obj), m_path(std::move(path)) {}

    void time(const char* key, sc_core::sc_time& value, double min_ns, double max_ns,
              const char*) override {
        const nlohmann::json* j = find(key);
        if (!j) return;
        const double v = number(key, *j, min_ns, max_ns);
        value = ns(v);
        // The kernel counts whole picoseconds: a positive time it would read
        // as 0 (a timer period: off) is not what was asked for.
        if (v > 0 && value == sc_core::SC_ZERO_TIME)
            fail(key, "expected 0 or a time that rounds to 1 ps at least (the simulation's "
                      "resolution), found " + show_json(*j));
    }
    void real(const char* key, double& value, const char*, double min, double max,
              const char*) override {
        if (const nlohmann::json* j = find(key)) value = number(key, *j, min, max);
    }
    void integer(const char* key, uint64_t& value, const char*, uint64_t min, uint64_t max,
                 const char*) override {
        if (const nlohmann::json* j = find(key)) value = whole(key, *j, min, max);
    }
    void flag(const char* key, bool& value, const char*) override {
        if (const nlohmann::json* j = find(key)) {
            if (!j->is_boolean()) fail(key, "expected true or false, found " + json_type_name(*j));
            value = j->get<bool>();
        }
    }
    void choice(const char* key, int& value, const char* const* names, int count,
                const char*) override {
        const nlohmann::json* j = find(key);
        if (!j) return;
        std::vector<std::string> allowed(names, names + count);
        if (j->is_string())
            for (int i = 0; i < count; ++i)
                if (*j == names[i]) {
                    value = i;
                    return;
                }
        fail(key, "expected one of " + join_keys(allowed) + ", found " + show_json(*j));
    }
    void text(const char* key, std::string& value, const char*) override {
        if (const nlohmann::json* j = find(key)) {
            if (!j->is_string())
                fail(key, "expected a string, found " + json_type_name(*j) + one_cpu_hint(key, *j));
            value = j->get<std::string>();
            // Characters, not bytes: a UTF-8 continuation byte starts none.
            const size_t chars = size_t(std::count_if(value.begin(), value.end(), [](char b) {
                return (static_cast<unsigned char>(b) & 0xC0) != 0x80;
            }));
            if (chars > kMaxNameLength)
                fail(key, "expected at most " + std::to_string(kMaxNameLength) +
                              " characters, found " + std::to_string(chars));
        }
    }
    void counts(const char* key, std::vector<uint64_t>& value, uint64_t min, uint64_t max,
                const char* desc) override {
        if (const nlohmann::json* j = find(key); j && (!j->is_array() || j->empty()))
            fail(key, "expected a non-empty array of integers, one per element (a cpulist "
                      "would sort and merge them), found " + json_type_name(*j));
        integers(key, value, min, max, desc);
    }
    void integers(const char* key, std::vector<uint64_t>& value, uint64_t min, uint64_t max,
                  const char*) override {
        const nlohmann::json* j = find(key);
        if (!j) return;
        // A kernel cpulist ("0-3,8") says the same list in a line.
        if (j->is_string()) {
            std::vector<unsigned> listed;
            try {
                listed = parse_cpulist(j->get<std::string>(), unsigned(std::min<uint64_t>(max, 65535)));
            } catch (const std::invalid_argument& e) {
                fail(key, e.what());
            }
            if (listed.front() < min)
                fail(key, "expected integers " + std::to_string(min) + ".." + std::to_string(max) +
                              ", found " + std::to_string(listed.front()));
            value.assign(listed.begin(), listed.end());
            return;
        }
        if (!j->is_array() || j->empty())
            fail(key, "expected a non-empty array of integers or a cpulist such as \"0-3,8\", "
                      "found " + json_type_name(*j) + one_cpu_hint(key, *j));
        if (j->size() > kMaxListLength)
            fail(key, "expected at most " + std::to_string(kMaxListLength) + " elements, found " +
                          std::to_string(j->size()));
        value.clear();
        for (size_t i = 0; i < j->size(); ++i)
            value.push_back(whole((std::string(key) + "[" + std::to_string(i) + "]").c_str(),
                                  (*j)[i], min, max));
    }

    // Accepts a key handled outside the visitor (arrays of sections).
    void allow(const std::string& key) { m_known.push_back(key); }
    // After visiting: every key present must be known.
    void check_unknown() const {
        for (auto it = m_obj.begin(); it != m_obj.end(); ++it)
            if (std::find(m_known.begin(), m_known.end(), it.key()) == m_known.end()) {
                const std::string guess = near_miss(it.key(), m_known);
                // Quoted unless a plain name: a "." or "[" in it would read as a path.
                const bool plain = !it.key().empty() &&
                                   it.key().find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                              "0123456789_-") == std::string::npos;
                const std::string shown = plain && it.key().size() <= 80
                                              ? it.key()
                                              : show_json(nlohmann::json(it.key()));
                throw ConfigError(m_path + shown + ": unknown key" +
                                  (guess.empty() ? "" : " (did you mean \"" + guess + "\"?)") +
                                  "; valid keys here: " + join_keys(m_known));
            }
    }

private:
    const nlohmann::json* find(const char* key) {
        // counts() and the integers() it calls both look the key up: listed once.
        if (std::find(m_known.begin(), m_known.end(), key) == m_known.end()) m_known.push_back(key);
        auto it = m_obj.find(key);
        return it == m_obj.end() ? nullptr : &*it;
    }
    // A CPU number where a cpulist or CPU list goes (irq_cpus, ipistorm.cpulist,
    // overrides[].cpus): how one CPU is written, as --set passes it too.
    std::string one_cpu_hint(const char* key, const nlohmann::json& j) const {
        const std::string k = key;
        if (!j.is_number_unsigned() || (k != "cpulist" && k != "cpus" && k != "irq_cpus"))
            return "";
        const std::string n = j.dump();
        return " (one CPU is \"" + n + "\"" + (k == "irq_cpus" ? " or [" + n + "]" : "") +
               ", quoted for the shell too: --set '" + m_path + k + "=\"" + n + "\"')";
    }
    [[noreturn]] void fail(const char* key, const std::string& what) const {
        throw ConfigError(m_path + key + ": " + what);
    }
    double number(const char* key, const nlohmann::json& j, double min, double max) const {
        if (!j.is_number()) fail(key, "expected a number, found " + found_json(j));
        const double v = j.get<double>();
        if (!std::isfinite(v)) fail(key, "expected a finite number, found " + show_json(j));
        if (min > 0 && v <= 0)
            fail(key, "expected a positive number (at least " + format_number(min) + "), found " + show_json(j));
        if (v < min || v > max)
            fail(key, "expected a number in [" + format_number(min) + ", " + format_number(max) + "], found " +
                          show_json(j));
        return v;
    }
    uint64_t whole(const char* key, const nlohmann::json& j, uint64_t min, uint64_t max) const {
        try {
            return whole_number(j, min, max);
        } catch (const ConfigError& e) {
            fail(key, e.what());
        }
    }

    const nlohmann::json& m_obj;
    std::string m_path;
    std::vector<std::string> m_known;
};

// Writes Params out as JSON (the effective config).
class JsonWriter final : public ParamVisitor {
public:
    explicit JsonWriter(nlohmann::json& out) : m_out(out) {}
    void time(const char* key, sc_core::sc_time& v, double, double, const char*) override {
        m_out[key] = ns_of(v);
    }
    void real(const char* key, double& v, const char*, double, double, const char*) override {
        m_out[key] = v;
    }
    void integer(const char* key, uint64_t& v, const char*, uint64_t, uint64_t,
                 const char*) override {
        m_out[key] = v;
    }
    void flag(const char* key, bool& v, const char*) override { m_out[key] = v; }
    void option(const char*, bool&, const char*) override {}
    void choice(const char* key, int& v, const char* const* names, int, const char*) override {
        m_out[key] = names[v];
    }
    void text(const char* key, std::string& v, const char*) override { m_out[key] = v; }
    void integers(const char* key, std::vector<uint64_t>& v, uint64_t, uint64_t,
                  const char*) override {
        m_out[key] = v;
    }

private:
    nlohmann::json& m_out;
};

// Lists parameters with their documentation (for `cidsim params`).
class Describer final : public ParamVisitor {
public:
    explicit Describer(nlohmann::json& out) : m_out(out) {}
    void time(const char* key, sc_core::sc_time& v, double min, double max,
              const char* desc) override {
        add(key, "number", "ns", ns_of(v), min, max, desc);
    }
    void real(const char* key, double& v, const char* unit, double min, double max,
              const char* desc) override {
        add(key, "number", unit, v, min, max, desc);
    }
    void integer(const char* key, uint64_t& v, const char* unit, uint64_t min, uint64_t max,
                 const char* desc) override {
        add(key, "integer", unit, v, min, max, desc);
    }
    void flag(const char* key, bool& v, const char* desc) override {
        add(key, "boolean", "", v, nullptr, nullptr, desc);
    }
    void choice(const char* key, int& v, const char* const* names, int count,
                const char* desc) override {
        nlohmann::json e = entry(key, "choice", "", names[v], nullptr, nullptr, desc);
        e["allowed"] = std::vector<std::string>(names, names + count);
        m_out.push_back(e);
    }
    void text(const char* key, std::string& v, const char* desc) override {
        add(key, "string", "", v, nullptr, nullptr, desc);
    }
    void integers(const char* key, std::vector<uint64_t>& v, uint64_t min, uint64_t max,
                  const char* desc) override {
        add(key, "integer list", "", v, min, max, desc);
    }

private:
    static nlohmann::json entry(const char* key, const char* type, const char* unit, nlohmann::json def, nlohmann::json min,
                      nlohmann::json max, const char* desc) {
        return {{"key", key}, {"type", type},  {"unit", unit},       {"default", def},
                {"min", min}, {"max", max},    {"description", desc}};
    }
    void add(const char* key, const char* type, const char* unit, nlohmann::json def, nlohmann::json min, nlohmann::json max,
             const char* desc) {
        m_out.push_back(entry(key, type, unit, std::move(def), std::move(min), std::move(max),
                              desc));
    }
    nlohmann::json& m_out;
};

// `j` when it is an object, else a ConfigError naming `path`.
inline const nlohmann::json& object_at(const nlohmann::json& j, const std::string& path) {
    if (!j.is_object()) throw ConfigError(path + ": expected an object, found " + json_type_name(j));
    return j;
}

}  // namespace cidsim
