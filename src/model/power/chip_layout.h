#pragma once
// ChipLayout: a machine of chips (nodes), each of so many cores, each of
// threads_per_core SMT threads, numbered chip-major as Linux numbers a
// POWER partition's CPUs (systems.md D, "Topology"): CPU c sits on core
// c / threads_per_core, and chip k's cores follow chip k-1's.
#include <cstdint>
#include <memory>
#include <vector>

#include "model/coherence/line_topology.h"

namespace cidsim {

class ChipLayout {
public:
    ChipLayout(std::vector<uint64_t> cores_per_chip, unsigned threads_per_core);

    unsigned cpus() const { return unsigned(m_chip_of.size()); }
    unsigned chips() const { return unsigned(m_first_cpu.size()); }
    unsigned threads_per_core() const { return m_threads; }
    unsigned chip_of(unsigned cpu) const { return m_chip_of[cpu]; }
    unsigned core_of(unsigned cpu) const { return cpu / m_threads; }
    // The line topology of the machine's CPUs (agent = CPU), every chip one
    // hop from every other (the fully connected SMP links of a POWER9 or
    // POWER10 drawer); the nearest holder supplies.
    std::shared_ptr<const LineTopology> line_topology() const;

private:
    unsigned m_threads;
    std::vector<uint8_t> m_chip_of;
    std::vector<unsigned> m_first_cpu;
};

}  // namespace cidsim
