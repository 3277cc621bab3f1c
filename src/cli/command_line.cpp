#include "cli/command_line.h"

#include <iostream>

#include "cli/commands.h"

namespace cidsim {

namespace po = boost::program_options;

int parse_command_line(const std::string& command, int argc, char** argv,
                       const po::options_description& visible, const char* positional,
                       po::variables_map& vm, const po::options_description* hidden) {
    po::options_description all;
    all.add(visible);
    po::options_description arg;
    po::positional_options_description pos;
    if (positional) {
        arg.add_options()(positional, po::value<std::string>());
        all.add(arg);
        pos.add(positional, 1);
    }
    if (hidden) all.add(*hidden);
    try {
        po::command_line_parser parser(argc, argv);
        parser.options(all);
        parser.positional(pos);  // empty: a stray word is an error, not ignored
        po::store(parser.run(), vm);
        po::notify(vm);
    } catch (const po::too_many_positional_options_error&) {
        // Boost does not say which word was one too many; the user needs it.
        std::string extra;
        try {
            po::options_description with_rest;
            with_rest.add(all);
            with_rest.add_options()("cidsim-extra", po::value<std::vector<std::string>>());
            po::positional_options_description rest = pos;
            rest.add("cidsim-extra", -1);
            po::variables_map again;
            po::store(po::command_line_parser(argc, argv).options(with_rest).positional(rest).run(),
                      again);
            if (again.count("cidsim-extra"))
                for (const std::string& w : again["cidsim-extra"].as<std::vector<std::string>>())
                    extra += " '" + w + "'";
        } catch (const po::error&) {
        }
        std::cerr << "cidsim " << command << ": unexpected argument(s):" << extra
                  << (positional ? std::string(" (only one ") + positional + " is taken)"
                                 : std::string(" (this command takes none)"))
                  << "\n" << visible;
        return kExitBadInput;
    } catch (const po::error& e) {
        std::cerr << "cidsim " << command << ": " << e.what() << "\n" << visible;
        return kExitBadInput;
    }
    if (vm.count("help")) {
        std::cout << visible;
        return kExitOk;
    }
    return -1;
}

}  // namespace cidsim
