// PrintableStreambuf: what the user gave reaches the terminal as text, never
// as a command to it.
#include <catch2/catch.hpp>

#include <ostream>
#include <sstream>

#include "io/printable_stream.h"

namespace {

std::string filtered(const std::string& text, size_t split = 0) {
    std::ostringstream sink;
    {
        cidsim::PrintableStreambuf filter(sink.rdbuf());
        std::ostream out(&filter);
        if (split) out << text.substr(0, split) << std::flush << text.substr(split);
        else out << text;
    }
    return sink.str();
}

}  // namespace

TEST_CASE("escape sequences and other control characters are shown, not sent") {
    CHECK(filtered("run.json: \x1b[31mred\x1b[0m") == "run.json: <U+001B>[31mred<U+001B>[0m");
    CHECK(filtered("a\rb\x7f") == "a<U+000D>b<U+007F>");
    CHECK(filtered("a\xc2\x9b" "2J") == "a<U+009B>2J");                // C1 CSI
    CHECK(filtered("x\xe2\x80\xae" "gpj.exe") == "x<U+202E>gpj.exe");  // bidi override
    CHECK(filtered("\xe2\x81\xa6" "i") == "<U+2066>i");
}

TEST_CASE("lines, tabs and letters of any script pass as they are") {
    const std::string text = "line one\n\tline two: caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82\n";
    CHECK(filtered(text) == text);
}

TEST_CASE("bytes that are not UTF-8 are shown by their value") {
    CHECK(filtered("csi \x9b" "31m") == "csi <0x9B>31m");  // a C1 control in Latin-1
    CHECK(filtered("caf\xe9 byte \xc3") == "caf<0xE9> byte <0xC3>");
    CHECK(filtered("cut \xe2\x80 short") == "cut <0xE2><0x80> short");
    CHECK(filtered("overlong \xc0\x9b") == "overlong <0xC0><0x9B>");
}

TEST_CASE("an overlong form or a surrogate is no character: its bytes are shown") {
    CHECK(filtered("x\xe0\x82\x9b" "2J") == "x<0xE0><0x82><0x9B>2J");  // CSI, overlong
    CHECK(filtered("\xed\xa0\x80") == "<0xED><0xA0><0x80>");            // a surrogate
    CHECK(filtered("\xf4\x90\x80\x80") == "<0xF4><0x90><0x80><0x80>");  // past U+10FFFF
}

TEST_CASE("characters written one at a time are judged as text written at once") {
    std::ostringstream sink;
    {
        cidsim::PrintableStreambuf filter(sink.rdbuf());
        std::ostream out(&filter);
        for (const char c : std::string("a\n\tb\x1b\xe2\x80\xae")) out.put(c);
    }
    CHECK(sink.str() == "a\n\tb<U+001B><U+202E>");
    CHECK(cidsim::printable("row \x1b[2J") == "row <U+001B>[2J");
}

TEST_CASE("a character split across two writes is judged whole") {
    CHECK(filtered("x\xe2\x80\xae" "y", 2) == "x<U+202E>y");
    CHECK(filtered("caf\xc3\xa9", 4) == "caf\xc3\xa9");
}
