// cidsim reproduce TABLE|all [--format text|json|csv] [--out FILE]: runs the
// published experiments (configs/rfc/tables.json), one process per row, and
// prints simulated figures next to the published ones. A row whose figures'
// 95% half-width exceeds --precision is rerun with twice the simulated time.
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "config/config_loader.h"
#include "report/results.h"
#include "report/tables.h"
#include "sweep/local_pool.h"

namespace cidsim {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string default_tables() {
    if (fs::exists("configs/rfc/tables.json")) return "configs/rfc/tables.json";
    return std::string(CIDSIM_SOURCE_DIR) + "/configs/rfc/tables.json";
}

double config_duration_ns(const TableRow& row) {
    json j = read_config_file(row.config);
    for (const std::string& s : row.overrides) apply_override(j, s);
    return ns_of(load_config(j).run.duration);
}

struct Pending {
    size_t table, row;
    double duration_ns;
    std::string out;
};

}  // namespace

int cmd_reproduce(int argc, char** argv) {
    po::options_description opts("cidsim reproduce TABLE|all [options]");
    opts.add_options()("help,h", "this help")
        ("format", po::value<std::string>()->default_value("text"), "text | json | csv")
        ("out,o", po::value<std::string>(), "write the output here instead of stdout")
        ("tables", po::value<std::string>()->default_value(default_tables()), "table definitions")
        ("jobs,j", po::value<unsigned>()->default_value(available_cpus()), "parallel runs")
        ("precision", po::value<double>()->default_value(0.01),
         "largest relative 95% half-width accepted before a row is rerun longer")
        ("max-doublings", po::value<unsigned>()->default_value(8),
         "most times a row's simulated time is doubled to reach --precision")
        ("keep", po::value<std::string>(), "keep every run's result JSON in this directory");
    po::variables_map vm;
    if (const int status = parse_command_line("reproduce", argc, argv, opts, "table", vm); status >= 0)
        return status;
    const std::string format = vm["format"].as<std::string>();
    if (format != "text" && format != "json" && format != "csv") {
        std::cerr << "cidsim reproduce: --format must be text, json or csv\n";
        return kExitBadInput;
    }

    std::vector<Table> tables;
    try {
        tables = load_tables(vm["tables"].as<std::string>());
    } catch (const ConfigError& e) {
        std::cerr << "cidsim reproduce: " << e.what() << "\n";
        return kExitBadInput;
    }
    const std::string which = vm.count("table") ? vm["table"].as<std::string>() : "";
    std::vector<Table> chosen;
    for (const Table& t : tables)
        if (which == "all" || t.name == which) chosen.push_back(t);
    if (chosen.empty()) {
        std::cerr << "cidsim reproduce: choose a table:";
        for (const Table& t : tables) std::cerr << " " << t.name;
        std::cerr << " all\n";
        return kExitBadInput;
    }
    const std::string out = vm.count("out") ? vm["out"].as<std::string>() : "";
    try {
        if (!out.empty()) check_writable(out);
    } catch (const std::exception& e) {
        std::cerr << "cidsim reproduce: --out " << e.what() << "\n";
        return kExitBadInput;
    }

    std::string dir;
    if (vm.count("keep")) {
        dir = vm["keep"].as<std::string>();
        fs::create_directories(dir);
    } else {
        char tmpl[] = "/tmp/cidsim-reproduce.XXXXXX";
        if (!::mkdtemp(tmpl)) {
            std::cerr << "cidsim reproduce: cannot make a temporary directory\n";
            return kExitFailure;
        }
        dir = tmpl;
    }

    std::vector<std::vector<json>> results(chosen.size());
    std::vector<Pending> pending;
    try {
        for (size_t t = 0; t < chosen.size(); ++t) {
            results[t].resize(chosen[t].rows.size());
            for (size_t r = 0; r < chosen[t].rows.size(); ++r)
                pending.push_back({t, r, config_duration_ns(chosen[t].rows[r]), ""});
        }
    } catch (const ConfigError& e) {
        std::cerr << "cidsim reproduce: " << e.what() << "\n";
        return kExitBadInput;
    }

    const double precision = vm["precision"].as<double>();
    int status = kExitOk;
    for (unsigned round = 0; !pending.empty(); ++round) {
        std::vector<PoolJob> jobs;
        for (Pending& p : pending) {
            const TableRow& row = chosen[p.table].rows[p.row];
            p.out = dir + "/" + chosen[p.table].name + "-" + std::to_string(p.row) + ".json";
            PoolJob job;
            job.argv = {"/proc/self/exe", "run", row.config};
            for (const std::string& s : row.overrides) job.argv.insert(job.argv.end(), {"--set", s});
            job.argv.insert(job.argv.end(),
                            {"--set", "run.duration_ns=" + std::to_string(p.duration_ns),
                             "--out", p.out, "-q"});
            job.stderr_path = p.out + ".stderr";
            jobs.push_back(job);
        }
        std::vector<PoolOutcome> outcomes(jobs.size());
        run_pool(jobs, vm["jobs"].as<unsigned>(),
                 [&](size_t i, const PoolOutcome& o) { outcomes[i] = o; }, [] {});

        std::vector<Pending> again;
        for (size_t i = 0; i < pending.size(); ++i) {
            const Pending& p = pending[i];
            const Table& t = chosen[p.table];
            if (!outcomes[i].ok()) {
                std::ifstream err(jobs[i].stderr_path);
                std::cerr << "cidsim reproduce: " << t.name << " row " << p.row << " failed:\n"
                          << err.rdbuf() << "\n";
                status = kExitFailure;
                continue;
            }
            results[p.table][p.row] = read_json_file(p.out);
            bool precise = true;
            for (const std::string& m : t.metrics) {
                const Figure f = measure(m, results[p.table][p.row]);
                if (f.ci95 > precision * std::fabs(f.mean)) precise = false;
            }
            if (!precise && round < vm["max-doublings"].as<unsigned>())
                again.push_back({p.table, p.row, p.duration_ns * 2, ""});
            else if (!precise)
                std::cerr << "cidsim reproduce: " << t.name << " row " << p.row
                          << ": 95% half-width still above " << precision * 100 << "%\n";
        }
        pending = again;
    }
    if (status != kExitOk) return status;

    json tables_out = json::array();
    std::string text;
    for (size_t t = 0; t < chosen.size(); ++t) {
        json tj = table_json(chosen[t], results[t]);
        text += table_text(chosen[t], tj) + "\n";
        tables_out.push_back(tj);
    }
    std::string output = format == "text" ? text
                         : format == "csv" ? table_csv(tables_out)
                         : (chosen.size() == 1 && which != "all" ? tables_out[0] : tables_out)
                                   .dump(2) + "\n";
    if (!vm.count("keep")) fs::remove_all(dir);
    if (out.empty())
        std::cout << output;
    else
        write_file_atomically(out, output);
    return kExitOk;
}

}  // namespace cidsim
