#pragma once
// `cidsim explain SCENARIO` from a test, as a student runs it (the binary,
// CIDSIM_BINARY): the variants' JSON, their rows, and the check that what
// docs/teaching.md pastes from a scenario is in today's output.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace cidsim_test {

// Runs `cidsim explain ARGS --out FILE`; the printed text in `text` (when
// given), the variants' JSON returned.
inline nlohmann::json explain(const Scratch& s, const std::string& args, std::string* text = nullptr) {
    const Run r = run_cidsim(s, "explain " + args + " --out '" + (s / "explain.json") + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    if (text) *text = r.out;
    return nlohmann::json::parse(slurp(s / "explain.json"));
}

inline const nlohmann::json& variant(const nlohmann::json& result, const std::string& label) {
    for (const nlohmann::json& v : result["variants"])
        if (v["label"] == label) return v;
    FAIL("no variant " << label);
    return result;
}

// The cells of the variant's row labelled `label`.
inline std::string row(const nlohmann::json& v, const std::string& label) {
    for (const nlohmann::json& r : v["rows"])
        if (r["label"] == label) return r["cells"];
    FAIL("no row " << label);
    return "";
}

// Every line of the code blocks in docs/teaching.md's section holding
// `anchor` must be a line of `text`; returns how many there were.
inline size_t check_pasted_lines(const std::string& anchor, const std::string& text) {
    const std::string doc = slurp(std::string(CIDSIM_SOURCE_DIR) + "/docs/teaching.md");
    const size_t from = doc.find(anchor);
    REQUIRE(from != std::string::npos);
    const size_t to = doc.find("\n## ", from);
    const std::string section = doc.substr(from, to == std::string::npos ? std::string::npos : to - from);
    size_t pasted = 0;
    for (size_t open = section.find("```\n"); open != std::string::npos;) {
        const size_t close = section.find("```", open + 4);
        REQUIRE(close != std::string::npos);
        std::istringstream block(section.substr(open + 4, close - open - 4));
        for (std::string line; std::getline(block, line);) {
            // scripts/docs.py's excerpt marks: "..." skips lines, "X ..." is a line starting X.
            if (line == "...") continue;
            ++pasted;
            INFO(line);
            if (line.size() > 4 && line.compare(line.size() - 4, 4, " ...") == 0)
                CHECK(("\n" + text).find("\n" + line.substr(0, line.size() - 4)) != std::string::npos);
            else
                CHECK(text.find(line + "\n") != std::string::npos);
        }
        open = section.find("```\n", close + 3);
    }
    return pasted;
}

}  // namespace cidsim_test
