// cidsim explain ipi-storm (issue 18, item 7), through the binary as a
// student runs it: what docs/teaching.md tells them to look for must be
// there. With one descriptor for the system the irq_count++ stores take
// its line across the chips; with one per chip it never leaves its chip;
// without irqdebug it stays shared and clean.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "explain_runner.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {

std::string cpu_rows(const json& v, const std::string& label) {
    std::string all;
    for (int c = 0; c < 8; ++c) all += row(v, label + " cpu" + std::to_string(c));
    return all;
}

size_t lines_with(const json& v, const std::string& a, const std::string& b = "") {
    size_t n = 0;
    for (const json& line : v["power_narration"]) {
        const std::string s = line.get<std::string>();
        if (s.find(a) != std::string::npos && s.find(b) != std::string::npos) ++n;
    }
    return n;
}

}  // namespace

TEST_CASE("ipi-storm ipi_sys: every CPU's irq_count++ takes the one line, across the chips",
          "[explain][power]") {
    Scratch s;
    std::string text;
    const json r = explain(s, "ipi-storm", &text);
    const json& sys = variant(r, "ipi_sys");
    const std::string cpus = cpu_rows(sys, "ipi_sys");
    for (char mark : {'c', '~', 'I', 't', 'S', 'L'}) {
        INFO(mark);
        CHECK(cpus.find(mark) != std::string::npos);
    }
    // The holder row names CPUs of both chips; transfers cross them.
    const std::string holder = row(sys, "ipi_sys desc line");
    CHECK(holder.find_first_of("0123") != std::string::npos);
    CHECK(holder.find_first_of("4567") != std::string::npos);
    CHECK(row(sys, "ipi_sys transfers").find('*') != std::string::npos);
    CHECK(lines_with(sys, "irq_count++", "ACROSS CHIPS") + lines_with(sys, "on the other chips") >= 1);
    CHECK(lines_with(sys, "IPI to", "ACROSS CHIPS") >= 1);
    CHECK(lines_with(sys, "csd_unlock") >= 1);
    CHECK(sys["power_counts"]["desc_line_cross_chip_share"].get<double>() > 0.1);
    // The printed picture has the rows and says what the marks mean.
    CHECK(text.find("ipi_sys cpu7") != std::string::npos);
    CHECK(text.find("S irq_count++ taking the descriptor's line") != std::string::npos);
    CHECK(text.find("the CPUs' IPIs and the descriptor's line") != std::string::npos);
}

TEST_CASE("ipi-storm ipi_chip: each chip's descriptor line stays on its chip", "[explain][power]") {
    Scratch s;
    const json chip = variant(explain(s, "ipi-storm"), "ipi_chip");
    for (const char* k : {"0", "1"}) {
        INFO(k);
        const std::string moves = row(chip, std::string("ipi_chip transfers") + k);
        CHECK(moves.find('+') != std::string::npos);
        CHECK(moves.find('*') == std::string::npos);
    }
    CHECK(row(chip, "ipi_chip desc0 line").find_first_of("4567") == std::string::npos);
    CHECK(row(chip, "ipi_chip desc1 line").find_first_of("0123") == std::string::npos);
    CHECK(lines_with(chip, "the line from", "ACROSS CHIPS") == 0);
    CHECK(lines_with(chip, "on the other chips") == 0);
    CHECK(chip["power_counts"]["desc_line_cross_chip_share"] == 0.0);
    // The IPIs still cross the chips: only the descriptor moved.
    CHECK(lines_with(chip, "IPI to", "ACROSS CHIPS") >= 1);
}

TEST_CASE("ipi-storm noirqdebug: the line stays shared and clean, and the rate is the highest",
          "[explain][power]") {
    Scratch s;
    const json r = explain(s, "ipi-storm");
    const json& off = variant(r, "noirqdebug");
    const std::string cpus = cpu_rows(off, "noirqdebug");
    CHECK(cpus.find('S') == std::string::npos);
    CHECK(cpus.find('L') == std::string::npos);
    CHECK(row(off, "noirqdebug desc line").find_first_not_of('=') == std::string::npos);
    CHECK(off["power_counts"]["desc_line_stores"] == 0);
    CHECK(lines_with(off, "desc->action") == 0);
    CHECK(off["power_counts"]["mint_per_s"].get<double>() >
          variant(r, "ipi_sys")["power_counts"]["mint_per_s"].get<double>());
}

TEST_CASE("ipi-storm: the explain counts are those of `cidsim run` on the same file",
          "[explain][power]") {
    Scratch s;
    const json sys = variant(explain(s, "ipi-storm"), "ipi_sys");
    const json run = run_result(s, "'" CIDSIM_SOURCE_DIR "/configs/explain/ipi-storm.json'");
    for (const char* k : {"mint_per_s", "ipis", "timer_interrupts", "desc_line_stores"}) {
        INFO(k);
        CHECK(sys["power_counts"][k] == run["ipistorm"][k]);
    }
}

TEST_CASE("ipi-storm: every line docs/teaching.md pastes from it is in today's output",
          "[explain][power][docs]") {
    Scratch s;
    std::string text;
    explain(s, "ipi-storm", &text);
    CHECK(check_pasted_lines("explain ipi-storm", text) > 20);
}
