#pragma once
// Runs the real cidsim binary (CIDSIM_BINARY) from a test: exit status,
// stdout and stderr, in a scratch directory removed afterwards.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace cidsim_test {

namespace fs = std::filesystem;

struct Scratch {
    fs::path dir;
    Scratch() {
        dir = fs::temp_directory_path() / ("cidsim-test-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() { fs::remove_all(dir); }
    std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

struct Run {
    int status = -1;
    std::string out, err;
};

// `args` is appended to the binary's path as is (the caller quotes).
inline Run run_cidsim(const Scratch& s, const std::string& args,
                      const std::string& binary = CIDSIM_BINARY) {
    const std::string out = s / "stdout.txt", err = s / "stderr.txt";
    const std::string cmd = "'" + binary + "' " + args + " >'" + out + "' 2>'" + err + "'";
    const int raw = std::system(cmd.c_str());
    Run r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

// `cidsim run ARGS -q --out FILE`, which must succeed: its result.
inline nlohmann::json run_result(const Scratch& s, const std::string& args) {
    const Run r = run_cidsim(s, "run " + args + " -q --out '" + (s / "result.json") + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(slurp(s / "result.json"));
}

// `config` written to `name` in the scratch directory, then run_result.
inline nlohmann::json run_config(const Scratch& s, const std::string& name,
                                 const nlohmann::json& config) {
    std::ofstream(s / name) << config.dump();
    return run_result(s, "'" + (s / name) + "'");
}

inline std::string example(const std::string& name) {
    return std::string("'" CIDSIM_SOURCE_DIR "/configs/examples/") + name + "'";
}

}  // namespace cidsim_test
