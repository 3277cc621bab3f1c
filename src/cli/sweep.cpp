// cidsim sweep SPEC.json --out DIR [--jobs N] [--emit-commands] [--emit-slurm FILE]
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "config/platforms.h"
#include "config/printable.h"
#include "cli/numeric_option.h"
#include "io/input_file.h"
#include "io/printable_stream.h"
#include "config/config_loader.h"
#include "report/results.h"
#include "sweep/emit.h"
#include "sweep/local_pool.h"
#include "sweep/metric_probe.h"
#include "sweep/runner.h"

namespace cidsim {

namespace po = boost::program_options;

namespace {

// Every summary names the platform its runs used: here, of every point.
std::string platforms_line(const std::vector<SweepPoint>& points) {
    std::vector<std::string> names;
    for (const SweepPoint& p : points) {
        if (std::find(names.begin(), names.end(), p.platform) == names.end())
            names.push_back(p.platform);
    }
    std::string line = "  platform:";
    for (size_t i = 0; i < names.size(); ++i) line += (i ? "; " : " ") + platform_summary(names[i]);
    return line + "\n";
}

// A path that goes into every point's one-line command (--emit-commands,
// the Slurm commands file) or a line of the Slurm script: a newline in it
// would split the line, and the script would run the rest as shell text.
// Refused whether or not this sweep emits: a later one may.
void refuse_control_characters(const std::string& option, const std::string& path) {
    const std::string absolute = std::filesystem::absolute(path).lexically_normal().string();
    if (!has_control_character(absolute)) return;
    const bool in_name = has_control_character(path);
    throw BadInput(option + " " + show_json(path) + ": a control character in " +
                   (in_name ? "the path" : "its absolute path " + show_json(absolute)) +
                   "; expected printable characters only (it is written into the one-line "
                   "commands of each point and the Slurm script)");
}

// The Slurm script's `#SBATCH --output=DIR/logs/...` line is read by
// sbatch's own option parser, not the shell: it splits at whitespace and
// `#`, takes quotes and backslashes as its own, and `%` starts a filename
// pattern. Such a --out is refused for --emit-slurm rather than quoted by
// rules one Slurm version may read differently from another.
void refuse_sbatch_unsafe(const std::string& out_dir) {
    const std::string absolute = std::filesystem::absolute(out_dir).lexically_normal().string();
    const size_t bad = absolute.find_first_of(" \t\"'#\\%");
    if (bad == std::string::npos) return;
    throw BadInput("--out " + show_json(out_dir) + ": its absolute path " + show_json(absolute) +
                   " holds " + show_json(absolute.substr(bad, 1)) + ", which the Slurm script's "
                   "#SBATCH --output line cannot carry (sbatch reads whitespace, quotes, #, \\ "
                   "and % itself): name a sweep directory without them for --emit-slurm");
}

}  // namespace

int cmd_sweep(int argc, char** argv) {
    po::options_description opts("cidsim sweep SPEC.json --out DIR [options]");
    opts.add_options()("help,h", "this help")
        ("out,o", po::value<std::string>(), "sweep directory: results, logs, manifest (required)")
        ("jobs,j", po::value<std::string>(), "points run at once (default: the number of CPUs)")
        ("emit-commands", "print one self-contained `cidsim run` command per point instead of "
                          "running them (for GNU parallel)")
        ("emit-slurm", po::value<std::string>(), "write a Slurm job-array script here (and its "
                                                 ".commands file beside it) instead of running");
    po::variables_map vm;
    if (const int status = parse_command_line("sweep", argc, argv, opts, "spec", vm); status >= 0)
        return status;
    if (!vm.count("spec") || !vm.count("out")) {
        std::cerr << "cidsim sweep: a sweep spec and --out DIR are required\n" << opts;
        return kExitBadInput;
    }
    unsigned jobs = 0;
    std::string out_dir, slurm;
    try {
        jobs = vm.count("jobs") ? unsigned(integer_option(vm, "jobs", {1, 4096}))
                                : available_cpus();
        // The emitted commands run elsewhere, as many at once as that decides.
        if (vm.count("jobs") && (vm.count("emit-commands") || vm.count("emit-slurm")))
            throw BadInput(std::string("--jobs: it sets the local pool's runs at once; --") +
                           (vm.count("emit-commands") ? "emit-commands" : "emit-slurm") +
                           " runs none here");
        if (vm.count("emit-commands") && vm.count("emit-slurm"))
            throw BadInput("--emit-commands: it prints the points' commands instead of running "
                           "them, as --emit-slurm writes them; give one of them");
        out_dir = path_option(vm, "out");
        if (vm.count("emit-slurm")) slurm = path_option(vm, "emit-slurm");
        refuse_control_characters("--out", out_dir);
        if (!slurm.empty()) refuse_control_characters("--emit-slurm", slurm);
        // Both are in each emitted command too.
        if (vm.count("emit-commands") || vm.count("emit-slurm")) {
            if (const char* data = std::getenv("CIDSIM_DATA_DIR"); data && *data)
                refuse_control_characters("CIDSIM_DATA_DIR", data);
            refuse_control_characters("the cidsim binary", self_executable());
        }
        if (!slurm.empty()) refuse_sbatch_unsafe(out_dir);
        check_directory_option("--out", out_dir, false);
    } catch (const BadInput& e) {
        std::cerr << "cidsim sweep: " << e.what() << "\n";
        return kExitBadInput;
    }

    SweepSpec spec;
    std::vector<SweepPoint> points;
    try {
        spec = read_sweep_spec(path_option(vm, "spec"));
    } catch (const BadInput& e) {
        std::cerr << "cidsim sweep: " << e.what() << "\n";
        return kExitBadInput;
    }
    try {
        points = expand_points(spec);
        check_metric_paths(spec, points);
    } catch (const ConfigError& e) {
        std::cerr << "cidsim sweep: " << vm["spec"].as<std::string>() << ": " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::invalid_argument& e) {  // what System rejects while building
        std::cerr << "cidsim sweep: " << vm["spec"].as<std::string>() << ": " << e.what() << "\n";
        return kExitBadInput;
    }

    // Said before what DIR holds is judged (a running sweep is changing it),
    // and again if it started meanwhile.
    const auto busy = [&] {
        if (!SweepLock::held(out_dir)) return false;
        std::cerr << "cidsim sweep: " << out_dir << ": " << SweepLock::kHeldText << "\n";
        return true;
    };
    if (busy()) return kExitFailure;
    // The spec and its base have been read: no output may be one of them,
    // nor the Slurm script one of the sweep's own files.
    std::unique_ptr<SweepDir> dir_owner;
    // What this command made of --out's path: removed again if it fails before any run.
    std::string created, manifest;
    try {
        dir_owner = std::make_unique<SweepDir>(out_dir, self_executable());
        created = dir_owner->claim_outputs(spec, [&] {
            manifest = manifest_text(spec, points);
            dir_owner->refuse_foreign_files(points, out_dir, spec.base_path.empty());
            dir_owner->refuse_other_sweep(points, out_dir);
            if (!slurm.empty()) {
                claim_output("--emit-slurm", slurm);
                claim_output("--emit-slurm's commands file", slurm_commands_path(slurm));
                for (const std::string& path : {slurm, slurm_commands_path(slurm)})
                    if (is_sweep_file(out_dir, path))
                        throw BadInput("--emit-slurm " + slurm + ": " + path + " is one of the "
                                       "sweep's own files (its lock, points or logs)");
            }
        });
    } catch (const BadInput& e) {
        if (busy()) return kExitFailure;
        std::cerr << "cidsim sweep: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "cidsim sweep: " << e.what() << "\n";
        return kExitFailure;
    }
    try {
        const SweepDir& dir = *dir_owner;
        // Taken before anything is written, so a sweep already running in
        // this directory keeps its manifest.
        std::error_code ec;
        std::filesystem::create_directories(dir.dir(), ec);
        const SweepLock lock(dir.dir());
        try {
            dir.prepare(spec, manifest);
            if (vm.count("emit-slurm")) {
                const std::string cmds = write_slurm_script(slurm, dir, spec, points);
                std::cerr << "cidsim sweep: wrote " << slurm << " (" << points.size()
                          << " array tasks) and " << cmds << "\n";
            }
        } catch (const std::exception&) {
            // A full disk, say: the directories this command made hold nothing
            // worth keeping yet (no point has run), so they go.
            remove_created(created);
            throw;
        }
        if (vm.count("emit-commands")) {
            // Commands lost (a full disk, a closed pipe) leave a sweep no one
            // will run: what this command made goes, as on any failed write,
            // so a reader gone is a failed write here, not death by SIGPIPE.
            struct sigaction ignore {}, before {};
            ignore.sa_handler = SIG_IGN;
            ::sigaction(SIGPIPE, &ignore, &before);
            errno = 0;
            const bool written = bool(std::cout << point_commands(dir, spec, points) << std::flush);
            const int error = errno;
            // (Kept ignored after a failure: stdout is flushed again at exit.)
            if (written) ::sigaction(SIGPIPE, &before, nullptr);
            if (!written) {
                const std::string why = error ? std::strerror(error) : "an error";
                remove_created(created);
                std::cerr << "cidsim sweep: --emit-commands: writing to standard output failed: "
                          << why << (created.empty() ? "" : "; removed " + created) << "\n";
                return kExitFailure;
            }
        }
        if (vm.count("emit-commands") || vm.count("emit-slurm")) return kExitOk;

        SweepOptions o;
        o.jobs = jobs;
        o.progress = ::isatty(STDERR_FILENO) ? &unfiltered_standard_error() : nullptr;
        o.report = &std::cerr;
        const SweepSummary s = run_sweep(dir, spec, points, o);
        std::cout << summary_line(dir, s) << platforms_line(points);
        return s.failed ? kExitFailure : kExitOk;
    } catch (const std::exception& e) {
        std::cerr << "cidsim sweep: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace cidsim
