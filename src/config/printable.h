#pragma once
// Whether a name or label the user gave holds a control character: printed
// in tables, timelines and one-line commands, it would break their lines
// or reorder what follows. In UTF-8: C0 (below 0x20) and DEL, C1 (U+0080 to
// U+009F, NEL among them), the line and paragraph separators (U+2028,
// U+2029) and the bidirectional controls (U+061C, U+200E, U+200F, U+202A to
// U+202E, U+2066 to U+2069).
#include <string>

namespace cidsim {

inline bool has_control_character(const std::string& text) {
    const auto byte = [&](size_t i) { return i < text.size() ? (unsigned char)text[i] : 0u; };
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned c = byte(i);
        if (c < 0x20 || c == 0x7f) return true;
        if (c == 0xc2 && byte(i + 1) >= 0x80 && byte(i + 1) <= 0x9f) return true;
        if (c == 0xd8 && byte(i + 1) == 0x9c) return true;
        if (c == 0xe2 && byte(i + 1) == 0x80) {
            const unsigned d = byte(i + 2);
            if (d == 0x8e || d == 0x8f || (d >= 0xa8 && d <= 0xae)) return true;
        }
        if (c == 0xe2 && byte(i + 1) == 0x81 && byte(i + 2) >= 0xa6 && byte(i + 2) <= 0xa9)
            return true;
    }
    return false;
}

// Whether `text` is UTF-8 (RFC 3629: no overlong form, surrogate or code
// point past U+10FFFF). A file name from the command line need not be, and
// a JSON output cannot hold it.
inline bool valid_utf8(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : (c >> 4) == 0x0E ? 3
                         : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (n == 0 || i + n > text.size()) return false;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
        const unsigned char d = static_cast<unsigned char>(text[i + 1 < text.size() ? i + 1 : i]);
        if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d > 0x9F) || (c == 0xF0 && d < 0x90) ||
            (c == 0xF4 && d > 0x8F))
            return false;
        i += n;
    }
    return true;
}

}  // namespace cidsim
