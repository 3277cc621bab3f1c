#include "workloads/nvme.h"

#include <algorithm>
#include <stdexcept>

#include "kernel/event_count.h"
#include "kernel/sim_clock.h"
#include "workloads/latency_summary.h"

namespace cidsim {

using sc_core::sc_time;

const char* const kIoEngineNames[2] = {"libaio", "io_uring"};

void NvmeParams::describe(ParamVisitor& v) {
    v.text("device", device, "the disk's device (MSI-X function, one vector per job)");
    v.integer("jobs", jobs, "", 1, 2048,
              "fio jobs; job j uses queue first_queue + j, on the CPU that queue interrupts");
    v.integer("first_queue", first_queue, "", 0, 2047,
              "the queue of job 0 (the disk's vectors may cover more CPUs than its jobs run on)");
    v.integer("iodepth", iodepth, "I/Os", 1, 65536,
              "outstanding I/Os per job (with rate_iops, the most outstanding)");
    visit_choice(v, "engine", engine, kIoEngineNames,
                 "libaio (reap one, submit one per completion) | io_uring (batches)");
    v.integer("batch", batch, "I/Os", 1, 4096, "io_uring: most I/Os reaped/submitted per call");
    v.real("rate_iops", rate_iops, "1/s", 0, 1e9,
           "per job: I/Os issued at this fixed rate (fio's rate_iops, rate_process=linear: an "
           "open loop, each arrival a submission call; one finding iodepth outstanding waits "
           "for the next reap); 0: a closed loop keeping iodepth outstanding");
    v.integer("block_bytes", block_bytes, "B", 1, 1 << 24, "read size, DMA'd per completion");
    v.real("max_iops_m", max_iops_m, "M/s", 1e-6, 1e3, "controller command rate limit per disk");
    v.time("media_latency_ns", media_latency, 0, 1e10, "fixed part of the device latency");
    v.time("media_jitter_ns", media_jitter, 0, 1e10,
           "mean of the exponential part of the device latency");
    v.time("per_io_cpu_ns", per_io_cpu, 0, 1e8, "application CPU time per I/O");
    v.time("syscall_cpu_ns", syscall_cpu, 0, 1e8, "CPU time per system call");
}

NvmeDisk::NvmeDisk(sc_core::sc_module_name name, const NvmeParams& params, Device& device,
                   const std::vector<TaskRunner*>& job_cpus, uint64_t seed)
    : Workload(name),
      m_params(params),
      m_device(device),
      m_jobs(job_cpus.size()),
      m_rng(seed),
      m_per_command(ns(1e3 / params.max_iops_m)),
      m_arrival_interval(params.rate_iops > 0 ? ns(1e9 / params.rate_iops)
                                              : sc_core::SC_ZERO_TIME),
      m_jitter(params.media_jitter > sc_core::SC_ZERO_TIME ? 1.0 / ns_of(params.media_jitter)
                                                            : 1.0) {
    m_device.set_sink(this);
    m_device.add_schedule(*this);
    for (size_t j = 0; j < job_cpus.size(); ++j) {
        m_jobs[j].cpu = job_cpus[j];
        // A power of two at least iodepth: the ring's index is a mask.
        size_t ring = 1;
        while (ring < m_params.iodepth) ring <<= 1;
        m_jobs[j].done_submitted.assign(ring, 0);
        m_jobs[j].clat_us.assign(kClatLinearUs, 0);
        m_one_cpu = m_one_cpu && job_cpus[j] == job_cpus[0];
        if (open_loop()) {
            // The jobs' arrivals spread evenly over one interval.
            const double phase = double(j) / double(job_cpus.size());
            m_arrivals.push(m_arrival_interval * phase, unsigned(j));
            continue;
        }
        // fio starts by filling the queue: one submission call per batch.
        m_jobs[j].cpu->queue_task(
            Work{m_params.syscall_cpu + m_params.per_io_cpu * double(m_params.iodepth),
                 &NvmeDisk::submit_initial, this, j});
    }
    // Arrivals come at the kernel's time, so no job may act ahead of it.
    if (open_loop()) m_one_cpu = false;
    SC_METHOD(on_media_done);
    sensitive << m_in_media.event();
    dont_initialize();
    if (open_loop()) {
        SC_METHOD(on_arrival);
        sensitive << m_arrivals.event();
        dont_initialize();
    }
    if (!m_one_cpu) {
        SC_METHOD(on_submitted_now);
        sensitive << m_submitted_event;
        dont_initialize();
    }
}

void NvmeDisk::submit_initial(void* self, uint64_t job, const sc_time& at) {
    auto* d = static_cast<NvmeDisk*>(self);
    d->submit(unsigned(job), d->m_params.iodepth, at);
}

void NvmeDisk::on_arrival() {
    count_timed_event();
    m_arrivals.take_due([this](unsigned job) {
        Job& j = m_jobs[job];
        if (j.outstanding + j.arrivals_queued < m_params.iodepth) {
            ++j.arrivals_queued;
            j.cpu->queue_task(Work{m_params.syscall_cpu + m_params.per_io_cpu,
                                   &NvmeDisk::submit_arrival, this, job});
        } else {
            ++j.backlog;
        }
        m_arrivals.push(sim_now() + m_arrival_interval, job);
    });
}

void NvmeDisk::submit_arrival(void* self, uint64_t job, const sc_time& at) {
    auto* d = static_cast<NvmeDisk*>(self);
    --d->m_jobs[job].arrivals_queued;
    d->submit(unsigned(job), 1, at);
}

void NvmeDisk::submit(unsigned job, uint64_t count, const sc_time& at) {
    if (count == 0) return;
    Job& j = m_jobs[job];
    j.outstanding += count;
    m_submitted += count;
    m_max_outstanding = std::max(m_max_outstanding, j.outstanding);
    if (m_one_cpu) return start_commands(job, count, at);
    sc_assert(at == sim_now());  // nothing runs ahead on a disk several CPUs submit to
    if (m_submitted_now.empty()) {
        count_delta_event();
        m_submitted_event.notify(sc_core::SC_ZERO_TIME);
    }
    m_submitted_now.push_back({job, count});
}

void NvmeDisk::on_submitted_now() {
    std::stable_sort(m_submitted_now.begin(), m_submitted_now.end(),
                     [](const Submission& a, const Submission& b) { return a.job < b.job; });
    for (const Submission& s : m_submitted_now) start_commands(s.job, s.count, sim_now());
    m_submitted_now.clear();
}

void NvmeDisk::start_commands(unsigned job, uint64_t count, const sc_time& at) {
    for (uint64_t i = 0; i < count; ++i) {
        const sc_time start = std::max(at, m_controller_free);
        m_controller_free = start + m_per_command;
        sc_time latency = m_params.media_latency;
        if (m_params.media_jitter > sc_core::SC_ZERO_TIME) latency += ns_fast(m_jitter(m_rng));
        // The tag is the submission time, for the completion latency: the
        // device hands it back untouched and nothing orders by it.
        m_in_media.push(start + latency, Command{job, at.value()});
    }
}

void NvmeDisk::on_media_done() {
    count_timed_event();
    m_device.complete_in_port_order(*this);
}

void NvmeDisk::catch_up() {
    m_in_media.take_due([this](const Command& c) {
        m_device.complete(unsigned(c.queue + m_params.first_queue), c.tag, m_params.block_bytes);
    });
}

sc_time NvmeDisk::earliest_completion() const {
    // The first command in the media, or one submitted now.
    const sc_time media = m_in_media.next_at_min(sim_now() + m_params.media_latency);
    // Open loop: an arrival queues its submission on a job's CPU at the
    // kernel's time; no handler may run ahead of it and queue a reap first.
    return open_loop() ? m_arrivals.next_at_min(media) : media;
}

bool NvmeDisk::reacts_only_on(unsigned queue, unsigned cpu) const {
    const uint64_t job = uint64_t(queue) - m_params.first_queue;  // wraps below first_queue
    return job < m_jobs.size() && m_jobs[job].cpu->index() == cpu;
}

void NvmeDisk::on_completion(unsigned queue, uint64_t tag, unsigned) {
    const unsigned job = unsigned(queue - m_params.first_queue);
    Job& j = m_jobs[job];
    j.done_submitted[(j.done_head + j.done_count++) & (j.done_submitted.size() - 1)] = tag;
    ++j.to_reap;
    if (!j.reap_queued) queue_reap(job);
}

void NvmeDisk::queue_reap(unsigned job) {
    Job& j = m_jobs[job];
    // libaio: io_getevents returns one event, then io_submit sends one I/O.
    // io_uring: one io_uring_enter reaps what is there and resubmits as many.
    const bool libaio = m_params.engine == IoEngine::Libaio;
    const uint64_t n = libaio ? 1 : std::min<uint64_t>(j.to_reap, m_params.batch);
    j.to_reap -= n;
    j.reap_queued = true;
    // Reaping and resubmitting touch the job and the disk: the core may do
    // it in its local time when no other CPU submits to the disk.
    // In the open loop an arrival makes its own submission call; one that
    // waited for a slot goes in with this reap.
    const double calls = libaio && !open_loop() ? 2.0 : 1.0;
    j.cpu->queue_task(Work{m_params.syscall_cpu * calls +
                               m_params.per_io_cpu * double(n),
                           &NvmeDisk::reap, this, uint64_t(job) | n << 32, m_one_cpu});
}

void NvmeDisk::reap(void* self, uint64_t job_and_count, const sc_time& at) {
    auto* d = static_cast<NvmeDisk*>(self);
    const unsigned job = unsigned(job_and_count & 0xFFFFFFFF);
    const uint64_t n = job_and_count >> 32;
    Job& j = d->m_jobs[job];
    j.outstanding -= n;
    d->m_reaped += n;
    j.reaped += n;
    // The oldest completions are reaped first. Whole microseconds, as fio
    // reports clat: exact below 256 us, and a small histogram to grow.
    const uint64_t now_ps = at.value();
    const size_t mask = j.done_submitted.size() - 1;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t us = (now_ps - j.done_submitted[j.done_head] + 500000) / 1000000;
        if (us < kClatLinearUs)
            ++j.clat_us[us];
        else
            j.clat_long.record(us);
        j.done_head = (j.done_head + 1) & mask;
    }
    j.done_count -= n;  // the disk's histogram is the jobs' merged, when reported
    j.reap_queued = false;
    if (d->open_loop()) {
        const uint64_t waiting = std::min(j.backlog, n);  // arrivals that waited for a slot
        j.backlog -= waiting;
        d->submit(job, waiting, at);
    } else {
        d->submit(job, n, at);
    }
    if (j.to_reap) d->queue_reap(job);
}

void NvmeDisk::reset_stats() {
    m_submitted = m_reaped = 0;
    for (Job& j : m_jobs) {
        j.reaped = 0;
        std::fill(j.clat_us.begin(), j.clat_us.end(), 0);
        j.clat_long = {};
    }
}

Histogram NvmeDisk::completion_latency(unsigned job) const {
    // Reporting only: one record per sample counted (O(I/Os), once per result).
    const Job& j = m_jobs[job];
    Histogram h = j.clat_long;
    for (uint64_t us = 0; us < kClatLinearUs; ++us)
        for (uint64_t n = 0; n < j.clat_us[us]; ++n) h.record(us);
    return h;
}

Histogram NvmeDisk::completion_latency() const {
    Histogram all;
    for (unsigned j = 0; j < m_jobs.size(); ++j) all.merge(completion_latency(j));
    return all;
}

void NvmeDisk::report(nlohmann::json& out, double seconds) const {
    uint64_t outstanding = 0;
    for (const Job& j : m_jobs) outstanding += j.outstanding;
    out["type"] = "nvme";
    out["device"] = m_params.device;
    out["submitted"] = m_submitted;
    out["reaped"] = m_reaped;
    out["iops_m"] = per_second(double(m_reaped), seconds) / 1e6;
    out["outstanding_at_end"] = outstanding;
    out["max_outstanding_per_job"] = m_max_outstanding;
    // fio's per-job and per-disk figures: IOPS, bandwidth, clat percentiles.
    out["bandwidth_mb_per_s"] = per_second(double(m_reaped * m_params.block_bytes), seconds) / 1e6;
    out["completion_latency_us"] = tail_summary(completion_latency(), "us");
    nlohmann::json jobs = nlohmann::json::array();
    for (size_t i = 0; i < m_jobs.size(); ++i) {
        const Job& j = m_jobs[i];
        jobs.push_back({{"job", i},
                        {"cpu", j.cpu->index()},
                        {"reaped", j.reaped},
                        {"iops_m", per_second(double(j.reaped), seconds) / 1e6},
                        {"bandwidth_mb_per_s",
                         per_second(double(j.reaped * m_params.block_bytes), seconds) / 1e6},
                        {"completion_latency_us", tail_summary(completion_latency(unsigned(i)), "us")}});
    }
    out["jobs"] = jobs;
}

}  // namespace cidsim
