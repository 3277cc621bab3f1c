// cidsim explain eoi-lock (issue 21, item 5), through the binary as a
// student runs it: what docs/teaching.md tells them to look for must be
// there. Each vCPU has its row with the lock's waits and holds, the full
// variant's narration shows event_lock's line crossing the sockets, and
// with the bitmap fix no EOI takes the lock.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "explain_runner.h"

using namespace cidsim_test;
using nlohmann::json;

namespace {

size_t lines_with(const json& v, const std::string& what) {
    size_t n = 0;
    for (const json& line : v["xen_narration"])
        if (line.get<std::string>().find(what) != std::string::npos) ++n;
    return n;
}

}  // namespace

TEST_CASE("eoi-lock: a row per vCPU with spins and holds, the lock's owner and its hand-offs",
          "[explain][xen]") {
    Scratch s;
    std::string text;
    const json r = explain(s, "eoi-lock", &text);
    const json& full = variant(r, "full");
    std::string all;
    for (int i = 0; i < 4; ++i) all += row(full, "full vcpu" + std::to_string(i));
    // Delivery holds, EOI holds and spinning all appear on the vCPU rows.
    CHECK(all.find('D') != std::string::npos);
    CHECK(all.find('E') != std::string::npos);
    CHECK(all.find('~') != std::string::npos);
    // The owner row names vCPUs of both sockets.
    const std::string owner = row(full, "full event_lock");
    CHECK(owner.find_first_of("01") != std::string::npos);
    CHECK(owner.find_first_of("23") != std::string::npos);
    CHECK(row(full, "full hand-offs").find('*') != std::string::npos);
    // The printed picture has the rows and says what the marks mean.
    CHECK(text.find("full vcpu3") != std::string::npos);
    CHECK(text.find("~ spinning on event_lock") != std::string::npos);
    CHECK(text.find("the vCPUs' pCPUs under Xen, and event_lock") != std::string::npos);
}

TEST_CASE("eoi-lock full: the narration follows the lock's line across the sockets",
          "[explain][xen]") {
    Scratch s;
    const json full = variant(explain(s, "eoi-lock"), "full");
    CHECK(lines_with(full, "ACROSS SOCKETS") >= 1);
    CHECK(lines_with(full, "spins on its line") >= 1);
    CHECK(lines_with(full, "walked 64 pirqs") >= 1);
    CHECK(full["xen_counts"]["cross_socket_handoffs"].get<uint64_t>() >= 1);
    CHECK(full["xen_counts"]["lock_eois"].get<uint64_t>() >= 1);
    // Every hand-off narrated is one the counts know, and no more.
    CHECK(lines_with(full, "gets event_lock from") <= full["xen_counts"]["handoffs"].get<uint64_t>());
    // The explain log misses none: the lock's own counters, from `cidsim run`, agree.
    const json run = run_result(s, "'" CIDSIM_SOURCE_DIR "/configs/explain/eoi-lock.json'");
    const json& lock = run["xen"]["event_lock"];
    CHECK(full["xen_counts"]["handoffs"] == lock["handoffs"]);
    CHECK(full["xen_counts"]["cross_socket_handoffs"] == lock["cross_socket_handoffs"]);
}

TEST_CASE("eoi-lock bitmap: the EOI takes no lock, the delivery still does", "[explain][xen]") {
    Scratch s;
    const json r = explain(s, "eoi-lock");
    const json& bitmap = variant(r, "bitmap");
    const json& c = bitmap["xen_counts"];
    CHECK(c["lock_eois"] == 0);
    CHECK(c["eois_past_lock"].get<uint64_t>() >= 1);
    CHECK(c["lock_deliveries"].get<uint64_t>() >= 1);
    CHECK(lines_with(bitmap, "for the EOI of") == 0);
    CHECK(lines_with(bitmap, "returns without event_lock") >= 1);
    std::string all;
    for (int i = 0; i < 4; ++i) all += row(bitmap, "bitmap vcpu" + std::to_string(i));
    CHECK(all.find('E') == std::string::npos);
    CHECK(all.find('b') != std::string::npos);
    // The same EOIs reach Xen as in the full variant: only the lock is gone.
    CHECK(c["eois_past_lock"] == variant(r, "full")["xen_counts"]["lock_eois"]);
}

TEST_CASE("eoi-lock: --stepwise gives the same Xen results (the pCPUs act at the kernel's time)",
          "[explain][xen]") {
    Scratch s;
    for (const char* v : {"full", "bitmap"}) {
        json xen[2];
        for (int stepwise = 0; stepwise < 2; ++stepwise) {
            xen[stepwise] = run_result(s, "'" CIDSIM_SOURCE_DIR "/configs/explain/eoi-lock.json' --set xen.variant=" +
                                              std::string(v) + (stepwise ? " --stepwise" : ""))["xen"];
            REQUIRE(xen[stepwise]["event_lock"]["acquisitions"].get<uint64_t>() > 0);
        }
        CHECK(xen[0] == xen[1]);
    }
}

TEST_CASE("eoi-lock: every line docs/teaching.md pastes from it is in today's output", "[explain][xen][docs]") {
    Scratch s;
    std::string text;
    explain(s, "eoi-lock", &text);
    CHECK(check_pasted_lines("explain eoi-lock", text) > 20);
}
