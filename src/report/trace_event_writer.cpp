#include "report/trace_event_writer.h"

#include "version.h"

namespace cidsim {

void TraceEventWriter::append(const nlohmann::json& event) {
    if (!m_text.empty()) m_text += ',';
    m_text += event.dump();
}

void TraceEventWriter::name_process(const std::string& name) {
    append({{"name", "process_name"}, {"ph", "M"}, {"pid", kTracePid}, {"args", {{"name", name}}}});
}

void TraceEventWriter::name_track(int tid, const std::string& name) {
    append({{"name", "thread_name"}, {"ph", "M"}, {"pid", kTracePid}, {"tid", tid},
            {"args", {{"name", name}}}});
}

bool TraceEventWriter::event(const nlohmann::json& event) {
    if (m_events >= m_max) {
        m_truncated = true;
        return false;
    }
    ++m_events;
    append(event);
    return true;
}

std::string TraceEventWriter::take_document() && {
    // As nlohmann::json writes the whole object: its keys in sorted order.
    const nlohmann::json metadata = {{"cidsim_version", version()},
                                     {"truncated", m_truncated},
                                     {"max_events", m_max}};
    m_text.insert(0, "{\"displayTimeUnit\":\"ns\",\"metadata\":" + metadata.dump() +
                         ",\"traceEvents\":[");
    m_text += "]}\n";
    return std::move(m_text);
}

}  // namespace cidsim
