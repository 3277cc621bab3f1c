#pragma once
// A /proc/interrupts-style table of a run (after the warm-up): one column
// per CPU; one row per device queue's interrupt with its handler calls on
// each CPU (what Linux counts per IRQ: IDT deliveries in remappable mode,
// calls from the demux loop in posted mode; a moved interrupt counts on both
// CPUs); PMN, posted-MSI notification events; LOC, local timer interrupts;
// SPU, handler calls for a set vector with no handler (freed too early).
// IRQ numbers are 24 + the route's index (Linux's are arbitrary too).
// With vCPUs, the vCPUs' pCPUs follow (VFIO host interrupts, PIN, PIW,
// PMN) and each guest's vectors with its own handler counts.
#include <string>

#include "sim/system.h"

namespace cidsim {

std::string interrupts_table(const System& system);

}  // namespace cidsim
