// cidsim run CONFIG.json [--set key.path=value ...] [--seed N] [--stepwise] [--out RESULT.json]
//   [--stats FILE] [--fio-json FILE [--percentile-list 1:50:99]] [--timeline [--window-ns A:B]] [--trace-vcd F] [--trace-perfetto F [--trace-limit N]] [--interrupts]
#include <algorithm>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/numeric_option.h"
#include "config/config_loader.h"
#include "report/fio_json.h"
#include "report/results.h"
#include "report/stats_text.h"
#include "sim/invariants.h"
#include "report/trace_outputs.h"
#include "sim/system.h"

namespace cidsim {

namespace po = boost::program_options;

namespace {

constexpr IntegerRange kColumns{10, 1000};
constexpr IntegerRange kTraceLimit{0, 1000000000};

}  // namespace

int cmd_run(int argc, char** argv) {
    po::options_description opts("cidsim run CONFIG.json [options]");
    opts.add_options()("help,h", "this help")
        ("set", po::value<std::vector<std::string>>()->composing(),
         "override a config value: key.path=value (repeatable), e.g. handler.loop_limit=5")
        ("seed", po::value<std::string>(), "seed for stochastic workloads (overrides run.seed)")
        ("stepwise", "every act at the kernel's time (run.run_ahead=false): the same result, slower")
        ("out,o", po::value<std::string>(), "write the JSON result here (whole or not at all)")
        ("stats", po::value<std::string>(),
         "write a self-describing stats file here in gem5's stats.txt layout: name, value, "
         "# meaning (unit)")
        ("fio-json", po::value<std::string>(),
         "write the NVMe workloads' figures here as fio --output-format=json does, a job per "
         "NVMe job")
        ("percentile-list", po::value<std::string>(),
         "--fio-json's clat percentiles, fio's syntax (1:5:50:99:99.9); fio's list by default")
        ("quiet,q", "print no summary (what --timeline and --interrupts ask for is printed)")
        ("timeline", "print the text timeline (MSIs, interrupts/notifications per CPU; each "
                     "vCPU, a Xen domain, a POWER partition)")
        ("window-ns", po::value<std::string>(), "time window A:B in ns for the timeline and traces")
        ("columns", po::value<std::string>()->default_value("100"),
         ("timeline width in columns, " + range_text(kColumns)).c_str())
        ("trace-vcd", po::value<std::string>(), "write a VCD waveform (GTKWave) here")
        ("trace-perfetto", po::value<std::string>(), "write Chrome/Perfetto trace-event JSON here")
        ("trace-limit", po::value<std::string>()->default_value("1000000"),
         ("most trace events in the Perfetto file, " + range_text(kTraceLimit)).c_str())
        ("interrupts", "print /proc/interrupts at the end (the host's, each guest's, a POWER "
                       "partition's; a Xen domain's counters)");
    po::variables_map vm;
    if (const int status = parse_command_line("run", argc, argv, opts, "config", vm); status >= 0)
        return status;
    if (!vm.count("config")) {
        std::cerr << "cidsim run: a config file is required\n" << opts;
        return kExitBadInput;
    }

    const std::string path = vm["config"].as<std::string>();
    std::string out, stats, fio;
    std::vector<double> percentiles = fio_default_percentiles();
    TraceOutputs trace;
    uint64_t seed = 0;
    try {
        // Options first: a bad one is found before the config is read.
        if (vm.count("seed")) seed = integer_option(vm, "seed", {0, UINT64_MAX});
        trace.columns = unsigned(integer_option(vm, "columns", kColumns));
        trace.perfetto_limit = integer_option(vm, "trace-limit", kTraceLimit);
        if (vm.count("out")) out = path_option(vm, "out");
        if (vm.count("stats")) stats = path_option(vm, "stats");
        if (vm.count("fio-json")) fio = path_option(vm, "fio-json");
        if (vm.count("percentile-list")) {
            if (fio.empty()) throw BadInput("--percentile-list: it sets --fio-json's percentiles; give --fio-json FILE too");
            try {
                percentiles = parse_percentile_list(vm["percentile-list"].as<std::string>());
            } catch (const std::invalid_argument& e) {
                throw BadInput(e.what());
            }
        }
        if (vm.count("trace-vcd")) trace.vcd_path = path_option(vm, "trace-vcd");
        if (vm.count("trace-perfetto")) trace.perfetto_path = path_option(vm, "trace-perfetto");
        // An option that shapes an output nobody asked for would be ignored silently.
        if (!vm["columns"].defaulted() && !vm.count("timeline"))
            throw BadInput("--columns: it sets the width of --timeline; give --timeline too");
        if (!vm["trace-limit"].defaulted() && !vm.count("trace-perfetto"))
            throw BadInput("--trace-limit: it caps --trace-perfetto's events; give "
                           "--trace-perfetto FILE too");
        if (vm.count("window-ns") && !vm.count("timeline") && !vm.count("trace-vcd") &&
            !vm.count("trace-perfetto"))
            throw BadInput("--window-ns: it sets the window of --timeline, --trace-vcd and "
                           "--trace-perfetto; give one of them too");
        if (vm.count("window-ns") && vm["window-ns"].as<std::string>().empty())
            throw BadInput("--window-ns: expected A:B in ns (A or B may be empty), found an "
                           "empty string");
        // --stepwise sets run.run_ahead, --seed run.seed: a --set stating it
        // (itself, or a run section holding it) would be overridden.
        if (vm.count("set")) {
            const auto& sets = vm["set"].as<std::vector<std::string>>();
            for (const std::string& s : sets) {
                if (const std::string why = set_changes_no_run(s); !why.empty())
                    throw BadInput("--set " + s + ": " + why);
                if (vm.count("stepwise") && set_states(s, {"run", "run_ahead"}))
                    throw BadInput("--set " + s + ": --stepwise sets run.run_ahead to false "
                                   "after every --set; give run.run_ahead in one of them");
                if (vm.count("seed") && set_states(s, {"run", "seed"}))
                    throw BadInput("--set " + s + ": --seed sets run.seed after every --set; "
                                   "give run.seed in one of them");
            }
            if (const std::string twice = set_given_twice(sets); !twice.empty())
                throw BadInput(twice);
        }
    } catch (const BadInput& e) {
        std::cerr << "cidsim run: " << e.what() << "\n";
        return kExitBadInput;
    }
    SimConfig config;
    try {
        const nlohmann::json file = read_config_file(path);
        nlohmann::json j = file;
        if (vm.count("set"))
            for (const std::string& s : vm["set"].as<std::vector<std::string>>())
                apply_override(j, s);
        if (vm.count("seed")) {
            if (!j.is_object()) throw ConfigError(path + ": config: expected an object");
            j["run"]["seed"] = seed;
        }
        if (vm.count("stepwise")) {
            if (!j.is_object()) throw ConfigError(path + ": config: expected an object");
            j["run"]["run_ahead"] = false;
        }
        try {
            config = load_config(j, path);
        } catch (const ConfigError& e) {
            if (!vm.count("set")) throw;
            rethrow_against_sets(e, file, path, vm["set"].as<std::vector<std::string>>());
        }
    } catch (const ConfigError& e) {
        std::cerr << "cidsim run: " << e.what() << "\n";
        return kExitBadInput;
    }
    // The config and its includes have been read: an output naming one of
    // them, or another output, is refused before the run.
    try {
        // These record the x86 host's interrupt path and jobs alone: beside a
        // POWER partition they would show its idle host as the whole run.
        if (config.power_machine)
            for (const char* flag : {"trace-vcd", "trace-perfetto", "fio-json"})
                if (vm.count(flag))
                    throw BadInput(std::string("--") + flag + ": it records the x86 host's " +
                                   "MSIs and jobs; " + path + " runs a POWER partition " +
                                   "(power), whose IPIs --timeline draws and --interrupts counts");
        // Likewise a Xen domain's vCPUs and event_lock live outside the host's tracks.
        if (config.xen_guest)
            for (const char* flag : {"trace-vcd", "trace-perfetto"})
                if (vm.count(flag))
                    throw BadInput(std::string("--") + flag + ": it records the x86 host's " +
                                   "CPUs and MSIs; " + path + " runs a Xen domain (xen), whose " +
                                   "vCPUs and event_lock --timeline draws and --interrupts counts");
        // fio's figures are an NVMe job's: without one the file would hold no job.
        if (vm.count("fio-json") &&
            std::none_of(config.workloads.begin(), config.workloads.end(),
                         [](const WorkloadConfig& w) { return w.type == "nvme"; }))
            throw BadInput("--fio-json: it writes the NVMe workloads' figures as fio does; " +
                           path + " has no workload of type \"nvme\"");
        if (vm.count("out")) claim_output("--out", out);
        if (vm.count("stats")) claim_output("--stats", stats);
        if (vm.count("trace-vcd")) claim_output("--trace-vcd", trace.vcd_path);
        if (vm.count("trace-perfetto")) claim_output("--trace-perfetto", trace.perfetto_path);
        if (vm.count("fio-json")) claim_output("--fio-json", fio);
    } catch (const BadInput& e) {
        std::cerr << "cidsim run: " << e.what() << "\n";
        return kExitBadInput;
    }
    trace.timeline = vm.count("timeline");
    if (vm.count("window-ns")) trace.window = vm["window-ns"].as<std::string>();
    trace.interrupts = vm.count("interrupts");

    try {
        System system(config);
        TraceSession session(trace, system);
        ProgressLine progress;  // on a terminal only
        HistogramMap histograms;
        const nlohmann::json results =
            run_and_collect(system, &progress, fio.empty() ? nullptr : &histograms);
        const InvariantReport invariants = check_invariants(system);
        if (!invariants.ok()) {
            // A run that broke the model's own rules has no trustworthy
            // result: no file is written.
            for (const std::string& f : invariants.failures())
                std::cerr << "cidsim run: " << path << ": " << f << "\n";
            return kExitFailure;
        }
        OutputBatch files;
        if (!out.empty()) files.add(out, results.dump(2) + "\n");
        if (!stats.empty()) files.add(stats, stats_text(results, path));
        if (!fio.empty()) files.add(fio, fio_json(results, histograms, percentiles).dump(2) + "\n");
        std::ostringstream printed;
        if (!vm.count("quiet")) printed << summary_text(results);
        session.finish(printed, files);
        files.write(printed.str());
    } catch (const std::invalid_argument& e) {
        std::cerr << "cidsim run: " << path << ": " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "cidsim run: failed: " << failure_text(e) << "\n";
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace cidsim
