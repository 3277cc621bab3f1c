#pragma once
// /proc/interrupts of a run (after the warm-up), in the file's own format
// (kernel/irq/proc.c show_interrupts, arch_show_interrupts): one column per
// CPU; one line per device queue's interrupt with its handler calls on each
// CPU (what Linux counts per IRQ: IDT deliveries in remappable mode, calls
// from the demux loop in posted mode; a moved interrupt counts on both
// CPUs), its chip (IR-PCI-MSIX-<bdf>), hwirq (the queue) and flow ("edge");
// then the architecture's rows in Linux's order: LOC, SPU, PIN, PIW, PMN,
// ERR, MIS. Only what the model counts is shown (no NMI, RES, CAL, TLB...).
// IRQ numbers start at 24 (Linux's are arbitrary too); PCI addresses are
// one bus per device. With vCPUs, their pCPUs are columns after the host's
// (VFIO's vfio-msix lines, PIN, PIW) and each guest's own file follows (its
// vCPUs, the assigned devices' vectors). A POWER partition's file comes
// first: XIVE's IPI line(s) (one per chip with IPI/chip) and LOC. A Xen
// domain's counters (XenPcpuStats) follow the host's in the same layout,
// one column per vCPU: Xen keeps no /proc/interrupts of its own.
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
        // The pCPU's local timer interrupts: the host tick's and the
        // hrtimer's that emulates the guest's timer, which the guest then
        // takes as its own local timer interrupt.
        uint64_t host_ticks = 0, guest_timers = 0;
        std::array<uint64_t, 256> guest_handler_calls{};
    };
    struct PowerCpu {
        uint64_t ipis = 0, timer_interrupts = 0;
    };
    struct XenVcpu {
        uint64_t host_irqs = 0, guest_interrupts = 0, posted_in_guest = 0, avoided_eois = 0;
    };
    std::vector<Cpu> cpus;
    std::vector<Vcpu> vcpus;
    std::vector<PowerCpu> power;
    std::vector<XenVcpu> xen;

    // Adds the system's counts since its last reset.
    void add(const System& system);
};

std::string interrupts_table(const System& system, const InterruptCounts& counts);
// The table of the current window alone.
std::string interrupts_table(const System& system);

}  // namespace cidsim
