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

// UTF-8 as RFC 3629 has it (no overlong form, surrogate or code point past
// U+10FFFF): the length of the character `lead` starts, 0 for a byte none
// starts with, and whether `next` may be its second byte.
inline size_t utf8_length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if ((lead >> 4) == 0x0E) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
}

inline bool utf8_second_byte_fits(unsigned char lead, unsigned char next) {
    if ((next & 0xC0) != 0x80) return false;
    switch (lead) {
        case 0xE0: return next >= 0xA0;
        case 0xED: return next <= 0x9F;
        case 0xF0: return next >= 0x90;
        case 0xF4: return next <= 0x8F;
        default: return true;
    }
}

// Whether `text` is UTF-8. A file name from the command line need not be,
// and a JSON output cannot hold it.
inline bool valid_utf8(const std::string& text) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8_length(byte(i));
        if (n == 0 || i + n > text.size()) return false;
        if (n > 1 && !utf8_second_byte_fits(byte(i), byte(i + 1))) return false;
        for (size_t k = 2; k < n; ++k)
            if ((byte(i + k) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

}  // namespace cidsim
