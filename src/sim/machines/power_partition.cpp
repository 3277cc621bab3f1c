#include "sim/machines/power_partition.h"

#include "config/config_loader.h"

namespace cidsim {

PowerPartition::PowerPartition(const SimConfig& config)
    : m_layout(config.power.cores_per_chip, unsigned(config.power.threads_per_core)),
      m_cpu_params(power_cpu_params(config)),
      m_xive_params(xive_chip_params(config)) {
    const auto topology = m_layout.line_topology();
    for (unsigned k = 0; k < m_layout.chips(); ++k)
        m_xives.push_back(
            std::make_unique<Xive>(m_xive_params.empty() ? config.xive : m_xive_params[k], k));
    const SharedLine line(config.power_line, topology);
    m_lines.assign(m_layout.cpus(), IpiLines{line, line, line});
    const bool per_chip = config.power.ipi_descs == IpiDescs::Chip;
    // The lines' random streams stay apart from the CPUs' (seed * 1000003 + cpu, cpu < 1024).
    for (unsigned k = 0; k < (per_chip ? m_layout.chips() : 1); ++k)
        m_descs.push_back(std::make_unique<IrqDesc>("ipi_desc" + std::to_string(k), config.power_line, topology,
                                                    config.power.irqdebug, config.power.desc_line_order,
                                                    config.run.seed * 1000003u + 999983u * (k + 1)));
    for (unsigned c = 0; c < m_layout.cpus(); ++c) {
        const unsigned chip = m_layout.chip_of(c);
        m_cpus.push_back(std::make_unique<PowerCpu>(
            ("power_cpu" + std::to_string(c)).c_str(),
            m_cpu_params.empty() ? config.power : m_cpu_params[c], c, m_layout,
            m_xives[chip]->params(), m_lines, *m_descs[per_chip ? chip : 0],
            config.run.seed * 1000003u + c));
    }
    const std::vector<unsigned> storm = config.ipistorm.cpus();
    const unsigned n = unsigned(storm.size());
    for (unsigned i = 0; i < n; ++i) {
        StormThread t;
        // smp_call_function_single((mycpu + offset) % num_cpus, ...)
        t.target = unsigned((storm[i] + config.ipistorm.offset) % n);
        t.wait = config.ipistorm.wait;
        t.delay = sc_core::sc_time(double(config.ipistorm.delay_us), sc_core::SC_US);
        if (t.target != storm[i]) {
            t.target_queue = m_cpus[t.target].get();
            connect_call(storm[i], t.target);
        }
        m_cpus[storm[i]]->bind_thread(t);
    }
}

// The links of a kthread on `sender` calling `target`: its trigger stores
// to the target's chip's XIVE, which raises the target's exception, its
// poll kicks to the target, and the target's csd_unlock back.
void PowerPartition::connect_call(unsigned sender, unsigned target) {
    Xive& xive = *m_xives[m_layout.chip_of(target)];
    PowerCpu& s = *m_cpus[sender];
    PowerCpu& t = *m_cpus[target];
    connect(s.trigger_out(), xive.triggers_in());
    if (!xive.exception_out(target).connected())  // a CPU more than one kthread calls
        connect(xive.exception_out(target), t.messages_in());
    connect(s.kick_out(), t.messages_in());
    connect(t.release_out(sender), s.messages_in());
}

void PowerPartition::close_window() {
    for (auto& c : m_cpus) c->close_window();
}

void PowerPartition::reset_stats() {
    for (auto& c : m_cpus) c->reset_stats();
    for (auto& d : m_descs) d->reset_stats();
    for (auto& x : m_xives) x->reset_stats();
    for (IpiLines& l : m_lines) {
        l.queue.reset_stats();
        l.message.reset_stats();
        l.csd.reset_stats();
    }
}

}  // namespace cidsim
