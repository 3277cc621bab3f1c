#include "io/printable_stream.h"

#include <cstdio>
#include <iostream>
#include <sstream>

#include "config/printable.h"

namespace cidsim {
namespace {

// Printable ASCII, line feed and tab: passed on as they are, many at once.
bool plain(unsigned char byte) { return (byte >= 0x20 && byte < 0x7F) || byte == '\n' || byte == '\t'; }

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

void PrintableStreambuf::write(const char* text, size_t n) {
    if (m_out->sputn(text, std::streamsize(n)) != std::streamsize(n)) m_failed = true;
}

void PrintableStreambuf::write_byte_value(unsigned char byte) {
    char shown[8];
    std::snprintf(shown, sizeof shown, "<0x%02X>", byte);
    write(shown, 6);
}

void PrintableStreambuf::emit_pending() {
    const bool whole = m_pending.size() == m_expected;
    if (whole && has_control_character(m_pending)) {
        char shown[16];
        std::snprintf(shown, sizeof shown, "<U+%04X>", code_point(m_pending));
        write(shown, std::char_traits<char>::length(shown));
    } else if (whole) {
        write(m_pending.data(), m_pending.size());
    } else {
        for (const char c : m_pending) write_byte_value(static_cast<unsigned char>(c));
    }
    m_pending.clear();
    m_expected = 0;
}

void PrintableStreambuf::put(char c) {
    const unsigned char byte = static_cast<unsigned char>(c);
    // A character cut short, or one no UTF-8 text holds, is shown byte by byte.
    if (m_pending.size() == 1 && !utf8_second_byte_fits(static_cast<unsigned char>(m_pending[0]), byte))
        emit_pending();
    else if (!m_pending.empty() && (byte & 0xC0) != 0x80)
        emit_pending();
    if (m_pending.empty() && plain(byte)) {
        write(&c, 1);
        return;
    }
    if (m_pending.empty()) {
        m_expected = utf8_length(byte);
        if (m_expected == 0) {
            write_byte_value(byte);
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
    return m_failed ? traits_type::eof() : traits_type::not_eof(c);
}

std::streamsize PrintableStreambuf::xsputn(const char* s, std::streamsize n) {
    for (std::streamsize i = 0; i < n;) {
        std::streamsize run = 0;
        while (m_pending.empty() && i + run < n && plain(static_cast<unsigned char>(s[i + run])))
            ++run;
        if (run) {
            write(s + i, size_t(run));
            i += run;
        } else {
            put(s[i++]);
        }
    }
    return m_failed ? 0 : n;
}

// A character split across two writes stays pending, not flushed: judged
// whole once its last byte arrives (a message's line feed ends it at the latest).
int PrintableStreambuf::sync() { return m_out->pubsync() == 0 && !m_failed ? 0 : -1; }

std::string printable(const std::string& text) {
    std::ostringstream shown;
    {
        PrintableStreambuf filter(shown.rdbuf());
        std::ostream(&filter) << text;
    }
    return shown.str();
}

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
