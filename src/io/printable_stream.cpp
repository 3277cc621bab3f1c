#include "io/printable_stream.h"

#include <cstdio>
#include <iostream>

#include "config/printable.h"

namespace cidsim {
namespace {

// 0 for a byte no UTF-8 character starts with: a continuation byte, the
// leads of overlong forms (0xC0, 0xC1) and those past U+10FFFF (0xF5..0xFF).
size_t utf8_length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if ((lead >> 4) == 0x0E) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
}

void put_byte_value(std::streambuf* out, unsigned char byte) {
    char shown[8];
    std::snprintf(shown, sizeof shown, "<0x%02X>", byte);
    out->sputn(shown, 6);
}

unsigned code_point(const std::string& s) {
    const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]) & 0x3Fu; };
    const unsigned lead = static_cast<unsigned char>(s[0]);
    switch (s.size()) {
        case 1: return lead;
        case 2: return (lead & 0x1Fu) << 6 | b(1);
        case 3: return (lead & 0x0Fu) << 12 | b(1) << 6 | b(2);
        default: return (lead & 0x07u) << 18 | b(1) << 12 | b(2) << 6 | b(3);
    }
}

}  // namespace

void PrintableStreambuf::emit_pending() {
    const bool whole = m_pending.size() == m_expected;
    if (whole && m_pending != "\n" && m_pending != "\t" && has_control_character(m_pending)) {
        char shown[16];
        std::snprintf(shown, sizeof shown, "<U+%04X>", code_point(m_pending));
        m_out->sputn(shown, static_cast<std::streamsize>(std::char_traits<char>::length(shown)));
    } else if (whole) {
        m_out->sputn(m_pending.data(), static_cast<std::streamsize>(m_pending.size()));
    } else {
        for (const char c : m_pending) put_byte_value(m_out, static_cast<unsigned char>(c));
    }
    m_pending.clear();
    m_expected = 0;
}

void PrintableStreambuf::put(char c) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (!m_pending.empty() && (byte & 0xC0) != 0x80) emit_pending();  // a character cut short
    if (m_pending.empty()) {
        m_expected = utf8_length(byte);
        if (m_expected == 0) {
            put_byte_value(m_out, byte);
            return;
        }
    }
    m_pending += c;
    if (m_pending.size() == m_expected) emit_pending();
}

PrintableStreambuf::~PrintableStreambuf() {
    if (!m_pending.empty()) emit_pending();
}

int PrintableStreambuf::overflow(int c) {
    if (c != traits_type::eof()) put(static_cast<char>(c));
    return traits_type::not_eof(c);
}

std::streamsize PrintableStreambuf::xsputn(const char* s, std::streamsize n) {
    for (std::streamsize i = 0; i < n; ++i) put(s[i]);
    return n;
}

// A character split across two writes stays pending: it is shown whole once
// its last byte arrives.
int PrintableStreambuf::sync() { return m_out->pubsync(); }

namespace {
std::ostream* g_unfiltered = nullptr;
}

void filter_standard_error() {
    if (g_unfiltered) return;
    // Never destroyed: std::cerr is flushed after static objects are gone.
    g_unfiltered = new std::ostream(std::cerr.rdbuf());
    std::cerr.rdbuf(new PrintableStreambuf(std::cerr.rdbuf()));
}

std::ostream& unfiltered_standard_error() { return g_unfiltered ? *g_unfiltered : std::cerr; }

}  // namespace cidsim
