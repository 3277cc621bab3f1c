#pragma once
// Whether a name or label the user gave holds a control character (a byte
// below 0x20, or DEL): printed in tables, timelines and one-line commands,
// it would break their lines.
#include <algorithm>
#include <string>

namespace cidsim {

inline bool has_control_character(const std::string& text) {
    return std::any_of(text.begin(), text.end(),
                       [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

}  // namespace cidsim
