#pragma once
// System: one simulated machine built from a SimConfig, and its run. It
// holds the machine's parts (sim/machine.h), built in a fixed order that
// fixes SystemC's process order: the x86 host's CPUs, the guests' vCPUs
// (a KVM guest or a Xen domain), the host's devices with their routing,
// the workloads, and the POWER partition. SystemC elaborates once per
// process, so one process builds one System.
#include <functional>
#include <memory>
#include <vector>

#include "config/sim_config.h"
#include "sim/machines/guests.h"
#include "sim/machines/power_partition.h"
#include "sim/machines/x86_host.h"
#include "workloads/workload.h"

namespace cidsim {

class System {
public:
    explicit System(const SimConfig& config);
    ~System();

    // Runs the warm-up (statistics then reset) and the measured duration.
    void run();
    // The same in steps: warm-up, then measured stretches; reset_stats()
    // starts a new measurement window (batch means).
    void warm_up();
    void advance(const sc_core::sc_time& t);
    void reset_stats();
    // A measurement window ends now (before its results are read).
    void close_window();
    // Called by reset_stats() before it clears anything, so an observer
    // can add up what the ending window counted (nullptr: none).
    void on_reset(std::function<void()> before) { m_before_reset = std::move(before); }
    // Simulated seconds in the current measurement window.
    double measured_seconds() const;
    // Where run() should end: warm-up + duration after it started.
    sc_core::sc_time expected_end() const { return m_expected_end; }
    // True when a device overflowed its max_in_flight and stopped the run.
    bool stopped_early() const { return m_host->stopped_early(); }
    // Attaches one observer to every block that traces (nullptr detaches).
    void attach_observer(TraceObserver* obs);

    const SimConfig& config() const { return m_config; }
    // The parts. Every config has the x86 host; the POWER partition is
    // nullptr when the config has none (the guests: see vcpu_count()).
    X86Host& host() { return *m_host; }
    const X86Host& host() const { return *m_host; }
    const PowerPartition* power() const { return m_power; }
    PowerPartition* power() { return m_power; }
    // The part of type Part, or nullptr (for a family's report).
    template <class Part>
    const Part* part() const {
        for (const auto& p : m_parts)
            if (const auto* found = dynamic_cast<const Part*>(p.get())) return found;
        return nullptr;
    }
    const std::vector<std::unique_ptr<Workload>>& workloads() const { return m_workloads; }

    // A KVM guest's vCPUs (systems.md A, B), each on its own pCPU (APIC id
    // host().cpu_count() + i); 0 without one.
    unsigned vcpu_count() const { return m_guests ? m_guests->vcpu_count() : 0; }
    const VmxCpu& vmx_cpu(unsigned i) const { return m_guests->vmx_cpu(i); }
    VmxCpu& vmx_cpu(unsigned i) { return m_guests->vmx_cpu(i); }
    // A Xen domain's vCPUs (systems.md C) and the domain; 0 without one.
    unsigned xen_vcpu_count() const { return m_guests ? m_guests->xen_vcpu_count() : 0; }
    const XenPcpu& xen_pcpu(unsigned i) const { return m_guests->xen_pcpu(i); }
    XenPcpu& xen_pcpu(unsigned i) { return m_guests->xen_pcpu(i); }
    const XenDomain& xen_domain() const { return m_guests->xen_domain(); }
    XenDomain& xen_domain() { return m_guests->xen_domain(); }

private:
    void build_workloads();
    // Keeps `part` (the last built).
    template <class Part>
    Part* add(std::unique_ptr<Part> part) {
        Part* p = part.get();
        m_parts.push_back(std::move(part));
        return p;
    }

    SimConfig m_config;
    std::vector<std::unique_ptr<MachinePart>> m_parts;  // in build order, destroyed in reverse
    X86Host* m_host = nullptr;
    Guests* m_guests = nullptr;
    PowerPartition* m_power = nullptr;
    std::vector<std::unique_ptr<Workload>> m_workloads;
    std::function<void()> m_before_reset;
    sc_core::sc_time m_measure_start;
    sc_core::sc_time m_expected_end;
};

}  // namespace cidsim
