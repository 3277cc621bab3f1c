#include "model/power/chip_layout.h"

#include <stdexcept>
#include <string>

namespace cidsim {

ChipLayout::ChipLayout(std::vector<uint64_t> cores_per_chip, unsigned threads_per_core)
    : m_threads(threads_per_core) {
    if (cores_per_chip.empty() || cores_per_chip.size() > 16)
        throw std::invalid_argument("expected 1 to 16 chips, found " +
                                    std::to_string(cores_per_chip.size()));
    if (threads_per_core == 0) throw std::invalid_argument("threads_per_core must be positive");
    for (size_t k = 0; k < cores_per_chip.size(); ++k) {
        m_first_cpu.push_back(unsigned(m_chip_of.size()));
        m_chip_of.insert(m_chip_of.end(), cores_per_chip[k] * threads_per_core, uint8_t(k));
    }
}

std::shared_ptr<const LineTopology> ChipLayout::line_topology() const {
    std::vector<uint32_t> core(cpus());
    for (unsigned c = 0; c < cpus(); ++c) core[c] = core_of(c);
    std::vector<uint8_t> hops(size_t(chips()) * chips(), 1);
    for (unsigned k = 0; k < chips(); ++k) hops[k * chips() + k] = 0;
    return std::make_shared<const LineTopology>(m_chip_of, std::move(core), std::move(hops),
                                                SupplierRule::Nearest);
}

}  // namespace cidsim
