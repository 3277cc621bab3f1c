#include "report/tables.h"
#include "report/csv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include "config/config_loader.h"
#include "config/printable.h"
#include "report/columns.h"
#include "report/confidence.h"

namespace cidsim {

using nlohmann::json;

namespace {

// A figure of a result, NaN where the run could not define it (null).
double number(const json& v) {
    return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

// The sum of `field` over a window's workloads of `type`, and their number.
std::pair<double, unsigned> sum_workloads(const json& window, const char* type, const char* field) {
    double s = 0;
    unsigned n = 0;
    for (const json& w : window["workloads"])
        if (w.value("type", "") == type) {
            s += number(w[field]);
            ++n;
        }
    return {s, n};
}

// How many workloads of `type` a result has (none when it lists none).
unsigned count_workloads(const json& result, const char* type) {
    unsigned n = 0;
    if (const auto it = result.find("workloads"); it != result.end() && it->is_array())
        for (const json& w : *it) n += w.is_object() && w.value("type", "") == type;
    return n;
}

double mean_workloads(const json& window, const char* type, const char* field) {
    const auto [s, n] = sum_workloads(window, type, field);
    return n ? s / n : 0.0;
}

double metric(const json& w, const char* name) { return number(w["metrics"][name]); }

// A VM result's first vCPU (an empty object in a host-only result).
const json& vcpu0(const json& w) {
    static const json none = {{"exit_handling_ns", {{"mean", 0.0}, {"count", 0}}},
                              {"exits_per_s", {{"EXTERNAL_INTERRUPT", 0.0}}},
                              {"external_interrupt_exits_per_s",
                               {{"device", 0.0}, {"host_tick", 0.0}, {"guest_timer", 0.0}}},
                              {"msi_to_guest_ns", {{"p50", 0.0}, {"p99", 0.0}, {"count", 0}}},
                              {"context_switches_per_s", 0.0},
                              {"host_cpu_ns_per_interrupt", 0.0}};
    return w.contains("per_vcpu") && !w["per_vcpu"].empty() ? w["per_vcpu"][0] : none;
}

// A Xen result's domain figures (zeros in any other result).
const json& xen(const json& w) {
    static const json none = {{"eois_per_s", 0.0},
                              {"ios", 0},
                              {"host_cpu_us_per_io", 0.0},
                              {"event_lock",
                               {{"acquisitions_per_s", 0.0},
                                {"held_fraction", 0.0},
                                {"wait_ns", {{"mean", 0.0}, {"count", 0}}}}}};
    return w.contains("xen") ? w["xen"] : none;
}

// An ipistorm result's figures (zeros in any other result).
double ipistorm(const json& w, const char* name) {
    return w.contains("ipistorm") ? number(w["ipistorm"][name]) : 0.0;
}

// Every metric a table may ask for, and how one window gives its value.
using MetricFn = double (*)(const json& window);
const std::vector<std::pair<std::string, MetricFn>>& table_metrics() {
    static const std::vector<std::pair<std::string, MetricFn>> metrics = {
        {"iops_per_disk_M", [](const json& w) { return mean_workloads(w, "nvme", "iops_m"); }},
        {"iops_M", [](const json& w) { return sum_workloads(w, "nvme", "iops_m").first; }},
        // One interrupt per completion: the device MSI rate.
        {"irq_rate_M", [](const json& w) { return metric(w, "msi_rate_mps"); }},
        // Handler invocations, the per-vector count of /proc/interrupts.
        {"device_irq_rate_M", [](const json& w) { return metric(w, "handler_invocation_rate_mps"); }},
        {"bandwidth_mbps", [](const json& w) { return sum_workloads(w, "dsa", "fill_mbit_per_s").first; }},
        {"pid_misses_per_notification",
         [](const json& w) {
             return number(w["metrics"]["pid_line"]["cpu_misses_per_notification"]);
         }},
        {"throughput_M", [](const json& w) { return metric(w, "completion_rate_mps"); }},
        {"latency_p50_ns",
         [](const json& w) { return number(w["metrics"]["msi_to_handler_ns"]["p50"]); }},
        {"latency_p99_ns",
         [](const json& w) { return number(w["metrics"]["msi_to_handler_ns"]["p99"]); }},
        // Experiment E3 (systems.md B, E): the first vCPU's figures.
        {"exit_handling_us",
         [](const json& w) { return number(vcpu0(w)["exit_handling_ns"]["mean"]) / 1e3; }},
        // perf kvm stat's EXTERNAL_INTERRUPT row: the share of its exits the
        // local timers raised (the rest are the device's).
        {"timer_exit_share",
         [](const json& w) {
             const json& e = vcpu0(w)["external_interrupt_exits_per_s"];
             const double all = number(vcpu0(w)["exits_per_s"]["EXTERNAL_INTERRUPT"]);
             const double timers = number(e["host_tick"]) + number(e["guest_timer"]);
             return all > 0 ? timers / all : 0.0;
         }},
        {"device_exits_per_s",
         [](const json& w) {
             return number(vcpu0(w)["external_interrupt_exits_per_s"]["device"]);
         }},
        {"ext_int_exits_per_s",
         [](const json& w) {
             return number(vcpu0(w)["exits_per_s"]["EXTERNAL_INTERRUPT"]);
         }},
        {"msi_to_guest_us_p50",
         [](const json& w) { return number(vcpu0(w)["msi_to_guest_ns"]["p50"]) / 1e3; }},
        {"msi_to_guest_us_p99",
         [](const json& w) { return number(vcpu0(w)["msi_to_guest_ns"]["p99"]) / 1e3; }},
        {"context_switches_per_s",
         [](const json& w) { return number(vcpu0(w)["context_switches_per_s"]); }},
        {"host_cpu_us_per_interrupt",
         [](const json& w) { return number(vcpu0(w)["host_cpu_ns_per_interrupt"]) / 1e3; }},
        // Experiment E1 (systems.md C, E): the domain's figures.
        {"eois_per_s", [](const json& w) { return number(xen(w)["eois_per_s"]); }},
        {"lock_acquisitions_per_s",
         [](const json& w) { return number(xen(w)["event_lock"]["acquisitions_per_s"]); }},
        {"lock_wait_us_mean",
         [](const json& w) { return number(xen(w)["event_lock"]["wait_ns"]["mean"]) / 1e3; }},
        // How busy event_lock is: the share of time an owner holds it, and how
        // many pCPUs on average spin for it (Little's law: arrivals x wait),
        // the hand-offs' line traffic being what the hold leaves out.
        {"lock_held_fraction",
         [](const json& w) { return number(xen(w)["event_lock"]["held_fraction"]); }},
        {"lock_spinning_pcpus",
         [](const json& w) {
             // No acquisition, no one spins (the wait of none is undefined).
             const json& l = xen(w)["event_lock"];
             const double rate = number(l["acquisitions_per_s"]);
             return rate > 0 ? rate * number(l["wait_ns"]["mean"]) * 1e-9 : 0.0;
         }},
        {"host_cpu_us_per_io",
         [](const json& w) { return number(xen(w)["host_cpu_us_per_io"]); }},
        // Experiment E2 (systems.md D, E): vmstat's interrupt rate.
        {"mint_per_s", [](const json& w) { return ipistorm(w, "mint_per_s"); }},
        {"desc_line_transfers_per_ipi",
         [](const json& w) { return ipistorm(w, "desc_line_transfers_per_ipi"); }},
        {"desc_line_cross_chip_share",
         [](const json& w) { return ipistorm(w, "desc_line_cross_chip_share"); }},
    };
    return metrics;
}

}  // namespace

std::string key_text(const json& key) {
    std::string s;
    for (auto it = key.begin(); it != key.end(); ++it) {
        const std::string v = it->is_string() ? it->get<std::string>() : it->dump();
        s += (s.empty() ? "" : " ") + it.key() + "=" + v;
    }
    return s;
}

const std::vector<std::string>& table_metric_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const auto& [name, fn] : table_metrics()) n.push_back(name);
        return n;
    }();
    return names;
}

std::string metric_missing(const std::string& m, const json& result) {
    // vcpu0(), xen() and ipistorm() read 0 from a result without their
    // section: said here instead, so another family's metric is not shown as measured.
    static const std::vector<std::string> vm = {
        "exit_handling_us", "timer_exit_share", "device_exits_per_s", "ext_int_exits_per_s",
        "msi_to_guest_us_p50", "msi_to_guest_us_p99", "context_switches_per_s",
        "host_cpu_us_per_interrupt"};
    static const std::vector<std::string> xen = {
        "eois_per_s", "lock_acquisitions_per_s", "lock_wait_us_mean", "lock_held_fraction",
        "lock_spinning_pcpus", "host_cpu_us_per_io"};
    static const std::vector<std::string> ipi = {"mint_per_s", "desc_line_transfers_per_ipi",
                                                 "desc_line_cross_chip_share"};
    static const std::vector<std::string> nvme = {"iops_per_disk_M", "iops_M"};
    static const std::vector<std::string> dsa = {"bandwidth_mbps"};
    const auto in = [&](const std::vector<std::string>& v) {
        return std::find(v.begin(), v.end(), m) != v.end();
    };
    if (in(vm) && !(result.contains("per_vcpu") && !result["per_vcpu"].empty()))
        return "its run has no vCPU (a metric of a VM's vCPU)";
    if (in(xen) && !result.contains("xen")) return "its run has no Xen domain (a Xen metric)";
    if (in(ipi) && !result.contains("ipistorm"))
        return "its run has no ipistorm (a metric of a POWER partition's ipistorm)";
    // The sums over workloads of a type read 0 without one.
    if (in(nvme) && count_workloads(result, "nvme") == 0)
        return "its run has no nvme workload (a metric of its disks)";
    if (in(dsa) && count_workloads(result, "dsa") == 0)
        return "its run has no dsa workload (a metric of its fills)";
    return "";
}

double table_metric(const std::string& m, const json& w) {
    for (const auto& [name, fn] : table_metrics())
        if (name == m) return fn(w);
    throw std::invalid_argument("unknown table metric " + m);
}

namespace {

// One window's share of a figure: the figure over several windows is
// sum(num) / sum(den). A ratio of two counts keeps both counts, so that a
// batch of windows has the ratio of its sums; every other figure is a
// per-window value (a rate over equal windows, a quantile) with den = 1.
std::pair<double, double> metric_parts(const std::string& m, const json& w) {
    if (m == "pid_misses_per_notification") {
        const json& metrics = w["metrics"];
        return {number(metrics["pid_line"]["cpu_misses"]),
                number(metrics["notifications_handled"])};
    }
    if (m == "lock_wait_us_mean") {
        const json& h = xen(w)["event_lock"]["wait_ns"];
        const double n = number(h["count"]);
        return {number(h["mean"]) * n / 1e3, n};
    }
    if (m == "host_cpu_us_per_io") {
        const double n = number(xen(w)["ios"]);
        return {number(xen(w)["host_cpu_us_per_io"]) * n, n};
    }
    if (m == "exit_handling_us") {
        const json& h = vcpu0(w)["exit_handling_ns"];
        const double n = number(h["count"]);
        return {number(h["mean"]) * n / 1e3, n};
    }
    return {table_metric(m, w), 1.0};
}

// The quantile level of a latency figure, 0 for any other figure.
double quantile_level(const std::string& m) {
    if (m == "latency_p50_ns") return 0.5;
    if (m == "latency_p99_ns" || m == "msi_to_guest_us_p99") return 0.99;
    if (m == "msi_to_guest_us_p50") return 0.5;
    return 0;
}

}  // namespace

Figure measure(const std::string& metric, const json& result) {
    std::vector<double> num, den;
    Figure f;
    const double q = quantile_level(metric);
    const auto tail = [&](const json& w) {
        if (q > 0) {
            const bool guest = metric.compare(0, 12, "msi_to_guest") == 0;
            const double n = guest ? vcpu0(w)["msi_to_guest_ns"]["count"].get<double>()
                                   : w["metrics"]["msi_to_handler_ns"]["count"].get<double>();
            f.tail_samples = std::min(f.tail_samples, n * (1 - q));
        }
    };
    // A window where the figure is undefined (no sample, nothing to divide
    // by) is no batch: its 0 would narrow the interval it says nothing of.
    if (result.contains("batches") && !result["batches"].empty())
        f.windows = result["batches"].size();
    if (result.contains("batches"))
        for (const json& b : result["batches"]) {
            const auto [n, d] = metric_parts(metric, b);
            if (d == 0 || std::isnan(n)) continue;
            num.push_back(n);
            den.push_back(d);
            tail(b);
        }
    f.defined_windows = num.size();
    if (num.empty()) {
        f.mean = table_metric(metric, result);
        f.batches = 1;
        tail(result);
        return f;
    }
    const BatchedCi c = batch_means_ci95(num, den, kMinBatches);
    f.mean = c.mean;
    f.ci95 = c.half_width;
    f.batches = c.batches;
    f.independent = c.independent;
    return f;
}

json ci95_json(const Figure& f) { return f.batches < 2 ? json(nullptr) : json(f.ci95); }

std::string number_text(const json& value, const char* format) {
    if (value.is_null()) return "n/a";
    const double v = value.get<double>();
    char b[64];
    // A figure too large for a fixed-point column (a hand-written published
    // value, say) keeps its column's width in exponent form.
    std::snprintf(b, sizeof b, std::fabs(v) < 1e9 ? format : "%.3e", v);
    return b;
}

namespace {

// Typed reads of a tables file, each error naming the file and the key.
const json& member(const json& obj, const char* key, const std::string& at) {
    if (!obj.is_object())
        throw ConfigError(at + ": expected an object, got " + json_type_name(obj));
    const auto it = obj.find(key);
    if (it == obj.end()) throw ConfigError(at + "." + key + ": missing");
    return *it;
}

// A string without control characters: it is printed to a terminal.
std::string text(const json& j, const std::string& at) {
    if (!j.is_string()) throw ConfigError(at + ": expected a string, got " + json_type_name(j));
    const std::string t = j.get<std::string>();
    if (has_control_character(t))
        throw ConfigError(at + ": " + show_json(j) + ": a control character in a string that is "
                          "printed; expected printable characters only");
    return t;
}

// Every key of `obj` is one of `known`, and a comment is text; `at`
// prefixes the key in a message.
void check_keys(const json& obj, std::initializer_list<const char*> known,
                const std::string& at) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (it.key() == "comment" && !it->is_string())
            throw ConfigError(at + "comment: expected a string, found " + json_type_name(*it));
        if (std::none_of(known.begin(), known.end(),
                         [&](const char* k) { return it.key() == k; })) {
            std::string list;
            for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
            throw ConfigError(at + it.key() + ": unknown key (known: " + list + ")");
        }
    }
}

std::vector<std::string> texts(const json& j, const std::string& at) {
    if (!j.is_array())
        throw ConfigError(at + ": expected an array of strings, got " + json_type_name(j));
    std::vector<std::string> out;
    for (size_t i = 0; i < j.size(); ++i)
        out.push_back(text(j[i], at + "[" + std::to_string(i) + "]"));
    return out;
}

const json& object_of(const json& j, const std::string& at) {
    if (!j.is_object()) throw ConfigError(at + ": expected an object, got " + json_type_name(j));
    return j;
}

// A list of metrics shows each once: an empty one would run rows that show
// nothing, a metric twice would be a line twice.
void check_metrics(const std::vector<std::string>& metrics, const std::string& at) {
    if (metrics.empty())
        throw ConfigError(at + ": expected at least one metric, found an empty array");
    const auto& names = table_metric_names();
    for (size_t i = 0; i < metrics.size(); ++i) {
        const std::string where = at + "[" + std::to_string(i) + "]: ";
        if (std::find(names.begin(), names.end(), metrics[i]) == names.end()) {
            const std::string close = near_miss(metrics[i], names);
            std::string all;
            for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
            throw ConfigError(where + "unknown metric '" + metrics[i] + "'" +
                              (close.empty() ? "" : " (did you mean '" + close + "'?)") +
                              "; a table's metrics: " + all);
        }
        const auto first = std::find(metrics.begin(), metrics.end(), metrics[i]);
        if (first != metrics.begin() + long(i))
            throw ConfigError(where + "'" + metrics[i] + "' is listed twice (first at [" +
                              std::to_string(first - metrics.begin()) + "])");
    }
}

TableRow load_row(const json& r, const std::string& dir, const std::string& at,
                  const std::vector<std::string>& table_metrics) {
    TableRow row;
    row.at = at;
    row.key = object_of(member(r, "key", at), at + ".key");
    check_keys(r, {"key", "config", "set", "published", "metrics", "comment"}, at + ".");
    if (row.key.empty()) throw ConfigError(at + ".key: empty; a row is named by its key");
    for (const auto& [name, value] : row.key.items()) {
        (void)text(name, at + ".key");
        // Printed as name=value: an empty name would print "=1".
        if (name.empty())
            throw ConfigError(at + ".key: an empty key name; expected a name like mode");
        if (value.is_string()) (void)text(value, at + ".key." + name);
        else if (!value.is_number() && !value.is_boolean())
            throw ConfigError(at + ".key." + name + ": expected a string, number or boolean, got " +
                              json_type_name(value));
    }
    const std::string cfg = text(member(r, "config", at), at + ".config");
    if (cfg.empty()) throw ConfigError(at + ".config: empty");
    row.config = cfg[0] == '/' ? cfg : dir + "/" + cfg;
    if (r.contains("set")) row.overrides = texts(r["set"], at + ".set");
    // Each is one argument of the row's command, which Linux bounds.
    for (size_t i = 0; i < row.overrides.size(); ++i)
        if (const std::string why =
                set_too_long(row.overrides[i].size(), "the row's", "the row's config");
            !why.empty())
            throw ConfigError(at + ".set[" + std::to_string(i) + "]: " + why);
    // A key set twice in one row is one value lost (the later wins), as in an explain variant.
    if (const auto twice = key_given_twice(row.overrides))
        throw ConfigError(at + ".set[" + std::to_string(twice->first) + "]: " +
                          row.overrides[twice->first].substr(
                              0, row.overrides[twice->first].find('=')) +
                          " replaces what [" + std::to_string(twice->second) +
                          "] gave, whose value would be lost; keep one");
    if (r.contains("published")) {
        row.published = object_of(r["published"], at + ".published");
        for (const auto& [metric, value] : row.published.items())
            // Every table metric is a rate, a time, a share or a count.
            if (!value.is_number() || value.get<double>() < 0)
                throw ConfigError(at + ".published." + metric + ": expected a number >= 0, " +
                                  "got " + (value.is_number() ? value.dump()
                                                              : json_type_name(value)));
    } else {
        row.published = json::object();
    }
    // Without its own metrics a row shows the table's.
    if (r.contains("metrics")) {
        row.metrics = texts(r["metrics"], at + ".metrics");
        check_metrics(row.metrics, at + ".metrics");
    }
    const std::vector<std::string>& shown = row.metrics.empty() ? table_metrics : row.metrics;
    for (const auto& [metric, value] : row.published.items())
        if (std::find(shown.begin(), shown.end(), metric) == shown.end())
            throw ConfigError(at + ".published." + metric + ": not a metric the row shows (" +
                              (row.metrics.empty() ? "the table's metrics" : "its metrics") + ")");
    return row;
}

}  // namespace

std::vector<Table> load_tables(const std::string& path) {
    const json doc = read_json_file(path, "a JSON tables file");
    const std::string dir = path.find('/') == std::string::npos
                                ? "."
                                : path.substr(0, path.find_last_of('/'));
    if (!doc.is_object())
        throw ConfigError(path + ": expected an object {\"tables\": [...]}, found " +
                          json_type_name(doc));
    if (!doc.contains("tables") || !doc["tables"].is_array())
        throw ConfigError(path + ": tables: expected an array" +
                          (doc.contains("tables")
                               ? ", got " + json_type_name(doc["tables"])
                               : std::string(", found none")));
    check_keys(doc, {"tables", "comment"}, path + ": ");
    const json& tables = doc["tables"];
    if (tables.empty()) throw ConfigError(path + ": tables: empty; expected at least one table");
    std::vector<Table> out;
    for (size_t i = 0; i < tables.size(); ++i) {
        const json& t = tables[i];
        const std::string at = path + ": tables[" + std::to_string(i) + "]";
        Table table;
        table.name = text(member(t, "name", at), at + ".name");
        check_keys(t, {"name", "title", "set", "note", "metrics", "rows", "comment"}, at + ".");
        if (table.name.empty() || table.name == "all" || table.name == "systems" ||
            table.name.find_first_of(" /") != std::string::npos)
            throw ConfigError(at + ".name: '" + table.name + "' cannot name a table (empty, "
                              "all, systems or with a space or slash)");
        // It names the rows' files (NAME-ROW.json), whose names have a limit.
        if (table.name.size() > kMaxNameLength)
            throw ConfigError(at + ".name: expected at most " + std::to_string(kMaxNameLength) +
                              " bytes, found " + std::to_string(table.name.size()));
        for (const Table& before : out)
            if (before.name == table.name)
                throw ConfigError(at + ".name: '" + table.name + "' names an earlier table too");
        table.title = text(member(t, "title", at), at + ".title");
        table.set = text(member(t, "set", at), at + ".set");
        if (table.set != "calibration" && table.set != "prediction")
            throw ConfigError(at + ".set: expected calibration or prediction, found '" +
                              table.set + "'");
        if (t.contains("note")) table.note = text(t["note"], at + ".note");
        table.metrics = texts(member(t, "metrics", at), at + ".metrics");
        check_metrics(table.metrics, at + ".metrics");
        const json& rows = member(t, "rows", at);
        if (!rows.is_array() || rows.empty())
            throw ConfigError(at + ".rows: expected a non-empty array, got " +
                              (rows.is_array() ? std::string("an empty one")
                                               : json_type_name(rows)));
        std::map<std::string, size_t> printed;  // a row's key as printed -> the row
        for (size_t k = 0; k < rows.size(); ++k) {
            const std::string row_at = at + ".rows[" + std::to_string(k) + "]";
            table.rows.push_back(load_row(rows[k], dir, row_at, table.metrics));
            // A row is named by its key as printed: {"a": 1} and {"a": "1"} both
            // print a=1, and the output could not tell their rows apart.
            const auto [it, first] = printed.emplace(key_text(table.rows[k].key), k);
            if (first) continue;
            const size_t before = it->second;
            const TableRow& earlier = table.rows[before];
            if (earlier.key == table.rows[k].key)
                throw ConfigError(row_at + ".key: the key of rows[" + std::to_string(before) +
                                  "] too; a row is named by its key");
            throw ConfigError(row_at + ".key: " + show_json(table.rows[k].key) +
                              " prints as rows[" + std::to_string(before) + "]'s key " +
                              show_json(earlier.key) + " does (" + it->first +
                              "); a row is named by its key");
        }
        out.push_back(table);
    }
    return out;
}

json table_json(const Table& t, const std::vector<json>& results) {
    json rows = json::array();
    for (size_t r = 0; r < t.rows.size(); ++r)
        for (const std::string& m : row_metrics(t, r)) {
            const Figure f = measure(m, results[r]);
            const json& pub = t.rows[r].published;
            rows.push_back({{"key", t.rows[r].key},
                            {"metric", m},
                            {"simulated", std::isnan(f.mean) ? json() : json(f.mean)},
                            {"ci95", ci95_json(f)},
                            {"published", pub.contains(m) ? pub[m] : json(nullptr)}});
        }
    return {{"table", t.name}, {"rows", rows}};
}

namespace {

std::string row_line(const std::string& key, const std::string& metric, const std::string& sim,
                     const std::string& ci95, const std::string& pub, const std::string& err) {
    return "  " + left_in(key, 32) + " " + left_in(metric, 28) + " " + right_in(sim, 14) + " " +
           right_in(ci95, 10) + " " + right_in(pub, 10) + " " + right_in(err, 8) + "\n";
}

}  // namespace

std::string table_text(const Table& t, const json& table) {
    std::ostringstream os;
    os << t.name << ": " << t.title << " [" << t.set << " set]\n";
    os << row_line("key", "metric", "simulated", "+-ci95", "published", "error");
    for (const json& r : table["rows"]) {
        const double sim = number(r["simulated"]);
        std::string pub = "", err = "";
        if (!r["published"].is_null()) {
            const double p = r["published"].get<double>();
            pub = number_text(p, "%.3f");
            // Relative to a published 0 there is no error to give.
            const double e = (sim - p) / p * 100;
            char b[64];
            std::snprintf(b, sizeof b, "%+.1f%%", e);
            err = std::isfinite(e) ? b : "n/a";
        }
        os << row_line(key_text(r["key"]), r["metric"].get<std::string>(),
                       number_text(r["simulated"], "%.3f"), number_text(r["ci95"], "%.3f"), pub,
                       err);
    }
    if (!t.note.empty()) os << "  note: " << t.note << "\n";
    return os.str();
}

std::string table_csv(const json& tables) {
    std::ostringstream os;
    os << "table,key,metric,simulated,ci95,published\n";
    for (const json& t : tables)
        for (const json& r : t["rows"])
        {
            os << csv_field(t["table"].get<std::string>()) << "," << csv_field(key_text(r["key"]))
               << "," << csv_field(r["metric"].get<std::string>()) << ",";
            if (!r["simulated"].is_null()) os << r["simulated"].get<double>();
            os << "," << (r["ci95"].is_null() ? "" : r["ci95"].dump()) << ","
               << (r["published"].is_null() ? "" : r["published"].dump()) << "\n";
        }
    return os.str();
}

}  // namespace cidsim
