#pragma once
// The one error type meaning "bad input, exit status 2": a file, option or
// path the user gave is unusable. Everything else that is thrown is a
// runtime failure (exit status 1). ConfigError (config/config_loader.h) is
// one kind of it.
#include <new>
#include <stdexcept>
#include <string>

namespace cidsim {

struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A runtime failure's text for the user: no library's internal tag
// ("[json.exception.type_error.302] ..."), and running out of memory said
// plainly, also when SystemC reports it from inside a process ("(E549)
// uncaught exception: std::bad_alloc").
inline std::string failure_text(const std::exception& e) {
    std::string s = e.what();
    if (dynamic_cast<const std::bad_alloc*>(&e) || s.find("std::bad_alloc") != std::string::npos)
        return "out of memory (a run with fewer CPUs, devices or outstanding I/Os, or a shorter "
               "one, needs less)";
    if (s.rfind("[json.exception.", 0) == 0 && s.find("] ") != std::string::npos)
        s = s.substr(s.find("] ") + 2);
    return s;
}

}  // namespace cidsim
