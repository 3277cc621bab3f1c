// TraceEventWriter: the document ui.perfetto.dev opens, its event limit,
// and the same bytes a JSON tree of it would dump.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "report/trace_event_writer.h"
#include "version.h"

using nlohmann::json;

namespace {

json instant(int ts) {
    return {{"name", "MSI"}, {"ph", "i"}, {"pid", cidsim::kTracePid}, {"tid", 1001}, {"ts", ts}};
}

}  // namespace

TEST_CASE("the document is what dumping it as one JSON tree gives") {
    cidsim::TraceEventWriter out(10);
    out.name_track(0, "CPU0");
    out.event(instant(1));
    out.event(instant(2));
    const json names = {{"name", "thread_name"}, {"ph", "M"}, {"pid", cidsim::kTracePid},
                        {"tid", 0}, {"args", {{"name", "CPU0"}}}};
    const json tree = {{"traceEvents", {names, instant(1), instant(2)}},
                       {"displayTimeUnit", "ns"},
                       {"metadata", {{"cidsim_version", cidsim::version()},
                                     {"truncated", false}, {"max_events", 10}}}};
    CHECK(std::move(out).take_document() == tree.dump() + "\n");
}

TEST_CASE("the limit counts events, never track names, and says when it cut") {
    cidsim::TraceEventWriter out(2);
    CHECK(out.event(instant(1)));
    out.name_track(5, "IOMMU");
    CHECK(out.event(instant(2)));
    CHECK_FALSE(out.truncated());
    out.name_track(6, "devices");  // names still come after the limit
    CHECK_FALSE(out.event(instant(3)));
    CHECK(out.truncated());
    const json doc = json::parse(std::move(out).take_document());
    CHECK(doc["metadata"]["truncated"] == true);
    CHECK(doc["metadata"]["max_events"] == 2);
    REQUIRE(doc["traceEvents"].size() == 4);
    CHECK(doc["traceEvents"][3]["args"]["name"] == "devices");
}

TEST_CASE("an empty trace is a document with no events") {
    const json doc = json::parse(cidsim::TraceEventWriter(0).take_document());
    CHECK(doc["traceEvents"].empty());
    CHECK(doc["metadata"]["truncated"] == false);
}
