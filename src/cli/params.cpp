// cidsim params [BLOCK] [--format text|json]: every parameter of every block,
// from the same descriptions the config loader validates against.
#include <cstdio>
#include <iostream>

#include <boost/program_options.hpp>

#include "cli/commands.h"
#include "config/config_loader.h"

namespace cidsim {

namespace po = boost::program_options;

int cmd_params(int argc, char** argv) {
    po::options_description opts("cidsim params [BLOCK] [options]");
    opts.add_options()("help,h", "this help")(
        "format", po::value<std::string>()->default_value("text"), "text | json");
    po::options_description hidden;
    hidden.add_options()("block", po::value<std::string>());
    po::positional_options_description pos;
    pos.add("block", 1);
    po::options_description all;
    all.add(opts).add(hidden);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "cidsim params: " << e.what() << "\n";
        return kExitBadInput;
    }
    if (vm.count("help")) {
        std::cout << opts;
        return kExitOk;
    }
    nlohmann::json params = describe_parameters();
    if (vm.count("block")) {
        const std::string block = vm["block"].as<std::string>();
        if (!params.contains(block)) {
            std::cerr << "cidsim params: no block '" << block << "'; blocks:";
            for (auto it = params.begin(); it != params.end(); ++it) std::cerr << " " << it.key();
            std::cerr << "\n";
            return kExitBadInput;
        }
        params = nlohmann::json{{block, params[block]}};
    }
    const std::string format = vm["format"].as<std::string>();
    if (format == "json") {
        std::cout << params.dump(2) << "\n";
        return kExitOk;
    }
    if (format != "text") {
        std::cerr << "cidsim params: --format must be text or json\n";
        return kExitBadInput;
    }
    for (auto block = params.begin(); block != params.end(); ++block) {
        std::cout << block.key() << "\n";
        for (const auto& p : block.value()) {
            std::string range;
            if (!p["min"].is_null()) range = "[" + p["min"].dump() + ", " + p["max"].dump() + "]";
            if (p.contains("allowed")) range = p["allowed"].dump();
            std::printf("  %-24s %-8s %-10s default %-10s %s\n    %s\n",
                        p["key"].get<std::string>().c_str(), p["type"].get<std::string>().c_str(),
                        p["unit"].get<std::string>().c_str(), p["default"].dump().c_str(),
                        range.c_str(), p["description"].get<std::string>().c_str());
        }
    }
    return kExitOk;
}

}  // namespace cidsim
