#pragma once
// Text in the columns of a printed table. A text longer than its column
// keeps all of it, pushing the rest of its line along: a fixed-size line
// buffer would cut the line, and its line feed with it.
#include <string>

namespace cidsim {

inline std::string left_in(const std::string& text, size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

inline std::string right_in(const std::string& text, size_t width) {
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace cidsim
