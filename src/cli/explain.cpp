// cidsim explain [SCENARIO | FILE.json] [--out RESULT.json] | --list
// Runs each of the scenario's variants in a child process (SystemC
// elaborates once per process: the child is this binary re-executed with the
// hidden --variant option, printing its result as JSON), then prints them
// side by side.
#include <iostream>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/numeric_option.h"
#include "config/config_loader.h"
#include "config/json_text.h"
#include "io/child_process.h"
#include "io/output_file.h"
#include "report/explain.h"
#include "report/progress.h"
#include "report/results.h"

namespace cidsim {

namespace po = boost::program_options;

int cmd_explain(int argc, char** argv) {
    po::options_description opts("cidsim explain [SCENARIO | FILE.json] [options]");
    opts.add_options()("help,h", "this help")("list", "list the built-in scenarios")
        ("out,o", po::value<std::string>(), "also write every variant's result as JSON here")
        ("set", po::value<std::vector<std::string>>()->composing(),
         "override a config value of every variant: key.path=value (repeatable)");
    po::options_description hidden;
    hidden.add_options()("variant", po::value<std::string>());  // a child running one variant
    po::variables_map vm;
    if (const int status = parse_command_line("explain", argc, argv, opts, "scenario", vm, &hidden);
        status >= 0) {
        if (vm.count("help"))
            std::cout << "A scenario is a run config plus an optional \"explain\" section "
                         "(see configs/explain/).\n";
        return status;
    }
    if (vm.count("list")) {
        // --list only prints the names: anything else given with it would be
        // silently ignored, so it is refused by name.
        std::string extra;
        if (vm.count("scenario")) extra = "the scenario '" + vm["scenario"].as<std::string>() + "'";
        else if (vm.count("set"))
            extra = "--set " + vm["set"].as<std::vector<std::string>>().front();
        else if (vm.count("out")) extra = "--out " + vm["out"].as<std::string>();
        else if (vm.count("variant")) extra = "--variant";
        if (!extra.empty()) {
            std::cerr << "cidsim explain: --list takes nothing else, found " << extra
                      << ": drop it, or drop --list to explain a scenario\n";
            return kExitBadInput;
        }
        for (const auto& [name, title] : list_scenarios())
            std::cout << "  " << name << std::string(name.size() < 20 ? 20 - name.size() : 1, ' ')
                      << title << "\n";
        return kExitOk;
    }
    // The child run of one variant prints its result JSON and writes nothing.
    if (vm.count("variant") && vm.count("out")) {
        std::cerr << "cidsim explain: --variant (one variant's run, printed as JSON) writes no "
                     "--out: drop one of them\n";
        return kExitBadInput;
    }
    const std::string name = vm.count("scenario") ? vm["scenario"].as<std::string>() : "burst";
    ExplainScenario scenario;
    try {
        scenario = load_scenario(find_scenario(name));
        if (vm.count("set")) {
            if (const std::string twice = set_given_twice(vm["set"].as<std::vector<std::string>>());
                !twice.empty())
                throw BadInput(twice);
            // The explain section is this command's; provenance no run reads.
            for (const std::string& set : vm["set"].as<std::vector<std::string>>())
                if (const std::vector<std::string> keys =
                        error_key_segments(set.substr(0, set.find('=')));
                    !keys.empty() && keys.front() == "provenance")
                    throw BadInput("--set " + set + ": " + read_by_no_run(keys));
            apply_sets(scenario, vm["set"].as<std::vector<std::string>>());
        }
    } catch (const BadInput& e) {
        std::cerr << "cidsim explain: " << e.what() << "\n";
        return kExitBadInput;
    }

    if (vm.count("variant")) {  // child: one variant, result as JSON on stdout
        // What only the built system can check (an action on a queue the host
        // does not handle) is the scenario's fault too: its messages name the
        // scenario file.
        // A value a --set gave is that --set's, as the loader's errors are.
        const auto named = [&](const std::string& what) {
            const std::string full =
                what.rfind(scenario.path + ":", 0) == 0 ? what : scenario.path + ": " + what;
            if (!vm.count("set")) return full;
            const std::string told =
                against_sets(full, scenario.path, vm["set"].as<std::vector<std::string>>());
            return told == full ? full : scenario.path + " with " + told;
        };
        uint64_t v = 0;
        try {
            v = integer_option(vm, "variant", {0, scenario.variants.size() - 1});
        } catch (const BadInput& e) {
            std::cerr << "cidsim explain: " << e.what() << "\n";
            return kExitBadInput;
        }
        try {
            std::cout << run_variant(scenario, size_t(v)).dump() << "\n";
        } catch (const BadInput& e) {
            std::cerr << "cidsim explain: " << named(e.what()) << "\n";
            return kExitBadInput;
        } catch (const std::invalid_argument& e) {
            std::cerr << "cidsim explain: " << named(e.what()) << "\n";
            return kExitBadInput;
        } catch (const std::exception& e) {
            std::cerr << "cidsim explain: failed: " << failure_text(e) << "\n";
            return kExitFailure;
        }
        return kExitOk;
    }

    std::string out;
    try {
        if (vm.count("out")) {
            out = path_option(vm, "out");
            claim_output("--out", out);
        }
    } catch (const BadInput& e) {
        std::cerr << "cidsim explain: " << e.what() << "\n";
        return kExitBadInput;
    }
    try {
        std::vector<nlohmann::json> results;
        ProgressLine progress;  // on a terminal only
        for (size_t i = 0; i < scenario.variants.size(); ++i) {
            progress.show("cidsim explain: variant " + std::to_string(i + 1) + "/" +
                              std::to_string(scenario.variants.size()) + " (" +
                              scenario.variants[i].label + "), " +
                              std::to_string(int(progress.elapsed())) + " s",
                          true);
            std::vector<std::string> args{"cidsim", "explain", path_argument(scenario.path), "--variant",
                                          std::to_string(i)};
            if (vm.count("set"))
                for (const std::string& set : vm["set"].as<std::vector<std::string>>())
                    args.insert(args.end(), {"--set", set});
            // The variant's own messages reach stderr; a signal leaves none.
            const ChildRun child = run_self(args);
            if (child.signal) {
                progress.clear();
                std::cerr << "cidsim explain: variant " << i << " (" << scenario.variants[i].label
                          << ") failed (" << child.outcome() << ")\n";
                return kExitFailure;
            }
            if (child.exit_code != kExitOk) return child.exit_code;
            results.push_back(nlohmann::json::parse(child.out));
        }
        progress.clear();
        OutputBatch files;
        if (!out.empty())
            files.add(out, nlohmann::json{{"scenario", scenario.name},
                                          {"title", scenario.title},
                                          {"variants", results}}
                                   .dump(2) + "\n");
        files.write(render_explain(scenario, results));
    } catch (const std::exception& e) {
        std::cerr << "cidsim explain: failed: " << failure_text(e) << "\n";
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace cidsim
