// cidsim collect DIR [--csv FILE] [--json FILE] [--aggregate-seeds] [--metric PATH ...]
#include <iostream>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "report/renamed_metrics.h"
#include "cli/numeric_option.h"
#include "config/config_loader.h"
#include "io/output_file.h"
#include "report/results.h"
#include "sweep/collect.h"
#include "sweep/sweep_dir.h"

namespace cidsim {

namespace po = boost::program_options;

int cmd_collect(int argc, char** argv) {
    po::options_description opts("cidsim collect DIR [options]");
    opts.add_options()("help,h", "this help")
        ("csv", po::value<std::string>(), "write the table as CSV here (default: CSV to stdout)")
        ("json", po::value<std::string>(), "write the table as JSON (an array of rows) here")
        ("aggregate-seeds", "one row per combination: each metric's mean and 95% interval over seeds")
        ("metric,m", po::value<std::vector<std::string>>()->composing(),
         "result path to tabulate instead of the spec's metrics (repeatable), "
         "e.g. metrics.msi_to_handler_ns.p99");
    po::variables_map vm;
    if (const int status = parse_command_line("collect", argc, argv, opts, "dir", vm); status >= 0)
        return status;
    if (!vm.count("dir")) {
        std::cerr << "cidsim collect: a sweep directory is required\n" << opts;
        return kExitBadInput;
    }

    if (vm.count("metric"))
        for (const std::string& m : vm["metric"].as<std::vector<std::string>>())
            if (const std::string note = renamed_note(m); !note.empty())
                std::cerr << "cidsim collect: --metric " << note << "\n";
    SweepTable table;
    try {
        // Outputs are claimed once every input (manifest, results) is read.
        std::string csv, json;
        if (vm.count("csv")) csv = path_option(vm, "csv");
        if (vm.count("json")) json = path_option(vm, "json");
        table = collect_sweep(path_option(vm, "dir"),
                              vm.count("metric") ? vm["metric"].as<std::vector<std::string>>()
                                                 : std::vector<std::string>{},
                              vm.count("aggregate-seeds") > 0);
        for (const auto& [option, path] : {std::pair<const char*, const std::string&>{"csv", csv},
                                           {"json", json}}) {
            if (!vm.count(option)) continue;
            claim_output(std::string("--") + option, path);
            if (is_sweep_file(path_option(vm, "dir"), path))
                throw BadInput(std::string("--") + option + " " + path + ": one of the sweep's "
                               "own files (its lock, manifest, base, points or logs)");
        }
    } catch (const BadInput& e) {
        std::cerr << "cidsim collect: " << e.what() << "\n";
        return kExitBadInput;
    }
    try {
        OutputBatch outputs;  // both placed, or neither
        if (vm.count("csv")) outputs.add(vm["csv"].as<std::string>(), table_csv(table));
        if (vm.count("json"))
            outputs.add(vm["json"].as<std::string>(), table_json(table).dump(2) + "\n");
        outputs.write();
        if (!vm.count("csv") && !vm.count("json")) std::cout << table_csv(table);
    } catch (const std::exception& e) {
        std::cerr << "cidsim collect: " << e.what() << "\n";
        return kExitFailure;
    }
    for (const std::string& note : table.notes) std::cerr << "cidsim collect: " << note << "\n";
    if (!table.missing.empty()) {
        std::cerr << "cidsim collect: " << table.missing.size() << " point(s) have no result yet:";
        for (size_t i = 0; i < table.missing.size() && i < 10; ++i) std::cerr << " " << table.missing[i];
        std::cerr << (table.missing.size() > 10 ? " ...\n" : "\n");
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace cidsim
