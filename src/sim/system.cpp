#include "sim/system.h"

#include <stdexcept>

#include "config/config_loader.h"
#include "kernel/lookahead.h"
#include "workloads/bursty.h"
#include "workloads/dsa.h"
#include "workloads/nvme.h"
#include "workloads/periodic.h"
#include "workloads/trace_replay.h"

namespace cidsim {

using sc_core::sc_time;

System::System(const SimConfig& config) : m_config(config) {
    // A device overflow stops the run through sc_stop; the invariant report
    // says why, so SystemC's own notice would only clutter stdout.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    set_stepwise(!config.run.run_ahead);
    if (config.run.check_lookahead) set_lookahead_check(true);
    build_cpus();
    build_vcpus();
    build_devices();
    build_workloads();
    // The partition's blocks keep references into the config: ours outlives them.
    if (config.power_machine) m_power = std::make_unique<PowerPartition>(m_config);
}

System::~System() = default;

void System::build_cpus() {
    const TopologyParams& t = m_config.topology;
    const unsigned n = unsigned(t.cpus);
    std::vector<uint8_t> node(n + 1);
    std::vector<uint32_t> core(n + 1);
    for (unsigned c = 0; c < n; ++c) node[c] = uint8_t(t.socket_of(c)), core[c] = t.core_of(c);
    node[n] = 0;  // the remapping unit sits on socket 0, a core of its own
    core[n] = t.cores();
    m_host_lines = std::make_shared<const LineTopology>(std::move(node), std::move(core),
                                                        std::vector<uint8_t>{}, SupplierRule::Lowest);
    const SharedLine line(m_config.pid_line, m_host_lines);

    m_iommu = std::make_unique<Iommu>("iommu", m_config.iommu, AgentId(n));
    m_cpu_params = x86_cpu_params(m_config);
    const std::vector<LocalApicParams> lapic = x86_lapic_params(m_config);
    for (unsigned c = 0; c < n; ++c) {
        const std::string cpu = "cpu" + std::to_string(c);
        m_apics.push_back(std::make_unique<LocalApic>((cpu + "_lapic").c_str(),
                                                      lapic.empty() ? m_config.lapic : lapic[c], c));
        m_pids.push_back(std::make_unique<PostedDescriptor>(
            pid_address(c), kPostedMsiNotificationVector, c, line));
        m_cpus.push_back(std::make_unique<CpuCore>(cpu.c_str(), cpu_params(c), m_config.handler, c,
                                                   AgentId(c), *m_apics[c], *m_pids[c]));
        m_cpus[c]->set_posted_msi(m_config.mode == RemapMode::Posted);
        connect(m_iommu->apic_port(c), m_apics[c]->messages_in());
        m_iommu->attach_descriptor(*m_pids[c]);
        m_view.cpus.push_back(m_cpus[c].get());
    }
    std::vector<TaskRunner*> runners;
    for (auto& c : m_cpus) runners.push_back(c.get());
    m_irq_runqueues = std::make_unique<IrqThreadRunQueues>(std::move(runners));
    for (uint64_t p = 0; p < m_config.topology.root_ports; ++p)
        m_ports.push_back(std::make_unique<RootPort>(m_config.root_port));
}

// Each vCPU's pCPU is isolated: its local timer is off (nohz_full), its
// PID line is shared with the remapping unit alone (socket 0).
void System::build_vcpus() {
    const unsigned v = m_config.guest_vcpus();
    if (!v) return;
    const unsigned n = unsigned(m_cpus.size());
    const SharedLine line(m_config.pid_line, std::vector<uint8_t>(n + 1 + v, 0));
    LocalApicParams lapic = m_config.lapic;
    lapic.timer_period = sc_core::SC_ZERO_TIME;
    if (m_config.xen_guest) {
        // The domain's lines are shared by its vCPUs' pCPUs (agents 0..v-1
        // there), split evenly across xen.sockets.
        std::vector<uint8_t> node(v);
        for (unsigned i = 0; i < v; ++i) node[i] = uint8_t(i * m_config.xen.sockets / v);
        m_xen_domain = std::make_unique<XenDomain>(m_config.xen, m_config.xen_line, node,
                                                   m_config.run.seed * 1000003u + 999983u);
    }
    for (unsigned i = 0; i < v; ++i) {
        const std::string name = "vcpu" + std::to_string(i);
        const uint32_t apic_id = n + i;
        m_vcpu_apics.push_back(
            std::make_unique<LocalApic>((name + "_pcpu_lapic").c_str(), lapic, apic_id));
        m_vcpu_pids.push_back(std::make_unique<PostedDescriptor>(
            guest_pid_address(i), kPostedIntrVector, apic_id, line));
        if (m_config.xen_guest)
            m_xen.push_back(std::make_unique<XenPcpu>(name.c_str(), m_config.xen, i,
                                                      AgentId(n + 1 + i), *m_vcpu_apics[i],
                                                      *m_vcpu_pids[i], *m_xen_domain));
        else
            m_vmx.push_back(std::make_unique<VmxCpu>(name.c_str(), m_config.vm,
                                                     m_config.vcpus[i], i, AgentId(n + 1 + i),
                                                     *m_vcpu_apics[i], *m_vcpu_pids[i]));
        // The remapping unit is the LAPIC's one sender; VmxCpu acts at the
        // kernel's time and attaches no CPU side to its PID, so neither the
        // unit nor anyone else runs ahead past what it writes.
        connect(m_iommu->apic_port(apic_id), m_vcpu_apics[i]->messages_in());
        m_iommu->attach_descriptor(*m_vcpu_pids[i]);
    }
    m_vcpu_host_vectors.assign(v, VectorBits{});
    m_vcpu_guest_vectors.assign(v, VectorBits{});
}

// pi_update_irte's conditions (systems.md A): posting available, APICv on
// the vCPU, one destination vCPU and fixed delivery (always, here); Xen's
// (systems.md C): iommu=intpost.
void System::assign_device(size_t d, Device& dev, int fixed_vcpu, uint32_t& next_index) {
    const DeviceConfig& dc = m_config.devices[d];
    unsigned vcpu = 0;
    auto allocate = [&](VectorBits& used, const char* what) {
        unsigned v = unsigned(dc.first_vector);
        while (v < kPostedMsiNotificationVector && used.test(v)) ++v;
        if (v >= kPostedMsiNotificationVector)
            throw ConfigError("devices[" + std::to_string(d) + "].assigned_to: vcpu" +
                              std::to_string(vcpu) + " has no free " + what + " left");
        used.set(v);
        return Vector(v);
    };
    m_queue_runner[d].assign(dev.queues(), nullptr);
    for (unsigned q = 0; q < dev.queues(); ++q) {
        vcpu = fixed_vcpu >= 0 ? unsigned(fixed_vcpu)
                               : m_next_guest_vcpu++ % m_config.guest_vcpus();
        const uint32_t apic_id = m_vcpu_apics[vcpu]->apic_id();
        const bool xen = m_config.xen_guest;
        const bool posted = xen ? m_config.xen.variant == XenVariant::Intpost
                                : m_config.vm.irq_posting && m_config.vcpus[vcpu].apicv;
        PostedDescriptor& pid = *m_vcpu_pids[vcpu];
        if (next_index >= m_config.iommu.irte_entries)
            throw ConfigError("iommu.irte_entries: " + std::to_string(m_config.iommu.irte_entries) +
                              " entries are too few for the devices' vectors");
        const Vector gv = allocate(m_vcpu_guest_vectors[vcpu], "guest vector");
        Irte e;
        if (posted) {
            e = Irte::posted_to(gv, pid.address());
            if (xen) m_xen[vcpu]->assign_posted(gv, dev, q);
            else m_vmx[vcpu]->assign_posted(gv, dev, q);
            ++m_posted_to_guest;
        } else {
            const Vector hv = allocate(m_vcpu_host_vectors[vcpu], "host vector");
            e = Irte::remappable(hv, apic_id);
            if (xen) {
                const int pirq = m_xen_domain->bind(vcpu, gv);
                if (pirq < 0)
                    throw ConfigError("xen.pirqs: " + std::to_string(m_config.xen.pirqs) +
                                      " pirqs are fewer than the assigned devices' queues");
                m_xen[vcpu]->assign(hv, unsigned(pirq), gv, dev, q);
            } else {
                m_vmx[vcpu]->assign(hv, gv, dc.host_handler, dev, q);
            }
        }
        if (xen) m_queue_runner[d][q] = m_xen[vcpu].get();
        e.svt = SourceValidation::RequesterId;
        e.sid = dev.source_id();
        const uint32_t index = next_index++;
        m_iommu->write_irte(index, e);
        m_iommu->add_source(dev, posted ? &pid : nullptr, dev.root_port(), apic_id);
        dev.program_msix(q, msi::remappable_address(uint16_t(index), false), 0);
        m_view.irq_cpu.back().push_back(0);  // no host CPU handles it
    }
}

Irte System::irte_for(const VectorRoute& r, unsigned cpu) const {
    Irte e = m_config.mode == RemapMode::Posted ? Irte::posted_to(r.vector, pid_address(cpu))
                                                : Irte::remappable(r.vector, cpu);
    // Linux programs requester-id verification for MSIs (set_msi_sid).
    e.svt = SourceValidation::RequesterId;
    e.sid = m_devices[r.device]->source_id();
    return e;
}

void System::build_devices() {
    std::vector<VectorBits>& used = m_used_vectors;
    used.assign(m_cpus.size(), VectorBits{});
    std::array<int, 256> none;
    none.fill(-1);
    m_vector_owner.assign(m_cpus.size(), none);
    uint32_t next_index = 0;
    for (size_t d = 0; d < m_config.devices.size(); ++d) {
        const DeviceConfig& dc = m_config.devices[d];
        const uint16_t sid = uint16_t((d + 1) << 8);  // bus d+1, device 0, function 0
        m_devices.push_back(
            std::make_unique<Device>(dc.name.c_str(), dc.params, sid, *m_ports[dc.root_port]));
        Device& dev = *m_devices.back();
        dev.msi_socket.bind(m_iommu->msi_socket);
        m_view.devices.push_back(&dev);
        m_view.device_names.push_back(dc.name);
        m_view.irq_cpu.emplace_back();
        m_queue_runner.emplace_back();
        if (m_config.is_assigned(dc)) {
            assign_device(d, dev, m_config.assigned_vcpu(dc), next_index);
            continue;
        }
        for (unsigned q = 0; q < dev.queues(); ++q) {
            const unsigned cpu = unsigned(dc.irq_cpus[q % dc.irq_cpus.size()]);
            unsigned v = unsigned(dc.first_vector);
            while (v < kPostedMsiNotificationVector && used[cpu].test(v)) ++v;
            if (v >= kPostedMsiNotificationVector)
                throw ConfigError("devices[" + std::to_string(d) +
                                  "]: CPU " + std::to_string(cpu) +
                                  " has no free device vector left (0x20..0xEA)");
            if (next_index >= m_config.iommu.irte_entries)
                throw ConfigError("iommu.irte_entries: " +
                                  std::to_string(m_config.iommu.irte_entries) +
                                  " entries are too few for the devices' vectors");
            used[cpu].set(v);
            const VectorRoute r{unsigned(d), q, cpu, Vector(v), next_index++};
            m_vector_owner[cpu][v] = int(m_routes.size());
            m_routes.push_back(r);
            m_irq_descs.push_back(
                std::make_unique<EdgeIrqDesc>(m_config.pid_line, m_host_lines, AgentId(cpu)));
            // A threaded handler keeps its first CPU's costs if the route moves.
            m_irq_threads.push_back(
                dc.params.threaded_irq
                    ? std::make_unique<IrqThread>(cpu_params(cpu).irq_thread, dev, q, *m_irq_runqueues)
                    : nullptr);
            m_view.irq_cpu.back().push_back(cpu);
            m_iommu->write_irte(r.irte_index, irte_for(r, cpu));
            const PostedDescriptor* pid =
                m_config.mode == RemapMode::Posted ? m_pids[cpu].get() : nullptr;
            m_iommu->add_source(dev, pid, dev.root_port(), m_apics[cpu]->apic_id());
            dev.program_msix(q, msi::remappable_address(uint16_t(r.irte_index), false), 0);
            m_cpus[cpu]->register_handler(Vector(v), route_handler(m_routes.size() - 1), q,
                                          m_irq_descs.back().get());
        }
    }
}

void System::build_workloads() {
    for (size_t i = 0; i < m_config.workloads.size(); ++i) {
        const WorkloadConfig& w = m_config.workloads[i];
        const std::string name = "workload" + std::to_string(i);
        const std::string at = "workloads[" + std::to_string(i) + "]";
        const uint64_t seed = m_config.run.seed * 1000003u + i;
        if (w.type == "bursty") {
            m_workloads.push_back(std::make_unique<BurstyTraffic>(
                name.c_str(), w.bursty, m_view.device(w.bursty.device, at + ".device"), seed));
        } else if (w.type == "nvme") {
            const unsigned dev = m_view.device_index(w.nvme.device, at + ".device");
            if (w.nvme.first_queue + w.nvme.jobs > m_devices[dev]->queues())
                throw ConfigError(at + ".jobs: " + std::to_string(w.nvme.jobs) +
                                  " jobs from queue " + std::to_string(w.nvme.first_queue) +
                                  " but device '" + w.nvme.device + "' has " +
                                  std::to_string(m_devices[dev]->queues()) + " vectors");
            // Job j runs where its queue interrupts: a host CPU, or the guest's vCPU.
            std::vector<TaskRunner*> job_cpus;
            for (unsigned j = 0; j < w.nvme.jobs; ++j) {
                const unsigned q = unsigned(w.nvme.first_queue) + j;
                job_cpus.push_back(m_queue_runner[dev].empty()
                                       ? static_cast<TaskRunner*>(m_cpus[m_view.irq_cpu[dev][q]].get())
                                       : m_queue_runner[dev][q]);
            }
            m_workloads.push_back(std::make_unique<NvmeDisk>(name.c_str(), w.nvme,
                                                             *m_devices[dev], job_cpus, seed));
        } else if (w.type == "dsa") {
            const unsigned dev = m_view.device_index(w.dsa.device, at + ".device");
            if (w.dsa.submitter_cpu >= m_cpus.size())
                throw ConfigError(at + ".submitter_cpu: CPU " +
                                  std::to_string(w.dsa.submitter_cpu) + " does not exist");
            m_workloads.push_back(std::make_unique<DsaMemfill>(
                name.c_str(), w.dsa, *m_devices[dev], *m_cpus[w.dsa.submitter_cpu]));
        } else if (w.type == "periodic") {
            m_workloads.push_back(std::make_unique<PeriodicTraffic>(
                name.c_str(), w.periodic, m_view.device(w.periodic.device, at + ".device")));
        } else if (w.type == "trace") {
            auto events = TraceReplay::parse(w.events, m_view, at + ".events");
            m_workloads.push_back(
                std::make_unique<TraceReplay>(name.c_str(), std::move(events), m_view));
        }
    }
}

// A trace records every step at the kernel time it happens, so a traced
// run is stepwise (which never changes a result).
void System::attach_observer(TraceObserver* obs) {
    if (obs) set_stepwise(true);
    m_iommu->set_observer(obs);
    for (auto& a : m_apics) a->set_observer(obs);
    for (auto& p : m_pids) p->set_observer(obs);
    for (auto& c : m_cpus) c->set_observer(obs);
    for (size_t d = 0; d < m_devices.size(); ++d) m_devices[d]->set_observer(obs, unsigned(d));
}

void System::prepare_route_moves() {
    m_iommu->forget_sources();
    for (auto& d : m_devices) d->stop_handling_ahead();
    m_routes_may_move = true;
}

VectorRoute System::move_route(size_t route, unsigned cpu) {
    if (!m_routes_may_move)
        throw std::logic_error("move_route: prepare_route_moves() was not called before the run");
    VectorRoute& r = m_routes.at(route);
    const VectorRoute old = r;
    if (cpu >= m_cpus.size()) throw std::invalid_argument("move_route: no CPU " + std::to_string(cpu));
    unsigned v = kFirstExternalVector + 4;  // Linux starts device vectors at 0x24 too
    while (v < kPostedMsiNotificationVector && m_used_vectors[cpu].test(v)) ++v;
    if (v >= kPostedMsiNotificationVector)
        throw std::invalid_argument("move_route: CPU " + std::to_string(cpu) +
                                    " has no free device vector");
    m_used_vectors[cpu].set(v);
    m_vector_owner[cpu][v] = int(route);
    r.cpu = cpu;
    r.vector = Vector(v);
    m_view.irq_cpu[r.device][r.queue] = cpu;
    m_cpus[cpu]->register_handler(r.vector, route_handler(route), r.queue, m_irq_descs[route].get());
    m_iommu->write_irte(r.irte_index, irte_for(r, cpu));
    m_iommu->invalidate_iec(r.irte_index);
    return old;
}

IrqHandler& System::route_handler(size_t route) {
    if (route < m_irq_threads.size() && m_irq_threads[route]) return *m_irq_threads[route];
    return *m_devices[m_routes[route].device];
}

int System::route_of(unsigned cpu, Vector vector) const {
    return cpu < m_vector_owner.size() ? m_vector_owner[cpu][vector] : -1;
}

void System::reset_stats() {
    if (m_before_reset) m_before_reset();
    m_measure_start = sc_core::sc_time_stamp();
    m_iommu->reset_stats();
    for (auto& c : m_cpus) c->reset_stats();
    for (auto& a : m_apics) a->reset_stats();
    for (auto& p : m_pids) p->reset_stats();
    for (auto& d : m_devices) d->reset_stats();
    for (auto& t : m_irq_threads)
        if (t) t->reset_stats();
    for (auto& p : m_ports) p->reset_stats();
    for (auto& w : m_workloads) w->reset_stats();
    for (auto& v : m_vmx) v->reset_stats();
    for (auto& x : m_xen) x->reset_stats();
    if (m_xen_domain) m_xen_domain->reset_stats();
    for (auto& a : m_vcpu_apics) a->reset_stats();
    for (auto& p : m_vcpu_pids) p->reset_stats();
    if (m_power) m_power->reset_stats();
}

void System::warm_up() {
    m_expected_end = sc_core::sc_time_stamp() + m_config.run.warmup + m_config.run.duration;
    if (m_config.run.warmup > sc_core::SC_ZERO_TIME) {
        advance(m_config.run.warmup);
        reset_stats();
    }
    m_measure_start = sc_core::sc_time_stamp();
}

void System::advance(const sc_time& t) {
    if (stopped_early()) return;
    set_run_ahead_window_end(sc_core::sc_time_stamp() + t);
    sc_core::sc_start(t);
}

void System::run() {
    warm_up();
    advance(m_config.run.duration);
}

bool System::stopped_early() const {
    for (const auto& d : m_devices)
        if (d->overflows().count) return true;
    return false;
}

double System::measured_seconds() const {
    return (sc_core::sc_time_stamp() - m_measure_start).to_seconds();
}

}  // namespace cidsim
