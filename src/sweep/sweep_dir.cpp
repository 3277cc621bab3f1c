#include "sweep/sweep_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>

#include "config/config_loader.h"
#include "io/bad_input.h"
#include "sweep/collect.h"
#include "io/output_file.h"
#include "io/input_file.h"
#include "report/results.h"

namespace cidsim {

using nlohmann::json;
namespace fs = std::filesystem;

SweepDir::SweepDir(const std::string& dir, std::string binary)
    : m_dir(fs::absolute(dir).lexically_normal().string()), m_binary(std::move(binary)) {
    while (m_dir.size() > 1 && m_dir.back() == '/') m_dir.pop_back();
}

std::string manifest_text(const SweepSpec& spec, const std::vector<SweepPoint>& points) {
    json parameters = json::array();
    for (const SweepDimension& d : spec.dimensions)
        for (const std::string& p : d.paths) parameters.push_back(p);
    std::sort(parameters.begin(), parameters.end());
    json list = json::array();
    for (const SweepPoint& p : points) {
        json params = json::object();
        for (const auto& [path, value] : p.params) params[path] = value;
        list.push_back({{"name", p.name},
                        {"group", p.group},
                        {"params", params},
                        {"seed", p.seed},
                        {"config_digest", p.config_digest},
                        {"result", "points/" + p.name + ".json"}});
    }
    const json manifest = {{"parameters", parameters},
                           {"metrics", spec.metrics},
                           {"points", list}};
    std::string text = manifest.dump(2) + "\n";
    if (text.size() > kMaxManifestBytes)
        throw BadInput("the sweep's manifest would be " + std::to_string(text.size()) +
                       " bytes, more than collect reads (" + std::to_string(kMaxManifestBytes) +
                       "): split the sweep");
    return text;
}

void SweepDir::prepare(const SweepSpec& spec, const std::string& manifest) const {
    std::error_code ec;
    if (fs::exists(m_dir, ec) && !fs::is_directory(m_dir, ec))
        throw BadInput("--out " + m_dir + ": is a file; expected a sweep directory");
    for (const char* sub : {"points", "logs"}) {
        fs::create_directories(m_dir + "/" + sub, ec);
        if (ec) throw std::runtime_error(m_dir + "/" + sub + ": " + ec.message());
    }
    if (spec.base_path.empty()) write_file_atomically(config_path(spec), spec.base.dump(2) + "\n");
    write_file_atomically(manifest_path(), manifest);
}

void SweepDir::claim_outputs(const SweepSpec& spec) const {
    std::error_code ec;
    if (fs::exists(m_dir, ec) && !fs::is_directory(m_dir, ec))
        throw BadInput("--out " + m_dir + ": is a file; expected a sweep directory");
    // Created now, so every output in it can be checked (and compared with
    // --emit-slurm) before anything is written.
    fs::create_directories(m_dir, ec);
    if (ec) throw BadInput("--out " + m_dir + ": " + ec.message());
    claim_output("the sweep manifest", manifest_path());
    if (spec.base_path.empty()) claim_output("the sweep's base.json", config_path(spec));
}

std::string SweepDir::claim_outputs(const SweepSpec& spec,
                                    const std::function<void()>& then) const {
    // The outermost directory this claim creates: a rejected sweep leaves
    // none of those it made (mkdir -p) behind.
    std::string created;
    std::error_code ec;
    for (fs::path p = fs::path(m_dir); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        created = p.string();
        if (p == p.parent_path()) break;
    }
    try {
        claim_outputs(spec);
        then();
    } catch (...) {
        remove_created(created);
        throw;
    }
    return created;
}

void remove_created(const std::string& created) {
    std::error_code ec;
    if (!created.empty()) fs::remove_all(created, ec);
}

namespace {

// Written by cidsim sweep: an object with its parameters and points. Read
// as the sweep's own file, not through read_input_file, which would make it
// an input this sweep then refuses to replace.
bool holds_sweep_manifest(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find('\0') != std::string::npos) return false;
    const json m = json::parse(text, nullptr, false);
    return m.is_object() && m.contains("parameters") && m["parameters"].is_array() &&
           m.contains("points") && m["points"].is_array();
}

}  // namespace

void SweepDir::refuse_foreign_files(const std::vector<SweepPoint>& points, const std::string& shown,
                                    bool writes_base) const {
    std::error_code ec;
    for (const char* sub : {"points", "logs", ".sweep.lock"}) {
        const std::string path = m_dir + "/" + sub;
        const fs::file_status st = fs::symlink_status(path, ec);
        if (!fs::exists(st)) continue;
        if (fs::is_symlink(st))
            throw BadInput("--out " + shown + ": " + sub + " is a symbolic link (to " +
                           fs::read_symlink(path, ec).string() +
                           "); a sweep writes only its own files there: remove the link");
        const bool lock = sub[0] == '.';
        if (lock ? !fs::is_regular_file(st) : !fs::is_directory(st))
            throw BadInput("--out " + shown + ": " + sub + " is not a " +
                           (lock ? "regular file" : "directory") + "; a sweep writes only its "
                           "own files there: remove it");
        // Read-only (EROFS) or immutable (EPERM): every point would fail midway.
        if (::access(path.c_str(), W_OK) != 0)
            throw BadInput("--out " + shown + ": " + sub + ": cannot write here: " +
                           std::strerror(errno));
    }
    // sweep.json and base.json are replaced by every run: only a sweep's own.
    const bool manifest = fs::exists(manifest_path(), ec);
    if (manifest && !holds_sweep_manifest(manifest_path()))
        throw BadInput("--out " + shown + ": sweep.json is not a manifest written by cidsim "
                       "sweep, and this sweep would replace it: move it away, or name another "
                       "directory");
    // A sweep's lock marks base.json as a sweep's too (its manifest may have
    // been removed, as the messages below advise).
    const std::string base = m_dir + "/base.json";
    if (writes_base && !manifest && fs::exists(base, ec) &&
        !fs::exists(m_dir + "/.sweep.lock", ec))
        throw BadInput("--out " + shown + ": base.json is not of a sweep (there is no "
                       "sweep.json nor .sweep.lock), and a sweep of an inline base would replace "
                       "it: move it away, or name another directory");
    // Each point's run would refuse a path the system cannot open, only
    // after the sweep had started: the longest is checked here.
    const std::string absolute = fs::absolute(m_dir, ec).string();
    for (const SweepPoint& p : points)
        for (const std::string& name :
             {"points/" + p.name + ".json", "logs/" + p.name + ".stderr"}) {
            if (absolute.size() + 1 + name.size() + std::strlen(".tmp.4294967295") >= PATH_MAX)
                throw BadInput("--out " + shown + ": " + name + " would be " +
                               std::to_string(absolute.size() + 1 + name.size()) + " bytes "
                               "long from /, too long a path (" + std::to_string(PATH_MAX) +
                               " at most, with room for a temporary name): name a shorter "
                               "directory");
            // A FIFO would block the point's run, a directory fail it midway.
            const ForeignFile f = foreign_file(m_dir + "/" + name);
            if (!f.what.empty())
                throw BadInput("--out " + shown + ": " + name + " is " + f.what +
                               "; a sweep writes only its own files there: remove " +
                               (f.symlink ? "the link" : "it"));
        }
}

void SweepDir::refuse_other_sweep(const std::vector<SweepPoint>& points,
                                  const std::string& shown) const {
    std::error_code ec;
    if (!fs::is_regular_file(manifest_path(), ec)) return;
    // A point of the same name whose result was made with another config (a
    // spec with other `set`, another base, an edited include): hours of runs
    // are replaced only when the user says so by removing the manifest.
    size_t other = 0;
    std::string first_other;
    for (const SweepPoint& p : points)
        if (check_result(result_path(p), p) == ResultState::Stale && !other++)
            first_other = p.name;
    if (other)
        throw BadInput("--out " + shown + ": holds " + std::to_string(other) + " result(s) " +
                       "made with another config than this spec gives their point (point " +
                       first_other + (other > 1 ? ", ..." : "") + "): a spec with another "
                       "`set` or base, an edited include or other shipped files (a "
                       "CIDSIM_DATA_DIR), and this sweep would replace them; "
                       "name another directory, or remove " + shown + "/sweep.json to replace "
                       "them");
    // Read as the sweep's own file (refuse_foreign_files refused any other),
    // not an input, which it would refuse to write.
    std::ifstream in(manifest_path());
    const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
    if (!manifest.is_object() || !manifest.contains("points") || !manifest["points"].is_array())
        return;
    std::set<std::string> ours;
    for (const SweepPoint& p : points) ours.insert(p.name);
    size_t lost = 0;
    std::string first;
    for (const nlohmann::json& p : manifest["points"]) {
        if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) continue;
        const std::string name = p["name"].get<std::string>();
        if (ours.count(name) || !fs::exists(m_dir + "/points/" + name + ".json", ec)) continue;
        if (!lost++) first = name;
    }
    if (lost)
        throw BadInput("--out " + shown + ": holds " + std::to_string(lost) + " result(s) of "
                       "another sweep (point " + first + (lost > 1 ? ", ..." : "") +
                       ") that this spec does not have: "
                       "its manifest would no longer list them, and collect could not reach "
                       "them; name another directory, or remove " + shown + "/sweep.json");
}

std::string SweepDir::result_path(const SweepPoint& p) const {
    return m_dir + "/points/" + p.name + ".json";
}

std::string SweepDir::log_path(const SweepPoint& p) const {
    return m_dir + "/logs/" + p.name + ".stderr";
}

std::string SweepDir::config_path(const SweepSpec& spec) const {
    return spec.base_path.empty() ? m_dir + "/base.json" : spec.base_path;
}

std::vector<std::string> SweepDir::command(const SweepSpec& spec, const SweepPoint& p) const {
    std::vector<std::string> argv = {m_binary, "run", config_path(spec)};
    for (const auto& [path, value] : spec.set) {
        argv.push_back("--set");
        argv.push_back(path + "=" + override_value_text(value));
    }
    for (const auto& [path, value] : p.params) {
        argv.push_back("--set");
        argv.push_back(path + "=" + override_value_text(value));
    }
    argv.insert(argv.end(), {"--seed", std::to_string(p.seed), "--out", result_path(p), "-q"});
    return argv;
}

std::string SweepDir::command_line(const SweepSpec& spec, const SweepPoint& p) const {
    // The shipped files it reads come from where this sweep's do; `env`
    // sets the variable in any login shell (csh has no VAR=value prefix).
    std::string line;
    if (const char* data = std::getenv("CIDSIM_DATA_DIR"); data && *data)
        line = "env CIDSIM_DATA_DIR=" +
               shell_quote(fs::absolute(data).lexically_normal().string());
    for (const std::string& a : command(spec, p)) line += (line.empty() ? "" : " ") + shell_quote(a);
    return line;
}

bool is_sweep_file(const std::string& dir, const std::string& path) {
    std::error_code ec;
    const fs::path d = fs::weakly_canonical(fs::absolute(dir, ec), ec);
    const fs::path rel = fs::weakly_canonical(fs::absolute(path, ec), ec).lexically_relative(d);
    if (rel.empty() || *rel.begin() == "..") return false;
    const std::string first = rel.begin()->string();
    return first == ".sweep.lock" || first == "sweep.json" || first == "base.json" ||
           first == "points" || first == "logs";
}

SweepLock::SweepLock(const std::string& dir) {
    const std::string path = dir + "/.sweep.lock";
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (m_fd < 0) throw std::runtime_error(path + ": " + std::strerror(errno));
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(m_fd);
        throw std::runtime_error(dir + ": " + kHeldText);
    }
}

bool SweepLock::held(const std::string& dir) {
    const std::string path = dir + "/.sweep.lock";
    const int fd =
        ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return false;  // none yet, or no file to lock: the lock itself will say
    const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return busy;
}

SweepLock::~SweepLock() {
    if (m_fd >= 0) ::close(m_fd);
}

size_t remove_stale_temp_files(const std::string& points_dir) {
    size_t removed = 0;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(points_dir, ec)) {
        const std::string name = e.path().filename().string();
        // write_file_atomically's "X.json.tmp.PID" and check_writable's probe.
        if (name.find(".json.tmp.") != std::string::npos ||
            name.find(".json.cidsim-probe") != std::string::npos) {
            std::error_code rm;
            if (fs::remove(e.path(), rm)) ++removed;
        }
    }
    return removed;
}

json read_result_json(const std::string& path) {
    try {
        // A result is written by cidsim run: 256 MiB is far beyond any.
        const std::string text = read_input_file(path, "a cidsim result", size_t(256) << 20);
        // The parser ends the text at a NUL: a result cut short and padded
        // with zeros (a crash) would pass for whole.
        if (text.find('\0') != std::string::npos) return json(json::value_t::discarded);
        return json::parse(text, nullptr, false);
    } catch (const std::exception&) {  // not a regular file, a read error
        return json(json::value_t::discarded);
    }
}

ResultState check_result(const std::string& path, const SweepPoint& p) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return ResultState::Missing;
    if (!fs::is_regular_file(path, ec)) return ResultState::Invalid;
    const json r = read_result_json(path);
    if (r.is_discarded() || !r.is_object() || !r.contains("cidsim_version") ||
        !r.contains("seed") || !r.contains("config") || !r.contains("metrics") ||
        !r["metrics"].is_object() || !r["config"].is_object())
        return ResultState::Invalid;
    if (r["seed"] != p.seed || config_digest(r["config"]) != p.config_digest)
        return ResultState::Stale;
    return ResultState::Complete;
}

std::string shell_quote(const std::string& arg) {
    if (!arg.empty() &&
        arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                              "_-.,/=+:@%") == std::string::npos)
        return arg;
    std::string q = "'";
    for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string self_executable() {
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot find the cidsim executable: /proc/self/exe: " + ec.message());
    return p.string();
}

}  // namespace cidsim
