#pragma once
// NvmeDisk: one NVMe SSD under a closed-loop fio-like load.
//
// Modelled: the disk's controller, which starts commands in order at most
// `max_iops_m` per second (the per-disk IOPS limit) and completes each after
// a media latency (a fixed part plus an exponential part); every completion
// writes its data (`block_bytes`, a read) and completion entry by DMA and
// raises the queue's MSI (Device). fio jobs, one per I/O queue pair: job j
// submits to queue first_queue + j and runs on the CPU that queue interrupts
// (Linux's managed affinity gives every CPU one queue of every disk, so a job
// uses the queue of the CPU it runs on), keeping `iodepth` I/Os outstanding
// (a closed loop), or, with `rate_iops`, issuing I/Os at that fixed rate
// (fio's rate_iops with rate_process=linear, an open loop: each arrival is a
// submission call on the job's CPU; one that finds `iodepth` I/Os outstanding
// waits, as fio does, and goes with the next reap). Two engines:
//  - libaio: every completion is reaped on its own (io_getevents) and one
//    new I/O submitted (io_submit): two system calls per I/O;
//  - io_uring: completions are reaped and resubmitted in batches of up to
//    `batch` with one io_uring_enter per batch.
// The driver's interrupt handler cost is the Device's (per invocation and
// per completion); application work runs as task work on the job's CPU,
// after interrupts. Jobs on several CPUs may submit at the same picosecond:
// their commands enter the controller in job order, not in the order SystemC
// happens to run the CPUs (one delta cycle later).
// Not modelled: the block layer's tags and merges, polling, the NAND
// internals behind the latency, submission-queue doorbell MMIO costs
// beyond `per_io_cpu`.
#include "kernel/timed_queue.h"
#include "model/base/stats.h"
#include "workloads/workload.h"

namespace cidsim {

enum class IoEngine : int { Libaio, IoUring };
extern const char* const kIoEngineNames[2];

struct NvmeParams {
    std::string device;                              // the disk's MSI-X function
    uint64_t jobs = 1;                               // fio jobs = queue pairs used
    uint64_t first_queue = 0;                        // job j uses queue first_queue + j
    uint64_t iodepth = 32;                           // outstanding I/Os per job
    IoEngine engine = IoEngine::Libaio;
    uint64_t batch = 32;                             // io_uring: most I/Os per submit/reap
    double rate_iops = 0;                            // per job, open loop; 0: closed loop
    uint64_t block_bytes = 4096;                     // read size
    double max_iops_m = 2.0;                         // controller command rate, M/s
    sc_core::sc_time media_latency = ns(60000);      // fixed part of the latency
    sc_core::sc_time media_jitter = ns(20000);       // mean of the exponential part
    sc_core::sc_time per_io_cpu = ns(700);           // application CPU per I/O (fio, aio/uring bookkeeping)
    sc_core::sc_time syscall_cpu = ns(250);          // CPU per system call (entry/exit)

    void describe(ParamVisitor& v);
};

class NvmeDisk : public Workload, public CompletionSink, public CompletionSchedule {
public:
    SC_HAS_PROCESS(NvmeDisk);
    NvmeDisk(sc_core::sc_module_name name, const NvmeParams& params, Device& device,
             const std::vector<TaskRunner*>& job_cpus, uint64_t seed);
    void on_completion(unsigned queue, uint64_t tag, unsigned cpu) override;
    // A job's completions are reaped on its own CPU.
    bool reacts_only_on(unsigned queue, unsigned cpu) const override;
    // The earliest command in the media, or one submitted now.
    sc_core::sc_time earliest_completion() const override;
    uint64_t completion_bytes() const override { return m_params.block_bytes; }
    void catch_up() override;
    void report(nlohmann::json& out, double seconds) const override;
    void reset_stats() override;
    uint64_t completed_ios() const override { return m_reaped; }

    uint64_t outstanding(unsigned job) const { return m_jobs[job].outstanding; }
    // Completion latency as fio's clat counts it, submission to reap, in
    // whole us: of the disk (the jobs' merged), and of each job.
    Histogram completion_latency() const;
    Histogram completion_latency(unsigned job) const;
    size_t jobs() const { return m_jobs.size(); }
    bool open_loop() const { return m_params.rate_iops > 0; }

private:
    struct Job {
        TaskRunner* cpu = nullptr;
        uint64_t outstanding = 0;  // submitted, not yet reaped
        uint64_t to_reap = 0;      // completed by the driver, not yet in a reap task
        bool reap_queued = false;  // a reap task is queued on the CPU
        // Reporting only: the submission times (ps) of I/Os the driver has
        // completed and the job not yet reaped, oldest first (a ring of
        // iodepth, as to_reap never exceeds the outstanding I/Os).
        std::vector<uint64_t> done_submitted;
        size_t done_head = 0, done_count = 0;
        uint64_t reaped = 0;
        // rate_iops: arrivals whose submission task is queued, and those
        // that found iodepth outstanding and wait for a reap.
        uint64_t arrivals_queued = 0;
        uint64_t backlog = 0;
        // Completion latency in whole us: a plain count per us below
        // kClatLinearUs (one increment per I/O on the reap path), the rare
        // longer ones in a Histogram; completion_latency() merges them.
        std::vector<uint64_t> clat_us;
        Histogram clat_long;
    };
    static constexpr uint64_t kClatLinearUs = 512;
    struct Command {
        unsigned queue;
        uint64_t tag;
    };

    static void submit_initial(void* self, uint64_t job, const sc_core::sc_time& at);
    static void submit_arrival(void* self, uint64_t job, const sc_core::sc_time& at);
    void on_arrival();
    void queue_reap(unsigned job);
    static void reap(void* self, uint64_t job_and_count, const sc_core::sc_time& at);
    void submit(unsigned job, uint64_t count, const sc_core::sc_time& at);
    void start_commands(unsigned job, uint64_t count, const sc_core::sc_time& at);
    void on_submitted_now();  // the submissions of this picosecond, in job order
    void on_media_done();

    NvmeParams m_params;
    Device& m_device;
    std::vector<Job> m_jobs;
    std::mt19937_64 m_rng;
    sc_core::sc_time m_per_command;  // 1 / max_iops, converted once
    sc_core::sc_time m_arrival_interval;  // 1 / rate_iops (open loop)
    // The exponential part of the latency, in ns (what exponential() draws,
    // with its mean converted once).
    std::exponential_distribution<double> m_jitter;
    sc_core::sc_time m_controller_free;
    bool m_one_cpu = true;  // every job on the same CPU: it alone submits
    TimedQueue<Command> m_in_media;
    TimedQueue<unsigned> m_arrivals;  // rate_iops: each job's next arrival
    struct Submission {
        unsigned job;
        uint64_t count;
    };
    std::vector<Submission> m_submitted_now;  // when several CPUs submit
    sc_core::sc_event m_submitted_event;
    uint64_t m_submitted = 0;
    uint64_t m_reaped = 0;
    uint64_t m_max_outstanding = 0;
};

}  // namespace cidsim
