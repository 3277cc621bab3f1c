#include "report/progress.h"

#include <cstdio>
#include <iostream>
#include <unistd.h>

#include "io/printable_stream.h"

namespace cidsim {

ProgressLine::ProgressLine() : m_out(::isatty(STDERR_FILENO) ? &unfiltered_standard_error() : nullptr) {}

ProgressLine::ProgressLine(std::ostream* out) : m_out(out) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::show(const std::string& text, bool force) {
    if (!m_out) return;
    const Clock::time_point now = Clock::now();
    if (!force && m_shown && now - m_last < std::chrono::milliseconds(200)) return;
    m_last = now;
    m_shown = true;
    // Only the line's own control is sent as it is: the text quotes the user's.
    *m_out << "\r\033[K" << printable(text) << std::flush;
}

void ProgressLine::clear() {
    if (!m_out || !m_shown) return;
    *m_out << "\r\033[K" << std::flush;
    m_shown = false;
}

double ProgressLine::elapsed() const {
    return std::chrono::duration<double>(Clock::now() - m_start).count();
}

std::string ProgressLine::time_left(double elapsed, double fraction_done) {
    if (fraction_done <= 0) return "?";
    const double left = elapsed / fraction_done * (1 - fraction_done);
    char buf[64];
    if (left < 60)
        std::snprintf(buf, sizeof buf, "%.1f s", left);
    else
        std::snprintf(buf, sizeof buf, "%d min %02d s", int(left / 60), int(left) % 60);
    return buf;
}

}  // namespace cidsim
