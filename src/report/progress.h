#pragma once
// A progress line on stderr, only when stderr is a terminal: a person
// watching sees that a long command is alive and how long it has left; a
// redirected stderr (logs, pipes, the tests) gets nothing, so what a
// command writes there stays its warnings and errors alone. The line is
// rewritten in place ("\r...\033[K") at most a few times a second and
// erased when the work ends.
#include <chrono>
#include <ostream>
#include <string>

namespace cidsim {

class ProgressLine {
public:
    // Enabled when stderr is a terminal (isatty(2)); `out` is for tests.
    ProgressLine();
    explicit ProgressLine(std::ostream* out);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    bool enabled() const { return m_out != nullptr; }
    // Shows `text` unless one was shown less than 0.2 s ago (force: anyway).
    void show(const std::string& text, bool force = false);
    // Erases the line (before other output, and at the end).
    void clear();
    // Wall seconds since construction.
    double elapsed() const;
    // "12.3 s", "4 min 05 s": an estimate of the time left from the
    // fraction done so far, "?" before there is any.
    static std::string time_left(double elapsed, double fraction_done);

private:
    using Clock = std::chrono::steady_clock;
    std::ostream* m_out;
    Clock::time_point m_start = Clock::now();
    Clock::time_point m_last{};
    bool m_shown = false;
};

}  // namespace cidsim
