#pragma once
// Numeric command-line options, parsed with their range. Boost's own
// parsing lets "-1" wrap to 2^64-1 for an unsigned option and takes "nan"
// for a double; these options are declared as strings and read here
// instead: "--seed: expected an integer 0..18446744073709551615, found -1".
// Throws BadInput (exit status 2).
#include <cstdint>
#include <string>

#include <boost/program_options.hpp>

namespace cidsim {

// An option's range, declared once for its parse and its --help text.
struct IntegerRange {
    uint64_t min, max;
};
uint64_t integer_option(const boost::program_options::variables_map& vm, const std::string& name,
                        IntegerRange range);
// "10..1000", as integer_option's message writes the range.
std::string range_text(IntegerRange range);
// Finite and within [min, max].
double number_option(const boost::program_options::variables_map& vm, const std::string& name,
                     double min, double max);
// An option naming a file or directory: BadInput when given empty.
std::string path_option(const boost::program_options::variables_map& vm, const std::string& name);

}  // namespace cidsim
