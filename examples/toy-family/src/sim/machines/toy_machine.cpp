#include "sim/machines/toy_machine.h"

#include <string>

namespace cidsim {

ToyMachine::ToyMachine(const SimConfig& config) {
    for (unsigned c = 0; c < config.toy.cpus; ++c) {
        m_cpus.push_back(
            std::make_unique<ToyCpu>(("toy_cpu" + std::to_string(c)).c_str(), config.toy, c));
        connect(m_cpus.back()->out(), m_controller.messages_in());
    }
}

}  // namespace cidsim
