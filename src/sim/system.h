#pragma once
// System: elaborates one simulated machine from a SimConfig (CPUs with their
// LAPIC and PID, root ports, the IOMMU, devices with their interrupt routing
// and IRTEs, workloads) and runs it. SystemC elaborates once per process, so
// one process builds one System.
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "config/sim_config.h"
#include "model/x86/cpu_core.h"
#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/linux/irq_thread.h"
#include "model/x86/local_apic.h"
#include "model/x86/posted_descriptor.h"
#include "model/x86/root_port.h"
#include "model/kvm/vmx_cpu.h"
#include "model/xen/xen_domain.h"
#include "model/xen/xen_pcpu.h"
#include "sim/power_partition.h"
#include "workloads/workload.h"

namespace cidsim {

// Where one device queue's interrupt goes.
struct VectorRoute {
    unsigned device;
    unsigned queue;
    unsigned cpu;
    Vector vector;
    uint32_t irte_index;
};

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
    // Called by reset_stats() before it clears anything, so an observer
    // can add up what the ending window counted (nullptr: none).
    void on_reset(std::function<void()> before) { m_before_reset = std::move(before); }
    // Simulated seconds in the current measurement window.
    double measured_seconds() const;
    // Where run() should end: warm-up + duration after it started.
    sc_core::sc_time expected_end() const { return m_expected_end; }
    // True when a device overflowed its max_in_flight and stopped the run.
    bool stopped_early() const;

    const SimConfig& config() const { return m_config; }
    Iommu& iommu() { return *m_iommu; }
    const Iommu& iommu() const { return *m_iommu; }
    unsigned cpu_count() const { return unsigned(m_cpus.size()); }
    CpuCore& cpu(unsigned i) { return *m_cpus[i]; }
    const CpuCore& cpu(unsigned i) const { return *m_cpus[i]; }
    LocalApic& apic(unsigned i) { return *m_apics[i]; }
    const LocalApic& apic(unsigned i) const { return *m_apics[i]; }
    PostedDescriptor& pid(unsigned i) { return *m_pids[i]; }
    const PostedDescriptor& pid(unsigned i) const { return *m_pids[i]; }
    const RootPort& root_port(unsigned i) const { return *m_ports[i]; }
    unsigned device_count() const { return unsigned(m_devices.size()); }
    const Device& device(unsigned i) const { return *m_devices[i]; }
    unsigned root_port_count() const { return unsigned(m_ports.size()); }
    const std::vector<VectorRoute>& routes() const { return m_routes; }
    // A route's irq_desc (its lines follow the vector's CPU).
    const EdgeIrqDesc& irq_desc(size_t route) const { return *m_irq_descs.at(route); }
    const SystemView& view() const { return m_view; }
    const std::vector<std::unique_ptr<Workload>>& workloads() const { return m_workloads; }
    AgentId iommu_agent() const { return AgentId(m_cpus.size()); }
    // Guests (systems.md A, B): one VmxCpu per vCPU, on its own pCPU (APIC
    // id cpu_count() + i) with its own LAPIC and the vCPU's PID.
    unsigned vcpu_count() const { return unsigned(m_vmx.size()); }
    const VmxCpu& vmx_cpu(unsigned i) const { return *m_vmx[i]; }
    VmxCpu& vmx_cpu(unsigned i) { return *m_vmx[i]; }
    const LocalApic& vcpu_apic(unsigned i) const { return *m_vcpu_apics[i]; }
    // A Xen guest (systems.md C): one XenPcpu per vCPU, on its own pCPU
    // (APIC id cpu_count() + i), and the domain they share.
    unsigned xen_vcpu_count() const { return unsigned(m_xen.size()); }
    const XenPcpu& xen_pcpu(unsigned i) const { return *m_xen[i]; }
    XenPcpu& xen_pcpu(unsigned i) { return *m_xen[i]; }
    const XenDomain& xen_domain() const { return *m_xen_domain; }
    XenDomain& xen_domain() { return *m_xen_domain; }
    // The POWER partition (systems.md D), or nullptr.
    const PowerPartition* power() const { return m_power.get(); }
    PowerPartition* power() { return m_power.get(); }
    // Queues of assigned devices: those posted straight into a vCPU's PID.
    uint64_t posted_to_guest_queues() const { return m_posted_to_guest; }
    static uint64_t guest_pid_address(unsigned vcpu) { return 0x20000000 + uint64_t(vcpu) * 64; }

    // Attaches one observer to every block (nullptr detaches).
    void attach_observer(TraceObserver* obs);
    // Re-points route `route`'s interrupt at `cpu` as Linux's affinity change
    // does: a free vector on the new CPU gets the driver handler, the IRTE is
    // rewritten and its IEC entry invalidated [6.5.2.5]. The old CPU keeps
    // its vector (and handler) until vector cleanup frees it. Returns the
    // route as it was.
    // Needs prepare_route_moves() first.
    VectorRoute move_route(size_t route, unsigned cpu);
    // Before the run: routes may move during it, so no block may rely on
    // them staying put to act ahead of the kernel's time.
    void prepare_route_moves();
    // The route that owns (or owned) a vector on a CPU, or -1.
    int route_of(unsigned cpu, Vector vector) const;

    // The IRTE for a route in the configured mode.
    Irte irte_for(const VectorRoute& r, unsigned cpu) const;
    static uint64_t pid_address(unsigned cpu) { return 0x10000000 + uint64_t(cpu) * 64; }

private:
    void build_cpus();
    void build_devices();
    void build_workloads();
    void build_vcpus();
    // What a route's vector calls: the device's handler, or its IRQ thread.
    IrqHandler& route_handler(size_t route);
    // Routes device `d`'s queues to the vCPU it is assigned to (`vcpu`, or
    // when -1 each queue to the next vCPU, round robin over the guest).
    void assign_device(size_t d, Device& dev, int vcpu, uint32_t& next_index);
    // A host CPU's `cpu` params, its overrides applied.
    const CpuCoreParams& cpu_params(unsigned cpu) const {
        return m_cpu_params.empty() ? m_config.cpu : m_cpu_params[cpu];
    }

    SimConfig m_config;
    std::vector<CpuCoreParams> m_cpu_params;  // per host CPU; empty: all take m_config.cpu
    std::vector<std::unique_ptr<RootPort>> m_ports;
    std::vector<std::unique_ptr<LocalApic>> m_apics;
    std::vector<std::unique_ptr<PostedDescriptor>> m_pids;
    std::vector<std::unique_ptr<CpuCore>> m_cpus;
    std::vector<std::unique_ptr<LocalApic>> m_vcpu_apics;
    std::vector<std::unique_ptr<PostedDescriptor>> m_vcpu_pids;
    std::function<void()> m_before_reset;
    std::vector<std::unique_ptr<VmxCpu>> m_vmx;
    std::unique_ptr<XenDomain> m_xen_domain;
    std::vector<std::unique_ptr<XenPcpu>> m_xen;
    std::unique_ptr<PowerPartition> m_power;
    std::vector<std::vector<TaskRunner*>> m_queue_runner;  // per device, per queue: a guest's
    unsigned m_next_guest_vcpu = 0;  // "guest" queues are dealt round robin, in device order
    std::vector<VectorBits> m_vcpu_host_vectors;   // per vCPU's pCPU
    std::vector<VectorBits> m_vcpu_guest_vectors;  // per vCPU
    uint64_t m_posted_to_guest = 0;
    std::unique_ptr<Iommu> m_iommu;
    std::vector<std::unique_ptr<Device>> m_devices;
    std::vector<std::unique_ptr<Workload>> m_workloads;
    std::vector<VectorRoute> m_routes;
    // Per route: the IRQ thread of a threaded driver (nullptr: hard handler).
    std::unique_ptr<IrqThreadRunQueues> m_irq_runqueues;
    std::vector<std::unique_ptr<IrqThread>> m_irq_threads;
    std::vector<std::unique_ptr<EdgeIrqDesc>> m_irq_descs;  // per route
    std::shared_ptr<const LineTopology> m_host_lines;      // the host CPUs' (and the IOMMU's)
    std::vector<VectorBits> m_used_vectors;            // per CPU
    std::vector<std::array<int, 256>> m_vector_owner;  // per CPU: route index or -1
    SystemView m_view;
    sc_core::sc_time m_measure_start;
    sc_core::sc_time m_expected_end;
    bool m_routes_may_move = false;
};

}  // namespace cidsim
