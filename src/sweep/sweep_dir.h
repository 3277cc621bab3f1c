#pragma once
// The output directory of a sweep and the command of each point.
//
//   DIR/sweep.json           manifest: parameters, metrics, every point's name,
//                            varied values, seed and result file (read by collect)
//   DIR/base.json            the base config, when the spec gave it inline
//   DIR/points/NAME.json     one `cidsim run` result per point (temp + rename)
//   DIR/logs/NAME.stderr     stderr of a point that failed or printed warnings
//
// A point's command is self-contained (absolute binary, config and output
// paths, and the sweep's CIDSIM_DATA_DIR when one is set), so any engine on
// any host sharing DIR can run it.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/sweep_spec.h"

namespace cidsim {

// The most a manifest may hold: collect reads it whole (the sweep's
// points, their names and varied values: a few hundred bytes a point, so
// kMaxSweepPoints fit unless the varied values are large).
constexpr size_t kMaxManifestBytes = 256u << 20;
// The manifest sweep.json's text: BadInput when it would be larger than
// kMaxManifestBytes.
std::string manifest_text(const SweepSpec& spec, const std::vector<SweepPoint>& points);

class SweepDir {
public:
    // `dir` is made absolute; `binary` is the cidsim executable the commands run.
    SweepDir(const std::string& dir, std::string binary);

    // Creates DIR, points/, logs/, writes base.json (inline base) and the
    // manifest (manifest_text). Throws std::runtime_error when DIR cannot be
    // written.
    void prepare(const SweepSpec& spec, const std::string& manifest) const;

    // Creates DIR and claims (io/output_file.h) the files prepare() writes:
    // the manifest, and base.json for an inline base. BadInput when DIR is
    // a file or cannot be made, or when one of them is an input.
    void claim_outputs(const SweepSpec& spec) const;
    // The same, then `then` (the command's other claims); if either throws,
    // the directories it created are removed again before the rethrow.
    // Returns the outermost directory it created (empty: DIR existed), for
    // remove_created when a later step fails before any point has run.
    std::string claim_outputs(const SweepSpec& spec, const std::function<void()>& then) const;

    // DIR/points or DIR/logs that is a symbolic link, a point's result or
    // log that is a link (symbolic or hard) or no regular file, a sweep.json
    // that is no sweep manifest, or (`writes_base`, an inline base) a
    // base.json beside no sweep.json nor lock: BadInput naming it (under --out
    // `shown`). A sweep writes only through names it made.
    void refuse_foreign_files(const std::vector<SweepPoint>& points, const std::string& shown,
                              bool writes_base) const;
    // A manifest in DIR whose points hold results and are not all among
    // `points` (another spec's sweep), or a result of one of `points` made with
    // another config (check_result: Stale): BadInput, as replacing it would
    // lose those results. A sweep grown by more values passes; without a
    // manifest (removed to say "replace"), nothing is refused.
    void refuse_other_sweep(const std::vector<SweepPoint>& points, const std::string& shown) const;
    std::string result_path(const SweepPoint& p) const;
    std::string log_path(const SweepPoint& p) const;
    std::string manifest_path() const { return m_dir + "/sweep.json"; }
    const std::string& dir() const { return m_dir; }

    // argv of `cidsim run` for one point, and the same as one shell line.
    std::vector<std::string> command(const SweepSpec& spec, const SweepPoint& p) const;
    std::string command_line(const SweepSpec& spec, const SweepPoint& p) const;

private:
    std::string config_path(const SweepSpec& spec) const;

    std::string m_dir;
    std::string m_binary;
};

// Removes `created` (claim_outputs's, made by this command) with all in it.
void remove_created(const std::string& created);

// Whether `path` (after symlinks) is one of the files a sweep keeps in `dir`:
// its lock, manifest, base.json, or anything under points/ or logs/.
bool is_sweep_file(const std::string& dir, const std::string& path);

// Holds an exclusive lock on DIR/.sweep.lock for the runner's lifetime, so
// two runners never share a directory. The kernel drops the lock when the
// process dies, even by SIGKILL.
class SweepLock {
public:
    explicit SweepLock(const std::string& dir);  // throws std::runtime_error if held
    ~SweepLock();
    // Is a sweep running in `dir` now? Asked before the checks of what DIR
    // holds, which a running sweep is changing (their advice would be wrong).
    static bool held(const std::string& dir);
    static constexpr const char* kHeldText = "another cidsim sweep is running in this directory";
    SweepLock(const SweepLock&) = delete;
    SweepLock& operator=(const SweepLock&) = delete;

private:
    int m_fd = -1;
};

// Removes what killed `cidsim run` processes leave behind in points/: temp
// files of unfinished atomic writes and write probes. Call under SweepLock.
// Returns how many files were removed.
size_t remove_stale_temp_files(const std::string& points_dir);

// A point's result file as JSON, or a discarded value when it cannot be
// read or is not JSON: a half-written or foreign file is a state the caller
// reports, not an exception.
nlohmann::json read_result_json(const std::string& path);

enum class ResultState { Missing, Invalid, Stale, Complete };
// Complete: a whole result JSON (version, seed, config, metrics) for this
// point's seed and effective config. Stale: whole but for another config or
// seed (the spec changed). Invalid: unreadable or not a result. The version
// that made it is not compared (a commit to the docs changes it): collect
// names a table's mix of versions.
ResultState check_result(const std::string& path, const SweepPoint& p);

// Single-quotes `arg` for sh when it holds anything but safe characters.
std::string shell_quote(const std::string& arg);
// The absolute path of the running executable (/proc/self/exe).
std::string self_executable();

}  // namespace cidsim
