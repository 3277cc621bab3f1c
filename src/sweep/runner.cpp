#include "sweep/runner.h"

#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <signal.h>
#include <string.h>

#include "sweep/local_pool.h"

namespace cidsim {

namespace fs = std::filesystem;

namespace {

std::string clock_text(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

// The last `lines` of a run's log; `killed`: a signal ended the run, which
// then wrote no message of its own.
std::string tail(const std::string& path, size_t lines, bool killed) {
    std::ifstream in(path);
    std::deque<std::string> last;
    for (std::string line; std::getline(in, line);) {
        last.push_back(line);
        if (last.size() > lines) last.pop_front();
    }
    std::string out;
    for (const std::string& l : last) out += "    " + l + "\n";
    if (!out.empty()) return out;
    if (killed) return "    (empty: a run ended by a signal writes no message)\n";
    // Written by the run itself: on a full disk it may hold nothing.
    return "    (empty: the run wrote no message, or could not write it here, on a full disk "
           "say)\n";
}

}  // namespace

SweepSummary run_sweep(const SweepDir& dir, const SweepSpec& spec,
                       const std::vector<SweepPoint>& points, const SweepOptions& options) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    SweepSummary sum;
    sum.points = points.size();
    sum.temp_files_removed = remove_stale_temp_files(dir.dir() + "/points");

    std::vector<size_t> todo;  // indices into points
    for (size_t i = 0; i < points.size(); ++i) {
        const ResultState st = check_result(dir.result_path(points[i]), points[i]);
        if (st == ResultState::Complete) {
            ++sum.skipped;
            continue;
        }
        if (st == ResultState::Invalid) ++sum.unreadable;
        if (st == ResultState::Stale) ++sum.replaced;
        todo.push_back(i);
    }

    std::vector<PoolJob> jobs;
    for (size_t i : todo) jobs.push_back({dir.command(spec, points[i]), dir.log_path(points[i])});

    size_t finished = 0;
    auto progress = [&] {
        if (!options.progress) return;
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        std::string eta = "?";
        if (finished > 0)
            eta = clock_text(elapsed / double(finished) * double(todo.size() - finished));
        *options.progress << "\r\033[Ksweep: " << sum.skipped + finished << "/" << sum.points
                          << " points done";
        if (sum.failed) *options.progress << " (" << sum.failed << " failed)";
        *options.progress << ", " << clock_text(elapsed) << " elapsed, ~" << eta << " left"
                          << std::flush;
    };
    progress();

    run_pool(
        jobs, options.jobs,
        [&](size_t j, const PoolOutcome& out) {
            const SweepPoint& p = points[todo[j]];
            ++finished;
            const std::string log = dir.log_path(p);
            std::string why;
            bool stale = false;  // the run went well, on a config changed under it
            if (!out.ok()) {
                why = outcome_text(out);
            } else if (const ResultState r = check_result(dir.result_path(p), p);
                       r == ResultState::Stale) {
                // The run read the base (or an include) afresh: edited since the
                // sweep began, it gave another config. Its result is no point's.
                std::error_code ec;
                fs::remove(dir.result_path(p), ec);
                stale = true;
                why = "exit status 0, but its result is for another config than this point's: "
                      "the base or a file it includes changed while the sweep ran; the result "
                      "was removed, and resuming the sweep reruns the point";
            } else if (r != ResultState::Complete) {
                why = "exit status 0 but no complete result for this point";
            }
            if (why.empty()) {
                ++sum.ran;
                std::error_code ec;
                if (fs::exists(log, ec) && fs::file_size(log, ec) == 0) fs::remove(log, ec);
            } else {
                ++sum.failed;
                if (options.report) {
                    if (options.progress) *options.progress << "\r\033[K";
                    *options.report << "FAILED point " << p.name << " (" << why << ")\n"
                                    << "  command: " << dir.command_line(spec, p) << "\n";
                    if (!stale)
                        *options.report << "  stderr (" << log << ", last lines):\n"
                                        << tail(log, 10, out.signal != 0);
                    *options.report << std::flush;
                }
            }
            progress();
        },
        progress);

    if (options.progress) *options.progress << "\r\033[K" << std::flush;
    sum.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return sum;
}

std::string summary_line(const SweepDir& dir, const SweepSummary& s) {
    char counts[160];  // the directory, of any length, goes in front
    std::snprintf(counts, sizeof counts,
                  ": %zu points: %zu ran, %zu already done, %zu failed; %.1f s\n", s.points, s.ran,
                  s.skipped, s.failed, s.seconds);
    std::string out = "sweep " + dir.dir() + counts;
    if (s.unreadable)
        out += "  " + std::to_string(s.unreadable) +
               " earlier result(s) were unreadable (cut short or changed), and were rerun\n";
    if (s.replaced)
        out += "  " + std::to_string(s.replaced) +
               " earlier result(s) were for another config or seed, and were rerun\n";
    if (s.temp_files_removed)
        out += "  removed " + std::to_string(s.temp_files_removed) +
               " temporary file(s) left by an interrupted run\n";
    return out;
}

}  // namespace cidsim
