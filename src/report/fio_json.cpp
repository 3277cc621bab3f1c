#include "report/fio_json.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "version.h"

namespace cidsim {

using nlohmann::json;

const std::vector<double>& fio_default_percentiles() {
    static const std::vector<double> list = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                             80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
    return list;
}

namespace {

// fio's key for a percentile: "99.900000".
std::string percentile_key(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%f", p);
    return buf;
}

// fio's limit on the list (FIO_IO_U_LIST_MAX_LEN).
constexpr size_t kMaxPercentiles = 20;

}  // namespace

std::vector<double> parse_percentile_list(const std::string& text) {
    std::vector<double> out;
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ':');) {
        size_t used = 0;
        double p = -1;
        const size_t sign = part.rfind('-', 0) == 0;  // a negative one is out of range
        const bool decimal = part.size() > sign &&
                             part.find_first_not_of("0123456789.", sign) == std::string::npos;
        try {
            if (decimal) p = std::stod(part, &used);
        } catch (const std::exception&) {
        }
        const std::string at = "--percentile-list " + text + ": '" + part + "' ";
        if (used != part.size())
            throw std::invalid_argument(at + "is not a decimal number (fio's syntax: 1:5:99.9, "
                                        "digits and a point only)");
        if (!(p > 0 && p <= 100))
            throw std::invalid_argument(at + "is not a percentage in (0, 100]");
        // fio's key has 6 decimals: a smaller one would be written as the key of 0.
        if (percentile_key(p) == percentile_key(0))
            throw std::invalid_argument(at + "is below 0.000001, the least percentage fio's "
                                        "output (6 decimals) names");
        // Two entries with one key in the output (fio's, 6 decimals) would be one figure.
        for (size_t i = 0; i < out.size(); ++i)
            if (percentile_key(out[i]) == percentile_key(p))
                throw std::invalid_argument("--percentile-list " + text + ": '" + part +
                                            "' repeats '" + parts[i] + "' (one key, " +
                                            percentile_key(p) + ", in fio's output)");
        if (out.size() == kMaxPercentiles)
            throw std::invalid_argument("--percentile-list: more than " +
                                        std::to_string(kMaxPercentiles) +
                                        " percentages (fio's limit)");
        out.push_back(p);
        parts.push_back(part);
    }
    if (out.empty() || text.back() == ':')
        throw std::invalid_argument("--percentile-list " + text + ": expected percentages like 1:5:99.9");
    return out;
}

namespace {

json no_latency() {
    return {{"min", 0}, {"max", 0}, {"mean", 0.0}, {"stddev", 0.0}, {"N", 0}};
}

// A latency histogram in whole us as fio's *_ns object.
json latency_ns(const Histogram& us, const std::vector<double>& percentiles) {
    json o = {{"min", uint64_t(us.min()) * 1000},
              {"max", us.max() * 1000},
              {"mean", us.mean() * 1000},
              {"stddev", us.stddev() * 1000},
              {"N", us.count()}};
    json list = json::object();
    for (double p : percentiles)
        list[percentile_key(p)] = uint64_t(std::llround(us.percentile(p / 100) * 1000));
    o["percentile"] = list;
    return o;
}

json idle_direction() {
    return {{"io_bytes", 0},      {"io_kbytes", 0},       {"bw_bytes", 0}, {"bw", 0},
            {"iops", 0.0},        {"runtime", 0},         {"total_ios", 0}, {"short_ios", 0},
            {"drop_ios", 0},      {"slat_ns", no_latency()}, {"clat_ns", no_latency()},
            {"lat_ns", no_latency()}};
}

}  // namespace

json fio_json(const json& result, const HistogramMap& histograms,
              const std::vector<double>& percentiles) {
    const double secs = result["metrics"]["simulated_seconds"].get<double>();
    const uint64_t runtime_ms = uint64_t(std::llround(secs * 1e3));
    json jobs = json::array();
    const json& workloads = result["workloads"];
    const json& configs = result["config"]["workloads"];
    for (size_t w = 0; w < workloads.size(); ++w) {
        if (workloads[w].value("type", std::string()) != "nvme") continue;
        const json& cfg = configs[w];
        const uint64_t bs = cfg["block_bytes"].get<uint64_t>();
        for (size_t j = 0; j < workloads[w]["jobs"].size(); ++j) {
            const json& job = workloads[w]["jobs"][j];
            const auto h = histograms.find("/workloads/" + std::to_string(w) + "/jobs/" +
                                           std::to_string(j) + "/completion_latency_us");
            const Histogram clat = h == histograms.end() ? Histogram() : h->second.first;
            const uint64_t ios = job["reaped"].get<uint64_t>();
            const double bytes_per_s = secs > 0 ? double(ios * bs) / secs : 0.0;
            json read = idle_direction();
            read["io_bytes"] = ios * bs;
            read["io_kbytes"] = ios * bs / 1024;
            read["bw_bytes"] = uint64_t(std::llround(bytes_per_s));
            read["bw"] = uint64_t(std::llround(bytes_per_s / 1024));  // KiB/s
            read["iops"] = secs > 0 ? double(ios) / secs : 0.0;
            read["runtime"] = runtime_ms;
            read["total_ios"] = ios;
            read["clat_ns"] = latency_ns(clat, percentiles);
            read["lat_ns"] = read["clat_ns"];
            read["lat_ns"].erase("percentile");
            jobs.push_back({{"jobname", cfg["device"].get<std::string>() + "-job" + std::to_string(j)},
                            {"groupid", 0},
                            {"error", 0},
                            {"elapsed", uint64_t(std::ceil(secs))},
                            {"job options",
                             {{"filename", cfg["device"]},
                              {"rw", "randread"},
                              {"bs", std::to_string(bs)},
                              {"iodepth", std::to_string(cfg["iodepth"].get<uint64_t>())},
                              {"ioengine", cfg["engine"]},
                              {"cpus_allowed", std::to_string(job["cpu"].get<uint64_t>())}}},
                            {"read", read},
                            {"write", idle_direction()},
                            {"trim", idle_direction()},
                            {"sync", {{"total_ios", 0}, {"lat_ns", no_latency()}}},
                            {"job_runtime", runtime_ms}});
        }
    }
    return {{"fio version", std::string("cidsim-") + version()},
            {"timestamp", 0},
            {"time", "simulated"},
            {"global options", json::object()},
            {"jobs", jobs},
            {"cidsim",
             {{"simulated_seconds", secs},
              {"clat_resolution_ns", 1000},
              {"note",
               "completion latencies recorded in whole us (ns = us x 1000, within 500 ns; exact "
               "below 256 us, within 1/256 above); percentiles by nearest rank (fio's rule); "
               "submission not timed apart (slat 0, lat = clat); no per-interval bandwidth "
               "samples; write, trim and sync are zero"}}}};
}

}  // namespace cidsim
