#include "cli/numeric_option.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "io/bad_input.h"

namespace cidsim {

namespace {

std::string show_number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

uint64_t integer_option(const boost::program_options::variables_map& vm, const std::string& name,
                        IntegerRange range) {
    const std::string text = vm[name].as<std::string>();
    const std::string expected = "--" + name + ": expected an integer " + range_text(range) +
                                 ", found '" + text + "'";
    // strtoull accepts "-1" (and wraps it) and leading blanks: only digits pass.
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        throw BadInput(expected);
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v < range.min || v > range.max) throw BadInput(expected);
    return v;
}

std::string range_text(IntegerRange range) {
    return std::to_string(range.min) + ".." + std::to_string(range.max);
}

double number_option(const boost::program_options::variables_map& vm, const std::string& name,
                     double min, double max) {
    const std::string text = vm[name].as<std::string>();
    const std::string expected = "--" + name + ": expected a number " + show_number(min) + ".." +
                                 show_number(max) + ", found '" + text + "'";
    // Decimal only: strtod would also take hex ("0x10") and leading blanks.
    if (text.find_first_not_of("0123456789.eE+-") != std::string::npos) throw BadInput(expected);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end || errno == ERANGE || !std::isfinite(v) || v < min || v > max)
        throw BadInput(expected);
    return v;
}

std::string path_option(const boost::program_options::variables_map& vm, const std::string& name) {
    const std::string p = vm[name].as<std::string>();
    if (p.empty()) throw BadInput("--" + name + ": expected a file name, found an empty string");
    return p;
}

}  // namespace cidsim
