#pragma once
// Guests: the vCPUs of a KVM guest (systems.md A, B: one VmxCpu per vCPU)
// or of a Xen HVM domain (systems.md C: one XenPcpu per vCPU and the domain
// they share), each on its own isolated pCPU after the host's CPUs (APIC id
// host CPUs + i) with its own LAPIC, fed by the remapping unit, and the
// vCPU's posted-interrupt descriptor; and the routing of an assigned
// device's queues to them (VFIO's, or Xen's pirqs).
#include <memory>
#include <vector>

#include "config/sim_config.h"
#include "config/vector_plan.h"
#include "model/base/task_runner.h"
#include "model/kvm/vmx_cpu.h"
#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/x86/local_apic.h"
#include "model/x86/posted_descriptor.h"
#include "model/xen/xen_domain.h"
#include "model/xen/xen_pcpu.h"
#include "sim/machine.h"

namespace cidsim {

class Guests final : public MachinePart {
public:
    // The config's vCPUs (config.guest_vcpus() > 0), after the host's
    // `host_cpus` CPUs; the remapping unit's agent is `host_cpus`.
    Guests(const SimConfig& config, Iommu& iommu, unsigned host_cpus);

    // Routes device `d`'s queues to their vCPUs as `planned` (plan_vectors),
    // posted or remapped as the hypervisor would program the IRTEs.
    // `runners[q]` gets what runs queue q's I/O thread (a Xen vCPU; nullptr
    // for KVM), `irq_cpu` a 0 per queue (no host CPU).
    void assign_device(size_t d, Device& dev, const std::vector<QueueVectors>& planned,
                       std::vector<TaskRunner*>& runners, std::vector<unsigned>& irq_cpu);

    unsigned vcpu_count() const { return unsigned(m_vmx.size()); }
    const VmxCpu& vmx_cpu(unsigned i) const { return *m_vmx[i]; }
    VmxCpu& vmx_cpu(unsigned i) { return *m_vmx[i]; }
    unsigned xen_vcpu_count() const { return unsigned(m_xen.size()); }
    const XenPcpu& xen_pcpu(unsigned i) const { return *m_xen[i]; }
    XenPcpu& xen_pcpu(unsigned i) { return *m_xen[i]; }
    const XenDomain& xen_domain() const { return *m_xen_domain; }
    XenDomain& xen_domain() { return *m_xen_domain; }

    void reset_stats() override;
    // Xen's mode times and event_lock's holds under way count their part so
    // far (a KVM vCPU's mode time is read to the present: VmxCpu::guest_time).
    void close_window() override;

    static uint64_t guest_pid_address(unsigned vcpu) { return 0x20000000 + uint64_t(vcpu) * 64; }

private:
    const SimConfig& m_config;
    Iommu& m_iommu;
    std::vector<std::unique_ptr<LocalApic>> m_apics;          // per vCPU's pCPU
    std::vector<std::unique_ptr<PostedDescriptor>> m_pids;    // per vCPU
    std::vector<std::unique_ptr<VmxCpu>> m_vmx;
    std::unique_ptr<XenDomain> m_xen_domain;
    std::vector<std::unique_ptr<XenPcpu>> m_xen;
};

}  // namespace cidsim
