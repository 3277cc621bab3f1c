#include "config/checks.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "config/json_text.h"
#include "config/overrides.h"
#include "config/printable.h"
#include "config/vector_plan.h"

namespace cidsim {

using nlohmann::json;

namespace {

// Linux programs no clock event closer than 1 us (kernel/time/clockevents.c,
// cev_delta2ns: "Deltas less than 1usec are pointless noise"), the LAPIC
// timer's too.
constexpr double kMinTimerPeriodNs = 1000;

// How a time not before the run's end stands to it, for the messages.
const char* at_or_beyond_end(const SimConfig& c, const sc_core::sc_time& t) {
    return t > c.run.warmup + c.run.duration ? "beyond" : "at";
}

// Trace events: [t_ns, "device", queue], inside the run, on existing queues.
void check_trace(const SimConfig& c, const WorkloadConfig& w, const std::string& at) {
    const json& events = w.events;
    if (!events.is_array())
        throw ConfigError(at + "events: expected an array of [t_ns, \"device\", queue], found " +
                          show_json(events));
    // A device that sends nothing needs no workload; an empty list is a
    // trace lost on its way into the config.
    if (events.empty())
        throw ConfigError(at + "events: an empty trace sends no MSI (drop the workload for a "
                          "device that sends none)");
    if (events.size() > kMaxTraceEvents)
        throw ConfigError(at + "events: expected at most " + std::to_string(kMaxTraceEvents) +
                          " events, found " + std::to_string(events.size()));
    const double end_ns = ns_of(c.run.warmup + c.run.duration);
    for (size_t i = 0; i < events.size(); ++i) {
        const json& e = events[i];
        const std::string ev = at + "events[" + std::to_string(i) + "]";
        if (!e.is_array() || e.size() != 3 || !e[0].is_number() || !e[1].is_string() ||
            !e[2].is_number())
            throw ConfigError(ev + ": expected [t_ns, \"device\", queue], found " + show_json(e));
        const double t = e[0].get<double>();
        if (!std::isfinite(t) || t < 0)
            throw ConfigError(ev + ": expected a time >= 0 ns, found " + show_json(e[0]));
        if (t > 0 && ns(t) == sc_core::SC_ZERO_TIME)
            throw ConfigError(ev + ": expected 0 or a time that rounds to 1 ps at least (the "
                              "simulation's resolution), found " + show_json(e[0]));
        // As replayed: rounded to the kernel's picosecond (19999.9996 is 20000).
        if (t >= end_ns || ns(t) >= c.run.warmup + c.run.duration)
            throw ConfigError(ev + ": at " + format_number(t) + " ns, " +
                              at_or_beyond_end(c, ns(t)) +
                              " the end of the run (run.warmup_ns + run.duration_ns = " +
                              format_number(end_ns) + " ns); it would never be replayed");
        const std::string name = e[1].get<std::string>();
        auto dev = std::find_if(c.devices.begin(), c.devices.end(),
                                [&](const DeviceConfig& d) { return d.name == name; });
        if (dev == c.devices.end()) {
            std::vector<std::string> names;
            for (const DeviceConfig& d : c.devices) names.push_back(d.name);
            throw ConfigError(ev + ": no device named " + show_json(e[1]) + " (devices: " +
                              join_keys(names) + ")");
        }
        const double queue = e[2].get<double>();
        if (queue < 0 || queue >= double(dev->params.vectors))
            throw ConfigError(ev + ": queue " + show_json(e[2]) + " does not exist: " + name + " has " +
                              std::to_string(dev->params.vectors) + " queues (vectors)");
        try {
            (void)whole_number(e[2], 0, dev->params.vectors - 1);  // 1.0 is queue 1, 1.5 none
        } catch (const ConfigError& x) {
            throw ConfigError(ev + ": queue: " + x.what());
        }
    }
}

// An NVMe or DSA workload reaps its device's completions: another
// workload on the device would have them delivered to it.
void check_device_alone(const SimConfig& c, size_t index, const std::string& at) {
    const std::string& device = c.workloads[index].device();
    for (size_t j = 0; j < c.workloads.size(); ++j) {
        const WorkloadConfig& other = c.workloads[j];
        if (j == index) continue;
        bool drives = other.type != "trace" && other.device() == device;
        if (other.type == "trace" && other.events.is_array())
            for (const json& e : other.events)
                drives = drives || (e.is_array() && e.size() == 3 && e[1] == device);
        if (drives)
            throw ConfigError(at + "device: '" + device + "' is also driven by workloads[" +
                              std::to_string(j) + "]: an " + c.workloads[index].type +
                              " workload reaps its device's completions, so it drives the "
                              "device alone");
    }
}

// Where a host CPU's `section`.`key` comes from, for an error: the last
// override that sets it there ("overrides[2].lapic.tpr"), else the base
// section ("lapic.tpr").
std::string key_of_cpu(const SimConfig& c, unsigned cpu, const char* section, const char* key) {
    for (size_t i = c.overrides.size(); i-- > 0;) {
        const Override& o = c.overrides[i];
        const json& keys = std::string(section) == "lapic" ? o.lapic : o.cpu;
        const std::string at = "overrides[" + std::to_string(i) + "].";
        if (keys.contains(key)) {
            const std::vector<unsigned> cpus = x86_override_cpus(o, c.topology, at);
            if (std::count(cpus.begin(), cpus.end(), cpu)) return at + section + "." + key;
        }
    }
    return std::string(section) + "." + key;
}

}  // namespace

void check_topology(const TopologyParams& t) {
    if (t.cpus % t.threads_per_core)
        throw ConfigError("topology.threads_per_core: " + std::to_string(t.cpus) +
                          " CPUs (topology.cpus) are not whole cores of " +
                          std::to_string(t.threads_per_core) + " threads");
    if (t.sockets > t.cores())
        throw ConfigError("topology.sockets: " + std::to_string(t.sockets) + " sockets but only " +
                          std::to_string(t.cores()) +
                          " cores (topology.cpus / threads_per_core): a socket would have no CPU");
    if (t.cores() % t.sockets)
        throw ConfigError("topology.sockets: " + std::to_string(t.cores()) +
                          " cores (topology.cpus / threads_per_core) do not split evenly across " +
                          std::to_string(t.sockets) + " sockets");
}

void check_references(const SimConfig& c) {
    std::set<std::string> names;
    std::vector<std::string> name_list;
    for (size_t i = 0; i < c.devices.size(); ++i) {
        const DeviceConfig& d = c.devices[i];
        const std::string at = "devices[" + std::to_string(i) + "].";
        if (d.name.empty()) throw ConfigError(at + "name: a device needs a name");
        // A name is printed in tables and in one-line commands (sweep
        // --emit-commands): a control character would break them.
        if (has_control_character(d.name))
            throw ConfigError(at + "name: a control character in device name; expected printable "
                                   "characters only");
        if (!names.insert(d.name).second)
            throw ConfigError(at + "name: duplicate device name '" + d.name + "'");
        name_list.push_back(d.name);
        if (d.root_port >= c.topology.root_ports)
            throw ConfigError(at + "root_port: " + std::to_string(d.root_port) +
                              " but topology.root_ports is " +
                              std::to_string(c.topology.root_ports));
        // Beside a Xen domain the host's CPU runs only its timer, on no cost
        // a config can set (its cpu section is refused): a host device's
        // handler there would run on costs no one chose.
        if (c.xen_guest && d.assigned_to.empty())
            throw ConfigError(at + "assigned_to: \"\" (the host) beside a Xen domain, whose "
                              "host CPU runs only its timer (dom0 is not modelled): assign it "
                              "to \"guest\" or a vCPU (\"vcpu0\" .. \"vcpu" +
                              std::to_string(c.guest_vcpus() - 1) + "\")");
        if (!d.assigned_to.empty() && !c.is_assigned(d))
            throw ConfigError(at + "assigned_to: " + show_json(json(d.assigned_to)) +
                              " is not a vCPU: expected \"vcpu0\" .. \"vcpu" +
                              std::to_string(c.guest_vcpus() - 1) + "\"" +
                              (c.xen_guest ? ", \"guest\"" : "") + " or \"\" (the host)");
        for (size_t k = 0; k < d.irq_cpus.size(); ++k)
            if (d.irq_cpus[k] >= c.topology.cpus)
                throw ConfigError(at + "irq_cpus[" + std::to_string(k) + "]: CPU " +
                                  std::to_string(d.irq_cpus[k]) +
                                  " does not exist (topology.cpus is " +
                                  std::to_string(c.topology.cpus) +
                                  "): its IRTE would target a missing CPU");
    }
    uint64_t outstanding = 0;
    for (size_t i = 0; i < c.workloads.size(); ++i) {
        const WorkloadConfig& w = c.workloads[i];
        const std::string at = "workloads[" + std::to_string(i) + "].";
        // Each outstanding I/O or descriptor holds memory from the start
        // (an NVMe job's completion ring, a DSA submitter's queued work).
        const bool nvme = w.type == "nvme", dsa = w.type == "dsa";
        outstanding += nvme ? w.nvme.jobs * w.nvme.iodepth : dsa ? w.dsa.wq_depth : 0;
        if (outstanding > kMaxOutstandingIos)
            throw ConfigError(at + (nvme ? "iodepth" : "wq_depth") + ": the workloads up to this "
                              "one keep " + std::to_string(outstanding) +
                              " I/Os outstanding (NVMe jobs x iodepth, DSA wq_depth), more than " +
                              std::to_string(kMaxOutstandingIos) + ", the limit on the memory "
                              "they hold");
        if (w.type != "trace" && !names.count(w.device()))
            throw ConfigError(at + "device: " +
                              (w.device().empty() ? std::string("it is required, found none")
                                                  : "no device named " +
                                                        show_json(json(w.device()))) +
                              " (devices: " + join_keys(name_list) + ")");
        if (w.type == "trace") check_trace(c, w, at);
        if (dsa && w.dsa.submitter_cpu >= c.topology.cpus)
            throw ConfigError(at + "submitter_cpu: CPU " + std::to_string(w.dsa.submitter_cpu) +
                              " does not exist (topology.cpus is " +
                              std::to_string(c.topology.cpus) + ")");
        if (nvme)
            for (const DeviceConfig& d : c.devices)
                if (d.name == w.device() && w.nvme.first_queue + w.nvme.jobs > d.params.vectors)
                    throw ConfigError(at + "jobs: " + std::to_string(w.nvme.jobs) +
                                      " jobs from queue " + std::to_string(w.nvme.first_queue) +
                                      " but device " + show_json(json(d.name)) + " has " +
                                      std::to_string(d.params.vectors) + " vectors");
        if (w.type == "periodic" && w.periodic.phase >= c.run.warmup + c.run.duration)
            throw ConfigError(at + "phase_ns: the first completion at " +
                              format_number(ns_of(w.periodic.phase)) + " ns, " +
                              at_or_beyond_end(c, w.periodic.phase) +
                              " the end of the run (run.warmup_ns + run.duration_ns = " +
                              format_number(ns_of(c.run.warmup + c.run.duration)) +
                              " ns); it would never fire");
        if (nvme || dsa) check_device_alone(c, i, at);
        // NVMe jobs and DSA submitters are host threads on host CPUs; a Xen
        // guest runs NVMe jobs as its own I/O threads (xen_pcpu.h), a KVM
        // guest's driver stack is not modelled.
        if (w.type == "dsa" || (w.type == "nvme" && !c.xen_guest))
            for (const DeviceConfig& d : c.devices)
                if (d.name == w.device() && !d.assigned_to.empty())
                    throw ConfigError(at + "device: '" + d.name + "' is assigned to " +
                                      d.assigned_to + ": only bursty, periodic and trace "
                                      "workloads drive an assigned device" +
                                      (c.xen_guest ? " (and nvme, as the Xen domain's I/O "
                                                     "threads)" : ""));
    }
}

namespace {

// What a Xen config states must be what the domain runs.
void check_xen_domain(const SimConfig& c) {
    if (c.xen.sockets > c.xen.vcpus)
        throw ConfigError("xen.sockets: " + std::to_string(c.xen.sockets) +
                          " sockets for " + std::to_string(c.xen.vcpus) +
                          " vCPUs (xen.vcpus): a socket without a vCPU's pCPU");
    if (c.xen.vcpus % c.xen.sockets)
        throw ConfigError("xen.sockets: " + std::to_string(c.xen.vcpus) + " vCPUs (xen.vcpus) "
                          "do not split evenly across " + std::to_string(c.xen.sockets) +
                          " sockets");
    // Xen binds a pirq to each remapped queue (intpost posts them, unbound);
    // every device is the domain's (check_references).
    uint64_t queues = 0;
    for (const DeviceConfig& d : c.devices) queues += d.params.vectors;
    if (c.xen.variant != XenVariant::Intpost && queues > c.xen.pirqs)
        throw ConfigError("xen.pirqs: " + std::to_string(c.xen.pirqs) +
                          " pirqs are fewer than the assigned devices' " +
                          std::to_string(queues) + " queues (devices[].vectors)");
}

}  // namespace

namespace {

// Each kthread's iteration sleeps and loops for a time no IPI cost enters:
// if all of it is zero, with every other cost zero too, an iteration takes
// no simulated time and the run never reaches its end.
// POWER's timebase runs at 512 MHz (/proc/cpuinfo "timebase: 512000000" on
// POWER9 and POWER10): the decrementer that ends usleep's expired hrtimer
// fires at most once a tick, so an iteration takes at least one.
constexpr double kTimebaseTickNs = 1000.0 / 512;

void check_ipistorm_advances(const SimConfig& c) {
    const std::vector<PowerParams> per_cpu = power_cpu_params(c);
    for (unsigned cpu : c.ipistorm.cpus()) {
        const PowerParams& p = per_cpu.empty() ? c.power : per_cpu[cpu];
        // The sleep lasts the longer of ipistorm's delay and the timer's slack.
        const sc_core::sc_time iteration =
            p.usleep_enter + p.timer_delta + p.timer_handler + p.usleep_exit + p.loop;
        if (c.ipistorm.delay_us > 0 || iteration >= ns(kTimebaseTickNs)) continue;
        throw ConfigError("power: CPU " + std::to_string(cpu) + "'s ipistorm iteration would "
                          "take " + format_number(ns_of(iteration)) + " ns (ipistorm.delay_us 0, "
                          "power.usleep_enter_ns + timer_delta_ns + timer_handler_ns + "
                          "usleep_exit_ns + loop_ns" +
                          (per_cpu.empty() ? "" : ", overrides applied") +
                          "), less than one 512 MHz timebase tick (1.953 ns), the soonest "
                          "its sleep ends");
    }
}

// Each window of run.batches keeps its record of every CPU's, vector's and
// NVMe job's figures until the run ends (report/results.cpp). Measured at
// 1 024 x86 CPUs (`/usr/bin/time -f %M cidsim run` at run.batches 1 and 5):
// about 4.6 kB a CPU, 1.5 kB a vector and 15 kB an NVMe job per window; the
// budget keeps a run at the documented maxima under its 2.5 GB.
struct WindowRecord {
    uint64_t cpus = 0, vectors = 0, jobs = 0;
    double bytes() const {
        return kWindowBytesPerCpu * double(cpus) + kWindowBytesPerVector * double(vectors) +
               kWindowBytesPerNvmeJob * double(jobs);
    }
};

WindowRecord window_record(const SimConfig& c) {
    WindowRecord w;
    w.cpus = c.power_machine ? 0 : c.simulated_cpus();  // a partition's windows keep its chips
    for (const DeviceConfig& d : c.devices) w.vectors += d.params.vectors;
    for (const WorkloadConfig& wl : c.workloads)
        if (wl.type == "nvme") w.jobs += wl.nvme.jobs;
    return w;
}

void check_window_memory(const SimConfig& c) {
    const uint64_t most = most_batches(c);
    if (c.run.batches <= most) return;
    const WindowRecord w = window_record(c);
    throw ConfigError("run.batches: " + std::to_string(c.run.batches) + " windows of " +
                      plural(w.cpus, "CPU") + ", " + plural(w.vectors, "vector") + " and " +
                      plural(w.jobs, "NVMe job") + " would keep about " +
                      format_number(std::round(double(c.run.batches) * w.bytes() / 1e6)) +
                      " MB of window records, over the " + format_number(kMaxWindowBytes / 1e6) +
                      " MB allowed; expected " +
                      (most > 1 ? "at most " + std::to_string(most)
                                : std::string("1 (one window keeps none)")));
}

}  // namespace

uint64_t most_batches(const SimConfig& c) {
    return std::max<uint64_t>(1, uint64_t(std::floor(kMaxWindowBytes / window_record(c).bytes())));
}

void check_consistency(const SimConfig& c) {
    // A timer slower than 1 Hz would have a period past the kernel's time
    // (picoseconds in 64 bits: about 213 days); 0 turns it off.
    // A tick whose handler outlasts its period would leave the pCPU nothing
    // else (the LAPIC timer's period has the same check).
    struct Tick {
        const char* key;
        double hz;
        const char* cost_key;
        sc_core::sc_time cost;
    };
    for (const Tick& t : {Tick{"vm.host_tick_hz", c.vm.host_tick_hz, "vm.host_tick_ns",
                               c.vm.host_tick},
                          Tick{"vm.guest_timer_hz", c.vm.guest_timer_hz, "vm.guest_timer_ns",
                               c.vm.guest_timer}}) {
        if (t.hz > 0 && t.hz < 1)
            throw ConfigError(std::string(t.key) + ": expected 0 (off) or 1 to 10000 Hz, found " +
                              format_number(t.hz));
        if (t.hz > 0 && ns_of(t.cost) >= 1e9 / t.hz)
            throw ConfigError(std::string(t.cost_key) + ": " + format_number(ns_of(t.cost)) +
                              " ns is not shorter than the period of " + t.key + " (" +
                              format_number(1e9 / t.hz) +
                              " ns): the pCPU would do nothing else");
    }
    // Both ticks land on every vCPU's pCPU: together they must leave it time.
    const double ticks_share = ns_of(c.vm.host_tick) * c.vm.host_tick_hz / 1e9 +
                               ns_of(c.vm.guest_timer) * c.vm.guest_timer_hz / 1e9;
    if (ticks_share >= 1)
        throw ConfigError("vm.guest_timer_ns: with vm.host_tick_ns the two ticks take " +
                          format_number(100 * ticks_share) +
                          " % of each pCPU (vm.host_tick_hz, vm.guest_timer_hz): the pCPU "
                          "would do nothing else");
    for (size_t i = 0; i < c.vcpus.size(); ++i)
        if (c.vcpus[i].vid && !c.vcpus[i].apicv)
            throw ConfigError("vcpus[" + std::to_string(i) +
                              "].vid: virtual-interrupt delivery needs apicv (vcpus[" +
                              std::to_string(i) + "].apicv is false)");
    if (c.topology.cpus + c.guest_vcpus() > kMaxCpus)
        throw ConfigError(std::string(c.xen_guest ? "xen.vcpus: " : "vcpus: ") +
                          std::to_string(c.guest_vcpus()) +
                          " vCPUs, each on its own pCPU after topology.cpus (" +
                          std::to_string(c.topology.cpus) + "), exceed " + std::to_string(kMaxCpus) +
                          " CPUs");
    check_topology(c.topology);
    if (c.xen_guest) check_xen_domain(c);
    // pi_update_irte posts a device only into a vCPU with APICv: with none
    // of the assigned devices' vCPUs having it, irq_posting would post nothing.
    if (c.has_vm() && c.vm.irq_posting &&
        std::none_of(c.devices.begin(), c.devices.end(), [&](const DeviceConfig& d) {
            const int v = c.assigned_vcpu(d);
            return v >= 0 && c.vcpus[size_t(v)].apicv;
        }))
        throw ConfigError("vm.irq_posting: no device is assigned to a vCPU with APICv "
                          "(vcpus[].apicv), which VT-d posting needs (pi_update_irte): it would "
                          "post nothing");
    if (c.power_machine) check_ipistorm_advances(c);
    // Each host CPU's lapic and cpu values: the base sections', or an override's.
    const std::vector<LocalApicParams> lapics = x86_lapic_params(c);
    const std::vector<CpuCoreParams> cpu_costs = x86_cpu_params(c);
    const auto lapic_of = [&](unsigned cpu) -> const LocalApicParams& {
        return lapics.empty() ? c.lapic : lapics[cpu];
    };
    const auto cpu_of = [&](unsigned cpu) -> const CpuCoreParams& {
        return cpu_costs.empty() ? c.cpu : cpu_costs[cpu];
    };
    uint64_t vectors = 0;
    for (size_t i = 0; i < c.devices.size(); ++i) {
        const DeviceConfig& d = c.devices[i];
        const std::string at = "devices[" + std::to_string(i) + "].";
        vectors += d.params.vectors;
        if (d.irq_cpus.size() > d.params.vectors)
            throw ConfigError(at + "irq_cpus: " + std::to_string(d.irq_cpus.size()) +
                              " CPUs listed but the device has " +
                              std::to_string(d.params.vectors) +
                              " vectors (" + at + "vectors): the extra CPUs would get no queue");
        // The LAPIC delivers a vector only when its priority class exceeds
        // the TPR's class (SDM vol. 3 11.8.3.1). An assigned device's host
        // vector lands on the pCPU that runs its vCPU, whose LAPIC takes the
        // base lapic section (overrides select host CPUs, which it is not).
        const auto check_tpr = [&](const std::string& key, uint64_t tpr, const char* never) {
            if ((d.first_vector >> 4) <= (tpr >> 4))
                throw ConfigError(key + ": " + format_hex(tpr) + " masks " + at + "first_vector " +
                                  format_hex(d.first_vector) + " (priority class " +
                                  std::to_string(d.first_vector >> 4) + " <= " +
                                  std::to_string(tpr >> 4) + "): its interrupts would never " +
                                  never);
        };
        if (c.is_assigned(d))
            check_tpr("lapic.tpr", c.lapic.tpr, "reach the guest");
        else if (c.mode == RemapMode::Remappable)
            for (uint64_t cpu : d.irq_cpus)
                check_tpr(key_of_cpu(c, unsigned(cpu), "lapic", "tpr"),
                          lapic_of(unsigned(cpu)).tpr, "be delivered in remappable mode");
    }
    for (unsigned cpu = 0; cpu < c.topology.cpus; ++cpu) {
        const LocalApicParams& lapic = lapic_of(cpu);
        if (c.mode == RemapMode::Posted && (kPostedMsiNotificationVector >> 4) <= (lapic.tpr >> 4))
            throw ConfigError(key_of_cpu(c, cpu, "lapic", "tpr") + ": " + format_hex(lapic.tpr) +
                              " masks the posted-MSI notification vector " +
                              format_hex(kPostedMsiNotificationVector) + ": no notification would be taken");
        if (lapic.timer_period > sc_core::SC_ZERO_TIME &&
            lapic.timer_period < ns(kMinTimerPeriodNs))
            throw ConfigError(key_of_cpu(c, cpu, "lapic", "timer_period_ns") + ": " +
                              format_number(ns_of(lapic.timer_period)) + " ns on CPU " +
                              std::to_string(cpu) + "; expected 0 (no timer) or at least " +
                              format_number(kMinTimerPeriodNs) +
                              " ns, the closest Linux programs a clock event");
        const CpuCoreParams& costs = cpu_of(cpu);
        const sc_core::sc_time timer_cost =
            costs.irq_entry + costs.timer_handler + costs.eoi + costs.irq_exit;
        if (lapic.timer_period > sc_core::SC_ZERO_TIME && lapic.timer_period <= timer_cost) {
            // Named by the overrides that made it so: its period's, then
            // each cost's (two overrides may clash on one CPU).
            std::vector<std::string> keys = {key_of_cpu(c, cpu, "lapic", "timer_period_ns")};
            for (const char* cost : {"timer_handler_ns", "irq_entry_ns", "eoi_ns", "irq_exit_ns"})
                keys.push_back(key_of_cpu(c, cpu, "cpu", cost));
            std::string key, also;
            for (const std::string& k : keys)
                if (k.rfind("overrides[", 0) == 0) {
                    if (key.empty()) key = k;
                    else also += (also.empty() ? "; with " : ", ") + k;
                }
            if (key.empty()) key = "lapic.timer_period_ns";
            throw ConfigError(key + ": on CPU " + std::to_string(cpu) + " the timer period " +
                              format_number(ns_of(lapic.timer_period)) +
                              " ns is not longer than one timer interrupt (cpu.irq_entry_ns + "
                              "timer_handler_ns + eoi_ns + irq_exit_ns = " +
                              format_number(ns_of(timer_cost)) + " ns" + also +
                              "): the CPUs would do nothing else" +
                              (c.xen_guest ? "; beside a Xen domain those costs are the "
                                             "platform's (a cpu section is refused): lengthen "
                                             "the period"
                                           : ""));
        }
    }
    check_window_memory(c);
    if (vectors > c.iommu.irte_entries)
        throw ConfigError("iommu.irte_entries: " + std::to_string(c.iommu.irte_entries) +
                          " entries but the devices have " + std::to_string(vectors) +
                          " vectors, one IRTE each");
    plan_vectors(c);  // throws when a queue finds no free vector
}

}  // namespace cidsim
