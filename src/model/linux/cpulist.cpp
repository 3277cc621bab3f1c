#include "model/linux/cpulist.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace cidsim {

namespace {

// A CPU number: digits only (stoul would take " 3", "+3" and wrap "-1").
bool cpu_number(const std::string& s, unsigned long& out) {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
        return false;
    out = std::stoul(s);
    return true;
}

// The text in quotes, a control character as \xNN (a newline in it would
// split the message's line).
std::string quoted(const std::string& text) {
    std::string q = "\"";
    for (const char c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", unsigned(static_cast<unsigned char>(c)));
            q += hex;
        } else {
            q += c;
        }
    }
    return q + "\"";
}

}  // namespace

std::vector<unsigned> parse_cpulist(const std::string& text, unsigned max_cpu) {
    const auto bad = [&]() {
        return std::invalid_argument(quoted(text) + " is not a cpulist like \"0-15\" or \"0-7,16-23\"");
    };
    std::vector<unsigned> out;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        const size_t dash = part.find('-');
        unsigned long lo = 0, hi = 0;
        if (!cpu_number(part.substr(0, dash), lo)) throw bad();
        hi = lo;
        if (dash != std::string::npos && !cpu_number(part.substr(dash + 1), hi)) throw bad();
        if (hi < lo) throw bad();
        if (hi > max_cpu)
            throw std::invalid_argument(quoted(text) + ": CPU " + std::to_string(hi) +
                                        " is beyond the largest, " + std::to_string(max_cpu));
        for (unsigned long c = lo; c <= hi; ++c) out.push_back(unsigned(c));
    }
    if (!text.empty() && text.back() == ',') throw bad();
    std::sort(out.begin(), out.end());
    // A number twice is a typo the set would hide ("0-3,2": meant 12?).
    if (const auto twice = std::adjacent_find(out.begin(), out.end()); twice != out.end())
        throw std::invalid_argument(quoted(text) + ": " + std::to_string(*twice) +
                                    " is listed twice");
    if (out.empty()) throw std::invalid_argument("an empty cpulist");
    return out;
}

}  // namespace cidsim
