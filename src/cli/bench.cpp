// cidsim bench [--reps N] [--duration-ns D] [--floor-events N] [--no-floor]
//   [--config F ...] [--json FILE]
// The speed benchmark (docs/performance.md): runs each canonical config
// (configs/bench/posted.json, remappable.json) and the SystemC floor, each in
// its own child process, alternating floor, posted, remappable, floor, ...
// for N repetitions, and prints medians: simulated MSIs, wall seconds,
// simulated MSIs per wall second, timed kernel events per simulated MSI,
// peak RSS, and kernel-event-equivalents per MSI = floor events/s divided by
// simulated MSIs/s (the floor measured side by side, in the same invocation).
// Hidden: --child CONFIG runs one model run and prints its JSON line;
// --floor-child N runs the floor and prints its JSON line.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "io/data_files.h"
#include "io/file_identity.h"
#include "cli/commands.h"
#include "report/progress.h"
#include "cli/numeric_option.h"
#include "config/config_loader.h"
#include "config/json_text.h"
#include "config/platforms.h"
#include "config/printable.h"
#include "report/results.h"
#include "sim/bench.h"

namespace cidsim {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string default_config(const std::string& name) {
    return data_file("configs/bench/" + name + ".json");
}

struct Series {
    std::string name;
    std::vector<double> msis, wall, rate, events_per_msi, rss_mb, keq;
};

// Each config is a row named by its file's stem: one file twice, or two
// files of one name, would be rows no one can tell apart. Names the second.
void refuse_repeated_configs(const std::vector<std::string>& configs) {
    for (size_t i = 0; i < configs.size(); ++i) {
        // The row's name is one cell of a printed table and of --json's.
        if (const std::string stem = fs::path(configs[i]).stem().string(); !valid_utf8(stem))
            throw BadInput("--config " + configs[i] + ": a byte that is not UTF-8 in the file's "
                           "name, which names its row: rename it");
        else if (has_control_character(stem))
            throw BadInput("--config " + configs[i] + ": a control character "
                           "in the file's name, which names its row: rename it");
        for (size_t j = 0; j < i; ++j) {
            const std::string again = "--config " + configs[i] + ": ";
            if (same_file(identify(configs[i]), identify(configs[j])))
                throw BadInput(again + "the same file as --config " + configs[j] +
                               " (given twice)");
            const std::string stem = fs::path(configs[i]).stem().string();
            if (stem == fs::path(configs[j]).stem().string())
                throw BadInput(again + "its row would be named " + stem + ", as --config " +
                               configs[j] + "'s is: rename one of them");
        }
    }
}

}  // namespace

int cmd_bench(int argc, char** argv) {
    po::options_description opts("cidsim bench [options]");
    opts.add_options()("help,h", "this help")
        ("reps", po::value<std::string>()->default_value("3"), "repetitions (medians are printed)")
        ("duration-ns", po::value<std::string>()->default_value("20000000"),
         "simulated time per model run (after the config's warm-up)")
        ("floor-events", po::value<std::string>()->default_value("5000000"),
         "timed events per floor run")
        ("no-floor", "skip the SystemC floor runs")
        ("config", po::value<std::vector<std::string>>()->composing(),
         "model configs to run (default: configs/bench/posted.json and remappable.json)")
        ("set", po::value<std::vector<std::string>>()->composing(),
         "override a value in every model config: key.path=value")
        ("json", po::value<std::string>(), "also write every run's measurements here");
    po::options_description hidden;
    hidden.add_options()("child", po::value<std::string>())("floor-child", po::value<std::string>());
    po::variables_map vm;
    if (const int status = parse_command_line("bench", argc, argv, opts, nullptr, vm, &hidden);
        status >= 0)
        return status;
    const std::vector<std::string> sets =
        vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
    // A child run (--child, --floor-child) makes one measurement and prints
    // it: the options of the whole benchmark would be ignored there.
    if (vm.count("child") || vm.count("floor-child"))
        for (const char* o : {"child", "floor-child", "reps", "duration-ns", "floor-events",
                              "no-floor", "config", "json"})
            if (vm.count(o) && !vm[o].defaulted() &&
                std::string(o) != (vm.count("child") ? "child" : "floor-child")) {
                std::cerr << "cidsim bench: --" << o << " is not an option of a child run (--"
                          << (vm.count("child") ? "child" : "floor-child")
                          << ", one measurement printed as JSON): drop one of them\n";
                return kExitBadInput;
            }

    // Options first, with their ranges (no wrap-around of "-1").
    unsigned reps = 0;
    uint64_t floor_events = 0;
    double duration_ns = 0;
    std::string json_out;
    try {
        reps = unsigned(integer_option(vm, "reps", {1, 1000}));
        floor_events = integer_option(vm, "floor-events", {1, 1000000000000ull});
        duration_ns = number_option(vm, "duration-ns", 1, 1e13);  // run.duration_ns's range
        if (vm.count("no-floor") && !vm["floor-events"].defaulted())
            throw BadInput("--floor-events: it sizes the floor runs, which --no-floor skips");
        if (vm.count("json")) json_out = path_option(vm, "json");
        // Child modes: one measurement, one JSON line on stdout.
        if (vm.count("floor-child")) {
            const uint64_t n = integer_option(vm, "floor-child", {1, 1000000000000ull});
            std::cout << bench_floor(n).to_json().dump() << "\n";
            return kExitOk;
        }
    } catch (const BadInput& e) {
        std::cerr << "cidsim bench: " << e.what() << "\n";
        return kExitBadInput;
    }
    if (vm.count("child")) {
        try {
            std::cout << bench_model(vm["child"].as<std::string>(), sets).to_json().dump() << "\n";
        } catch (const BadInput& e) {
            std::cerr << "cidsim bench: " << e.what() << "\n";
            return kExitBadInput;
        } catch (const std::invalid_argument& e) {  // what System rejects while building
            std::cerr << "cidsim bench: " << e.what() << "\n";
            return kExitBadInput;
        } catch (const std::exception& e) {
            std::cerr << "cidsim bench: failed: " << failure_text(e) << "\n";
            return kExitFailure;
        }
        return kExitOk;
    }

    const bool floor = !vm.count("no-floor");
    std::vector<std::string> configs = vm.count("config")
                                           ? vm["config"].as<std::vector<std::string>>()
                                           : std::vector<std::string>{default_config("posted"),
                                                                      default_config("remappable")};
    std::vector<std::string> platforms;  // of each config, for the report
    char duration[64];
    std::snprintf(duration, sizeof duration, "run.duration_ns=%.17g", duration_ns);
    try {
        for (const std::string& s : sets) {
            if (set_reaches(s, {"run", "duration_ns"}))
                throw BadInput("--set " + s + ": bench runs every config for --duration-ns, "
                               "which sets run.duration_ns: use that");
            if (const std::string why = set_changes_no_run(s); !why.empty())
                throw BadInput("--set " + s + ": " + why);
        }
        if (const std::string twice = set_given_twice(sets); !twice.empty()) throw BadInput(twice);
        for (const std::string& c : configs) {
            // Bad input fails here, not in a child: the config, --set, the duration.
            const nlohmann::json own_length = read_config_file(c);
            nlohmann::json file = own_length;
            apply_override(file, duration);  // first, as the child gets it
            nlohmann::json j = file;
            for (const std::string& s : sets) apply_override(j, s);
            // With several configs, a --set's refusal says whose.
            const auto in_config = [&](const std::string& message) {
                return configs.size() > 1 && message.rfind(c + ": ", 0) != 0 ? c + ": " + message
                                                                             : message;
            };
            SimConfig config;
            try {
                config = load_config(j, c);
            } catch (const ConfigError& e) {
                // At its own length the config may load: then --duration-ns is at fault.
                nlohmann::json own = own_length;
                for (const std::string& s : sets) apply_override(own, s);
                bool loads_at_own_length = true;
                try {
                    (void)load_config(own, c);
                } catch (const ConfigError&) {
                    loads_at_own_length = false;
                }
                if (loads_at_own_length)  // e names the config
                    throw BadInput("--duration-ns " + vm["duration-ns"].as<std::string>() +
                                   ": there every run is " + format_number(duration_ns) +
                                   " ns long, and then " + e.what());
                try {
                    rethrow_against_sets(e, file, c, sets);
                } catch (const ConfigError& told) {
                    throw BadInput(in_config(told.what()));
                }
            }
            // Every figure bench prints is per MSI.
            if (config.power_machine || config.workloads.empty())
                throw BadInput(c + ": " + (config.power_machine ? "a POWER partition (its "
                               "`power` section), whose IPIs are no device's MSIs" : "no "
                               "workload") + ": bench measures the simulator per MSI, and no "
                               "device would send one");
            platforms.push_back(config.platform);
        }
        refuse_repeated_configs(configs);
        if (!json_out.empty()) claim_output("--json", json_out);
    } catch (const BadInput& e) {
        std::cerr << "cidsim bench: " << e.what() << "\n";
        return kExitBadInput;
    }

    std::vector<Series> series(configs.size());
    for (size_t i = 0; i < configs.size(); ++i) series[i].name = fs::path(configs[i]).stem().string();
    std::vector<double> floor_rate;
    json log = json::array();
    ProgressLine progress;  // on a terminal only: each repetition as it ends
    try {
        for (unsigned r = 0; r < reps; ++r) {
            double floor_now = 0;
            if (floor) {
                json f = run_child({"bench", "--floor-child", std::to_string(floor_events)});
                floor_now = f["events"].get<double>() / f["wall_seconds"].get<double>();
                floor_rate.push_back(floor_now);
                f["kind"] = "floor";
                log.push_back(f);
                progress.show("cidsim bench: rep " + std::to_string(r + 1) + "/" +
                                  std::to_string(reps) + " floor " +
                                  std::to_string(floor_now / 1e6) + " M events/s, " +
                                  std::to_string(int(progress.elapsed())) + " s",
                              true);
            }
            for (size_t i = 0; i < configs.size(); ++i) {
                std::vector<std::string> args{"bench", "--child", configs[i], "--set", duration};
                for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
                json m = run_child(args);
                Series& s = series[i];
                const double msis = m["msis"].get<double>(), wall = m["wall_seconds"].get<double>();
                // Every figure bench prints is per MSI: without one there is nothing to print.
                if (msis <= 0)
                    throw std::runtime_error(
                        configs[i] + ": no device sent an MSI in the run (a workload too rare "
                        "for --duration-ns, say): bench measures the simulator per MSI");
                s.msis.push_back(msis);
                s.wall.push_back(wall);
                s.rate.push_back(msis / wall);
                s.events_per_msi.push_back(m["timed_events"].get<double>() / msis);
                s.rss_mb.push_back(m["child_max_rss_kb"].get<double>() / 1024);
                if (floor) s.keq.push_back(floor_now / (msis / wall));
                m["kind"] = s.name;
                log.push_back(m);
                progress.show("cidsim bench: rep " + std::to_string(r + 1) + "/" +
                                  std::to_string(reps) + " " + s.name + " " +
                                  std::to_string(msis / wall / 1e6) + " M MSIs/s, " +
                                  std::to_string(int(progress.elapsed())) + " s",
                              true);
            }
        }
    } catch (const std::exception& e) {
        std::cerr << "cidsim bench: " << e.what() << "\n";
        return kExitFailure;
    }

    progress.clear();
    std::printf("cidsim bench: %u repetition(s), medians; %s ns simulated per model run (+ warm-up)\n",
                reps, duration + 16);
    for (size_t i = 0; i < configs.size(); ++i)
        std::printf("  %s: platform %s\n", series[i].name.c_str(),
                    platform_summary(platforms[i]).c_str());
    if (floor)
        std::printf("  SystemC floor (1 SC_METHOD, next_trigger 1 ns): %.2f M events/s\n",
                    median(floor_rate) / 1e6);
    std::printf("  %-12s %10s %8s %12s %14s %9s %12s\n", "config", "MSIs", "wall_s", "M_MSIs/s",
                "timed_ev/MSI", "RSS_MB", floor ? "kev_eq/MSI" : "");
    for (const Series& s : series) {
        std::printf("  %-12s %10.0f %8.3f %12.3f %14.2f %9.1f", s.name.c_str(), median(s.msis),
                    median(s.wall), median(s.rate) / 1e6, median(s.events_per_msi),
                    median(s.rss_mb));
        if (floor) std::printf(" %12.2f", median(s.keq));
        std::printf("\n");
    }
    if (vm.count("json")) try {
            // The table printed first: lost in a full disk, so is the log.
            errno = 0;
            if (std::fflush(stdout) != 0 || std::ferror(stdout))
                throw std::runtime_error(std::string("writing to standard output failed: ") +
                                         (errno ? std::strerror(errno) : "an error") +
                                         "; --json was not written");
            write_file_atomically(json_out, log.dump(1) + "\n");
        } catch (const std::exception& e) {
            std::cerr << "cidsim bench: " << e.what() << "\n";
            return kExitFailure;
        }
    return kExitOk;
}

}  // namespace cidsim
