#pragma once
// Which vectors and IRTE each device queue gets, worked out from the config
// alone: a config whose queues cannot all get a vector is refused when it is
// loaded (naming the key, and under `--set`s the one that broke it), and the
// machine is built from the same plan. Linux gives a queue the lowest free
// vector at or above the device's first_vector on its CPU, below the
// posted-MSI notification vector (arch/x86/kernel/apic/vector.c,
// irq_matrix_alloc); a hypervisor gives an assigned queue a guest vector on
// its vCPU and, unless the IRTE posts to the vCPU, a host vector on the
// vCPU's pCPU (systems.md A, C). Vectors moved during a run are the host's
// business (X86Host::move_route), not the plan's.
#include <cstdint>
#include <vector>

#include "config/sim_config.h"
#include "model/base/vector_bits.h"

namespace cidsim {

struct QueueVectors {
    unsigned cpu = 0;        // the host CPU, or for an assigned device its vCPU
    Vector vector = 0;       // the host's vector (none when posted to a guest)
    Vector guest_vector = 0; // an assigned device's vector in the guest
    bool posted = false;     // assigned, and its IRTE posts to the vCPU's descriptor
    uint32_t irte_index = 0;
};

struct VectorPlan {
    std::vector<std::vector<QueueVectors>> devices;  // [device][queue]
    std::vector<VectorBits> host_cpu_vectors;        // per host CPU: the vectors taken
};

// Throws ConfigError naming the device whose queue finds no free vector.
// The config's references are checked already (check_references): irq_cpus
// exist and are not empty for a host device, vCPUs exist for an assigned one.
VectorPlan plan_vectors(const SimConfig& c);

}  // namespace cidsim
