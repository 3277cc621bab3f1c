#pragma once
// The option parsing every subcommand shares: its visible options, one
// optional positional argument, --help.
#include <string>

#include <boost/program_options.hpp>

namespace cidsim {

// Parses argv into `vm`: `visible` options (those --help shows, which must
// include "help"), plus `positional` as the one positional argument's name
// (a hidden string option; nullptr: none is declared, and boost ignores
// stray positional words, as `cidsim bench` always has) and any `hidden`
// options. Returns -1 when the
// command should go on, else the exit status to return (after printing the
// help, or the parse error with the usage).
int parse_command_line(const std::string& command, int argc, char** argv,
                       const boost::program_options::options_description& visible,
                       const char* positional, boost::program_options::variables_map& vm,
                       const boost::program_options::options_description* hidden = nullptr);

// A path as a child cidsim's argument: one that starts with "-" would read
// as an option, so it gets "./" in front.
inline std::string path_argument(const std::string& path) {
    return !path.empty() && path[0] == '-' ? "./" + path : path;
}

}  // namespace cidsim
