#pragma once
// PowerPartition: the POWER machine of systems.md D, elaborated from a
// config's power, xive, power_line and ipistorm sections: the chips' CPUs
// (chip-major), a XIVE per chip, the IPI irq_desc (one for the system or
// one per chip), each CPU's call queue, ipi_message and csd lines, and an
// ipistorm kthread on each CPU of the cpulist, linked to its target (the
// trigger store through the target's chip's XIVE, the poll kick, the
// csd_unlock back).
#include <memory>
#include <vector>

#include "config/sim_config.h"
#include "model/power/chip_layout.h"
#include "model/linux/irq_desc.h"
#include "model/power/power_cpu.h"
#include "model/power/xive.h"
#include "sim/machine.h"

namespace cidsim {

class PowerPartition final : public MachinePart {
public:
    explicit PowerPartition(const SimConfig& config);

    unsigned cpu_count() const { return unsigned(m_cpus.size()); }
    const PowerCpu& cpu(unsigned i) const { return *m_cpus[i]; }
    PowerCpu& cpu(unsigned i) { return *m_cpus[i]; }
    const std::vector<std::unique_ptr<IrqDesc>>& descs() const { return m_descs; }
    const ChipLayout& layout() const { return m_layout; }
    const std::vector<std::unique_ptr<Xive>>& xives() const { return m_xives; }
    void reset_stats() override;
    void close_window() override;

private:
    void connect_call(unsigned sender, unsigned target);

    ChipLayout m_layout;
    // Each CPU's params where overrides set some (config_loader.h
    // power_cpu_params); empty when every CPU shares the config's.
    std::vector<PowerParams> m_cpu_params;
    std::vector<XiveParams> m_xive_params;  // each chip's, likewise
    std::vector<std::unique_ptr<Xive>> m_xives;
    std::vector<IpiLines> m_lines;
    std::vector<std::unique_ptr<IrqDesc>> m_descs;
    std::vector<std::unique_ptr<PowerCpu>> m_cpus;
};

}  // namespace cidsim
