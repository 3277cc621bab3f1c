#pragma once
// What cidsim writes to the terminal quotes what the user gave: file names,
// keys, values. A control character among them (an escape sequence in a
// file name, a bidirectional override in a value) would be obeyed by the
// terminal: recolour, move or hide what follows. PrintableStreambuf passes
// text on with every control character but line feed and tab shown as
// <U+001B>, the characters being those of has_control_character
// (config/printable.h), and every byte that is not UTF-8 by its value,
// <0x9B> (an overlong form of a control among them). cidsim writes UTF-8: a
// terminal set to another encoding is not catered for.
#include <ostream>
#include <streambuf>
#include <string>

namespace cidsim {

class PrintableStreambuf : public std::streambuf {
public:
    explicit PrintableStreambuf(std::streambuf* out) : m_out(out) {}
    ~PrintableStreambuf() override;  // passes on a character left cut short

protected:
    int overflow(int c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    void put(char c);
    void emit_pending();
    void write(const char* text, size_t n);
    void write_byte_value(unsigned char byte);

    std::streambuf* m_out;
    bool m_failed = false;  // a write to m_out fell short: the stream goes bad
    std::string m_pending;  // the bytes of a UTF-8 character read so far
    size_t m_expected = 0;  // its length, from its first byte
};

// `text` as the filter passes it on: for text written to the unfiltered
// stream (the progress line's).
std::string printable(const std::string& text);

// Puts the filter in front of std::cerr for the rest of the process.
void filter_standard_error();
// Standard error without the filter, for cidsim's own terminal control (the
// progress line's carriage return and erase); std::cerr until filtered.
std::ostream& unfiltered_standard_error();

}  // namespace cidsim
