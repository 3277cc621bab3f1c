#pragma once
// Where the values of the platform files (configs/platform/NAME.json) and
// the device profiles (configs/rfc/devices.json) come from: each file's
// "provenance" object holds, for every value key (its dotted path), the
// value's kind, plausible range and source:
//   "cpu.irq_entry_ns": {"kind": "guess", "range": [80, 400], "source": "...", "note": "..."}
// kind: fitted (by scripts/calibrate.py), measured (a measurement, datasheet
// or spec gives it), assumed (chosen from a named source that bounds it),
// guess (no source found), setup (the experiment's published setup: not a
// cost). `cidsim params` shows them; `reproduce --sensitivity` varies the
// fitted, assumed and guessed ones over their ranges. A value that is not a
// number (a switch, a name) is setup, or measured when a source states it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cidsim {

struct Provenance {
    std::string file;   // the file it was read from, for messages and listings
    std::string key;    // dotted path in that file: "cpu.irq_entry_ns", "dsa.device.per_completion_ns"
    nlohmann::json value;
    std::string kind;
    bool has_range = false;
    double low = 0, high = 0;
    std::string source, note;

    // Fitted, assumed and guessed numbers are what a prediction rests on.
    bool uncertain() const;
};

// Every value key of `doc` (its leaves outside "comment", "platform" and
// "provenance") with its entry, in the document's order. A missing entry,
// an entry naming no value, an unknown kind, an empty source, a numeric value
// without a range or outside it, are BadInput naming `file` and the key.
std::vector<Provenance> read_provenance(const nlohmann::json& doc, const std::string& file);
// The entry of describe_parameters() a provenance entry is about, or null.
// A platform key is "block.param"; a device profile's (`profiles`: the
// devices file's JSON, null for a platform) is "profile.device.param"
// (devices[]) or "profile.workload.param" (the workload type whose block has
// every key of that profile's workload).
const nlohmann::json* described_parameter(const nlohmann::json& params, const nlohmann::json& profiles,
                                          const Provenance& p);
// The built-in platform's ("generic" has none: empty).
std::vector<Provenance> platform_provenance(const std::string& platform);
// configs/rfc/devices.json, from the working directory or else the source tree.
std::string default_devices_file();
std::vector<Provenance> devices_provenance(const std::string& path);

}  // namespace cidsim
