#include "workloads/dsa.h"

#include <algorithm>

#include "kernel/event_count.h"
#include "kernel/sim_clock.h"

namespace cidsim {

using sc_core::sc_time;

void DsaParams::describe(ParamVisitor& v) {
    v.text("device", device, "the DSA device whose vector 0 is the work queue's interrupt");
    v.integer("wq_depth", wq_depth, "descriptors", 1, 65536, "descriptors kept outstanding");
    v.integer("fill_bytes", fill_bytes, "B", 1, 1 << 24, "bytes filled per descriptor");
    v.real("max_descriptors_m", max_descriptors_m, "M/s", 1e-6, 1e3,
           "engine descriptor rate limit");
    v.time("engine_latency_ns", engine_latency, 0, 1e9, "descriptor start to fill written");
    v.time("submit_cpu_ns", submit_cpu, 0, 1e8, "CPU time to resubmit one descriptor");
    // Up to the most CPUs a machine may have (kMaxCpus, config/sim_config.h);
    // whether the topology has it is checked with the config's references.
    v.integer("submitter_cpu", submitter_cpu, "", 0, 1023, "CPU the submitting thread runs on");
}

DsaMemfill::DsaMemfill(sc_core::sc_module_name name, const DsaParams& params, Device& device,
                       CpuCore& submitter)
    : Workload(name),
      m_params(params),
      m_device(device),
      m_submitter(submitter),
      m_per_descriptor(ns(1e3 / params.max_descriptors_m)) {
    m_device.set_sink(this);
    m_device.add_schedule(*this);
    SC_METHOD(on_engine_done);
    sensitive << m_in_engine.event();
    dont_initialize();
    for (uint64_t i = 0; i < m_params.wq_depth; ++i) m_submitter.queue_task(Work{m_params.submit_cpu,
                                                                           &resubmit, this, 0});
}

void DsaMemfill::submit(const sc_time& at) {
    const sc_time start = std::max(at, m_engine_free);
    m_engine_free = start + m_per_descriptor;
    m_in_engine.push(start + m_params.engine_latency, m_next_tag++);
    ++m_outstanding;
}

void DsaMemfill::on_engine_done() {
    count_timed_event();
    m_device.complete_in_port_order(*this);
}

void DsaMemfill::catch_up() {
    m_in_engine.take_due([this](uint64_t tag) { m_device.complete(0, tag, m_params.fill_bytes); });
}

sc_time DsaMemfill::earliest_completion() const {
    return m_in_engine.next_at_min(sim_now() + m_params.engine_latency);  // or one submitted now
}

bool DsaMemfill::reacts_only_on(unsigned, unsigned cpu) const { return m_submitter.index() == cpu; }

void DsaMemfill::on_completion(unsigned, uint64_t, unsigned) {
    --m_outstanding;
    ++m_completed;
    m_submitter.queue_task(Work{m_params.submit_cpu, &resubmit, this, 0});
}

void DsaMemfill::resubmit(void* self, uint64_t, const sc_time& at) {
    static_cast<DsaMemfill*>(self)->submit(at);
}

void DsaMemfill::report(nlohmann::json& out, double seconds) const {
    out["type"] = "dsa";
    out["device"] = m_params.device;
    out["completed"] = m_completed;
    out["descriptor_rate_m"] = per_second(double(m_completed), seconds) / 1e6;
    out["fill_mbit_per_s"] =
        per_second(double(m_completed) * double(m_params.fill_bytes) * 8, seconds) / 1e6;
    out["fill_mbps"] = out["fill_mbit_per_s"];  // the old name, for one release
    out["outstanding_at_end"] = m_outstanding;
}

}  // namespace cidsim
