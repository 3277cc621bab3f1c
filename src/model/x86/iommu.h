#pragma once
// Iommu: the interrupt-remapping half of a VT-d remapping unit [5.1.4].
//
// Modelled, per MSI write (a TLM write on msi_socket):
//  - decode of the remappable-format address/data into an IRTE index;
//    compatibility-format writes and indices beyond the table fault [5.1.4];
//  - the request pipeline: requests start in arrival order (at one
//    picosecond, in source-id order), one per `pipeline_occupancy`
//    (throughput); the IRTE is read from the Interrupt
//    Entry Cache (`iec_hit`) or memory (`iec_miss`) [6.4] as the request
//    arrives (its latency counts from the pipeline start);
//    the IEC keeps whole decoded IRTEs (LRU) and is only changed by
//    invalidation (index-selective or global), as with queued invalidation;
//  - P=0 and source-id mismatches fault; faults are counted by reason and
//    the first few recorded, never silently dropped;
//  - IM=0: an interrupt message (vector, x2APIC destination) ordered after
//    the device's earlier DMA writes by a drain at its root port [5.2.4],
//    then through the unit's interrupt-message port (`message_occupancy`
//    each, in order) to the destination LAPIC after `message_latency`; the
//    root port's write path stays held until the message enters the port;
//  - IM=1: the atomic RMW of the PID at the IRTE's PDA [5.2.3], reaching the
//    PID line `message_latency` after the fetch (the mesh crossing a message
//    makes to a LAPIC): PIR bit set, ON/SN/URG checked, and only when allowed a
//    notification (NV to NDST) through the same message port. The update
//    is ordered after the device's earlier DMA writes at its root port
//    (`root_port.posted_order`), and its RMW holds the PID line for its
//    latency (PostedDescriptor::post_held): a notification leaves when the
//    RMW ends. The PIR and ON take their new values as the RMW starts (the
//    CPU's accesses during the hold wait for the line all the same).
// The IRTE is captured at fetch time, so an IRTE re-pointed between fetch
// and post delivers into the old PID (the affinity-change race).
// Acting ahead of the kernel's time where that is exact (nothing that could
// see the difference acts first; no event of its own): a request is fetched
// as it is announced (may_fetch_early), a post or a message's ordering made
// at fetch time (may_post_early), a message enters the message port at
// post time (may_send_early) or, once queued, as soon as a later message
// is made and none can come first (send_queued_early); a CPU is told how
// long no post can land on its PID and a LAPIC how long no message can
// reach it (its lookahead), from their own senders once System has declared
// them (add_source: routes fixed for the run; a sender's request makes a
// message ready no sooner than a fetch, and if remapped a root-port drain,
// after it arrives); remapped messages are ordered against the senders
// behind their own root port.
// Acts at one picosecond go by rule, not by SystemC's process order:
// requests arriving together are fetched in source-id order, and the
// devices' writes at that picosecond come before the unit orders or holds
// a message at their root port (port_writers_catch_up).
// Not modelled: DMA remapping, fault reporting registers and fault events,
// the invalidation queue's own timing, the reserved-bit checks of the PID.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>

#include "model/x86/interrupt_entry_cache.h"
#include "model/x86/iommu_lookahead.h"
#include "model/x86/irte.h"
#include "kernel/link.h"
#include "model/x86/msi.h"
#include "model/x86/posted_descriptor.h"
#include "model/x86/root_port.h"
#include "kernel/sim_clock.h"
#include "kernel/timed_queue.h"
#include "model/base/stat_visitor.h"
#include "model/base/stats.h"
#include "model/x86/trace_observer.h"

namespace cidsim {

struct IommuParams {
    uint64_t irte_entries = 4096;  // interrupt remapping table size
    uint64_t iec_entries = 64;     // Interrupt Entry Cache capacity (0: no cache)
    sc_core::sc_time iec_hit = ns(5);
    sc_core::sc_time iec_miss = ns(120);             // IRTE read from memory
    sc_core::sc_time pipeline_occupancy = ns(10);    // one request started per this
    sc_core::sc_time message_occupancy = ns(20);     // interrupt message port, per message
    sc_core::sc_time message_latency = ns(100);      // mesh crossing: to a LAPIC or the PID line

    void describe(ParamVisitor& v);
};

enum class IommuFault : int { NotMsi, CompatibilityFormat, IndexOutOfRange, NotPresent,
                              SourceIdMismatch, NoDescriptor, NoDestination, Count };
const char* to_string(IommuFault f);

struct IommuFaultRecord {
    sc_core::sc_time at;
    IommuFault reason;
    uint32_t index;
    uint16_t source_id;
};

struct IommuStats {
    uint64_t requests = 0;
    uint64_t remapped_messages = 0;        // IM=0 interrupt messages
    uint64_t posts = 0;                    // IM=1 PID updates
    uint64_t notifications = 0;            // posts that sent a notification
    uint64_t suppressed = 0;               // posts that found ON set (or SN without URG)
    uint64_t iec_hits = 0;
    uint64_t iec_misses = 0;
    uint64_t iec_invalidations = 0;
    std::array<uint64_t, size_t(IommuFault::Count)> faults{};
    std::vector<IommuFaultRecord> first_faults;  // at most kFaultLog
    Histogram fetch_to_post_ns;                   // pipeline wait + IRTE fetch

    void describe(StatVisitor& v) const;
};

class Iommu : public sc_core::sc_module {
public:
    // Every device's MSI writes (one binding per device).
    tlm_utils::multi_passthrough_target_socket<Iommu> msi_socket;

    SC_HAS_PROCESS(Iommu);
    Iommu(sc_core::sc_module_name name, const IommuParams& params, AgentId agent);

    // The link to the LAPIC of `apic_id` (System connects it to the LAPIC's
    // messages_in); the unit's lookahead towards that LAPIC travels with it.
    OutPort<Vector>& apic_port(uint32_t apic_id);
    void attach_descriptor(PostedDescriptor& pid);
    // Declares that `source`, a sender bound to msi_socket whose writes
    // pass `port`, posts to `pid` (nullptr: its messages are remapped), that
    // its interrupts reach `dest` and that its routes are fixed: the table
    // will not send it elsewhere. Once all senders are declared (System
    // declares them), requests are fetched as they are announced when none
    // can arrive first, a CPU may touch its PID ahead of the kernel's time
    // until its own senders may next send, a LAPIC tells its core when its
    // own senders' next message can reach it, and a remapped message is
    // ordered at its root port ahead of its time until a sender behind that
    // port may next write.
    void add_source(const MsiSource& source, const PostedDescriptor* pid, RootPort& port,
                    uint32_t dest_apic_id);
    // Routes may change from now on (before the simulation starts): the
    // declarations above no longer hold.
    void forget_sources();

    // Software's view of the table in memory; the IEC is not touched.
    void write_irte(uint32_t index, const Irte& e);
    Irte read_irte(uint32_t index) const { return Irte::decode(m_table.at(index)); }
    // Queued-invalidation descriptors [6.5.2.5].
    void invalidate_iec(uint32_t index);
    void invalidate_iec_all();

    const IommuStats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }
    uint64_t faults_total() const;
    void set_observer(TraceObserver* obs) { m_obs = obs; }
    static constexpr size_t kFaultLog = 16;

private:
    struct Request {
        uint32_t index;
        uint16_t source_id;
        RootPort* port;
    };
    // An IRTE with what its own fields name looked up once, at fill: the
    // PID at its PDA, or a remapped one's destination. A PID's NV and NDST
    // are read at post time [9.12], not cached.
    struct ApicSide;
    struct Resolved {
        Irte irte;
        PostedDescriptor* pid = nullptr;
        ApicSide* dest = nullptr;  // remapped: the LAPIC its message goes to
    };
    struct Fetched {
        Resolved entry;
        ApicSide* dest;  // the message's or notification's LAPIC as of the fetch
        uint32_t index;
        uint16_t source_id;
        RootPort* port;
        sc_core::sc_time started;
    };
    struct Message {
        ApicSide* dest;
        Vector vector;
        RootPort* held;  // remappable: the root port held until the message leaves
    };

    void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    void on_fetch_due();  // pipeline start: IRTE fetch
    // The fetches, then the posts, due now (its own processes, or a CPU that
    // is to touch its PID at this picosecond, whichever runs first).
    void take_fetches_due();
    void take_posts_due();
    void catch_up() {
        const sc_core::sc_time now = sim_now();
        if (m_to_fetch.due_by(now)) take_fetches_due();
        if (m_to_post.due_by(now)) take_posts_due();
    }
    // Before the unit orders or holds a remapped message at a root port at
    // the kernel's time: the devices' writes due at that picosecond first.
    void port_writers_catch_up() {
        if (m_remapped_ports.empty() || !others_act_now()) return;  // once for all ports
        for (RootPort* port : m_remapped_ports) port->writers_catch_up_before(nullptr);
    }
    bool may_fetch_early(const sc_core::sc_time& arrival) const;
    // `announcing`: called by the sender, as it announces the request.
    void fetch(const Request& r, const sc_core::sc_time& arrival, bool announcing);
    void on_post_due();   // fetch done: message or PID post
    bool may_post_early(const Fetched& f, const sc_core::sc_time& done, bool announcing) const;
    void post(const Fetched& f, const sc_core::sc_time& at);
    bool no_process_runs_before(const sc_core::sc_time& at) const;
    // The earliest a request already announced can finish its fetch, and
    // the earliest post of one (scheduled, or after that fetch).
    sc_core::sc_time earliest_announced_fetch() const {
        return m_to_fetch.empty() ? never() : m_to_fetch.next_at() + fastest_fetch();
    }
    sc_core::sc_time earliest_announced_post() const;
    // The earliest a sender behind `port` may write to it (and send).
    sc_core::sc_time earliest_write_to(const RootPort* port, const sc_core::sc_time& at) const;
    // The remapping unit as the other side of one block (`Self`), a `Base`
    // lookahead answering through Iommu::lookahead_of(const Self&).
    template <class Self, class Base>
    struct Side : Base, MsiSenders {
        Iommu* iommu = nullptr;
        sc_core::sc_time earliest_next(const sc_core::sc_time& needed) const override {
            return iommu->lookahead_of(static_cast<const Self&>(*this), needed);
        }
    };
    // One PID's other side; its senders post to it.
    struct PidSide : Side<PidSide, Poster> {
        void catch_up() override { iommu->catch_up(); }
    };
    sc_core::sc_time lookahead_of(const PidSide& side, const sc_core::sc_time& needed) const;
    // The remapping unit as one LAPIC's sender; its senders' interrupts reach
    // it, and so do the posts scheduled and the messages queued for it (kept
    // here as they enter and leave the shared queues, which hand them out in
    // time order).
    struct ApicSide : Side<ApicSide, Lookahead> {
        explicit ApicSide(uint32_t id) : apic_id(id), port(this) {}
        uint32_t apic_id;
        OutPort<Vector> port;
        EarliestFirst posts;
        EarliestFirst messages;
    };
    // The LAPIC of `apic_id`, or nullptr.
    ApicSide* route_to(uint32_t apic_id) const {
        return apic_id < m_apic_sides.size() ? m_apic_sides[apic_id].get() : nullptr;
    }
    sc_core::sc_time lookahead_of(const ApicSide& side, const sc_core::sc_time& needed) const;
    sc_core::sc_time fastest_fetch() const { return std::min(m_params.iec_hit, m_params.iec_miss); }
    // The earliest a request fetched from now on can be served (posted or
    // remapped): a post crosses the mesh first, a remapped message does not.
    sc_core::sc_time fastest_service() const {
        return fastest_fetch() +
               (m_remapped_irtes ? sc_core::SC_ZERO_TIME : m_params.message_latency);
    }
    Resolved resolve(uint32_t index) const;
    const Resolved& lookup(uint32_t index, bool& hit);
    void on_message_ready();  // a message enters the interrupt-message port
    void queue_message(const sc_core::sc_time& ready, const Message& m);
    void send_queued_early(const sc_core::sc_time& until);
    // `queued`: m is the earliest message queued.
    bool may_send_early(const sc_core::sc_time& ready, const Message& m, bool queued = false) const;
    void send(const Message& m, const sc_core::sc_time& ready);
    void fault(IommuFault reason, uint32_t index, uint16_t source_id, const sc_core::sc_time& at);

    IommuParams m_params;
    AgentId m_agent;
    std::vector<IrteBits> m_table;
    InterruptEntryCache<Resolved> m_iec;
    std::unordered_map<uint64_t, PostedDescriptor*> m_pids;
    sc_core::sc_time m_pipeline_free;
    uint32_t m_remapped_irtes = 0;  // present IRTEs with IM=0
    sc_core::sc_time m_message_port_free;
    TimedQueue<Request> m_to_fetch;
    TimedQueue<Fetched> m_to_post;
    TimedQueue<Message> m_to_send;
    std::unordered_map<const PostedDescriptor*, std::unique_ptr<PidSide>> m_pid_sides;
    std::vector<std::unique_ptr<ApicSide>> m_apic_sides;  // by APIC id
    MsiSenders m_all_senders;
    std::vector<std::pair<const RootPort*, MsiSenders>> m_port_senders;  // behind each root port
    // With a sender whose messages are remapped, or whose PID updates are
    // ordered there (posted_order): the unit orders acts behind their writes.
    std::vector<RootPort*> m_remapped_ports;
    bool m_sources_known = false;
    IommuStats m_stats;
    TraceObserver* m_obs = nullptr;
};

}  // namespace cidsim
