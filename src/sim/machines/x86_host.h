#pragma once
// X86Host: the x86 machine every config has (mechanism.md,
// docs/specification.md): its CPUs, each with its LAPIC and
// posted-interrupt descriptor, the PCIe root ports, the remapping unit, and
// the devices with their interrupt routing (an IRTE per queue, remappable
// or posted to its CPU's PID, and the driver's handler, or its IRQ thread,
// on that CPU's vector). A device assigned to a guest is routed by Guests
// instead, where the device loop meets it.
#include <array>
#include <memory>
#include <vector>

#include "config/sim_config.h"
#include "model/base/vector_bits.h"
#include "model/linux/edge_irq_desc.h"
#include "model/linux/irq_thread.h"
#include "model/x86/cpu_core.h"
#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/x86/local_apic.h"
#include "model/x86/posted_descriptor.h"
#include "model/x86/root_port.h"
#include "sim/machine.h"
#include "workloads/workload.h"

namespace cidsim {

class Guests;

// Where one device queue's interrupt goes.
struct VectorRoute {
    unsigned device;
    unsigned queue;
    unsigned cpu;
    Vector vector;
    uint32_t irte_index;
};

class X86Host final : public MachinePart {
public:
    // Builds the CPUs, root ports and the remapping unit (the devices come
    // with build_devices, after any guest's vCPUs).
    explicit X86Host(const SimConfig& config);

    // Builds the devices and routes their queues; a device assigned to a
    // guest goes to `guests`.
    void build_devices(Guests* guests);

    Iommu& iommu() { return *m_iommu; }
    const Iommu& iommu() const { return *m_iommu; }
    unsigned cpu_count() const { return unsigned(m_cpus.size()); }
    CpuCore& cpu(unsigned i) { return *m_cpus[i]; }
    const CpuCore& cpu(unsigned i) const { return *m_cpus[i]; }
    LocalApic& apic(unsigned i) { return *m_apics[i]; }
    const LocalApic& apic(unsigned i) const { return *m_apics[i]; }
    PostedDescriptor& pid(unsigned i) { return *m_pids[i]; }
    const PostedDescriptor& pid(unsigned i) const { return *m_pids[i]; }
    unsigned root_port_count() const { return unsigned(m_ports.size()); }
    const RootPort& root_port(unsigned i) const { return *m_ports[i]; }
    unsigned device_count() const { return unsigned(m_devices.size()); }
    Device& device(unsigned i) { return *m_devices[i]; }
    const Device& device(unsigned i) const { return *m_devices[i]; }
    const std::vector<VectorRoute>& routes() const { return m_routes; }
    // A route's irq_desc (its lines follow the vector's CPU).
    const EdgeIrqDesc& irq_desc(size_t route) const { return *m_irq_descs.at(route); }
    const SystemView& view() const { return m_view; }
    AgentId iommu_agent() const { return AgentId(m_cpus.size()); }
    // What runs an I/O thread of device d's queue q: a guest's vCPU, or
    // the host CPU its interrupt goes to.
    TaskRunner& queue_runner(unsigned d, unsigned q);
    // True when a device overflowed its max_in_flight and stopped the run.
    bool stopped_early() const;

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

    void reset_stats() override;
    void close_window() override;
    void attach_observer(TraceObserver* obs) override;

private:
    // What a route's vector calls: the device's handler, or its IRQ thread.
    IrqHandler& route_handler(size_t route);
    // A host CPU's `cpu` params, its overrides applied.
    const CpuCoreParams& cpu_params(unsigned cpu) const {
        return m_cpu_params.empty() ? m_config.cpu : m_cpu_params[cpu];
    }

    const SimConfig& m_config;
    std::vector<CpuCoreParams> m_cpu_params;  // per host CPU; empty: all take m_config.cpu
    std::shared_ptr<const LineTopology> m_host_lines;  // the host CPUs' (and the IOMMU's)
    std::unique_ptr<Iommu> m_iommu;
    std::vector<std::unique_ptr<LocalApic>> m_apics;
    std::vector<std::unique_ptr<PostedDescriptor>> m_pids;
    std::vector<std::unique_ptr<CpuCore>> m_cpus;
    std::vector<std::unique_ptr<RootPort>> m_ports;
    std::vector<std::unique_ptr<Device>> m_devices;
    std::vector<std::vector<TaskRunner*>> m_queue_runner;  // per device, per queue: a guest's
    std::vector<VectorRoute> m_routes;
    // Per route: the IRQ thread of a threaded driver (nullptr: hard handler).
    std::unique_ptr<IrqThreadRunQueues> m_irq_runqueues;
    std::vector<std::unique_ptr<IrqThread>> m_irq_threads;
    std::vector<std::unique_ptr<EdgeIrqDesc>> m_irq_descs;  // per route
    std::vector<VectorBits> m_used_vectors;            // per CPU
    std::vector<std::array<int, 256>> m_vector_owner;  // per CPU: route index or -1
    SystemView m_view;
    bool m_routes_may_move = false;
};

}  // namespace cidsim
