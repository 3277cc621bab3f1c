#pragma once
// The toy family's machine part: its CPUs, each linked to the controller.
#include <memory>
#include <vector>

#include "config/sim_config.h"
#include "model/toy/toy_cpu.h"
#include "sim/machine.h"

namespace cidsim {

class ToyMachine final : public MachinePart {
public:
    explicit ToyMachine(const SimConfig& config);
    const ToyController& controller() const { return m_controller; }
    void reset_stats() override { m_controller.reset_stats(); }

private:
    ToyController m_controller;
    std::vector<std::unique_ptr<ToyCpu>> m_cpus;
};

}  // namespace cidsim
