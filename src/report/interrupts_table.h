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
// With run.batches > 1 the blocks' statistics restart each window: the
// counts are added up window by window (InterruptCounts), so the table is
// the whole measured time's, as the summary is.
#include <array>
#include <string>
#include <vector>

#include "sim/system.h"

namespace cidsim {

// What the table shows, as counters that add up over windows.
struct InterruptCounts {
    struct Cpu {
        std::array<uint64_t, 256> handler_calls{};
        uint64_t notifications = 0, local_timer = 0, spurious = 0;
    };
    struct Vcpu {
        uint64_t host_device_irqs = 0, pin = 0, piw = 0;
        std::array<uint64_t, 256> guest_handler_calls{};
    };
    std::vector<Cpu> cpus;
    std::vector<Vcpu> vcpus;

    // Adds the system's counts since its last reset.
    void add(const System& system);
};

std::string interrupts_table(const System& system, const InterruptCounts& counts);
// The table of the current window alone.
std::string interrupts_table(const System& system);

}  // namespace cidsim
