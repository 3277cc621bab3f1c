#include "sim/machines/guests.h"

#include "model/x86/irte.h"
#include "model/x86/msi.h"

namespace cidsim {

// Each vCPU's pCPU is isolated: its local timer is off (nohz_full), its
// PID line is shared with the remapping unit alone (socket 0).
Guests::Guests(const SimConfig& config, Iommu& iommu, unsigned host_cpus)
    : m_config(config), m_iommu(iommu) {
    const unsigned v = config.guest_vcpus();
    const unsigned n = host_cpus;
    const SharedLine line(config.pid_line, std::vector<uint8_t>(n + 1 + v, 0));
    LocalApicParams lapic = config.lapic;
    lapic.timer_period = sc_core::SC_ZERO_TIME;
    if (config.xen_guest) {
        // The domain's lines are shared by its vCPUs' pCPUs (agents 0..v-1
        // there), split evenly across xen.sockets.
        std::vector<uint8_t> node(v);
        for (unsigned i = 0; i < v; ++i) node[i] = uint8_t(i * config.xen.sockets / v);
        m_xen_domain = std::make_unique<XenDomain>(config.xen, config.xen_line, node,
                                                   config.run.seed * 1000003u + 999983u);
    }
    for (unsigned i = 0; i < v; ++i) {
        const std::string name = "vcpu" + std::to_string(i);
        const uint32_t apic_id = n + i;
        m_apics.push_back(
            std::make_unique<LocalApic>((name + "_pcpu_lapic").c_str(), lapic, apic_id));
        m_pids.push_back(std::make_unique<PostedDescriptor>(
            guest_pid_address(i), kPostedIntrVector, apic_id, line));
        if (config.xen_guest)
            m_xen.push_back(std::make_unique<XenPcpu>(name.c_str(), config.xen, i,
                                                      AgentId(n + 1 + i), *m_apics[i],
                                                      *m_pids[i], *m_xen_domain));
        else
            m_vmx.push_back(std::make_unique<VmxCpu>(name.c_str(), config.vm, config.vcpus[i], i,
                                                     AgentId(n + 1 + i), *m_apics[i], *m_pids[i]));
        // The remapping unit is the LAPIC's one sender; VmxCpu acts at the
        // kernel's time and attaches no CPU side to its PID, so neither the
        // unit nor anyone else runs ahead past what it writes.
        connect(iommu.apic_port(apic_id), m_apics[i]->messages_in());
        iommu.attach_descriptor(*m_pids[i]);
    }
}

// The plan (plan_vectors) says whether a queue is posted: VT-d posting for
// the vCPU, else a host vector the hypervisor injects from.
void Guests::assign_device(size_t d, Device& dev, const std::vector<QueueVectors>& planned,
                           std::vector<TaskRunner*>& runners, std::vector<unsigned>& irq_cpu) {
    const DeviceConfig& dc = m_config.devices[d];
    const bool xen = m_config.xen_guest;
    runners.assign(dev.queues(), nullptr);
    for (unsigned q = 0; q < dev.queues(); ++q) {
        const QueueVectors& r = planned[q];
        const unsigned vcpu = r.cpu;
        const uint32_t apic_id = m_apics[vcpu]->apic_id();
        PostedDescriptor& pid = *m_pids[vcpu];
        Irte e;
        if (r.posted) {
            e = Irte::posted_to(r.guest_vector, pid.address());
            if (xen) m_xen[vcpu]->assign_posted(r.guest_vector, dev, q);
            else m_vmx[vcpu]->assign_posted(r.guest_vector, dev, q);
        } else {
            e = Irte::remappable(r.vector, apic_id);
            if (xen)
                m_xen[vcpu]->assign(r.vector, m_xen_domain->bind(vcpu, r.guest_vector),
                                    r.guest_vector, dev, q);
            else
                m_vmx[vcpu]->assign(r.vector, r.guest_vector, dc.host_handler, dev, q);
        }
        if (xen) runners[q] = m_xen[vcpu].get();
        e.svt = SourceValidation::RequesterId;
        e.sid = dev.source_id();
        m_iommu.write_irte(r.irte_index, e);
        m_iommu.add_source(dev, r.posted ? &pid : nullptr, dev.root_port(), apic_id);
        dev.program_msix(q, msi::remappable_address(uint16_t(r.irte_index), false), 0);
        irq_cpu.push_back(0);  // no host CPU handles it
    }
}

void Guests::close_window() {
    for (auto& x : m_xen) x->close_window();
    if (m_xen_domain) m_xen_domain->close_window();
}

void Guests::reset_stats() {
    for (auto& v : m_vmx) v->reset_stats();
    for (auto& x : m_xen) x->reset_stats();
    if (m_xen_domain) m_xen_domain->reset_stats();
    for (auto& a : m_apics) a->reset_stats();
    for (auto& p : m_pids) p->reset_stats();
}

}  // namespace cidsim
