#include "sim/system.h"

#include <stdexcept>

#include "config/config_loader.h"
#include "kernel/lookahead.h"
#include "workloads/bursty.h"
#include "workloads/dsa.h"
#include "workloads/nvme.h"
#include "workloads/periodic.h"
#include "workloads/trace_replay.h"

namespace cidsim {

using sc_core::sc_time;

System::System(const SimConfig& config) : m_config(config) {
    // A device overflow stops the run through sc_stop; the invariant report
    // says why, so SystemC's own notice would only clutter stdout.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    set_stepwise(!config.run.run_ahead);
    if (config.run.check_lookahead) set_lookahead_check(true);
    // The parts keep references into the config: ours outlives them.
    m_host = add(std::make_unique<X86Host>(m_config));
    if (m_config.guest_vcpus())
        m_guests = add(std::make_unique<Guests>(m_config, m_host->iommu(), m_host->cpu_count()));
    m_host->build_devices(m_guests);
    build_workloads();
    // The machines beside the host, each when the config has it.
    if (m_config.power_machine) m_power = add(std::make_unique<PowerPartition>(m_config));
}

System::~System() {
    m_workloads.clear();  // they drive the host's devices
    while (!m_parts.empty()) m_parts.pop_back();
}

void System::build_workloads() {
    for (size_t i = 0; i < m_config.workloads.size(); ++i) {
        const WorkloadConfig& w = m_config.workloads[i];
        const std::string name = "workload" + std::to_string(i);
        const std::string at = "workloads[" + std::to_string(i) + "]";
        const uint64_t seed = m_config.run.seed * 1000003u + i;
        if (w.type == "bursty") {
            m_workloads.push_back(std::make_unique<BurstyTraffic>(
                name.c_str(), w.bursty, m_host->view().device(w.bursty.device, at + ".device"),
                seed, m_config.run.warmup + m_config.run.duration));
        } else if (w.type == "nvme") {
            const unsigned dev = m_host->view().device_index(w.nvme.device, at + ".device");
            Device& device = m_host->device(dev);  // jobs fit its queues (check_references)
            // Job j runs where its queue interrupts: a host CPU, or the guest's vCPU.
            std::vector<TaskRunner*> job_cpus;
            for (unsigned j = 0; j < w.nvme.jobs; ++j)
                job_cpus.push_back(&m_host->queue_runner(dev, unsigned(w.nvme.first_queue) + j));
            m_workloads.push_back(
                std::make_unique<NvmeDisk>(name.c_str(), w.nvme, device, job_cpus, seed));
        } else if (w.type == "dsa") {
            const unsigned dev = m_host->view().device_index(w.dsa.device, at + ".device");
            m_workloads.push_back(
                std::make_unique<DsaMemfill>(name.c_str(), w.dsa, m_host->device(dev),
                                             m_host->cpu(unsigned(w.dsa.submitter_cpu))));
        } else if (w.type == "periodic") {
            m_workloads.push_back(std::make_unique<PeriodicTraffic>(
                name.c_str(), w.periodic,
                m_host->view().device(w.periodic.device, at + ".device")));
        } else if (w.type == "trace") {
            auto events = TraceReplay::parse(w.events, m_host->view(), at + ".events");
            m_workloads.push_back(
                std::make_unique<TraceReplay>(name.c_str(), std::move(events), m_host->view()));
        }
    }
}

void System::reset_stats() {
    if (m_before_reset) m_before_reset();
    m_measure_start = sc_core::sc_time_stamp();
    for (auto& part : m_parts) part->reset_stats();
    for (auto& w : m_workloads) w->reset_stats();
}

void System::close_window() {
    for (auto& part : m_parts) part->close_window();
}

void System::attach_observer(TraceObserver* obs) {
    for (auto& part : m_parts) part->attach_observer(obs);
}

void System::warm_up() {
    m_expected_end = sc_core::sc_time_stamp() + m_config.run.warmup + m_config.run.duration;
    if (m_config.run.warmup > sc_core::SC_ZERO_TIME) {
        advance(m_config.run.warmup);
        reset_stats();
    }
    m_measure_start = sc_core::sc_time_stamp();
}

void System::advance(const sc_time& t) {
    if (stopped_early()) return;
    set_run_ahead_window_end(sc_core::sc_time_stamp() + t);
    sc_core::sc_start(t);
}

void System::run() {
    warm_up();
    advance(m_config.run.duration);
}

double System::measured_seconds() const {
    return (sc_core::sc_time_stamp() - m_measure_start).to_seconds();
}

}  // namespace cidsim
