#pragma once
// SimConfig: everything one run needs, as typed Params of every block plus
// the system's shape (CPUs, root ports, devices, their interrupt routing)
// and its traffic. Filled only by config_loader; defaults are the Params
// structs' member initialisers (each family's line costs: its sections file).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/x86/cpu_core.h"
#include "model/x86/device.h"
#include "model/x86/iommu.h"
#include "model/x86/local_apic.h"
#include "model/linux/notification_handler.h"
#include "model/x86/root_port.h"
#include "model/coherence/shared_line.h"
#include "model/power/power_params.h"
#include "model/kvm/vmx_cpu.h"
#include "model/xen/xen_params.h"
#include "workloads/bursty.h"
#include "workloads/dsa.h"
#include "workloads/ipistorm.h"
#include "workloads/nvme.h"
#include "workloads/periodic.h"

namespace cidsim {

enum class RemapMode : int { Remappable, Posted };
extern const char* const kRemapModeNames[2];

struct RunParams {
    sc_core::sc_time duration = ns(1e6);  // simulated time measured
    sc_core::sc_time warmup = ns(0);      // simulated time before measuring starts
    uint64_t seed = 1;                    // seeds every stochastic workload
    uint64_t batches = 1;                 // equal batches the duration is split into (batch means)
    bool run_ahead = true;                // false: stepwise (kernel/lookahead.h)
    bool check_lookahead = false;         // abort on a broken lookahead (kernel/lookahead.h)

    void describe(ParamVisitor& v);
};

// x86 CPUs a machine may have, guests' pCPUs included (issue 18: 1 024 CPUs
// in up to 16 sockets; x2APIC ids are 32-bit).
constexpr uint64_t kMaxCpus = 1024;

// How Linux numbers SMT siblings: `split` (cores first, then their second
// threads: CPU c and c + cores share a core), as on Intel servers whose
// firmware lists every core's first thread first; `adjacent` (a core's
// threads consecutive), as POWER and many AMD systems number them.
enum class SmtNumbering : int { Split, Adjacent };
extern const char* const kSmtNumberingNames[2];

struct TopologyParams {
    uint64_t sockets = 1;     // cores are split evenly across sockets
    uint64_t cpus = 1;        // logical CPUs, x2APIC id = index
    uint64_t threads_per_core = 1;
    SmtNumbering smt_numbering = SmtNumbering::Split;
    uint64_t root_ports = 1;  // PCIe root ports (IIO stacks) on socket 0

    void describe(ParamVisitor& v);
    unsigned cores() const { return unsigned(cpus / threads_per_core); }
    // The core a CPU runs on, numbered socket-major.
    unsigned core_of(unsigned cpu) const {
        return smt_numbering == SmtNumbering::Split ? cpu % cores()
                                                    : cpu / unsigned(threads_per_core);
    }
    unsigned socket_of(unsigned cpu) const { return core_of(cpu) * unsigned(sockets) / cores(); }
};

struct DeviceConfig {
    std::string name;
    uint64_t root_port = 0;
    std::vector<uint64_t> irq_cpus{0};  // queue q interrupts CPU irq_cpus[q % size]
    uint64_t first_vector = 0x24;       // vectors are allocated per CPU from here
    DeviceParams params;
    // With vCPUs (systems.md A, B): "vcpuN" or "" (the host's); the host
    // handler of an assigned device. Visited only when `vm_keys` is set (a
    // config with vcpus), so host-only configs keep their keys.
    std::string assigned_to;
    HostHandler host_handler = HostHandler::Hard;
    bool vm_keys = false;

    void describe(ParamVisitor& v);
};

struct WorkloadConfig {
    std::string type;  // one of kWorkloadTypes
    BurstyParams bursty;
    NvmeParams nvme;
    DsaParams dsa;
    PeriodicParams periodic;
    nlohmann::json events = nlohmann::json::array();  // trace: [[t_ns, "device", queue], ...]

    // The device the workload drives ("" for a trace, which names its own).
    const std::string& device() const;
};
extern const char* const kWorkloadTypes[5];

// The cache-line costs of the Xen experiment's box (a 2018 two-socket
// server; systems.md C): xen_line's defaults, sourced in sections/xen.cpp.
SharedLineParams xen_line_defaults();
// The POWER partition's line costs, sourced in sections/power.cpp.
SharedLineParams power_line_defaults();

// One entry of a config's `overrides`: the CPUs it selects and the cost keys
// it sets there. In a POWER partition it selects by exactly one of chip
// indices, chip-major core indices or a cpulist, and sets per-CPU keys of
// `power` and, when it selects chips, keys of `xive` for those chips'
// XIVEs. On the x86 host it selects by socket indices or a cpulist, and
// sets keys of `cpu` and `lapic`. The keys are kept as given and applied
// over the base sections when the CPUs are built (power_cpu_params,
// xive_chip_params, x86_cpu_params, x86_lapic_params), so whatever sets the
// base (the platform, --set, a sweep) stays underneath every key an
// override leaves alone.
struct Override {
    std::vector<uint64_t> chips;
    std::vector<uint64_t> sockets;
    std::vector<uint64_t> cores;
    std::string cpus;  // a cpulist, "0-7,16"; "" when another selector selects
    nlohmann::json power = nlohmann::json::object();
    nlohmann::json xive = nlohmann::json::object();
    nlohmann::json cpu = nlohmann::json::object();
    nlohmann::json lapic = nlohmann::json::object();
};

struct SimConfig {
    std::string platform = "generic";  // config/platforms.h: whose values lie underneath
    RunParams run;
    RemapMode mode = RemapMode::Posted;
    TopologyParams topology;
    CpuCoreParams cpu;
    NotificationHandlerParams handler;
    LocalApicParams lapic;
    IommuParams iommu;
    SharedLineParams pid_line;
    RootPortParams root_port;
    std::vector<DeviceConfig> devices;
    std::vector<WorkloadConfig> workloads;
    // Guests (systems.md A, B): each vCPU on its own isolated pCPU, APIC id
    // topology.cpus + its index; absent (and not in the effective config)
    // for host-only configs.
    VmxCpuParams vm;
    std::vector<VcpuConfig> vcpus;
    bool has_vm() const { return !vcpus.empty(); }
    // Xen (systems.md C): with a `xen` section, xen.vcpus vCPUs of one HVM
    // domain, each on its own pCPU after topology.cpus; absent otherwise.
    XenParams xen;
    SharedLineParams xen_line = xen_line_defaults();  // the domain's lock and pirq lines
    bool xen_guest = false;
    // A POWER partition (systems.md D): with a `power` section, its CPUs
    // (after topology.cpus, which stay x86 and idle) with a XIVE per chip,
    // and an ipistorm kthread on each CPU of ipistorm.cpulist.
    PowerParams power;
    XiveParams xive;
    SharedLineParams power_line = power_line_defaults();  // the IPI path's lines
    IpistormParams ipistorm;
    std::vector<Override> overrides;  // in order: a later entry wins
    bool power_machine = false;
    // vCPUs of either hypervisor: the pCPUs after topology.cpus.
    unsigned guest_vcpus() const { return xen_guest ? unsigned(xen.vcpus) : unsigned(vcpus.size()); }
    // The vCPU a device is assigned to, or -1 (also for "guest").
    int assigned_vcpu(const DeviceConfig& d) const;
    // Assigned to the Xen guest as a whole: queue q interrupts vCPU q % n.
    bool spread_over_vcpus(const DeviceConfig& d) const {
        return xen_guest && d.assigned_to == "guest";
    }
    bool is_assigned(const DeviceConfig& d) const {
        return assigned_vcpu(d) >= 0 || spread_over_vcpus(d);
    }
    // A KVM guest owning every device: the host's interrupt mode and its
    // posted-MSI handler act on none.
    bool kvm_guest_owns_every_device() const;
    // The CPUs whose steps a run records: the host's and the vCPUs' pCPUs,
    // or a POWER partition's.
    uint64_t simulated_cpus() const;
};

}  // namespace cidsim
