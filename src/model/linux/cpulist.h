#pragma once
// A kernel cpulist ("0-7,16-23", as /sys/devices/system/cpu/online and the
// isolcpus= and irqaffinity= parameters write CPU sets; lib/bitmap.c
// bitmap_parselist), parsed into its CPUs. Stride forms ("0-15:2/4") are
// not taken.
#include <string>
#include <vector>

namespace cidsim {

// The CPUs, ascending; std::invalid_argument naming the text when it is not
// a cpulist, names a CPU twice or a CPU exceeds `max_cpu`.
std::vector<unsigned> parse_cpulist(const std::string& text, unsigned max_cpu = 65535);

}  // namespace cidsim
