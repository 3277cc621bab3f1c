#pragma once
// Every metric a result file can hold, with its unit and meaning: the raw
// statistics from the blocks' own descriptions (model/base/stat_visitor.h) and
// the figures the report layer computes from them, from one table (the
// host's here, each machine family's in its result section,
// report/result_section.h).
// `cidsim params --metrics` prints it; docs/metrics.md is its markdown.
#include <nlohmann/json.hpp>

namespace cidsim {

// {section: [{"key", "type", "unit", "source", "description"}, ...]} in
// result-file order: "metrics", "per_cpu[]", "per_vector[]", "per_device[]",
// "root_ports[]", the families' ("per_vcpu[]", "xen", "xen.event_lock",
// "xen.per_vcpu[]", "ipistorm"), "workloads[] (type T)", then "not in
// result files". A section's dots and brackets are its place in the result
// ("xen.per_vcpu[]": each element of xen.per_vcpu); a key with dots nests
// ("iec.hits" is metrics.iec.hits); a histogram's key holds its summary
// object.
nlohmann::ordered_json describe_metrics();

}  // namespace cidsim
