#pragma once
// The one error type meaning "bad input, exit status 2": a file, option or
// path the user gave is unusable. Everything else that is thrown is a
// runtime failure (exit status 1). ConfigError (config/config_loader.h) is
// one kind of it.
#include <stdexcept>

namespace cidsim {

struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace cidsim
