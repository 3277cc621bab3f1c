// cidsim params [BLOCK] [--format text|json|markdown]: every parameter of
// every block, from the same descriptions the config loader validates
// against. docs/parameters.md is the markdown output (a test checks it).
// With --metrics: every metric of a result file instead, from the same
// descriptions the result writer walks (docs/metrics.md).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "config/config_loader.h"
#include "config/platforms.h"
#include "config/provenance.h"
#include "report/metric_table.h"

namespace cidsim {

namespace po = boost::program_options;

namespace {

std::string cell(std::string s) {
    for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.insert(i, "\\");
    return s;
}

// "[min, max]", the allowed choices, or "" when the parameter has neither.
std::string range_text(const nlohmann::json& p) {
    if (p.contains("allowed")) return p["allowed"].dump();
    if (!p["min"].is_null()) return "[" + p["min"].dump() + ", " + p["max"].dump() + "]";
    return "";
}

// The block and parameter a provenance entry is about: a platform key is
// "block.param"; a device profile's is "profile.device.param" (devices[]) or
// "profile.workload.param" (the workload type whose block has every key of
// the profile's workload).
std::pair<std::string, std::string> parameter_of(const Provenance& e, const nlohmann::json& params,
                                                 const nlohmann::json& profiles) {
    const size_t dot = e.key.find('.');
    if (profiles.is_null()) return {e.key.substr(0, dot), e.key.substr(dot + 1)};
    const std::string profile = e.key.substr(0, dot);
    const size_t dot2 = e.key.find('.', dot + 1);
    const std::string part = e.key.substr(dot + 1, dot2 - dot - 1), key = e.key.substr(dot2 + 1);
    if (part == "device") return {"devices[]", key};
    for (auto block = params.begin(); block != params.end(); ++block) {
        if (block.key().rfind("workloads[]", 0) != 0) continue;
        bool all = true;
        for (auto it = profiles[profile]["workload"].begin(); it != profiles[profile]["workload"].end(); ++it) {
            bool found = false;
            for (const auto& p : block.value()) found = found || p["key"] == it.key();
            all = all && found;
        }
        if (all) return {block.key(), key};
    }
    return {"", key};
}

// A whole number as the files write it (80, not 80.0).
nlohmann::json as_written(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return int64_t(v);
    return v;
}

// Each parameter a platform or device file sets gets "set_by": the file's
// value with its kind, range and source (config/provenance.h).
void attach_provenance(nlohmann::json& params) {
    std::vector<std::pair<std::vector<Provenance>, nlohmann::json>> files;
    for (const std::string& name : platform_names())
        files.push_back({platform_provenance(name), nullptr});
    const std::string devices = default_devices_file();
    if (std::filesystem::exists(devices))
        files.push_back({devices_provenance(devices), read_json_file(devices)});
    for (const auto& [entries, profiles] : files)
        for (const Provenance& e : entries) {
            const auto [block, key] = parameter_of(e, params, profiles);
            nlohmann::json* param = nullptr;
            if (params.contains(block))
                for (auto& p : params[block])
                    if (p["key"] == key) param = &p;
            if (!param)
                throw BadInput(e.file + ": provenance." + e.key + ": names no parameter of cidsim");
            nlohmann::json s{{"file", e.file}, {"key", e.key}, {"value", e.value}, {"kind", e.kind},
                             {"source", e.source}};
            if (e.has_range) s["range"] = {as_written(e.low), as_written(e.high)};
            if (!e.note.empty()) s["note"] = e.note;
            (*param)["set_by"].push_back(s);
        }
}

std::string short_file(const std::string& f) {
    const size_t slash = f.rfind('/');
    return slash == std::string::npos ? f : f.substr(slash + 1);
}

// "spr.json: 150 (guess, range [80, 400])", and the profile for a device file.
std::string set_by_text(const nlohmann::json& s) {
    const std::string key = s["key"];
    const size_t dot = key.find('.');
    std::string who = short_file(s["file"]);
    if (who == "devices.json") who += " " + key.substr(0, dot);
    std::string t = who + ": " + s["value"].dump() + " (" + s["kind"].get<std::string>();
    if (s.contains("range"))
        t += ", range [" + s["range"][0].dump() + ", " + s["range"][1].dump() + "]";
    return t + ")";
}

// The default column is what a config gets when it sets nothing itself.
const char* const kDefaultsNote =
    "A default is what a config that sets nothing gets: the value of the default\n"
    "platform, spr (calibrated, configs/platform/spr.json), where it sets one, the\n"
    "Params default otherwise; [generic: X] is the value on the generic platform\n"
    "(\"platform\": \"generic\", the uncalibrated Params defaults) where it differs.\n";

void print_markdown(const nlohmann::json& params) {
    std::cout << "# cidsim parameters\n\n"
                 "Generated by `cidsim params --format markdown` from the parameter\n"
                 "descriptions the config loader validates against; do not edit by hand.\n"
                 "Regenerate with `build/cidsim params --format markdown > docs/parameters.md`\n"
                 "(the test `params_doc_in_sync` fails when this file drifts).\n"
                 "Durations are in nanoseconds; ranges are inclusive.\n"
                 "Where a platform file (configs/platform/*.json) or a device profile\n"
                 "(configs/rfc/devices.json) sets a parameter, the block's second table gives\n"
                 "that value with its kind, plausible range and source (the file's provenance).\n"
              << kDefaultsNote;
    for (auto block = params.begin(); block != params.end(); ++block) {
        std::cout << "\n## " << block.key() << "\n\n"
                  << "| key | type | unit | default | range | description |\n"
                  << "|---|---|---|---|---|---|\n";
        for (const auto& p : block.value()) {
            const std::string range = range_text(p);
            std::cout << "| `" << cell(p["key"].get<std::string>()) << "` | "
                      << p["type"].get<std::string>() << " | " << p["unit"].get<std::string>()
                      << " | " << (p["default"].is_null() ? "" : cell(p["default"].dump()))
                      << " | " << cell(range) << " | "
                      << cell(p["description"].get<std::string>()) << " |\n";
        }
        bool any = false;
        for (const auto& p : block.value())
            for (const auto& s : p.value("set_by", nlohmann::json::array())) {
                if (!any)
                    std::cout << "\nValues the platform and device files set (kind: fitted, measured, "
                                 "assumed, guess or setup; range: the plausible one):\n\n"
                              << "| key | set by | source |\n|---|---|---|\n";
                any = true;
                std::string src = s["source"];
                if (s.contains("note")) src += " Note: " + s["note"].get<std::string>();
                std::cout << "| `" << cell(p["key"].get<std::string>()) << "` | "
                          << cell(set_by_text(s)) << " | " << cell(src) << " |\n";
            }
    }
}

void print_metrics_markdown(const nlohmann::ordered_json& metrics) {
    std::cout << "# cidsim metrics\n\n"
                 "Generated by `cidsim params --metrics --format markdown` from the statistics'\n"
                 "own descriptions, which the result writer walks, and the report layer's table\n"
                 "of what it computes from them; do not edit by hand. Regenerate with\n"
                 "`build/cidsim params --metrics --format markdown > docs/metrics.md`\n"
                 "(the test `metrics_doc_in_sync` fails when this file drifts).\n"
                 "A key with dots nests (`iec.hits` is `metrics.iec.hits`); a histogram is an\n"
                 "object `{unit, count, mean, p50, p90, p99, p99_9, p99_99, max}` in its unit. The source is the\n"
                 "Stats struct a value comes from, or `report` for what the result writer\n"
                 "computes (rates, fractions, identities).\n";
    for (auto section = metrics.begin(); section != metrics.end(); ++section) {
        std::cout << "\n## " << section.key() << "\n\n"
                  << "| key | type | unit | source | description |\n"
                  << "|---|---|---|---|---|\n";
        for (const auto& m : section.value())
            std::cout << "| `" << cell(m["key"].get<std::string>()) << "` | "
                      << m["type"].get<std::string>() << " | " << m["unit"].get<std::string>()
                      << " | " << m["source"].get<std::string>() << " | "
                      << cell(m["description"].get<std::string>()) << " |\n";
    }
}

int print_metrics(const po::variables_map& vm) {
    nlohmann::ordered_json metrics = describe_metrics();
    if (vm.count("block")) {
        const std::string section = vm["block"].as<std::string>();
        if (!metrics.contains(section)) {
            std::cerr << "cidsim params --metrics: no section '" << section << "'; sections:";
            for (auto it = metrics.begin(); it != metrics.end(); ++it)
                std::cerr << " '" << it.key() << "'";
            std::cerr << "\n";
            return kExitBadInput;
        }
        metrics = nlohmann::ordered_json{{section, metrics[section]}};
    }
    const std::string format = vm["format"].as<std::string>();
    if (format == "json") {
        std::cout << metrics.dump(2) << "\n";
        return kExitOk;
    }
    if (format == "markdown") {
        print_metrics_markdown(metrics);
        return kExitOk;
    }
    if (format != "text") {
        std::cerr << "cidsim params: --format must be text, json or markdown\n";
        return kExitBadInput;
    }
    for (auto section = metrics.begin(); section != metrics.end(); ++section) {
        std::cout << section.key() << "\n";
        for (const auto& m : section.value())
            std::printf("  %-36s %-12s %-14s %s\n    %s\n", m["key"].get<std::string>().c_str(),
                        m["type"].get<std::string>().c_str(),
                        m["unit"].get<std::string>().c_str(),
                        m["source"].get<std::string>().c_str(),
                        m["description"].get<std::string>().c_str());
    }
    return kExitOk;
}

}  // namespace

int cmd_params(int argc, char** argv) {
    po::options_description opts("cidsim params [BLOCK] [options]");
    opts.add_options()("help,h", "this help")(
        "format", po::value<std::string>()->default_value("text"), "text | json | markdown")(
        "metrics", "list every metric of a result file instead (BLOCK: one section)");
    po::variables_map vm;
    if (const int status = parse_command_line("params", argc, argv, opts, "block", vm); status >= 0)
        return status;
    if (vm.count("metrics")) return print_metrics(vm);
    nlohmann::json params = describe_parameters();
    try {
        attach_provenance(params);
    } catch (const BadInput& e) {
        std::cerr << "cidsim params: " << e.what() << "\n";
        return kExitBadInput;
    }
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
    if (format == "markdown") {
        print_markdown(params);
        return kExitOk;
    }
    if (format != "text") {
        std::cerr << "cidsim params: --format must be text, json or markdown\n";
        return kExitBadInput;
    }
    if (!vm.count("block")) std::cout << kDefaultsNote << "\n";
    for (auto block = params.begin(); block != params.end(); ++block) {
        std::cout << block.key() << "\n";
        for (const auto& p : block.value()) {
            const std::string range = range_text(p);
            std::printf("  %-24s %-8s %-10s default %-10s %s\n    %s\n",
                        p["key"].get<std::string>().c_str(), p["type"].get<std::string>().c_str(),
                        p["unit"].get<std::string>().c_str(),
                        p["default"].is_null() ? "-" : p["default"].dump().c_str(),
                        range.c_str(), p["description"].get<std::string>().c_str());
            for (const auto& s : p.value("set_by", nlohmann::json::array())) {
                std::printf("    %s\n      source: %s\n", set_by_text(s).c_str(),
                            s["source"].get<std::string>().c_str());
                if (s.contains("note"))
                    std::printf("      note: %s\n", s["note"].get<std::string>().c_str());
            }
        }
    }
    return kExitOk;
}

}  // namespace cidsim
