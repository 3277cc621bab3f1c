#include "config/json_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "config/printable.h"
#include "io/input_file.h"

namespace cidsim {

using nlohmann::json;

std::string join_keys(const std::vector<std::string>& keys) {
    std::string s;
    for (const std::string& k : keys) s += (s.empty() ? "" : ", ") + k;
    return s;
}

std::string found_json(const json& j) {
    return j.is_null() ? "null" : json_type_name(j) + " " + show_json(j);
}

uint64_t whole_number(const json& j, uint64_t min, uint64_t max) {
    const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
    if (!j.is_number())
        throw ConfigError("expected an integer in " + range + ", found " + found_json(j));
    const std::string negative =
        "expected a non-negative integer in " + range + ", found " + show_json(j);
    uint64_t v = 0;
    if (j.is_number_unsigned()) {
        v = j.get<uint64_t>();
    } else if (j.is_number_integer()) {  // signed: configs built in code, --set
        if (j.get<int64_t>() < 0) throw ConfigError(negative);
        v = uint64_t(j.get<int64_t>());
    } else {
        // JSON integers beyond 64 bits arrive as doubles.
        const double d = j.get<double>();
        if (!std::isfinite(d))
            throw ConfigError("expected a finite integer, found " + show_json(j));
        if (d < 0) throw ConfigError(negative);
        if (d >= 18446744073709551616.0)
            throw ConfigError("integer overflow: " + show_json(j) +
                              " does not fit in 64 bits; expected an integer in " + range);
        if (d != std::floor(d))
            throw ConfigError("expected a whole number in " + range + ", found " + show_json(j));
        // 9007199254740993.0 reads as ...992: a neighbour, silently.
        if (d >= 9007199254740992.0)
            throw ConfigError(show_json(j) + " is read as a floating-point number, exact only "
                              "below 2^53 = 9007199254740992: write the integer without a "
                              "fraction or exponent");
        v = uint64_t(d);
    }
    if (min > 0 && v == 0)
        throw ConfigError("expected a positive integer in " + range + ", found 0");
    if (v < min || v > max)
        throw ConfigError("expected an integer in " + range + ", found " + show_json(j));
    return v;
}

std::string json_type_name(const json& j) {
    return j.is_null() ? "null" : j.is_boolean() ? "a boolean" : j.is_number() ? "a number"
         : j.is_string() ? "a string" : j.is_array() ? "an array" : "an object";
}

namespace {

// Levenshtein distance, for "did you mean" on unknown keys.
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string near_miss(const std::string& key, const std::vector<std::string>& known) {
    std::string best;
    if (key.size() > 2 * kMaxNameLength) return best;  // not a typo; keeps this cheap
    size_t best_d = std::max<size_t>(2, key.size() / 3) + 1;
    for (const std::string& k : known) {
        const size_t d = edit_distance(key, k);
        if (d < best_d) best_d = d, best = k;
    }
    return best;
}

uint64_t fnv1a(const std::string& text) {
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h;
}

std::string fnv1a_hex(const std::string& text) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
    return hex;
}

std::string plural(uint64_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string format_number(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

std::string show_json(const json& j) {
    std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
    // Escaped, a line separator or bidirectional control cannot reorder or
    // break the message it is shown in.
    if (has_control_character(s)) s = j.dump(-1, ' ', true, json::error_handler_t::replace);
    if (s.size() > 80) {
        size_t cut = 77;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
        s = s.substr(0, cut) + "...";
    }
    return s;
}

std::string format_hex(uint64_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%llX", (unsigned long long)v);
    return buf;
}

json read_json_file(const std::string& path, const std::string& what, size_t max_bytes) {
    std::string text;
    try {
        text = read_input_file(path, what, max_bytes);
    } catch (const BadInput& e) {
        throw ConfigError(e.what());
    }
    return parse_config_text(text, path);
}

namespace {

// Included files read for the config being read: a tree of includes (each
// file naming ten others, eight deep) would otherwise be read 10^8 times.
thread_local size_t g_included_files = 0;
// The files being read, outermost first: one among them again is a cycle.
thread_local std::vector<std::string> g_reading;

std::string file_identity(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : p.string();
}

}  // namespace

json read_config_file(const std::string& path, int depth) {
    if (depth == 0) g_included_files = 0, g_reading.clear();
    g_reading.resize(depth);
    const std::string identity = file_identity(path);
    if (std::find(g_reading.begin(), g_reading.end(), identity) != g_reading.end())
        throw ConfigError(path + ": includes itself (a cycle of includes)");
    if (depth > 8) throw ConfigError(path + ": includes nested deeper than 8");
    g_reading.push_back(identity);
    if (depth > 0 && ++g_included_files > kMaxIncludedFiles)
        throw ConfigError(path + ": more than " + std::to_string(kMaxIncludedFiles) +
                          " included files in one config (counting each time a file is "
                          "included)");
    json config = read_json_file(path);
    // Checked here, before any --set is applied to it, so that every
    // command's message names the file.
    if (!config.is_object())
        throw ConfigError(path + ": config: expected an object, found " + json_type_name(config));
    const std::string dir = path.find('/') == std::string::npos
                                ? std::string(".")
                                : path.substr(0, path.find_last_of('/'));
    return merge_includes(std::move(config), dir, path, depth);
}

json included_platform(const std::string& path) {
    try {
        const json doc = read_json_file(path);
        if (!doc.is_object() || !doc.contains("include")) return nullptr;
        const std::string dir = path.find('/') == std::string::npos
                                    ? std::string(".")
                                    : path.substr(0, path.find_last_of('/'));
        const json merged = merge_includes({{"include", doc["include"]}}, dir, path);
        return merged.value("platform", json());
    } catch (const ConfigError&) {
        return nullptr;  // reading the config itself names the problem
    }
}

void overlay(json& base, const json& top) {
    if (!base.is_object() || !top.is_object()) {
        base = top;
        return;
    }
    for (auto it = top.begin(); it != top.end(); ++it) {
        auto b = base.find(it.key());
        if (b != base.end() && b->is_object() && it->is_object())
            overlay(*b, *it);
        else
            base[it.key()] = *it;
    }
}

json merge_includes(json config, const std::string& dir, const std::string& source, int depth) {
    if (!config.is_object() || !config.contains("include")) return config;
    if (depth == 0) g_included_files = 0;
    const json includes = config["include"];
    config.erase("include");
    json merged = json::object();
    std::string platform_from;  // the include that brought merged's platform
    if (includes.is_array() && includes.empty())
        throw ConfigError(source + ": include: an empty list includes nothing; drop the key");
    for (const json& inc : includes.is_array() ? includes : json::array({includes})) {
        if (!inc.is_string() || inc.get<std::string>().empty())
            throw ConfigError(source + ": include: expected a file name or a list of them");
        const std::string file = inc.get<std::string>();
        if (has_control_character(file))
            throw ConfigError(source + ": include: " + show_json(inc) +
                              ": a control character in a file name");
        json included;
        try {
            included = read_config_file(file[0] == '/' ? file : dir + "/" + file, depth + 1);
        } catch (const ConfigError& e) {
            // The included file's own message, and which config and key led there.
            throw ConfigError(source + ": include \"" + file + "\": " + e.what());
        }
        // Two includes of two platforms would run one's values under the other's name.
        if (auto mine = included.find("platform"), before = merged.find("platform");
            mine != included.end() && before != merged.end() && *mine != *before)
            throw ConfigError(source + ": include: \"" + platform_from + "\" is platform " +
                              before->dump() + ", \"" + file + "\" platform " + mine->dump() +
                              ": a config runs on one platform; include one of them");
        if (included.contains("platform")) platform_from = file;
        overlay(merged, included);
    }
    // One platform per config: an included platform file's values under a
    // different "platform" name would run on one and report the other.
    if (auto own = config.find("platform"), inc = merged.find("platform");
        own != config.end() && inc != merged.end() && *own != *inc)
        throw ConfigError(source + ": platform: " + own->dump() + ", but an include is platform " +
                          inc->dump() + " and brings its values; name one platform (drop the "
                          "key or the include)");
    overlay(merged, config);
    return merged;
}

namespace {

// The first number of a JSON text that reads as 0 but is not (1e-400), and
// its ordinal among the text's numbers: the parser gives a value, not its digits.
std::optional<std::pair<size_t, std::string>> first_underflowing_number(const std::string& text) {
    size_t ordinal = 0;
    for (size_t i = 0; i < text.size();) {
        if (text[i] == '"') {  // a string: its digits are no number
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            ++i;
            continue;
        }
        if (text[i] != '-' && !std::isdigit(static_cast<unsigned char>(text[i]))) {
            ++i;
            continue;
        }
        const size_t end = text.find_first_not_of("+-0123456789.eE", i);
        const std::string number = text.substr(i, end == std::string::npos ? end : end - i);
        if (number.substr(0, number.find_first_of("eE")).find_first_of("123456789") !=
                std::string::npos &&
            std::strtod(number.c_str(), nullptr) == 0)
            return std::make_pair(ordinal, number);
        ++ordinal;
        i += number.size();
    }
    return std::nullopt;
}

// The parser's message quotes what it last read, raw: a byte that is not
// UTF-8 is shown by its value, not sent to the terminal as it is.
std::string printable_bytes(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const size_t n = c < 0x80          ? 1
                         : (c >> 5) == 0x06 ? 2
                         : (c >> 4) == 0x0E ? 3
                         : (c >> 3) == 0x1E ? 4
                                            : 0;  // a continuation byte or 0xF8..0xFF
        bool whole = n > 0 && i + n <= text.size();
        for (size_t k = 1; whole && k < n; ++k)
            whole = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
        if (whole) {
            out.append(text, i, n);
            i += n;
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "<0x%02X>", c);
            out += hex;
            ++i;
        }
    }
    return out;
}

// Line and column (from 1) of byte `byte` (from 0) of `text`.
std::string line_column(const std::string& text, size_t byte) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') ++line, column = 1;
        else ++column;
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

std::string underflow_text(const std::string& number) {
    return number + " is nearer 0 than a double can hold (it would read as 0)";
}

}  // namespace

json parse_config_text(const std::string& text, const std::string& source,
                       const std::string& top_path) {
    // Where the parser is: one frame per open object or array.
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string key;   // objects: the current member
        size_t count = 0;  // arrays: elements started so far
    };
    std::vector<Frame> stack;
    auto path = [&stack, &top_path]() {
        std::string p = top_path;
        for (size_t i = 0; i + 1 < stack.size(); ++i)
            p += stack[i].object ? (p.empty() ? "" : ".") + stack[i].key
                                 : "[" + std::to_string(stack[i].count - 1) + "]";
        return p.empty() ? std::string("(top level)") : p;
    };
    // Where a value is: `counted` when the innermost array has counted it
    // (its value event came), else it is that array's next element.
    auto value_path = [&stack, &top_path](bool counted) {
        std::string p = top_path;
        for (size_t i = 0; i < stack.size(); ++i) {
            const bool next = !counted && i + 1 == stack.size();
            p += stack[i].object ? (p.empty() ? "" : ".") + stack[i].key
                                 : "[" + std::to_string(stack[i].count - (next ? 0 : 1)) + "]";
        }
        return p;
    };
    const std::string prefix = source.empty() ? "" : source + ": ";
    const auto underflow = first_underflowing_number(text);
    // The parser gives each number's value, not its digits: the scanner's
    // ordinal finds the one that underflowed.
    size_t numbers = 0;
    auto callback = [&](int depth, json::parse_event_t event, json& parsed) {
        if (depth > kMaxJsonDepth)
            throw ConfigError(prefix + path() + ": nested deeper than " +
                              std::to_string(kMaxJsonDepth) + " levels");
        using E = json::parse_event_t;
        const bool starts = event == E::object_start || event == E::array_start;
        if ((starts || event == E::value) && !stack.empty() && !stack.back().object)
            ++stack.back().count;
        if (underflow && event == E::value && parsed.is_number() && numbers++ == underflow->first) {
            const std::string at = value_path(true);
            throw ConfigError(prefix + (at.empty() ? "" : at + ": ") +
                              underflow_text(underflow->second));
        }
        if (starts) stack.push_back({event == E::object_start, {}, {}, 0});
        if (event == E::object_end || event == E::array_end) stack.pop_back();
        if (event == E::key) {
            const std::string key = parsed.get<std::string>();
            stack.back().key = key;
            if (!stack.back().keys.insert(key).second)
                throw ConfigError(prefix + path() + ": duplicate key " + show_json(json(key)) +
                                  " (only one value per key is allowed)");
        }
        return true;
    };
    const std::string at = source.empty() ? "" : source + ":";
    // Byte order marks, or ASCII text with a zero byte before or after each
    // character (not a file of zeros).
    const bool wide = text.rfind("\xFF\xFE", 0) == 0 || text.rfind("\xFE\xFF", 0) == 0 ||
                      (text.size() > 1 && (text[0] == '\0') != (text[1] == '\0')) ||
                      (text.size() > 3 && text.compare(0, 3, std::string(3, '\0')) == 0 &&
                       text[3] != '\0');
    const std::string hint = wide ? " (UTF-16 or UTF-32? cidsim reads UTF-8)" : "";
    // The parser takes a NUL byte for the end of the text: what follows one
    // (the zeros of a file cut short by a crash, say) would go unread.
    if (const size_t nul = text.find('\0'); nul != std::string::npos)
        throw ConfigError(at + line_column(text, nul) + ": not valid JSON: a NUL byte" + hint);
    // The parser reads past one byte order mark; a second one (an editor
    // adding its own) would be an invisible "invalid literal".
    if (text.rfind("\xEF\xBB\xBF\xEF\xBB\xBF", 0) == 0)
        throw ConfigError(at + line_column(text, 3) + ": not valid JSON: a second byte order "
                          "mark (<U+FEFF>) after the first; remove it");
    try {
        return json::parse(text, callback);
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        const size_t col = what.find("column ");
        const size_t colon = what.find(": ", col == std::string::npos ? 0 : col);
        if (colon != std::string::npos) what = what.substr(colon + 2);
        throw ConfigError(at + line_column(text, e.byte ? e.byte - 1 : 0) + ": not valid JSON: " +
                          printable_bytes(what) + hint);
    } catch (const json::out_of_range& e) {
        // e.g. 1e400: JSON has no infinity, and cidsim takes no non-finite numbers.
        std::string what = e.what();
        if (const size_t sp = what.find("] "); sp != std::string::npos) what = what.substr(sp + 2);
        // Where: the number being read is the innermost container's next value.
        const std::string at = value_path(false);
        throw ConfigError(prefix + (at.empty() ? "" : at + ": ") + "non-finite number: " + what +
                          " (JSON numbers must be finite)");
    } catch (const json::exception& e) {
        throw ConfigError(prefix + "not valid JSON: " + e.what());
    }
}

std::string against_sets(const std::string& what, const std::string& source,
                         const std::vector<std::string>& sets) {
    if (what.rfind(source + ": ", 0) != 0) return what;
    const std::string rest = what.substr(source.size() + 2);
    const std::vector<std::string> key = error_key_segments(rest);
    for (auto s = sets.rbegin(); s != sets.rend(); ++s) {
        const std::vector<std::string> path = key_segments(s->substr(0, s->find('=')));
        bool related = true;
        for (size_t i = 0; related && i < std::min(path.size(), key.size()); ++i)
            related = path[i] == "*" || path[i] == key[i];
        if (related) return "--set " + *s + ": " + rest;
    }
    return what;
}

namespace {

// Sets `value` at keys[i..] below `node`; "*" in an array is every element.
void set_at(json& node, const std::vector<std::string>& keys, size_t i, const json& value,
            const std::string& walked_before) {
    if (i == keys.size()) {
        node = value;
        return;
    }
    const std::string& k = keys[i];
    const std::string walked = walked_before + (walked_before.empty() ? "" : ".") + k;
    if (node.is_array()) {
        if (k == "*") {
            if (node.empty()) throw ConfigError("--set " + walked + ": an empty array has no elements");
            for (json& element : node) set_at(element, keys, i + 1, value, walked);
            return;
        }
        const std::optional<size_t> index = array_index(k);
        const bool digits = index.has_value();
        const size_t idx = index.value_or(0);
        if (!digits || idx >= node.size())
            throw ConfigError("--set " + walked + ": no element " + k + " in an array of " +
                              std::to_string(node.size()) +
                              (digits ? "" : " (an index is written in digits only, or * for every one)"));
        set_at(node[idx], keys, i + 1, value, walked);
    } else if (k == "*") {
        if (node.is_null() && i > 0)
            throw ConfigError("--set " + walked + ": * names every element of an array, and " +
                              walked_before + " is not in the config");
        throw ConfigError("--set " + walked + ": * names every element of an array, found " +
                          json_type_name(node));
    } else if (node.is_null() && i > 0 && !k.empty() &&
               k.find_first_not_of("0123456789") == std::string::npos) {
        // No config key is a number: this indexes an array the config lacks
        // (or a key that is no array: what it is, params knows, not the file).
        throw ConfigError("--set " + walked + ": no element " + k + ": " + walked_before +
                          " is not in the config (if it is a list, set it whole: --set '" +
                          walked_before + "=[...]'; cidsim params gives each key's type)");
    } else if (node.is_object() || node.is_null()) {
        set_at(node[k], keys, i + 1, value, walked);
    } else {
        throw ConfigError("--set " + walked + ": " + json_type_name(node) + " has no keys");
    }
}

}  // namespace

namespace {

// "workloads[*].iodepth" as "workloads.*.iodepth". A bracket holds an
// index or * after a key, and is followed by '.', '[' or the end: anything
// else ("workloads[0.iodepth", "run[duration_ns]") is refused.
std::string dotted(const std::string& path) {
    std::string flat;
    for (size_t i = 0; i < path.size(); ++i) {
        const char c = path[i];
        if (c == ']') throw ConfigError("--set " + path + ": a ] without its [");
        if (c != '[') {
            flat += c;
            continue;
        }
        const size_t close = path.find(']', i);
        const std::string inside =
            close == std::string::npos ? std::string() : path.substr(i + 1, close - i - 1);
        const bool index = !inside.empty() &&
                           (inside == "*" || inside.find_first_not_of("0123456789") ==
                                                 std::string::npos);
        const bool placed = i > 0 && path[i - 1] != '.' && close != std::string::npos &&
                            (close + 1 == path.size() || path[close + 1] == '.' ||
                             path[close + 1] == '[');
        if (!index || !placed)
            throw ConfigError("--set " + path + ": [...] holds an array index in digits or * "
                              "after a key, as in workloads[0].iodepth or workloads[*].iodepth");
        flat += '.' + inside;
        i = close;
    }
    return flat;
}

}  // namespace

std::vector<std::string> error_key_segments(const std::string& what) {
    try {
        return key_segments(what.substr(0, what.find(": ")));
    } catch (const ConfigError&) {
        return {};
    }
}

bool set_reaches(const std::string& assignment, const std::vector<std::string>& key) {
    const std::vector<std::string> keys =
        error_key_segments(assignment.substr(0, assignment.find('=')));
    return !keys.empty() && keys.size() <= key.size() &&
           std::equal(keys.begin(), keys.end(), key.begin());
}

std::vector<std::string> key_segments(const std::string& path) {
    // No config nests deeper, and a path of thousands of keys would build as
    // deep a JSON value, walked recursively.
    if (std::count(path.begin(), path.end(), '.') + std::count(path.begin(), path.end(), '[') >=
        kMaxJsonDepth)
        throw ConfigError("--set " + show_json(json(path)) + ": a key path deeper than " +
                          std::to_string(kMaxJsonDepth) + " keys, the deepest a config nests");
    std::vector<std::string> out;
    std::stringstream in(dotted(path));
    for (std::string part; std::getline(in, part, '.');) {
        // "00" would name element 0 under a second spelling, which the
        // checks for a key given twice would not see.
        if (part.size() > 1 && part[0] == '0' &&
            part.find_first_not_of("0123456789") == std::string::npos)
            throw ConfigError("--set " + path + ": index " + part +
                              " has a leading zero; write it " +
                              part.substr(std::min(part.find_first_not_of('0'), part.size() - 1)));
        out.push_back(part);
    }
    return out;
}

std::vector<std::string> key_segments_at(const std::string& at, const std::string& path) {
    try {
        return key_segments(path);
    } catch (const ConfigError& e) {  // "--set PATH: why"
        const std::string what = e.what();
        throw ConfigError(at + ": " + what.substr(what.find(": ") + 2));
    }
}

bool has_empty_key(const std::string& path) {
    return path.empty() || path.front() == '.' || path.back() == '.' ||
           path.find("..") != std::string::npos;
}

std::string set_too_long(size_t bytes, const std::string& whose, const std::string& put_in) {
    if (bytes <= kMaxSetBytes) return "";
    return std::to_string(bytes) + " bytes, more than one argument of " + whose +
           " command may hold (" + std::to_string(kMaxSetBytes) +
           "; cidsim params \"(limits)\"): put it in " + put_in;
}

std::string set_changes_no_run(const std::string& assignment) {
    return read_by_no_run(error_key_segments(assignment.substr(0, assignment.find('='))));
}

std::string read_by_no_run(const std::vector<std::string>& segments) {
    if (segments.empty()) return "";
    if (segments.front() == "explain")
        return "the explain section is read by `cidsim explain` only, and changes no run";
    if (segments.front() == "provenance")
        return "a config's provenance documents its values, and changes no run";
    if (segments.size() == 1 && segments.front() == "comment")
        return "a config's comment is free text for its reader, and changes no run";
    return "";
}

bool set_states(const std::string& assignment, const std::vector<std::string>& key) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos || !set_reaches(assignment, key)) return false;
    const size_t given = error_key_segments(assignment.substr(0, eq)).size();
    return holds_key(json::parse(assignment.substr(eq + 1), nullptr, false),
                     std::vector<std::string>(key.begin() + long(given), key.end()));
}

bool holds_key(const json& section, const std::vector<std::string>& key) {
    const json* node = &section;
    for (const std::string& k : key) {
        if (!node->is_object() || !node->contains(k)) return false;
        node = &(*node)[k];
    }
    return true;
}

std::string first_single_value_path(const nlohmann::json& v, const std::string& path) {
    if (!v.is_structured()) return path;
    for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string below = first_single_value_path(
            *it, path + "." + (v.is_object() ? it.key() : std::to_string(it - v.begin())));
        if (!below.empty()) return below;
    }
    return "";
}

bool same_key_path(const std::string& a, const std::string& b) {
    if (a == b) return true;
    try {
        return key_segments(a) == key_segments(b);
    } catch (const ConfigError&) {
        return false;
    }
}

std::optional<std::pair<size_t, size_t>> key_given_twice(const std::vector<std::string>& sets) {
    // Each set's key segments; none for one that is no key=value (its own
    // check says what is wrong with it).
    std::vector<std::optional<std::vector<std::string>>> keys;
    for (const std::string& set : sets) {
        const size_t eq = set.find('=');
        try {
            keys.push_back(eq == std::string::npos || eq == 0
                               ? std::nullopt
                               : std::make_optional(key_segments(set.substr(0, eq))));
        } catch (const ConfigError&) {
            keys.push_back(std::nullopt);
        }
    }
    // A later set of the key or of a section above it ("a" after "a.b", "w.*.x"
    // after "w.0.x") replaces the earlier value; one below it ("a.b" after "a") layers.
    const auto is_index = [](const std::string& k) {
        return !k.empty() && std::isdigit(static_cast<unsigned char>(k[0]));
    };
    const auto replaces = [&](const std::vector<std::string>& later,
                              const std::vector<std::string>& earlier) {
        if (later.size() > earlier.size()) return false;
        for (size_t s = 0; s < later.size(); ++s)
            if (later[s] != earlier[s] && !(later[s] == "*" && is_index(earlier[s])))
                return false;
        return true;
    };
    for (size_t i = 0; i < sets.size(); ++i)
        for (size_t k = 0; k < i; ++k)
            if (keys[i] && keys[k] && replaces(*keys[i], *keys[k])) return std::make_pair(i, k);
    return std::nullopt;
}

std::string set_given_twice(const std::vector<std::string>& sets) {
    const auto twice = key_given_twice(sets);
    if (!twice) return "";
    return "--set " + sets[twice->first] + ": replaces what --set " + sets[twice->second] +
           " gave, whose value would be lost; keep one";
}

namespace {

bool meant_as_json(const std::string& text) {
    static const std::regex number(R"(\s*-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\s*)");
    const size_t first = text.find_first_not_of(" \t\r\n");
    return (first != std::string::npos && (text[first] == '[' || text[first] == '{')) ||
           std::regex_match(text, number);
}

}  // namespace

void apply_override(json& config, const std::string& assignment) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("--set " + assignment + ": expected key.path=value");
    const std::string path = dotted(assignment.substr(0, eq));
    const std::string text = assignment.substr(eq + 1);
    json value = json::parse(text, nullptr, false);
    // 1e-400 reads as 0: a value the user did not give.
    if (value.is_number() && first_underflowing_number(text))
        throw ConfigError("--set " + assignment + ": " + underflow_text(text));
    // A value that is JSON is read as a file is: a key twice is refused, not
    // collapsed. So is one meant as JSON that is not (an array or object with
    // a syntax error, a number past a double's range): taken as a string, its
    // error would be a string where an array was expected.
    if (value.is_structured() || (value.is_discarded() && meant_as_json(text)))
        value = parse_config_text(text, "--set " + path, path);
    else if (value.is_discarded())
        value = text;
    try {
        (void)value.dump();
    } catch (const json::exception&) {
        throw ConfigError("--set " + path + ": the value is not valid UTF-8");
    }
    if (has_empty_key(path))
        throw ConfigError("--set " + assignment + ": empty key in the path " + path +
                          " (expected key.path=value, e.g. handler.loop_limit=5)");
    const std::vector<std::string> keys = key_segments(assignment.substr(0, eq));
    // A file's includes are merged when it is read, before any --set.
    if (keys.front() == "include")
        throw ConfigError("--set " + assignment + ": include: a config file's key, merged when " +
                          "the file is read: name the file in the config's include, not here");
    set_at(config, keys, 0, value, "");
}

}  // namespace cidsim
