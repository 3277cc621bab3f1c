#pragma once
// A Chrome trace-event JSON document (the format chrome://tracing and
// ui.perfetto.dev open), written as its events come: each event is kept as
// its text, not as a JSON tree (about 2 kB an event), so a trace of the
// recorder's millions of records fits in memory. Metadata events ("ph": "M")
// name tracks and never count against the limit; the others stop at
// `max_events`, and the document's metadata "truncated" says so.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace cidsim {

// The one process every track of cidsim's trace belongs to.
constexpr int kTracePid = 1;

class TraceEventWriter {
public:
    explicit TraceEventWriter(size_t max_events) : m_max(max_events) {}

    // Metadata: the process, and track `tid`, shown as `name`.
    void name_process(const std::string& name);
    void name_track(int tid, const std::string& name);
    // False, and truncated() from then on, once `max_events` are written.
    bool event(const nlohmann::json& event);
    bool truncated() const { return m_truncated; }
    // The whole document, with metadata cidsim_version, max_events,
    // truncated; built around the events' text, which it takes.
    std::string take_document() &&;

private:
    void append(const nlohmann::json& event);

    size_t m_max, m_events = 0;
    bool m_truncated = false;
    std::string m_text;  // the events, comma-separated
};

}  // namespace cidsim
