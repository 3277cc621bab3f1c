#include "config/vector_plan.h"

#include "config/json_text.h"

namespace cidsim {

VectorPlan plan_vectors(const SimConfig& c) {
    VectorPlan plan;
    plan.host_cpu_vectors.assign(c.topology.cpus, VectorBits{});
    const unsigned vcpus = c.guest_vcpus();
    std::vector<VectorBits> guest_vectors(vcpus);
    std::vector<VectorBits> vcpu_host_vectors(vcpus);  // on each vCPU's pCPU
    unsigned next_vcpu = 0;  // queues spread over the guest are dealt round robin, in device order
    uint32_t next_index = 0;
    for (size_t d = 0; d < c.devices.size(); ++d) {
        const DeviceConfig& dc = c.devices[d];
        const int fixed_vcpu = c.assigned_vcpu(dc);
        const bool assigned = c.is_assigned(dc);
        std::vector<QueueVectors>& queues = plan.devices.emplace_back();
        for (unsigned q = 0; q < dc.params.vectors; ++q) {
            QueueVectors r;
            // The lowest free vector from first_vector; the error says which
            // vector (`what`) was sought on what ("CPU 3", "vcpu1's pCPU").
            const auto take = [&](VectorBits& used, const char* what, const char* on,
                                  const char* after) {
                const unsigned v =
                    used.first_clear(unsigned(dc.first_vector), kPostedMsiNotificationVector);
                if (v >= kPostedMsiNotificationVector)
                    throw ConfigError(
                        "devices[" + std::to_string(d) + "].vectors: " +
                        std::to_string(dc.params.vectors) +
                        (dc.params.vectors == 1 ? " queue" : " queues") + ", but queue " +
                        std::to_string(q) + " finds no free " + what + " vector on " + on +
                        std::to_string(r.cpu) + after +
                        " from first_vector " + format_hex(dc.first_vector) + " up to " +
                        format_hex(kPostedMsiNotificationVector - 1));
                used.set(v);
                return Vector(v);
            };
            r.irte_index = next_index++;
            if (!assigned) {
                r.cpu = unsigned(dc.irq_cpus[q % dc.irq_cpus.size()]);
                r.vector = take(plan.host_cpu_vectors[r.cpu], "device", "CPU ", "");
            } else {
                r.cpu = fixed_vcpu >= 0 ? unsigned(fixed_vcpu) : next_vcpu++ % vcpus;
                // pi_update_irte's conditions (systems.md A): posting available,
                // APICv on the vCPU, one destination vCPU and fixed delivery
                // (always, here); Xen's (systems.md C): iommu=intpost.
                r.posted = c.xen_guest ? c.xen.variant == XenVariant::Intpost
                                       : c.vm.irq_posting && c.vcpus[r.cpu].apicv;
                r.guest_vector = take(guest_vectors[r.cpu], "guest", "vcpu", "");
                if (!r.posted)
                    r.vector = take(vcpu_host_vectors[r.cpu], "host", "vcpu", "'s pCPU");
            }
            queues.push_back(r);
        }
    }
    return plan;
}

}  // namespace cidsim
