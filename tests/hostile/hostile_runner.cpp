// Runs the hostile-input cases of cases.json against the real cidsim
// binary, each invocation in its own process and scratch directory, and
// checks, per case: the exit status, that stderr holds the expected
// message fragment(s) and no internal text (library exception tags,
// "filesystem error", SystemC's uncaught-exception report), that every
// file the case set up is unchanged (same type, bytes, link target) unless
// the case lists it under "changes", that the files under "creates" exist,
// that no temporary file (".tmp.", ".cidsim-probe") is left behind, and that
// a command that failed (any status but 0) wrote no file it was not told to
// ("creates"): a rejection writes nothing, a runtime failure no partial file.
// A rejection (status 2) must name what was wrong: every "names" fragment
// (the file or option, and the key) is in stderr.
//
//   hostile_runner CASES.json CIDSIM FIXTURES_DIR [GROUP]
//
// A case: {"name", "group" (default: the first argument), "files": [setup],
// "args": [...], "status", "message": "fragment" | ["f1", "f2"],
// "names": [...], "stdout_lacks": [...], "stdout_holds": [...], "changes": [...],
// "creates": [...], "kept": [DIR] (a failure may leave files under DIR, and must leave some),
// "env": {NAME: VALUE}, "stdout_to": a file to open as stdout (/dev/full), or "closed"}.
// A setup entry is {"path": P} plus one of "copy" (a fixture's name), "repo"
// (a path in the source tree), "text", "hex" (bytes, two hex digits each),
// "json", "dir": true, "fifo": true, "symlink": TARGET, "hardlink": EXISTING,
// "tmpfs": "full" | "ro" (a small tmpfs mounted at P, filled up or read-only:
// the disk faults), "mounted_file": "rw" | "ro" (a file with
// another bind-mounted over it: a target rename cannot replace); mounts are
// made in a private mount namespace of this runner, and the case is
// skipped, not failed, where none can be made.
// In args and messages "{dir}" is the scratch directory (also the cwd).
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kTimeoutSeconds = 30;  // a hang (a FIFO opened for reading) fails the case

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

std::string subst(std::string s, const std::string& dir) {
    for (size_t at; (at = s.find("{dir}")) != std::string::npos;) s.replace(at, 5, dir);
    return s;
}

// Type and content of every entry under `root`, by relative path.
std::map<std::string, std::string> snapshot(const fs::path& root) {
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const fs::path& p = it->path();
        const std::string rel = p.lexically_relative(root).string();  // relative() follows links
        const fs::file_status st = fs::symlink_status(p);
        if (fs::is_symlink(st)) out[rel] = "symlink " + fs::read_symlink(p).string();
        else if (fs::is_directory(st)) out[rel] = "dir";
        else if (fs::is_fifo(st)) out[rel] = "fifo";
        else if (fs::is_regular_file(st)) out[rel] = "file " + slurp(p);
        else out[rel] = "other";
    }
    return out;
}

struct Outcome {
    int status = -1;  // -2: timed out
    std::string out, err;
};

Outcome run(const std::string& binary, const std::vector<std::string>& args, const fs::path& dir,
            const json& env, const std::string& stdout_to) {
    const fs::path out = dir.parent_path() / (dir.filename().string() + ".stdout");
    const fs::path err = dir.parent_path() / (dir.filename().string() + ".stderr");
    std::vector<std::string> all{binary};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);  // its children are killed with it on a timeout
        if (::chdir(dir.c_str()) != 0) ::_exit(126);
        for (auto it = env.begin(); it != env.end(); ++it)
            ::setenv(it.key().c_str(), subst(it.value().get<std::string>(), dir.string()).c_str(), 1);
        const int in = ::open("/dev/null", O_RDONLY);
        const bool closed = stdout_to == "closed";
        const int o = stdout_to.empty() ? ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644)
                      : closed          ? -1
                                        : ::open(stdout_to.c_str(), O_WRONLY);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(in, 0);
        if (closed)
            ::close(1);
        else
            ::dup2(o, 1);
        ::dup2(e, 2);
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    Outcome r;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kTimeoutSeconds);
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            r.status = -2;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (r.status != -2) r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    fs::remove(out);
    fs::remove(err);
    return r;
}

struct Skip : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A private mount namespace, made once: a tmpfs mounted there is seen by
// this runner and the cidsim it starts, and by nothing else.
bool private_mounts() {
    static int state = -1;
    if (state >= 0) return state == 1;
    state = 0;
    if (::unshare(CLONE_NEWNS) != 0) {
        // Not root: a user namespace of our own maps us to root in it.
        const uid_t uid = ::getuid();
        const gid_t gid = ::getgid();
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return false;
        std::ofstream("/proc/self/setgroups") << "deny";
        std::ofstream("/proc/self/uid_map") << "0 " << uid << " 1";
        std::ofstream("/proc/self/gid_map") << "0 " << gid << " 1";
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
    state = 1;
    return true;
}

std::vector<fs::path> g_mounts;  // of the current case, unmounted after it

void mount_tmpfs(const fs::path& p, const std::string& kind) {
    if (!private_mounts()) throw Skip("no private mount namespace here for a tmpfs");
    fs::create_directories(p);
    if (::mount("tmpfs", p.c_str(), "tmpfs", 0, "size=64k") != 0)
        throw Skip(std::string("cannot mount a tmpfs: ") + std::strerror(errno));
    g_mounts.push_back(p);
    if (kind == "full") {
        // Filled to the last block: the next write gets ENOSPC.
        const int fd = ::open((p / "filler").c_str(), O_WRONLY | O_CREAT, 0644);
        const std::string block(4096, 'x');
        while (::write(fd, block.data(), block.size()) > 0) {}
        while (::write(fd, block.data(), 1) > 0) {}
        ::close(fd);
    } else if (kind == "ro") {
        if (::mount(nullptr, p.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0)
            throw std::runtime_error("cannot remount read-only: " + p.string());
    } else {
        throw std::runtime_error("tmpfs: expected \"full\" or \"ro\"");
    }
}

// A file P with a file P.src mounted over it ("rw": its rename fails with
// EBUSY; "ro": read-only, writes to it fail with EROFS).
void mount_over_file(const fs::path& p, const std::string& kind) {
    if (!private_mounts()) throw Skip("no private mount namespace here for a bind mount");
    const fs::path src = p.string() + ".src";
    std::ofstream(src) << "mounted over\n";
    std::ofstream(p) << "under the mount\n";
    if (::mount(src.c_str(), p.c_str(), nullptr, MS_BIND, nullptr) != 0)
        throw Skip(std::string("cannot bind-mount a file: ") + std::strerror(errno));
    g_mounts.push_back(p);
    if (kind == "ro") {
        if (::mount(nullptr, p.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0)
            throw std::runtime_error("cannot remount read-only: " + p.string());
    } else if (kind != "rw") {
        throw std::runtime_error("mounted_file: expected \"rw\" or \"ro\"");
    }
}

void unmount_all() {
    for (const fs::path& p : g_mounts) ::umount2(p.c_str(), MNT_DETACH);
    g_mounts.clear();
}

void setup(const json& files, const fs::path& dir, const fs::path& fixtures) {
    for (const json& f : files) {
        const fs::path p = dir / f.at("path").get<std::string>();
        fs::create_directories(p.parent_path());
        if (f.contains("copy")) fs::copy_file(fixtures / f["copy"].get<std::string>(), p);
        else if (f.contains("repo"))  // a file of the source tree (fixtures is tests/hostile/fixtures)
            fs::copy_file(fixtures / "../../.." / f["repo"].get<std::string>(), p);
        else if (f.contains("text")) std::ofstream(p, std::ios::binary) << f["text"].get<std::string>();
        else if (f.contains("hex")) {
            const std::string hex = f["hex"].get<std::string>();
            std::string bytes;
            for (size_t i = 0; i + 1 < hex.size(); i += 2)
                bytes += char(std::stoi(hex.substr(i, 2), nullptr, 16));
            std::ofstream(p, std::ios::binary) << bytes;
        } else if (f.contains("json")) std::ofstream(p) << f["json"].dump(1);
        else if (f.contains("dir")) fs::create_directories(p);
        else if (f.contains("fifo")) {
            if (::mkfifo(p.c_str(), 0644) != 0) throw std::runtime_error("mkfifo " + p.string());
        } else if (f.contains("symlink")) fs::create_symlink(f["symlink"].get<std::string>(), p);
        else if (f.contains("hardlink")) fs::create_hard_link(dir / f["hardlink"].get<std::string>(), p);
        else if (f.contains("tmpfs")) mount_tmpfs(p, f["tmpfs"].get<std::string>());
        else if (f.contains("mounted_file")) mount_over_file(p, f["mounted_file"].get<std::string>());
        else throw std::runtime_error("setup entry without a kind: " + f.dump());
    }
}

std::vector<std::string> strings(const json& c, const char* key) {
    std::vector<std::string> out;
    if (!c.contains(key)) return out;
    if (c[key].is_string()) return {c[key].get<std::string>()};
    for (const json& s : c[key]) out.push_back(s.get<std::string>());
    return out;
}

// "" when the case passes, else what went wrong.
std::string check_case(const json& c, const std::string& binary, const fs::path& fixtures,
                       const fs::path& dir) {
    fs::create_directories(dir);
    setup(c.value("files", json::array()), dir, fixtures);
    const auto before = snapshot(dir);
    std::vector<std::string> args;
    for (const json& a : c.at("args")) args.push_back(subst(a.get<std::string>(), dir.string()));
    const Outcome o = run(binary, args, dir, c.value("env", json::object()),
                          c.value("stdout_to", std::string()));
    const auto after = snapshot(dir);

    std::string problems;
    if (o.status == -2) problems += "hung: killed after " + std::to_string(kTimeoutSeconds) + " s\n";
    else if (o.status != c.at("status").get<int>())
        problems += "exit status " + std::to_string(o.status) + ", expected " +
                    std::to_string(c["status"].get<int>()) + "\n";
    for (const std::string& m : strings(c, "message"))
        if (o.err.find(subst(m, dir.string())) == std::string::npos)
            problems += "stderr lacks: " + subst(m, dir.string()) + "\n";
    // SystemC's own error reports ("Error: (E109) ...", "(E549) uncaught
    // exception") mean a check cidsim should have made itself.
    for (const char* leak : {"json.exception", "filesystem error", "filesystem_error", "E549",
                             "E109", "Error: (E", "Warning: (W", "uncaught exception",
                             "terminate called",
                             "what():", "basic_string", "std::"})
        if (o.err.find(leak) != std::string::npos) problems += "stderr leaks internal text: " + std::string(leak) + "\n";
    for (const std::string& n : strings(c, "names"))
        if (o.err.find(subst(n, dir.string())) == std::string::npos)
            problems += "stderr does not name: " + subst(n, dir.string()) + "\n";
    if (o.status != 0 && o.err.find("cidsim") == std::string::npos)
        problems += "failed without a message from cidsim on stderr\n";
    for (const std::string& s : strings(c, "stderr_lacks"))
        if (o.err.find(subst(s, dir.string())) != std::string::npos)
            problems += "stderr holds: " + subst(s, dir.string()) + "\n";
    for (const std::string& s : strings(c, "stdout_lacks"))
        if (o.out.find(s) != std::string::npos) problems += "stdout holds: " + s + "\n";
    for (const std::string& s : strings(c, "stdout_holds"))
        if (o.out.find(s) == std::string::npos) problems += "stdout lacks: " + s + "\n";
    const std::vector<std::string> changes = strings(c, "changes");
    for (const auto& [path, state] : before) {
        if (std::find(changes.begin(), changes.end(), path) != changes.end()) continue;
        auto it = after.find(path);
        if (it == after.end()) problems += "input removed: " + path + "\n";
        else if (it->second != state) problems += "input changed: " + path + "\n";
    }
    const std::vector<std::string> creates = strings(c, "creates");
    for (const std::string& path : creates)
        if (!after.count(path)) problems += "not created: " + path + "\n";
    // "kept": directories a failure keeps on purpose (and says so); each must hold something.
    const std::vector<std::string> kept = strings(c, "kept");
    const auto is_kept = [&](const std::string& path) {
        for (const std::string& k : kept)
            if (path.rfind(k + "/", 0) == 0) return true;
        return false;
    };
    for (const std::string& k : kept)
        if (std::none_of(after.begin(), after.end(), [&](const auto& e) {
                return e.first.rfind(k + "/", 0) == 0 && !before.count(e.first);
            }))
            problems += "nothing kept under " + k + "\n";
    if (o.status != 0)
        for (const auto& [path, state] : after)
            if (!before.count(path) && !is_kept(path) &&
                std::find(creates.begin(), creates.end(), path) == creates.end())
                problems += "failed, yet left " + path + " behind\n";
    for (const auto& [path, state] : after)
        if (!before.count(path) &&
            (path.find(".tmp.") != std::string::npos || path.find(".cidsim-probe") != std::string::npos))
            problems += "temporary file left: " + path + "\n";
    if (!problems.empty()) {
        std::string cmd = binary;
        for (const std::string& a : args) cmd += " '" + a + "'";
        problems += "command (in " + dir.string() + "): " + cmd + "\nstderr:\n" + o.err;
    }
    return problems;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: hostile_runner CASES.json CIDSIM FIXTURES_DIR [GROUP]\n";
        return 2;
    }
    const json cases = json::parse(slurp(argv[1]));
    const std::string binary = fs::absolute(argv[2]).string();  // the cases run in their own cwd
    const fs::path fixtures = fs::absolute(argv[3]);
    const std::string group = argc > 4 ? argv[4] : "";
    const char* tmp = std::getenv("TMPDIR");
    const fs::path root = fs::path(tmp ? tmp : "/tmp") / ("cidsim-hostile-" + std::to_string(::getpid()));
    fs::remove_all(root);
    size_t ran = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        const json& c = cases[i];
        const std::string g = c.value("group", c.at("args").empty() ? "" : c["args"][0].get<std::string>());
        if (!group.empty() && g != group) continue;
        ++ran;
        std::string problems;
        try {
            problems = check_case(c, binary, fixtures, root / std::to_string(i));
        } catch (const Skip& e) {
            ++skipped;
            std::cout << "SKIPPED " << c.at("name").get<std::string>() << ": " << e.what() << "\n";
        } catch (const std::exception& e) {
            problems = std::string("setup failed: ") + e.what() + "\n";
        }
        unmount_all();
        if (!problems.empty()) {
            ++failed;
            std::cout << "FAILED " << c.at("name").get<std::string>() << ":\n" << problems << "\n";
        }
        // Made read-only by a case? Scratch must still go.
        std::error_code ec;
        fs::remove_all(root / std::to_string(i), ec);
    }
    fs::remove_all(root);
    std::cout << "hostile inputs" << (group.empty() ? "" : " (" + group + ")") << ": " << ran
              << " cases, " << failed << " failed, " << skipped << " skipped\n";
    return failed || ran == 0 ? 1 : 0;
}
