#include "config/sim_config.h"

#include <algorithm>

namespace cidsim {

const char* const kRemapModeNames[2] = {"remappable", "posted"};
const char* const kWorkloadTypes[5] = {"bursty", "trace", "nvme", "dsa", "periodic"};

const std::string& WorkloadConfig::device() const {
    static const std::string none;
    return type == "bursty" ? bursty.device : type == "nvme" ? nvme.device
         : type == "dsa"    ? dsa.device    : type == "periodic" ? periodic.device : none;
}

int SimConfig::assigned_vcpu(const DeviceConfig& d) const {
    if (d.assigned_to.size() < 5 || d.assigned_to.compare(0, 4, "vcpu") != 0) return -1;
    const std::string n = d.assigned_to.substr(4);
    // "vcpu3", not "vcpu03": one name per vCPU.
    if (n.empty() || n.size() > 2 || n.find_first_not_of("0123456789") != std::string::npos ||
        (n.size() > 1 && n[0] == '0'))
        return -1;
    const unsigned i = unsigned(std::stoul(n));
    return i < guest_vcpus() ? int(i) : -1;
}

bool SimConfig::kvm_guest_owns_every_device() const {
    return has_vm() && std::all_of(devices.begin(), devices.end(),
                                   [&](const DeviceConfig& d) { return is_assigned(d); });
}

uint64_t SimConfig::simulated_cpus() const {
    if (!power_machine) return topology.cpus + guest_vcpus();
    uint64_t cpus = 0;  // the idle x86 CPU beside the partition records nothing
    for (uint64_t cores : power.cores_per_chip) cpus += cores * power.threads_per_core;
    return cpus;
}

void RunParams::describe(ParamVisitor& v) {
    v.time("duration_ns", duration, 1, 1e13, "simulated time measured");
    v.time("warmup_ns", warmup, 0, 1e13, "simulated time run before measuring");
    v.integer("seed", seed, "", 0, UINT64_MAX, "seed of every stochastic workload");
    v.integer("batches", batches, "", 1, 1000,
              "split the duration into this many windows (batches[] in the result, for "
              "batch-means ci95); metrics are totals over all of them");
    v.option("run_ahead", run_ahead,
             "let blocks act ahead of the kernel's time where that is exact (false: stepwise, "
             "every act at the kernel's time; the results are the same, only slower)");
    v.option("check_lookahead", check_lookahead,
             "abort when a message arrives earlier than a lookahead already relied on (always "
             "on in the sanitizer build)");
}

void DeviceConfig::describe(ParamVisitor& v) {
    v.text("name", name, "unique device name");
    v.integer("root_port", root_port, "", 0, 63, "root port the device sits behind");
    v.integers("irq_cpus", irq_cpus, 0, kMaxCpus - 1,
               "CPU of each queue's interrupt, cycled over queues: an array ([0, 2]) or a "
               "kernel cpulist (\"0-3,8\")");
    v.integer("first_vector", first_vector, "", 0x20, 0xEA,
              "first Linux vector allocated on each CPU for this device");
    params.describe(v);
    if (!vm_keys) return;
    v.text("assigned_to", assigned_to,
           "the vCPU (\"vcpu0\", ...) this device is assigned to through VFIO, \"guest\" "
           "(Xen: the whole domain, its queues dealt to the vCPUs round robin in device order), or \"\" for the "
           "host (not beside a Xen domain, whose host CPU runs only its timer); an assigned device's queues interrupt their vCPU's pCPU (it takes no irq_cpus) "
           "and the guest vector is first_vector upward. Only beside a guest (vm and vcpus, "
           "or xen)");
    visit_choice(v, "host_handler", host_handler, kHostHandlerNames,
                 "VFIO's MSI handler on the host: hard (IRQF_NO_THREAD) | threaded (forced "
                 "threading, threadirqs) | bypass_inject (the hard handler injects through the "
                 "irq-bypass consumer); only beside a KVM guest. No host handler runs for an MSI "
                 "that vm.irq_posting posts to an APICv vCPU, so then it changes nothing. "
                 "Source: systems.md B, kernel/irq/manage.c");
}

const char* const kSmtNumberingNames[2] = {"split", "adjacent"};

void TopologyParams::describe(ParamVisitor& v) {
    v.integer("sockets", sockets, "", 1, 16, "sockets; cores are split evenly across them, socket-major");
    v.integer("cpus", cpus, "", 1, kMaxCpus, "logical CPUs (x2APIC id = index)");
    v.integer("threads_per_core", threads_per_core, "", 1, 8,
              "SMT threads per core: siblings share their L1/L2, so a line one of them holds "
              "reaches the other at pid_line.same_core_ns (the pipeline's sharing is not modelled)");
    visit_choice(v, "smt_numbering", smt_numbering, kSmtNumberingNames,
             "how Linux numbers SMT siblings: split (CPU c and c + cores share a core, as Intel "
             "servers' firmware lists them) | adjacent (a core's threads consecutive); one and "
             "the same at threads_per_core 1");
    v.integer("root_ports", root_ports, "", 1, 64, "PCIe root ports (IIO stacks)");
}

}  // namespace cidsim
