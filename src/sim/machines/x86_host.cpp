#include "sim/machines/x86_host.h"

#include <stdexcept>

#include "config/config_loader.h"
#include "config/vector_plan.h"
#include "model/x86/msi.h"
#include "sim/machines/guests.h"

namespace cidsim {

X86Host::X86Host(const SimConfig& config) : m_config(config) {
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

Irte X86Host::irte_for(const VectorRoute& r, unsigned cpu) const {
    Irte e = m_config.mode == RemapMode::Posted ? Irte::posted_to(r.vector, pid_address(cpu))
                                                : Irte::remappable(r.vector, cpu);
    // Linux programs requester-id verification for MSIs (set_msi_sid).
    e.svt = SourceValidation::RequesterId;
    e.sid = m_devices[r.device]->source_id();
    return e;
}

void X86Host::build_devices(Guests* guests) {
    // The config's checks made the same plan when it loaded: here it holds.
    VectorPlan plan;
    try {
        plan = plan_vectors(m_config);
    } catch (const ConfigError& e) {
        throw std::logic_error(std::string("a config that was not checked: ") + e.what());
    }
    m_used_vectors = std::move(plan.host_cpu_vectors);
    std::array<int, 256> none;
    none.fill(-1);
    m_vector_owner.assign(m_cpus.size(), none);
    for (size_t d = 0; d < m_config.devices.size(); ++d) {
        const DeviceConfig& dc = m_config.devices[d];
        const uint16_t sid = uint16_t((d + 1) << 8);  // bus d+1, device 0, function 0
        // Named by its index: a user's name may hold what SystemC rewrites
        // (a space, a dot) or name another module ("cpu0").
        m_devices.push_back(std::make_unique<Device>(("device" + std::to_string(d)).c_str(),
                                                     dc.params, sid, *m_ports[dc.root_port]));
        Device& dev = *m_devices.back();
        dev.msi_socket.bind(m_iommu->msi_socket);
        m_view.devices.push_back(&dev);
        m_view.device_names.push_back(dc.name);
        m_view.irq_cpu.emplace_back();
        m_queue_runner.emplace_back();
        if (m_config.is_assigned(dc)) {
            guests->assign_device(d, dev, plan.devices[d], m_queue_runner.back(),
                                  m_view.irq_cpu.back());
            continue;
        }
        for (unsigned q = 0; q < dev.queues(); ++q) {
            const QueueVectors& planned = plan.devices[d][q];
            const unsigned cpu = planned.cpu;
            const VectorRoute r{unsigned(d), q, cpu, planned.vector, planned.irte_index};
            m_vector_owner[cpu][r.vector] = int(m_routes.size());
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
            m_cpus[cpu]->register_handler(r.vector, route_handler(m_routes.size() - 1), q,
                                          m_irq_descs.back().get());
        }
    }
}

TaskRunner& X86Host::queue_runner(unsigned d, unsigned q) {
    if (m_queue_runner[d].empty()) return *m_cpus[m_view.irq_cpu[d][q]];
    return *m_queue_runner[d][q];
}

// A trace records every step at the kernel time it happens, so a traced
// run is stepwise (which never changes a result).
void X86Host::attach_observer(TraceObserver* obs) {
    if (obs) set_stepwise(true);
    m_iommu->set_observer(obs);
    for (auto& a : m_apics) a->set_observer(obs);
    for (auto& p : m_pids) p->set_observer(obs);
    for (auto& c : m_cpus) c->set_observer(obs);
    for (size_t d = 0; d < m_devices.size(); ++d) m_devices[d]->set_observer(obs, unsigned(d));
}

void X86Host::prepare_route_moves() {
    m_iommu->forget_sources();
    for (auto& d : m_devices) d->stop_handling_ahead();
    m_routes_may_move = true;
}

VectorRoute X86Host::move_route(size_t route, unsigned cpu) {
    if (!m_routes_may_move)
        throw std::logic_error("move_route: prepare_route_moves() was not called before the run");
    VectorRoute& r = m_routes.at(route);
    const VectorRoute old = r;
    if (cpu >= m_cpus.size()) throw std::invalid_argument("move_route: no CPU " + std::to_string(cpu));
    // Linux starts device vectors at 0x24 too.
    const unsigned v =
        m_used_vectors[cpu].first_clear(kFirstExternalVector + 4, kPostedMsiNotificationVector);
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

IrqHandler& X86Host::route_handler(size_t route) {
    if (route < m_irq_threads.size() && m_irq_threads[route]) return *m_irq_threads[route];
    return *m_devices[m_routes[route].device];
}

int X86Host::route_of(unsigned cpu, Vector vector) const {
    return cpu < m_vector_owner.size() ? m_vector_owner[cpu][vector] : -1;
}

void X86Host::close_window() {
    for (auto& c : m_cpus) c->count_busy_until_now();
    for (auto& p : m_ports) p->close_window();
}

void X86Host::reset_stats() {
    m_iommu->reset_stats();
    for (auto& c : m_cpus) c->reset_stats();
    for (auto& a : m_apics) a->reset_stats();
    for (auto& p : m_pids) p->reset_stats();
    for (auto& d : m_devices) d->reset_stats();
    for (auto& t : m_irq_threads)
        if (t) t->reset_stats();
    for (auto& p : m_ports) p->reset_stats();
}

bool X86Host::stopped_early() const {
    for (const auto& d : m_devices)
        if (d->overflows().count) return true;
    return false;
}

}  // namespace cidsim
