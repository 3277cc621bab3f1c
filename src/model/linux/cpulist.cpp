#include "model/linux/cpulist.h"

#include <algorithm>
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

}  // namespace

std::vector<unsigned> parse_cpulist(const std::string& text, unsigned max_cpu) {
    const auto bad = [&]() {
        return std::invalid_argument("\"" + text + "\" is not a cpulist like \"0-15\" or \"0-7,16-23\"");
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
            throw std::invalid_argument("\"" + text + "\": CPU " + std::to_string(hi) +
                                        " is beyond the largest, " + std::to_string(max_cpu));
        for (unsigned long c = lo; c <= hi; ++c) out.push_back(unsigned(c));
    }
    if (!text.empty() && text.back() == ',') throw bad();
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.empty()) throw std::invalid_argument("an empty cpulist");
    return out;
}

}  // namespace cidsim
