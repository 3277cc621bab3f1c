#pragma once
// Result keys renamed so that a unit suffix says one thing: `_gb_per_s` and
// `_mb_per_s` are bytes (1e9, 1e6 per second), `_mbit_per_s` bits. The old
// key is still written, with the same value, for one release; a sweep spec
// or `collect --metric` that names it is told the new name on stderr.
#include <string>

namespace cidsim {

struct RenamedMetric {
    const char* old_key;  // last component of a result path
    const char* new_key;
};

inline constexpr RenamedMetric kRenamedMetrics[] = {
    {"dma_gbps", "dma_gb_per_s"},        // root_ports[]: 1e9 bytes/s, not Gbit/s
    {"fill_mbps", "fill_mbit_per_s"},    // workloads[] (dsa): 1e6 bits/s
};

// "" when `path` uses no old name, else the note to print:
// "root_ports.0.dma_gbps was renamed root_ports.0.dma_gb_per_s (...)".
inline std::string renamed_note(const std::string& path) {
    const size_t dot = path.rfind('.');
    const std::string last = dot == std::string::npos ? path : path.substr(dot + 1);
    for (const RenamedMetric& r : kRenamedMetrics)
        if (last == r.old_key)
            return path + " was renamed " + path.substr(0, path.size() - last.size()) +
                   r.new_key + " (the old name is kept for one release)";
    return "";
}

}  // namespace cidsim
