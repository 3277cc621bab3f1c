// cidsim reproduce TABLE|all|systems [--format text|json|csv] [--out FILE]: runs the
// published experiments (configs/rfc/tables.json), one process per row, and
// prints simulated figures next to the published ones. A row whose figures'
// 95% half-width exceeds --precision, or whose quantile windows hold too few
// samples, is rerun longer by the factor the half-width asks for (it shrinks
// as one over the square root of the simulated time), 1.5 to 16 times.
// The statistics are in report/confidence.h; docs/predictions.md explains.
// With --sensitivity every row is run again with each fitted, assumed and
// guessed value at either end of its range, and at a few Latin-hypercube
// points over all of them (report/sensitivity.h).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <functional>
#include <iostream>
#include <memory>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "io/data_files.h"
#include "cli/commands.h"
#include "cli/numeric_option.h"
#include "io/cleanup.h"
#include "io/directory_lock.h"
#include "io/file_identity.h"
#include "io/input_file.h"
#include "io/output_file.h"
#include "config/checks.h"
#include "config/config_loader.h"
#include "config/platforms.h"
#include "config/provenance.h"
#include "report/progress.h"
#include "report/results.h"
#include "report/sensitivity.h"
#include "report/tables.h"
#include "sweep/local_pool.h"
#include "sweep/sweep_dir.h"

namespace cidsim {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The platform every row ran on, for the text output (the JSON output is
// the figures alone: consumers and the golden set read it).
std::string platforms_line(const std::vector<json>& rows) {
    std::vector<std::string> summaries;  // each once, a POWER partition's too
    for (const json& r : rows) {
        const std::string s = config_platform_summary(r["config"]);
        if (std::find(summaries.begin(), summaries.end(), s) == summaries.end())
            summaries.push_back(s);
    }
    std::string line = "  platform: ";
    for (size_t i = 0; i < summaries.size(); ++i) line += (i ? "; " : "") + summaries[i];
    return line + "\n";
}

std::string default_tables() { return data_file("configs/rfc/tables.json"); }

// The experiments of systems.md (E3 vfio-threading, E1 xen-eoi-lock): asked by name, or all
// of them as `systems`; `all` stays the RFC's set.
std::string default_systems_tables() { return data_file("configs/vm/tables.json"); }

// A row's run parameters. A problem is named by the tables file and the row
// (its config or its set[i]), never as a command-line --set, which the
// user did not give. `file`: the config as read, which every run of the row
// must have used.
SimConfig row_config(const Table& table, const TableRow& row, json& file) {
    const std::string label = " (table " + table.name + ", row " + key_text(row.key) + "): ";
    const auto set_error = [&](size_t i, const std::string& what) {
        const bool option = what.rfind("--set ", 0) == 0;
        return ConfigError(row.at + ".set[" + std::to_string(i) + "]" + label +
                           (option ? what.substr(6) : what));
    };
    try {
        file = read_config_file(row.config);
    } catch (const ConfigError& e) {
        throw ConfigError(row.at + ".config" + label + e.what());
    }
    json j = file;
    for (size_t i = 0; i < row.overrides.size(); ++i) {
        if (const std::string why = set_changes_no_run(row.overrides[i]); !why.empty())
            throw set_error(i, row.overrides[i] + ": " + why);
        try {
            apply_override(j, row.overrides[i]);
        } catch (const ConfigError& e) {
            throw set_error(i, e.what());
        }
    }
    try {
        return load_config(j, row.config);
    } catch (const ConfigError& e) {
        // The last set that gave the key, as `run` names the last --set.
        try {
            rethrow_against_sets(e, file, row.config, row.overrides);
        } catch (const ConfigError& by) {
            const std::string what = by.what();
            for (size_t i = row.overrides.size(); i-- > 0;)
                if (what.rfind("--set " + row.overrides[i] + ": ", 0) == 0)
                    throw set_error(i, what);
            throw ConfigError(row.at + ".config" + label + what);
        }
    }
}

// What a row's run wrote on its stderr. (Streaming an empty file's rdbuf
// would set std::cerr's failbit, silencing every later message.)
std::string run_log(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str().empty() ? "(no message: the run wrote none, or could not write it to " +
                                    path + ", on a full disk say)"
                              : text.str();
}

// A row's file in --keep that is a link or not a regular file:
// reproduce picks those names and writes only its own files there, never
// through a link to a file elsewhere (as a sweep refuses one in its
// directory); a directory there would fail the row's run midway.
void refuse_foreign_keep_file(const std::string& keep, const std::string& name) {
    const ForeignFile f = foreign_file(keep + "/" + name);
    if (!f.what.empty())
        throw BadInput("--keep " + keep + ": " + name + " is " + f.what +
                       (f.symlink ? "; reproduce writes only its own files there: remove the link"
                                  : ", where a row writes its run: remove it") +
                       ", or name another directory");
}

// At a --precision looser than the default every row runs shorter; a row
// whose config no longer loads at that length (a trace event past the end
// of the run) is refused before any run, naming the option and the row,
// not failed in its run under a --set the user never gave.
void check_shortened_row(const Table& table, const TableRow& row, json j, double duration_ns,
                         const std::string& option) {
    for (const std::string& o : row.overrides) apply_override(j, o);
    // The text the row's run gets (submit, below).
    apply_override(j, "run.duration_ns=" + std::to_string(duration_ns));
    try {
        (void)load_config(j, row.config);
    } catch (const ConfigError& e) {
        throw ConfigError(option + ": " + row.at + " (table " + table.name + ", row " +
                          key_text(row.key) + "): there its run is shortened to " +
                          format_number(duration_ns) + " ns, and then " + e.what());
    }
}

// A row's result as its run wrote it: a JSON object with metrics (read
// back from --keep, where another program may have changed it since).
bool whole_result(const json& result) {
    return result.is_object() && result.contains("metrics") && result["metrics"].is_object();
}

std::string changed_text(const std::string& path) {
    return "its result " + path + " is not a whole cidsim result (changed after its run?)";
}

struct Pending {
    size_t table, row;
    double duration_ns;
    uint64_t windows;  // run.batches
    unsigned round;    // reruns so far
    std::string out;   // its result file
    // A sensitivity run: the --set assignments it adds and where its result
    // goes (-1: the row itself). Variant 2i is assumption i at its low end,
    // 2i + 1 at its high end, 2A + k the k-th Latin-hypercube point.
    int variant = -1;
    std::vector<std::string> extra;
};

// The length the tables' configs give a row aims at the default precision;
// a looser one needs (default / asked)^2 of it, as the half-width shrinks as
// one over the square root of the simulated time.
constexpr double kDefaultPrecision = 0.01;
constexpr double kSensitivityPrecision = 0.02;

constexpr double kMargin = 1.2;      // aim a little below the target half-width
constexpr double kMinGrowth = 1.5;   // a rerun is worth its start-up only if longer
constexpr double kMaxGrowth = 16;    // an estimate from a short run is rough
constexpr uint64_t kMaxWindows = 1000;  // run.batches' limit
constexpr double kMaxRunNs = 1e13;      // run.duration_ns's limit

// How a row's figures stand against the precision asked for, and how much
// longer its next run should be. The half-width of a batch mean shrinks as
// 1/sqrt(simulated time), so (hw / target)^2 is the factor it asks for.
// Normally the windows keep their number and get longer (batch means with
// a fixed number of batches). A quantile whose windows already hold enough
// samples beyond it gets more windows of the same length instead: sitting
// on a flat part of the distribution (between two atoms), a window's
// quantile jumps between them however long the window is, while the mean
// over windows narrows with their number.
struct Verdict {
    bool precise = true;
    double growth = 1;
    bool more_windows = true;  // else longer windows
    std::string misses;        // the figures that miss, for stderr
    std::string zeros;         // the figures 0 or undefined in every window: nothing to judge
    std::string unjudged;      // the figures of a run with one window: no spread to judge by
    std::string rare;          // the figures defined in one window of several: too few events
};

Verdict judge(const Table& t, size_t row, const json& result, double precision) {
    Verdict v;
    for (const std::string& m : row_metrics(t, row)) {
        const Figure f = measure(m, result);
        const double target = precision * std::fabs(f.mean);
        const bool thin = f.tail_samples < kMinTailSamples;
        // 0 in every window has a half-width of 0, which would pass for met; a
        // longer run would not tell more, so it is not rerun but said. So is
        // a figure no window defines (a latency of no sample).
        if ((f.mean == 0 && f.ci95 == 0 && !thin) || std::isnan(f.mean)) {
            v.zeros += (v.zeros.empty() ? "" : ", ") + m;
            continue;
        }
        if (f.batches < 2 && !thin && f.windows < 2) {
            v.unjudged += (v.unjudged.empty() ? "" : ", ") + m;
            continue;
        }
        // Defined in one window of several (a lock wait that happened once):
        // no spread to judge by. Not rerun longer for precision, as a
        // one-off stays in one window at any length.
        if (f.batches < 2 && !thin) {
            v.rare += (v.rare.empty() ? "" : ", ") + m + " (defined in " +
                      std::to_string(f.defined_windows) + " of " + std::to_string(f.windows) +
                      " windows)";
            continue;
        }
        if (f.ci95 <= target && !thin) continue;
        v.precise = false;
        double g = target > 0 ? kMargin * (f.ci95 / target) * (f.ci95 / target) : kMaxGrowth;
        std::string why;
        if (!f.independent)
            why += ", batch means serially correlated even at " + std::to_string(f.batches) +
                   " batches";
        if (thin) {
            g = std::max(g, kMargin * kMinTailSamples / std::max(f.tail_samples, 1.0));
            why += ", " + std::to_string(uint64_t(f.tail_samples)) +
                   " samples beyond the quantile in a window";
        }
        if (std::isinf(f.tail_samples) || thin) v.more_windows = false;
        v.growth = std::max(v.growth, std::min(std::max(g, kMinGrowth), kMaxGrowth));
        char buf[128];
        std::snprintf(buf, sizeof buf, "%.2f%%", f.mean != 0 ? 100 * f.ci95 / std::fabs(f.mean) : 0.0);
        v.misses += (v.misses.empty() ? "" : "; ") + m + " half-width " + buf + why;
    }
    return v;
}

}  // namespace

int cmd_reproduce(int argc, char** argv) {
    po::options_description opts("cidsim reproduce TABLE|all|systems [options]");
    opts.add_options()("help,h", "this help")
        ("format", po::value<std::string>()->default_value("text"), "text | json | csv")
        ("out,o", po::value<std::string>(), "write the output here instead of stdout")
        ("tables", po::value<std::string>()->default_value(default_tables()), "table definitions")
        ("jobs,j", po::value<std::string>()->default_value(std::to_string(available_cpus())),
         "parallel runs")
        ("precision", po::value<std::string>()->default_value("0.01"),
         "largest relative 95% half-width accepted before a row is rerun longer; above 0.01 "
         "a row of several windows starts at (0.01 / precision)^2 of its length")
        ("max-reruns", po::value<std::string>()->default_value("8"),
         "most times a row is rerun longer (1.5 to 16 times) to reach --precision")
        ("sensitivity", "also run every row with each fitted, assumed or guessed value at the ends "
                        "of its plausible range (--precision 0.02 unless given)")
        ("lhs", po::value<std::string>()->default_value("8"),
         "--sensitivity: Latin-hypercube points over all ranges at once (the assumption interval)")
        ("sensitivity-length", po::value<std::string>()->default_value("0.5"),
         "--sensitivity: each variant's simulated time as a fraction of its row's final run")
        ("top", po::value<std::string>()->default_value("3"),
         "--sensitivity: strongest dependences printed per figure (text)")
        ("devices", po::value<std::string>()->default_value(default_devices_file()),
         "--sensitivity: the device profiles whose values are varied")
        ("keep", po::value<std::string>(), "keep every run's result JSON in this directory")
        ("verbose,v", "print each run's length and the figures that missed --precision");
    po::variables_map vm;
    if (const int status = parse_command_line("reproduce", argc, argv, opts, "table", vm); status >= 0)
        return status;
    const std::string format = vm["format"].as<std::string>();
    if (format != "text" && format != "json" && format != "csv") {
        std::cerr << "cidsim reproduce: --format must be text, json or csv, found '" << format
                  << "'\n";
        return kExitBadInput;
    }

    // Options first (before any file is read); --precision below 0.1% would
    // ask for runs millions of times longer (the half-width shrinks as one
    // over the square root of the run length), so it is refused.
    unsigned jobs_width = 1, max_reruns = 0, lhs_points = 0, top = 0;
    double precision = 0, variant_length = 1;
    const bool sensitivity = vm.count("sensitivity") > 0;
    std::string out, keep;
    try {
        // Options that only shape the sensitivity runs would be ignored without them.
        if (!sensitivity)
            for (const char* o : {"lhs", "sensitivity-length", "top", "devices"})
                if (!vm[o].defaulted())
                    throw BadInput(std::string("--") + o + " shapes the sensitivity runs: add "
                                   "--sensitivity, or drop it");
        jobs_width = unsigned(integer_option(vm, "jobs", {1, 4096}));
        max_reruns = unsigned(integer_option(vm, "max-reruns", {0, 16}));
        precision = number_option(vm, "precision", 0.001, 1);
        if (sensitivity && vm["precision"].defaulted()) precision = kSensitivityPrecision;
        lhs_points = unsigned(integer_option(vm, "lhs", {0, 1000}));
        top = unsigned(integer_option(vm, "top", {1, 1000}));
        variant_length = number_option(vm, "sensitivity-length", 0.01, 1);

        if (vm.count("out")) out = path_option(vm, "out");
        if (vm.count("keep")) {
            keep = path_option(vm, "keep");
            check_directory_option("--keep", keep, false);
        }
        // The runs write their files into --keep: --out there could be one of them.
        if (!out.empty() && !keep.empty()) {
            std::error_code oe, ke;
            const fs::path o = fs::weakly_canonical(out, oe), k = fs::weakly_canonical(keep, ke);
            if (!oe && !ke && (o == k || o.parent_path() == k))
                throw BadInput("--out " + out + " is " +
                               (o == k ? "the --keep directory" : "inside the --keep directory") +
                               ", where every run's result is written: name a file elsewhere");
        }
    } catch (const BadInput& e) {
        std::cerr << "cidsim reproduce: " << e.what() << "\n";
        return kExitBadInput;
    }

    std::vector<Table> tables, systems;
    try {
        tables = load_tables(path_option(vm, "tables"));
        if (vm["tables"].defaulted()) systems = load_tables(default_systems_tables());
    } catch (const BadInput& e) {
        const std::string what = e.what();
        const bool named = vm["tables"].defaulted() || what.rfind("--tables", 0) == 0;
        std::cerr << "cidsim reproduce: " << (named ? "" : "--tables: ") << what << "\n";
        return kExitBadInput;
    }
    const std::string which = vm.count("table") ? vm["table"].as<std::string>() : "";
    std::vector<Table> chosen;
    for (const Table& t : tables)
        if (which == "all" || t.name == which) chosen.push_back(t);
    for (const Table& t : systems)
        if (which == "systems" || t.name == which) chosen.push_back(t);
    if (chosen.empty()) {
        std::cerr << "cidsim reproduce: "
                  << (which.empty() ? "" : "no table " + show_json(which) + "; ")
                  << "choose a table:";
        for (const Table& t : tables) std::cerr << " " << t.name;
        for (const Table& t : systems) std::cerr << " " << t.name;
        std::cerr << (systems.empty() ? " all\n" : " all systems\n");
        return kExitBadInput;
    }
    // Every row's config (and its includes) is read before --out is
    // claimed, so --out naming any input is refused.
    std::vector<Pending> initial;
    // Each row's config's own run.duration_ns.
    std::vector<std::vector<double>> row_length_ns(chosen.size());
    // The most windows its reruns may have: their records must fit (most_batches).
    std::vector<std::vector<uint64_t>> row_most_windows(chosen.size());
    std::vector<std::vector<bool>> replays_trace(chosen.size());
    // Each row's config as checked here: a run reads the file again, which
    // may have been edited since (a whole reproduce takes hours).
    std::vector<std::vector<json>> row_file(chosen.size());
    std::vector<Assumption> assumptions;
    using Sets = std::vector<std::vector<std::string>>;  // one variant's assignments each
    std::vector<std::vector<Sets>> variant_sets(chosen.size());  // [table][row]
    size_t variant_runs = 0;
    try {
        // Where a looser precision came from, for a row it shortens too much.
        const std::string precision_option =
            vm["precision"].defaulted()
                ? "--sensitivity (which runs at --precision " +
                      format_number(kSensitivityPrecision) + " unless given)"
                : "--precision " + vm["precision"].as<std::string>();
        const double shorter = precision > kDefaultPrecision
                                   ? (kDefaultPrecision / precision) * (kDefaultPrecision / precision)
                                   : 1.0;
        for (size_t t = 0; t < chosen.size(); ++t)
            for (size_t r = 0; r < chosen[t].rows.size(); ++r) {
                json& file = row_file[t].emplace_back();
                const SimConfig config = row_config(chosen[t], chosen[t].rows[r], file);
                const RunParams& run = config.run;
                // A trace's events are fixed in time: a run of another length
                // replays another workload (its rates move), so the row keeps
                // its length, unjudged, and so do its sensitivity runs.
                const bool trace = std::any_of(config.workloads.begin(), config.workloads.end(),
                                               [](const auto& w) { return w.type == "trace"; });
                replays_trace[t].push_back(trace);
                // A row of one window cannot be judged, so it is not shortened
                // either: nothing would tell that its shorter run says nothing.
                const double duration_ns =
                    ns_of(run.duration) * (run.batches > 1 && !trace ? shorter : 1.0);
                if (duration_ns < ns_of(run.duration))
                    check_shortened_row(chosen[t], chosen[t].rows[r], file, duration_ns,
                                        precision_option);
                // Its sensitivity runs are shorter still (and a row only grows).
                if (sensitivity && variant_length < 1 && !trace)
                    check_shortened_row(chosen[t], chosen[t].rows[r], file,
                                        duration_ns * variant_length,
                                        "--sensitivity-length " +
                                            vm["sensitivity-length"].as<std::string>() +
                                            " (with " + precision_option + ")");
                initial.push_back({t, r, duration_ns, run.batches, 0, "", -1, {}});
                row_length_ns[t].push_back(ns_of(run.duration));
                row_most_windows[t].push_back(std::min(kMaxWindows, most_batches(config)));
            }
        if (sensitivity) {
            json profiles;
            // The file's own messages name it, not the option that gave it.
            try {
                assumptions = load_assumptions(path_option(vm, "devices"), profiles);
            } catch (const BadInput& e) {
                const std::string what = e.what();
                if (what.rfind("--devices", 0) == 0) throw;
                throw BadInput("--devices " + what);
            }
            const auto lhs = latin_hypercube(assumptions, lhs_points, 22);
            for (size_t t = 0; t < chosen.size(); ++t)
                for (size_t r = 0; r < chosen[t].rows.size(); ++r) {
                    const TableRow& row = chosen[t].rows[r];
                    const json& config = row_file[t][r];
                    Sets sets;
                    for (const Assumption& a : assumptions) {
                        sets.push_back(assignments(config, profiles, row.overrides, a, a.low));
                        sets.push_back(assignments(config, profiles, row.overrides, a, a.high));
                    }
                    for (const auto& point : lhs) {
                        std::vector<std::string> all;
                        for (size_t i = 0; i < assumptions.size(); ++i) {
                            const auto s = assignments(config, profiles, row.overrides,
                                                       assumptions[i], point[i]);
                            all.insert(all.end(), s.begin(), s.end());
                        }
                        sets.push_back(all);
                    }
                    for (const auto& s : sets) variant_runs += !s.empty();
                    variant_sets[t].push_back(sets);
                }
            // A table none of whose rows takes a value would print an empty
            // sensitivity (the POWER rows run on no x86 platform, say).
            for (size_t t = 0; t < chosen.size(); ++t)
                if (std::all_of(variant_sets[t].begin(), variant_sets[t].end(), [](const Sets& r) {
                        return std::all_of(r.begin(), r.end(),
                                           [](const std::vector<std::string>& v) { return v.empty(); });
                    }))
                    throw BadInput("--sensitivity: no fitted, assumed or guessed value (the " +
                                   std::string(kDefaultPlatform) + " platform's, --devices's "
                                   "profiles') reaches a row of table " + chosen[t].name +
                                   ": nothing would be varied");
        }
        // The runs write DIR/TABLE-ROW[-vK].json and its .stderr into --keep: one
        // of them being an input (a row's config there) would fail a run midway.
        if (!keep.empty()) {
            const auto inputs = inputs_so_far();
            for (size_t t = 0; t < chosen.size(); ++t)
                for (size_t r = 0; r < chosen[t].rows.size(); ++r) {
                    const std::string stem = chosen[t].name + "-" + std::to_string(r);
                    std::vector<std::string> names = {stem + ".json"};
                    if (sensitivity)
                        for (size_t v = 0; v < variant_sets[t][r].size(); ++v)
                            names.push_back(stem + "-v" + std::to_string(v) + ".json");
                    for (const std::string& n : names)
                        for (const std::string& f : {n, n + ".stderr"}) {
                            refuse_foreign_keep_file(keep, f);
                            const FileId id = identify(keep + "/" + f);
                            for (const FileId& in : inputs)
                                if (same_file(in, id))
                                    throw BadInput("--keep " + keep + ": " + f + ", where table " +
                                                   chosen[t].name + " row " + std::to_string(r) +
                                                   " writes its run, is an input of this "
                                                   "command (" + in.resolved + "): name another "
                                                   "directory");
                        }
                }
        }
        if (!out.empty()) claim_output("--out", out);
    } catch (const BadInput& e) {
        std::cerr << "cidsim reproduce: " << e.what() << "\n";
        return kExitBadInput;
    }

    // The runs' results go to --keep, or to a temporary directory removed on
    // every way out: a normal return, an exception, and SIGINT/SIGTERM/SIGHUP
    // (io/cleanup.h).
    struct RunDir {
        std::string path;
        bool temporary = false;
        std::unique_ptr<CleanupGuard> on_signal;
        ~RunDir() {
            std::error_code ignored;
            if (temporary) fs::remove_all(path, ignored);
        }
    } run_dir;
    std::unique_ptr<DirectoryLock> keep_lock;  // two commands there would read each other's runs
    if (!keep.empty()) {
        run_dir.path = keep;
        std::error_code ec;
        fs::create_directories(run_dir.path, ec);
        if (ec) {
            std::cerr << "cidsim reproduce: --keep " << keep << ": " << ec.message() << "\n";
            return kExitBadInput;
        }
        try {
            keep_lock = std::make_unique<DirectoryLock>(keep);
        } catch (const std::runtime_error& e) {
            std::cerr << "cidsim reproduce: --keep " << e.what() << "\n";
            return kExitFailure;
        }
    } else {
        // $TMPDIR when set, as mktemp does (and as the tests use).
        const char* tmpdir = std::getenv("TMPDIR");
        std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/cidsim-reproduce.XXXXXX";
        if (!::mkdtemp(tmpl.data())) {
            std::cerr << "cidsim reproduce: cannot make a temporary directory in "
                      << tmpl.substr(0, tmpl.rfind('/')) << ": " << std::strerror(errno) << "\n";
            return kExitFailure;
        }
        run_dir.path = tmpl;
        run_dir.temporary = true;
        run_dir.on_signal = std::make_unique<CleanupGuard>(run_dir.path, true);
    }
    const std::string& dir = run_dir.path;

    std::vector<std::vector<json>> results(chosen.size());
    for (size_t t = 0; t < chosen.size(); ++t) results[t].resize(chosen[t].rows.size());
    std::vector<std::vector<RowSensitivity>> variants(chosen.size());
    for (size_t t = 0; t < chosen.size(); ++t)
        variants[t].assign(chosen[t].rows.size(),
                           RowSensitivity{std::vector<json>(assumptions.size()),
                                          std::vector<json>(assumptions.size()),
                                          std::vector<json>(lhs_points)});
    int status = kExitOk;
    // A row that must run longer is queued again as soon as it ends, so a
    // long row does not hold the others back.
    std::vector<PoolJob> jobs;
    std::vector<Pending> pending;  // jobs[i] runs pending[i]
    // A run's --sets, in order: the row's, a sensitivity run's, its length.
    const auto run_sets = [&](const Pending& p) {
        std::vector<std::string> sets = chosen[p.table].rows[p.row].overrides;
        sets.insert(sets.end(), p.extra.begin(), p.extra.end());
        sets.push_back("run.duration_ns=" + std::to_string(p.duration_ns));
        sets.push_back("run.batches=" + std::to_string(p.windows));
        // The later of two sets of one key is the one meant (a row's own
        // run.batches gives way to the windows asked for): a run is told each
        // key once.
        while (const auto twice = key_given_twice(sets))
            sets.erase(sets.begin() + std::ptrdiff_t(twice->second));
        return sets;
    };
    // Empty, or why a whole result of `p` is not of the config checked at the start.
    const auto config_changed = [&](const Pending& p, const json& result) -> std::string {
        const std::string& config = chosen[p.table].rows[p.row].config;
        json expected;
        try {
            expected = effective_config(row_file[p.table][p.row], run_sets(p), config);
        } catch (const ConfigError&) {  // it loaded at the start, at every length run
        }
        if (result.contains("config") && result["config"] == expected) return "";
        return config + " (or a file it includes) changed while reproduce ran: its run used "
               "the new one";
    };
    const auto submit = [&](Pending p) {
        const TableRow& row = chosen[p.table].rows[p.row];
        PoolJob job;
        p.out = dir + "/" + chosen[p.table].name + "-" + std::to_string(p.row) +
                (p.variant >= 0 ? "-v" + std::to_string(p.variant) : "") + ".json";
        job.argv = {"/proc/self/exe", "run", path_argument(row.config)};
        for (const std::string& s : run_sets(p)) job.argv.insert(job.argv.end(), {"--set", s});
        job.argv.insert(job.argv.end(), {"--out", p.out, "-q"});
        job.stderr_path = p.out + ".stderr";
        jobs.push_back(job);
        pending.push_back(p);
    };
    // On a terminal: rows done of all, and the row that started last.
    ProgressLine progress;
    size_t rows_done = 0;
    const size_t all_runs = initial.size() + variant_runs;
    std::string current;
    const auto show_progress = [&] {
        if (!progress.enabled()) return;
        const double frac = all_runs == 0 ? 1.0 : double(rows_done) / double(all_runs);
        progress.show("cidsim reproduce: " + std::to_string(rows_done) + "/" +
                      std::to_string(all_runs) + (variant_runs ? " runs" : " rows") + " done, " +
                      std::to_string(int(progress.elapsed())) + " s, ~" +
                      ProgressLine::time_left(progress.elapsed(), frac) + " left; running " +
                      current);
    };
    const auto submit_row = [&](Pending p) {
        current = chosen[p.table].name + " " + key_text(chosen[p.table].rows[p.row].key) +
                  (p.round ? " (rerun " + std::to_string(p.round) + ")" : "");
        submit(p);
    };
    // A row's sensitivity runs start once the row itself is done, at the
    // length it ended with (times --sensitivity-length), and are not rerun.
    const auto submit_variants = [&](const Pending& p) {
        if (!sensitivity) return;
        const auto& sets = variant_sets[p.table][p.row];
        for (size_t v = 0; v < sets.size(); ++v) {
            if (sets[v].empty()) continue;
            const double length = replays_trace[p.table][p.row] ? 1.0 : variant_length;
            const Pending q{p.table, p.row, p.duration_ns * length, p.windows, 0, "", int(v),
                            sets[v]};
            current = chosen[p.table].name + " " + key_text(chosen[p.table].rows[p.row].key) +
                      " (sensitivity)";
            submit(q);
        }
    };
    const auto keep_variant = [&](const Pending& p, json result) {
        RowSensitivity& s = variants[p.table][p.row];
        const size_t v = size_t(p.variant), n = assumptions.size();
        if (v < 2 * n) (v % 2 ? s.high : s.low)[v / 2] = std::move(result);
        else s.lhs[v - 2 * n] = std::move(result);
    };
    for (const Pending& p : initial) submit_row(p);
    run_pool_growing(jobs, jobs_width, [&](size_t i, const PoolOutcome& o) {
        const Pending p = pending[i];
        const Table& t = chosen[p.table];
        // Anything this row prints goes on a clean line; the line is redrawn after.
        struct Redraw {
            std::function<void()> f;
            ~Redraw() { f(); }
        } redraw{show_progress};
        progress.clear();
        if (p.variant >= 0) {
            // A variant that fails (a value the model refuses) leaves a gap, not a failed table.
            ++rows_done;
            json result = o.ok() ? read_result_json(p.out) : json();
            const std::string changed =
                !o.ok() ? "" : !whole_result(result) ? changed_text(p.out)
                                                     : config_changed(p, result);
            if (o.ok() && changed.empty()) {
                keep_variant(p, std::move(result));
            } else if (o.ok()) {
                std::cerr << "cidsim reproduce: " << t.name << " row " << p.row
                          << " sensitivity run " << p.variant << ": " << changed
                          << ", left out\n";
            } else {
                std::cerr << "cidsim reproduce: " << t.name << " row " << p.row
                          << " sensitivity run " << p.variant << " failed (" << outcome_text(o)
                          << "), left out:\n" << run_log(jobs[i].stderr_path) << "\n";
            }
            return;
        }
        if (!o.ok()) {
            // A killed run leaves no message of its own: say how it ended, as sweep does.
            std::cerr << "cidsim reproduce: " << t.name << " row " << p.row << " failed ("
                      << outcome_text(o) << "):\n" << run_log(jobs[i].stderr_path) << "\n";
            status = kExitFailure;
            ++rows_done;
            return;
        }
        const auto row_failed = [&](const std::string& why) {
            std::cerr << "cidsim reproduce: " << t.name << " row " << p.row << " ("
                      << key_text(t.rows[p.row].key) << "): " << why << "\n";
            status = kExitFailure;
            ++rows_done;
        };
        results[p.table][p.row] = read_result_json(p.out);
        if (!whole_result(results[p.table][p.row])) return row_failed(changed_text(p.out));
        if (const std::string why = config_changed(p, results[p.table][p.row]); !why.empty())
            return row_failed(why);
        Verdict v;
        try {
            // A metric of another machine family would read 0, as if measured.
            for (const std::string& m : row_metrics(t, p.row))
                if (const std::string why = metric_missing(m, results[p.table][p.row]);
                    !why.empty())
                    return row_failed(m + " is not measured by this row: " + why);
            if (replays_trace[p.table][p.row])
                v.unjudged = "every figure";
            else
                v = judge(t, p.row, results[p.table][p.row], precision);
        } catch (const json::exception&) {  // a result with the keys, not their values
            return row_failed(changed_text(p.out));
        }
        // A figure 0 in every window of a run shortened for a looser
        // --precision, or defined in one, may just be too rare for so short a
        // run: the row is rerun at its config's own length before it is taken
        // as 0, whatever --max-reruns allows (it bounds the reruns for precision).
        const double full_ns = row_length_ns[p.table][p.row];
        const bool rerun_unshortened =
            (!v.zeros.empty() || !v.rare.empty()) && p.duration_ns < full_ns;
        if (rerun_unshortened) {
            const auto miss = [&](const std::string& figures, const char* why) {
                if (!figures.empty()) v.misses += (v.misses.empty() ? "" : "; ") + figures + why;
            };
            miss(v.zeros, " 0 or undefined in every window of a shortened run");
            miss(v.rare, " too rare in a shortened run");
            v.zeros.clear();
            v.rare.clear();
            v.precise = false;
            v.growth = p.round < max_reruns ? std::max(v.growth, full_ns / p.duration_ns)
                                            : full_ns / p.duration_ns;
            v.more_windows = false;
        }
        if (vm.count("verbose"))
            std::cerr << "cidsim reproduce: " << t.name << " row " << p.row << " "
                      << p.duration_ns / 1e6 << " ms " << p.windows << " windows " << o.seconds
                      << " s: " << (v.precise ? "ok" : v.misses) << " growth " << v.growth << "\n";
        if (!v.zeros.empty() && (v.precise || p.round >= max_reruns))
            std::cerr << "cidsim reproduce: " << t.name << " row " << p.row << " ("
                      << key_text(t.rows[p.row].key) << "): " << v.zeros
                      << " 0 or undefined in every window: --precision not met (nothing to judge "
                         "it by)\n";
        if (!v.rare.empty() && (v.precise || p.round >= max_reruns))
            std::cerr << "cidsim reproduce: " << t.name << " row " << p.row << " ("
                      << key_text(t.rows[p.row].key) << "): " << v.rare
                      << ": too few events in its windows to judge it, --precision not judged "
                         "(a longer run.duration_ns gives it more)\n";
        if (!v.unjudged.empty() && (v.precise || p.round >= max_reruns))
            std::cerr << "cidsim reproduce: " << t.name << " row " << p.row << " ("
                      << key_text(t.rows[p.row].key) << "): " << v.unjudged
                      << (replays_trace[p.table][p.row]
                              ? " of a replayed trace, whose events are fixed in time: the run "
                                "keeps its config's length, --precision not judged\n"
                              : " from one window (run.batches 1): --precision not judged, no "
                                "ci95 (give the row run.batches, 10 or more, to have it "
                                "judged)\n");
        if (v.precise) {
            ++rows_done;
            submit_variants(p);
            return;
        }
        const bool at_limit = p.duration_ns >= kMaxRunNs;
        if ((p.round < max_reruns || rerun_unshortened) && !at_limit) {
            // At the row's own length at least: growth x length may round below it.
            const double length = rerun_unshortened ? std::max(p.duration_ns * v.growth, full_ns)
                                                    : p.duration_ns * v.growth;
            Pending next{p.table, p.row, std::min(length, kMaxRunNs), p.windows, p.round + 1, "",
                         -1, {}};
            if (v.more_windows)
                next.windows = std::min<uint64_t>(
                    row_most_windows[p.table][p.row],
                    uint64_t(std::llround(double(p.windows) * v.growth)));
            submit_row(next);
        } else {
            ++rows_done;
            submit_variants(p);
            std::cerr << "cidsim reproduce: " << t.name << " row " << p.row << " ("
                      << key_text(t.rows[p.row].key) << "), " << p.duration_ns / 1e6
                      << " ms simulated in " << p.windows << " windows after " << p.round
                      << " reruns" << (at_limit ? ", the longest run.duration_ns allows" : "")
                      << ": " << v.misses << " (above " << precision * 100 << "%)\n";
        }
    }, show_progress);
    progress.clear();
    if (status != kExitOk) return status;

    json tables_out = json::array(), sensitivity_out = json::array();
    std::string text;
    for (size_t t = 0; t < chosen.size(); ++t) {
        json tj = table_json(chosen[t], results[t]);
        text += table_text(chosen[t], tj) + platforms_line(results[t]) + "\n";
        if (sensitivity) {
            tj["sensitivity"] =
                sensitivity_json(chosen[t], results[t], variants[t], assumptions, lhs_points);
            text += sensitivity_text(tj["sensitivity"], top) + "\n";
            sensitivity_out.push_back(tj["sensitivity"]);
        }
        tables_out.push_back(tj);
    }
    std::string output = format == "text" ? text
                         : format == "csv" ? (sensitivity ? sensitivity_csv(sensitivity_out)
                                                          : table_csv(tables_out))
                         : (chosen.size() == 1 && which != "all" && which != "systems" ? tables_out[0] : tables_out)
                                   .dump(2) + "\n";
    if (out.empty()) {
        std::cout << output;
        return kExitOk;
    }
    try {
        write_file_atomically(out, output);
    } catch (const std::exception& e) {
        // Hours of runs are not thrown away with the table: the rows' results stay.
        if (run_dir.temporary) {
            run_dir.temporary = false;
            run_dir.on_signal.reset();
        }
        std::cerr << "cidsim reproduce: " << e.what() << "; every row's result is kept in "
                  << dir << "\n";
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace cidsim
