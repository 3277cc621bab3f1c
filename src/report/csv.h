#pragma once
// One CSV quoting rule (RFC 4180) for every CSV cidsim writes (reproduce's
// tables and sensitivity, collect's table), so that a key or name holding
// a comma, quote or line break cannot shift or split a row in one of them.

#include <string>

namespace cidsim {

// A field holding a comma, double quote, CR or LF is enclosed in double
// quotes with each quote doubled; any other field is written as it is.
inline std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace cidsim
