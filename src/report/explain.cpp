#include "report/explain.h"
#include "io/data_files.h"
#include "report/machines/vm_tracks.h"
#include "report/machines/power_explain.h"
#include "report/machines/xen_explain.h"

#include "config/platforms.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <memory>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config_loader.h"
#include "config/json_text.h"
#include "config/printable.h"
#include "report/explain_section.h"
#include "report/results.h"
#include "report/trace_recorder.h"
#include "sim/affinity_move.h"
#include "sim/invariants.h"
#include "sim/system.h"

namespace cidsim {

using nlohmann::json;

namespace {

// Whether one path names the other's value or a value inside it.
bool overlap(const std::string& a, const std::string& b) {
    const auto x = key_segments(a), y = key_segments(b);
    return std::equal(x.begin(), x.begin() + std::min(x.size(), y.size()), y.begin());
}

bool is_file(const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Where the built-in scenarios live: $CIDSIM_EXPLAIN_DIR, then the shipped
// files' places (io/data_files.h).
std::vector<std::string> scenario_dirs() {
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("CIDSIM_EXPLAIN_DIR"); env && *env) dirs.push_back(env);
    for (const std::string& d : data_candidates("configs/explain")) dirs.push_back(d);
    return dirs;
}

const json& explain_section(const json& doc) {
    static const json empty = json::object();
    auto it = doc.find("explain");
    return it == doc.end() ? empty : *it;
}

// A variant's run config (the document with the variant's "set" applied,
// its explain section removed) and that section, moved into `explain`.
json variant_config(const ExplainScenario& s, size_t index, json& explain) {
    const ExplainVariant& var = s.variants.at(index);
    json doc = s.document;
    for (auto it = var.set.begin(); it != var.set.end(); ++it) try {
            apply_override(doc, it.key() + "=" + it.value().dump());
        } catch (const ConfigError& e) {
            // apply_override speaks of --set; here the key is the scenario's.
            std::string why = e.what();
            if (const size_t colon = why.find(": "); why.rfind("--set ", 0) == 0 &&
                                                      colon != std::string::npos)
                why = why.substr(colon + 2);
            throw ConfigError("explain.variants[" + std::to_string(index) + "].set.\"" + it.key() +
                              "\": " + why);
        }
    explain = explain_section(doc);
    doc.erase("explain");
    return doc;
}

std::string pad(const std::string& s, size_t n) {
    return s.size() >= n ? s : s + std::string(n - s.size(), ' ');
}

}  // namespace

std::string find_scenario(const std::string& name) {
    struct stat st;
    if (name.empty()) throw ConfigError("an empty scenario name (cidsim explain --list)");
    // A bare name is a built-in scenario's first: a file of that name in the
    // folder run in never replaces it (./NAME reads the file).
    const bool json_name = name.size() > 5 && name.substr(name.size() - 5) == ".json";
    // Whatever is there takes the name (a FIFO or directory is then refused
    // as such), never passed over for the next folder's.
    if (!json_name && name.find('/') == std::string::npos)
        for (const std::string& d : scenario_dirs())
            if (::lstat((d + "/" + name + ".json").c_str(), &st) == 0)
                return d + "/" + name + ".json";
    // A path that exists but is no regular file (a directory, a FIFO), or a
    // name that can only be a file, is left to read_json_file, whose
    // message says what it is.
    if (is_file(name) || ::lstat(name.c_str(), &st) == 0 || json_name ||
        name.find('/') != std::string::npos)
        return name;
    throw ConfigError(name + ": no such scenario file or built-in scenario (cidsim explain --list)");
}

std::vector<std::pair<std::string, std::string>> list_scenarios() {
    // Every name find_scenario finds: a folder's own, then the next one's it lacks.
    std::vector<std::pair<std::string, std::string>> out;
    std::set<std::string> seen;
    for (const std::string& d : scenario_dirs()) {
        DIR* dir = ::opendir(d.c_str());
        if (!dir) continue;
        std::unique_ptr<DIR, int (*)(DIR*)> closer(dir, ::closedir);
        while (dirent* e = ::readdir(dir)) {
            const std::string f = e->d_name;
            // As find_scenario takes them (whatever is there: what is no file
            // lists as unreadable), named as it can be printed.
            if (f.size() < 6 || f.substr(f.size() - 5) != ".json" || has_control_character(f) ||
                !seen.insert(f.substr(0, f.size() - 5)).second)
                continue;
            std::string title;
            try {
                title = load_scenario(d + "/" + f).title;
            } catch (const std::exception& ex) {
                title = std::string("(unreadable: ") + ex.what() + ")";
            }
            out.emplace_back(f.substr(0, f.size() - 5), title);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

namespace {

// Every variant's config and explain settings must load: bad input is found
// before anything runs.
void check_variants(const ExplainScenario& s) {
    const auto check = [](const json& run, const json& ex) {
        const SimConfig config = load_config(run);
        check_view_in_run(explain_view(ex), config);
        if (ex.contains("affinity_move")) check_affinity_refs(affinity_params(ex["affinity_move"]), config);
        if (ex.contains("retrigger")) check_retrigger_refs(retrigger_params(ex["retrigger"]), config);
    };
    for (size_t i = 0; i < s.variants.size(); ++i) {
        json ex;
        const json run = variant_config(s, i, ex);
        try {
            check(run, ex);
        } catch (const ConfigError& e) {
            // What the variant set (or broke the check of) is the variant's
            // error; the scenario's own are told as they are.
            if (s.variants[i].set.empty()) throw;
            json base = s.document;
            base.erase("explain");
            try {
                check(base, explain_section(s.document));
            } catch (const ConfigError&) {
                throw e;
            }
            throw ConfigError("explain.variants[" + std::to_string(i) + "].set (variant \"" +
                              s.variants[i].label + "\"): " + e.what());
        }
    }
}

void parse_scenario(ExplainScenario& s);

ExplainScenario load_scenario_unnamed(const std::string& path) {
    ExplainScenario s;
    s.path = path;
    const size_t slash = path.rfind('/');
    s.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    if (s.name.size() > 5 && s.name.substr(s.name.size() - 5) == ".json")
        s.name = s.name.substr(0, s.name.size() - 5);
    s.document = read_config_file(path);  // include, comment: as `cidsim run` reads a config
    parse_scenario(s);
    return s;
}

// The title, comment and variants of s.document, checked with every variant.
void parse_scenario(ExplainScenario& s) {
    if (!s.document.is_object()) throw ConfigError(s.path + ": expected a JSON object");
    s.variants.clear();
    const json& ex = explain_section(s.document);
    check_keys(ex, "explain", {"title", "variants", "window_ns", "columns", "narration_lines",
                               "narration_window_ns", "affinity_move", "retrigger"});
    // Free text, but text: value() would throw the library's own error on a
    // number, naming neither the file nor the key.
    const auto text = [&](const json& obj, const char* key, const std::string& at,
                          const std::string& fallback) {
        auto it = obj.find(key);
        if (it == obj.end()) return fallback;
        if (!it->is_string())
            throw ConfigError(at + key + ": expected a string, found " +
                              json_type_name(*it));
        return it->get<std::string>();
    };
    s.title = text(ex, "title", "explain.", s.name);
    s.comment = text(s.document, "comment", "", "");
    // Each is printed as it is: the name and title on one line, the
    // comment as the lines and tabs it holds.
    std::string comment_text = s.comment;
    for (char& c : comment_text)
        if (c == '\n' || c == '\t') c = ' ';
    // Written into --out's JSON, which holds UTF-8 only.
    if (!valid_utf8(s.name))
        throw ConfigError("the scenario's file name: a byte that is not UTF-8 in a name explain "
                          "prints and writes; rename the file");
    for (const auto& [what, value] : {std::make_pair("the scenario's file name", &s.name),
                                      std::make_pair("explain.title", &s.title),
                                      std::make_pair("comment", &comment_text)})
        if (has_control_character(*value))
            throw ConfigError(std::string(what) + ": " + show_json(json(*value)) +
                              ": a control character in text explain prints; expected "
                              "printable characters only");
    if (auto v = ex.find("variants"); v != ex.end()) {
        if (!v->is_array() || v->empty())
            throw ConfigError("explain.variants: expected a non-empty array");
        for (size_t i = 0; i < v->size(); ++i) {
            const std::string at = "explain.variants[" + std::to_string(i) + "]";
            check_keys((*v)[i], at, {"label", "set"});
            ExplainVariant var;
            var.label = text((*v)[i], "label", at + ".", "variant " + std::to_string(i));
            // A label heads the variant's rows and names its runs: one printed line, its own.
            if (var.label.empty() || has_control_character(var.label) ||
                var.label.size() > kMaxNameLength)
                throw ConfigError(at + ".label: expected 1 to " + std::to_string(kMaxNameLength) +
                                  " printable characters, found " + show_json(var.label));
            for (const ExplainVariant& before : s.variants)
                if (before.label == var.label)
                    throw ConfigError(at + ".label: \"" + var.label + "\" labels an earlier "
                                      "variant too; each variant needs its own");
            if ((*v)[i].contains("set")) {
                var.set = (*v)[i]["set"];
                if (!var.set.is_object()) throw ConfigError(at + ".set: expected an object of key.path: value");
                // A variant sets what its run is, the affinity move and the
                // retriggers among it; how all are drawn is the scenario's.
                for (auto a = var.set.begin(); a != var.set.end(); ++a) {
                    const std::vector<std::string> keys = key_segments(a.key());
                    if (keys.empty() || keys[0] != "explain") continue;
                    if (keys.size() < 3 || (keys[1] != "affinity_move" && keys[1] != "retrigger"))
                        throw ConfigError(at + ".set.\"" + a.key() + "\": a variant sets its "
                                          "run's config and the keys of explain.affinity_move "
                                          "and explain.retrigger; the rest of the explain "
                                          "section (title, window, columns, narration) is the "
                                          "scenario's, one for every variant");
                }
                // Two paths naming one value would be applied in key order,
                // the later one silently replacing (and unchecked) the other.
                for (auto a = var.set.begin(); a != var.set.end(); ++a)
                    for (auto b = std::next(a); b != var.set.end(); ++b) {
                        if (overlap(a.key(), b.key()))
                            throw ConfigError(at + ".set: \"" + a.key() + "\" and \"" + b.key() +
                                              "\" name one value; set it once");
                    }
            }
            s.variants.push_back(var);
        }
    } else {
        s.variants.push_back({text(s.document, "mode", "", "posted"), json::object()});
    }
    check_variants(s);
}

}  // namespace

// Every message names the scenario file (read_json_file's already do).
ExplainScenario load_scenario(const std::string& path) {
    try {
        return load_scenario_unnamed(path);
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        if (what.rfind(path + ":", 0) == 0) throw;
        throw ConfigError(path + ": " + what);
    }
}

void apply_sets(ExplainScenario& s, const std::vector<std::string>& sets) {
    const ExplainScenario read = s;
    for (const std::string& set : sets) apply_override(s.document, set);
    try {
        parse_scenario(s);  // the explain section too: --set explain.variants=5 is bad input
    } catch (const ConfigError& e) {
        // As run names it (rethrow_against_sets): the final scenario's error,
        // told against the --set after which it never read again, if that
        // one broke the key the error names, else the --set that gave it.
        const auto error_with = [&](size_t n) -> std::optional<std::string> {
            ExplainScenario attempt = read;
            for (size_t i = 0; i < n; ++i) apply_override(attempt.document, sets[i]);
            try {
                parse_scenario(attempt);
                return std::nullopt;
            } catch (const ConfigError& f) {
                return std::string(f.what());
            }
        };
        const std::string what = e.what(), prefix = s.path + ": ";
        if (sets.empty() || error_with(0)) throw;
        const SetBlame blame = blame_set(what, sets.size(), prefix, error_with);
        if (!blame.broke_its_key) {
            const std::string told =
                against_sets(prefix + without_prefix(what, prefix), s.path, sets);
            if (told.rfind("--set ", 0) == 0) throw ConfigError(s.path + " with " + told);
        }
        throw ConfigError(s.path + " with --set " + sets[blame.set] + ": " + what);
    }
    // A value every variant sets over the scenario's is never run.
    for (const std::string& set : sets) {
        const std::string path = set.substr(0, set.find('='));
        std::string by;
        for (const ExplainVariant& v : s.variants) {
            by.clear();
            for (auto it = v.set.begin(); by.empty() && it != v.set.end(); ++it)
                if (overlap(path, it.key())) by = it.key();
            if (by.empty()) break;
        }
        if (!by.empty())
            throw ConfigError(s.path + " with --set: --set " + set + ": every variant sets " + by +
                              " over it, so it would change nothing (explain.variants[].set)");
    }
}

namespace {

// The whole run's results but what states its inputs: equal for two variants
// only when their runs did the same, every metric alike, not just what
// explain shows.
std::string run_digest(json results) {
    results.erase("config");
    results.erase("cidsim_version");
    return fnv1a_hex(results.dump());
}

}  // namespace

json run_variant(const ExplainScenario& s, size_t index) {
    const ExplainVariant& var = s.variants.at(index);
    json ex;
    const SimConfig config = load_config(variant_config(s, index, ex));
    const ExplainView view = explain_view(ex);

    System system(config);
    TraceRecorder recorder;
    system.attach_observer(&recorder);
    std::unique_ptr<AffinityMove> move;
    AffinityMoveParams move_params;
    if (ex.contains("affinity_move")) {
        move_params = affinity_params(ex["affinity_move"]);
        move = std::make_unique<AffinityMove>("affinity_move", move_params, system, &recorder);
    }
    std::unique_ptr<Retrigger> retrigger;
    if (ex.contains("retrigger"))
        retrigger = std::make_unique<Retrigger>("retrigger", retrigger_params(ex["retrigger"]), system);
    std::vector<std::vector<VmStep>> vm_steps(system.vcpu_count()), vm_states(system.vcpu_count());
    for (unsigned i = 0; i < system.vcpu_count(); ++i) {
        system.vmx_cpu(i).record_steps_into(&vm_steps[i]);
        system.vmx_cpu(i).record_states_into(&vm_states[i]);
    }
    std::unique_ptr<XenExplainLogs> xen;
    if (system.xen_vcpu_count()) xen = std::make_unique<XenExplainLogs>(system);
    std::unique_ptr<PowerExplainLogs> power;
    if (system.power()) power = std::make_unique<PowerExplainLogs>(system);
    system.run();
    for (unsigned i = 0; i < system.vcpu_count(); ++i) {
        system.vmx_cpu(i).record_steps_into(nullptr);
        system.vmx_cpu(i).record_states_into(nullptr);
    }
    if (xen) xen->detach();
    if (power) power->detach();
    // A run that broke the model's own rules explains nothing: as `cidsim
    // run`, it fails (a deliberately racy variant's findings are reported, not enforced).
    if (const InvariantReport invariants = check_invariants(system); !invariants.ok()) {
        std::string why;
        for (const std::string& f : invariants.failures()) why += (why.empty() ? "" : "; ") + f;
        throw std::runtime_error(s.path + ": variant " + std::to_string(index) + " (" + var.label +
                                 "): " + why);
    }
    const json results = collect_results(system);
    const TraceContext ctx = TraceContext::of(system);

    TimelineWindow w{config.run.warmup, ctx.end, view.columns};
    if (view.window) w.from = ns(view.window->first), w.to = ns(view.window->second);
    TimelineWindow told = w;  // what the narration covers
    if (view.narration_window)
        told.from = ns(view.narration_window->first), told.to = ns(view.narration_window->second);
    const size_t lines = view.narration_lines;

    json rows = json::array();
    // A POWER partition's rows replace the (idle) x86 host's.
    for (const TimelineRow& r : power ? std::vector<TimelineRow>{}
                                      : timeline_rows(recorder.events(), ctx, w, var.label)) {
        if ((system.vcpu_count() || xen) && blank_host_row(r)) continue;
        rows.push_back({{"label", r.label}, {"cells", r.cells}, {"note", r.note}});
    }
    for (unsigned i = 0; i < system.vcpu_count(); ++i) {
        const TimelineRow r =
            vm_timeline_row(vm_states[i], vm_steps[i], w, var.label + " vcpu" + std::to_string(i));
        rows.push_back({{"label", r.label}, {"cells", r.cells}, {"note", r.note}, {"vm", true}});
    }
    const json& m = results["metrics"];
    uint64_t superfluous = 0;
    for (const json& d : results["per_device"]) superfluous += d["empty_handler_invocations"].get<uint64_t>();
    uint64_t unhandled = 0;
    for (unsigned c = 0; c < system.host().cpu_count(); ++c)
        unhandled += system.host().cpu(c).stats().unhandled_vector_calls;
    json counts = {
        {"msis", m["msis"]},
        {"notifications", m["remapped_messages"].get<uint64_t>() + m["notifications_sent"].get<uint64_t>()},
        {"notifications_suppressed", m["notifications_suppressed"]},
        {"handler_invocations", m["handler_invocations"]},
        {"superfluous_interrupts", superfluous},
        {"harvest_passes_mean", m["harvest_passes_per_notification"]["mean"]},
        {"stranded_interrupts", m["stranded_interrupts"]},
        {"stranded_at_end", m["stranded_at_end"]},
        {"unhandled_vector_calls", unhandled},
        {"completions_handled", m["completions_handled"]},
        {"lost_completions", m["lost_completions"]},
        {"in_flight_completions_at_end", m["in_flight_completions_at_end"]},
        {"timer_delay_max_ns", m["timer_delay_ns"]["max"]},
        {"msi_to_handler_max_ns", m["msi_to_handler_ns"]["max"]},
    };
    json out = {{"label", var.label},
                {"mode", results["config"].value("mode", json())},  // none on POWER
                {"window_ns", {ns_of(w.from), ns_of(w.to)}},
                {"columns", w.columns},
                {"rows", rows},
                {"narration", narrate(recorder.events(), ctx, told, lines, w.from)},
                {"counts", counts},
                // What the variant ran on: its effective config (platform, --set).
                {"config", results["config"]},
                {"run_digest", run_digest(results)}};
    if (system.vcpu_count()) {
        // The vCPUs' pCPUs, step by step (their own log: the host-side
        // trace above covers the device, the remapping unit and host CPUs).
        json vm_lines = json::array();
        const size_t lines_max = lines;
        for (unsigned i = 0; i < system.vcpu_count(); ++i)
            for (const VmStep& st : vm_steps[i]) {
                if (st.at < told.from || st.at > told.to) continue;
                if (vm_lines.size() >= lines_max) break;
                char t[48];
                std::snprintf(t, sizeof t, "%10s ns  ", format_ns(st.at).c_str());
                vm_lines.push_back(t + ("vcpu" + std::to_string(i)) + "  " + st.what);
            }
        out["vm_narration"] = vm_lines;
        const json& v = results["per_vcpu"][0];
        out["vm_counts"] = {{"ext_int_exits", v["exits"]["EXTERNAL_INTERRUPT"]},
                            {"hlt_exits", v["exits"]["HLT"]},
                            {"eoi_exits", v["exits"]["APIC_WRITE"].get<uint64_t>() +
                                              v["exits"]["MSR_WRITE"].get<uint64_t>()},
                            {"posted_in_guest", v["posted_in_guest"]},
                            {"piw", v["piw"]},
                            {"context_switches", v["context_switches"]},
                            {"exit_handling_mean_ns", v["exit_handling_ns"]["mean"]},
                            {"msi_to_guest_max_ns", v["msi_to_guest_ns"]["max"]},
                            {"host_cpu_ns_per_interrupt", v["host_cpu_ns_per_interrupt"]}};
    }
    if (xen) {
        const json x = xen->explain(w, told, lines, var.label);
        for (const json& r : x["rows"]) out["rows"].push_back(r);
        out["xen_narration"] = x["narration"];
        out["xen_counts"] = x["counts"];
    }
    if (power) {
        const json p = power->explain(w, told, lines, var.label);
        for (const json& r : p["rows"]) out["rows"].push_back(r);
        out["power_narration"] = p["narration"];
        const json& storm = results["ipistorm"];
        out["power_counts"] = {{"mint_per_s", storm["mint_per_s"]},
                               {"ipis", storm["ipis"]},
                               {"timer_interrupts", storm["timer_interrupts"]},
                               {"polled", storm["polled"]},
                               {"desc_line_stores", storm["desc_line_stores"]},
                               {"desc_line_transfers_per_ipi", storm["desc_line_transfers_per_ipi"]},
                               {"desc_line_cross_chip_share", storm["desc_line_cross_chip_share"]},
                               {"spin_us_per_iteration", storm["spin_us_per_iteration"]}};
    }
    if (move) {
        const AffinityMoveOutcome& o = move->outcome();
        out["affinity_move"] = {{"moved", o.moved},
                                {"from_cpu", o.from_cpu},
                                {"from_vector", o.from_vector},
                                {"to_cpu", o.to_cpu},
                                {"to_vector", o.to_vector},
                                {"cleanup_checks", o.cleanup_checks},
                                {"found_pending_in_pir", o.found_pending_in_pir},
                                {"check_pir", move_params.check_pir},
                                {"freed", o.freed},
                                {"freed_at_ns", ns_of(o.freed_at)}};
    }
    if (retrigger) {
        const RetriggerOutcome o = retrigger->outcome();
        out["retrigger"] = {
            {"cpu", o.cpu},
            {"vector", o.vector},
            {"sent", o.sent},
            {"without_eoi", system.host().cpu(o.cpu).stats().retriggers_without_eoi},
            {"stale_isr_at_end", o.stale_isr_at_end},
            {"pending_at_end", o.pending_at_end}};
    }
    system.attach_observer(nullptr);
    return out;
}

namespace {

// What a variant's run did, without what names it or echoes its inputs.
json outcome(const json& result) {
    json o = result;
    for (const char* input : {"label", "config", "mode"}) o.erase(input);
    if (o.contains("affinity_move")) o["affinity_move"].erase("check_pir");
    for (json& row : o["rows"]) row.erase("label");
    return o;
}

// Variants that ran alike are told as such: what sets them apart (a handler
// under VT-d posting, say) changed nothing in this run, which side-by-side
// rows alone would leave the reader to guess.
std::string same_outcome_note(const std::vector<json>& results) {
    std::string out;
    std::vector<bool> told(results.size(), false);
    for (size_t i = 0; i < results.size(); ++i) {
        if (told[i]) continue;
        const json first = outcome(results[i]);
        std::vector<std::string> alike{results[i]["label"].get<std::string>()};
        for (size_t j = i + 1; j < results.size(); ++j)
            if (!told[j] && outcome(results[j]) == first) {
                told[j] = true;
                alike.push_back(results[j]["label"].get<std::string>());
            }
        if (alike.size() < 2) continue;
        std::string names;
        for (size_t k = 0; k < alike.size(); ++k)
            names += (k == 0 ? "" : k + 1 == alike.size() ? " and " : ", ") + alike[k];
        out += "\nnote: " + names + " ran identically: what sets them apart has no effect in "
               "this run\n";
    }
    return out;
}

}  // namespace

std::string render_explain(const ExplainScenario& s, const std::vector<json>& results) {
    std::string out = "== " + s.name + ": " + s.title + " ==\n";
    if (!s.comment.empty()) out += s.comment + "\n";
    if (results.empty()) return out;
    // The platform every variant ran on (a variant may set its own).
    std::vector<std::string> platforms;
    for (const json& r : results) {
        const std::string p = r.contains("config") ? r["config"].value("platform", std::string(kGenericPlatform))
                                                   : std::string(kGenericPlatform);
        if (std::find(platforms.begin(), platforms.end(), p) == platforms.end()) platforms.push_back(p);
    }
    out += "platform:";
    for (size_t i = 0; i < platforms.size(); ++i)
        out += (i ? "; " : " ") + platform_summary(platforms[i]);
    out += "\n";

    // One timeline: the MSI row once (again per variant only if it differs).
    TimelineWindow w{ns(results[0]["window_ns"][0].get<double>()),
                     ns(results[0]["window_ns"][1].get<double>()),
                     results[0]["columns"].get<unsigned>()};
    std::vector<TimelineRow> rows;
    const json no_row = {{"cells", ""}};
    const json& first_msis = results[0]["rows"].empty() ? no_row : results[0]["rows"][0];
    bool vm_rows = false, xen_rows = false, power_rows = false;
    for (size_t i = 0; i < results.size(); ++i)
        for (const json& r : results[i]["rows"]) {
            vm_rows = vm_rows || r.value("vm", false);
            xen_rows = xen_rows || r.value("xen", false);
            power_rows = power_rows || r.value("power", false);
            const bool msi_row = r["label"] == "MSIs";
            if (msi_row && i > 0 && r["cells"] == first_msis["cells"]) continue;
            std::string label = r["label"].get<std::string>();
            if (msi_row && i > 0) label += " (" + results[i]["label"].get<std::string>() + ")";
            rows.push_back({label, r["cells"].get<std::string>(), r["note"].get<std::string>()});
        }
    out += "\n" + render_timeline(rows, w);
    if (vm_rows) out += std::string(kVmTimelineLegend) + "\n";
    if (xen_rows) out += std::string(kXenTimelineLegend) + "\n";
    if (power_rows) out += std::string(kPowerTimelineLegend) + "\n";

    for (const json& r : results) {
        if (!r.contains("power_narration"))  // an ipistorm partition's x86 host is idle
            out += "\n-- " + r["label"].get<std::string>() + " (" + r["mode"].get<std::string>() +
                   " mode): step by step --\n";
        for (const json& line : r["narration"]) out += line.get<std::string>() + "\n";
        if (r.contains("vm_narration")) {
            out += "-- " + r["label"].get<std::string>() + ": the vCPU's pCPU --\n";
            for (const json& line : r["vm_narration"]) out += line.get<std::string>() + "\n";
        }
        if (r.contains("xen_narration")) {
            out += "-- " + r["label"].get<std::string>() +
                   ": the vCPUs' pCPUs under Xen, and event_lock --\n";
            for (const json& line : r["xen_narration"]) out += line.get<std::string>() + "\n";
        }
        if (r.contains("power_narration")) {
            out += "\n-- " + r["label"].get<std::string>() + ": the CPUs' IPIs and the descriptor's line --\n";
            for (const json& line : r["power_narration"]) out += line.get<std::string>() + "\n";
        }
        if (r.contains("affinity_move")) {
            const json& a = r["affinity_move"];
            char buf[512];
            std::snprintf(buf, sizeof buf,
                          "affinity move: CPU%u vector %s -> CPU%u vector %s; a cleanup check "
                          "saw the old vector's bit in CPU%u's PIR: %s (is_vector_pending "
                          "checks PIR: %s); cleanup checks %u; old vector %s\n",
                          a["from_cpu"].get<unsigned>(), hex_vector(a["from_vector"].get<unsigned>()).c_str(),
                          a["to_cpu"].get<unsigned>(), hex_vector(a["to_vector"].get<unsigned>()).c_str(),
                          a["from_cpu"].get<unsigned>(), a["found_pending_in_pir"].get<bool>() ? "yes" : "no",
                          a["check_pir"].get<bool>() ? "yes" : "no",
                          a["cleanup_checks"].get<unsigned>(),
                          a["freed"].get<bool>()
                              ? ("freed at " + format_ns(ns(a["freed_at_ns"].get<double>())) + " ns").c_str()
                              : "not freed");
            out += buf;
        }
    }

    for (const json& r : results)
        if (r.contains("retrigger")) {
            const json& t = r["retrigger"];
            char buf[320];
            std::snprintf(buf, sizeof buf,
                          "%s: %u retrigger IPI(s) of vector %s to CPU%u, %llu acked without an "
                          "EOI; at the end its ISR bit is %s and its IRR bit %s\n",
                          r["label"].get<std::string>().c_str(), t["sent"].get<unsigned>(),
                          hex_vector(t["vector"].get<unsigned>()).c_str(), t["cpu"].get<unsigned>(),
                          (unsigned long long)t["without_eoi"].get<uint64_t>(),
                          t["stale_isr_at_end"].get<bool>() ? "still set (stale)" : "clear",
                          t["pending_at_end"].get<bool>() ? "set: a retrigger never delivered"
                                                          : "clear");
            out += buf;
        }

    struct Count {
        const char* key;
        const char* label;
    };
    static const Count kCounts[] = {
        {"msis", "MSIs"},
        {"notifications", "interrupt messages (remapped + notifications)"},
        {"notifications_suppressed", "notifications suppressed (ON set)"},
        {"handler_invocations", "device handler calls"},
        {"superfluous_interrupts", "handler calls that found nothing (N')"},
        {"harvest_passes_mean", "harvest passes per notification (mean)"},
        {"stranded_interrupts", "stranded interrupts"},
        {"unhandled_vector_calls", "set vectors with no handler"},
        {"completions_handled", "completions handled"},
        {"lost_completions", "lost completions"},
        {"in_flight_completions_at_end", "completions still waiting at the end"},
        {"timer_delay_max_ns", "local timer delay, max (ns)"},
        {"msi_to_handler_max_ns", "MSI -> handler latency, max (ns)"},
    };
    std::string head = "\ncounts" + std::string(42, ' ');
    for (const json& r : results) head += pad(r["label"].get<std::string>(), 18);
    while (head.back() == ' ') head.pop_back();
    out += head + "\n";
    // One line per count, a column per variant; a variant without the
    // section (a Xen row beside a host-only variant) shows 0.
    const auto count_rows = [&](const char* section, const auto& counts, const char* float_format) {
        for (const Count& c : counts) {
            std::string line = pad(std::string("  ") + c.label, 48);
            for (const json& r : results) {
                const json& v = r.contains(section) ? r[section][c.key] : json(0);
                char buf[32];
                if (v.is_null())  // undefined (a ratio of nothing)
                    std::snprintf(buf, sizeof buf, "n/a");
                else if (v.is_number_float())
                    std::snprintf(buf, sizeof buf, float_format, v.get<double>());
                else
                    std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)v.get<uint64_t>());
                line += pad(buf, 18);
            }
            while (!line.empty() && line.back() == ' ') line.pop_back();
            out += line + "\n";
        }
    };
    // An ipistorm partition has no device traffic: its own counts replace the host's.
    if (results[0].contains("power_counts")) {
        static const Count kPowerCounts[] = {
            {"mint_per_s", "interrupts, vmstat (M/s)"},
            {"ipis", "IPI interrupts"},
            {"timer_interrupts", "timer interrupts"},
            {"polled", "calls to a polling CPU (no IPI)"},
            {"desc_line_stores", "irq_count++ stores"},
            {"desc_line_transfers_per_ipi", "descriptor line transfers per IPI"},
            {"desc_line_cross_chip_share", "... share across chips"},
            {"spin_us_per_iteration", "csd_lock_wait per iteration (us)"},
        };
        count_rows("power_counts", kPowerCounts, "%.3f");
    } else {
        count_rows("counts", kCounts, "%.2f");
    }
    if (results[0].contains("vm_counts")) {
        static const Count kVmCounts[] = {
            {"ext_int_exits", "EXTERNAL_INTERRUPT exits"},
            {"hlt_exits", "HLT exits"},
            {"eoi_exits", "EOI exits (APIC_WRITE, MSR_WRITE)"},
            {"posted_in_guest", "0xF2 processed in guest mode (no exit)"},
            {"piw", "0xF1 wake-ups (PIW)"},
            {"context_switches", "host context switches"},
            {"exit_handling_mean_ns", "kvm_exit -> kvm_entry, mean (ns)"},
            {"msi_to_guest_max_ns", "MSI -> guest handler, max (ns)"},
            {"host_cpu_ns_per_interrupt", "host CPU per MSI (ns)"},
        };
        count_rows("vm_counts", kVmCounts, "%.0f");
        // The vCPU's first load and entry are root time before any MSI.
        const bool startup_in = std::any_of(results.begin(), results.end(), [](const json& r) {
            const json& c = r["config"];
            return c["run"]["warmup_ns"].get<double>() <
                   c["vm"]["vcpu_load_ns"].get<double>() + c["vm"]["vmentry_hw_ns"].get<double>();
        });
        if (startup_in)
            out += "  (host CPU per MSI has the vCPU's first load and entry in it: the warm-up "
                   "ends before them)\n";
    }
    if (results[0].contains("xen_counts")) {
        static const Count kXenCounts[] = {
            {"lock_deliveries", "event_lock taken to deliver"},
            {"lock_eois", "event_lock taken for an EOI"},
            {"eois_past_lock", "EOIs past the lock (bitmap)"},
            {"handoffs", "event_lock hand-offs"},
            {"cross_socket_handoffs", "... across sockets"},
            {"lock_wait_mean_ns", "event_lock wait, mean (ns)"},
            {"lock_hold_mean_ns", "event_lock hold, mean (ns)"},
        };
        count_rows("xen_counts", kXenCounts, "%.0f");
    }
    out += same_outcome_note(results);
    return out;
}

}  // namespace cidsim
