// VmxCpu: a pCPU hosting one vCPU (systems.md A and B). The tester plays
// the remapping unit: a remapped MSI is a message on the host vector; a
// posted one sets the PID's PIR (the IOMMU's RMW) and, when that post
// notifies, sends the PID's NV, whichever it is then (0xF2 or 0xF1).
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/kvm/vmx_cpu.h"

using namespace cidsim;
using sc_core::sc_time;

namespace {

constexpr Vector kHostVector = 0x24;
constexpr Vector kGuestVector = 0x41;

LocalApicParams no_timer() {
    LocalApicParams p;
    p.timer_period = sc_core::SC_ZERO_TIME;
    return p;
}

struct GuestDriver : IrqHandler {
    std::vector<sc_time> calls;
    sc_time handle(uint32_t, unsigned, const sc_time& at) override {
        calls.push_back(at);
        return ns(100);
    }
};

// One pCPU with its LAPIC, the vCPU's PID and the guest driver.
struct Pcpu {
    Pcpu(const char* name, uint32_t apic_id, const VmxCpuParams& p, const VcpuConfig& v)
        : line(SharedLineParams{}, std::vector<uint8_t>{0, 0, 0}),
          apic(std::make_unique<LocalApic>((std::string(name) + "_lapic").c_str(), no_timer(),
                                           apic_id)),
          pid(0x20000000 + apic_id * 64, kPostedIntrVector, apic_id, line),
          cpu(std::make_unique<VmxCpu>(name, p, v, apic_id, AgentId(0), *apic, pid)) {}
    // A remapped MSI reaches the LAPIC on the host vector.
    void remapped_msi() { apic->accept(kHostVector); }
    // A VT-d posted MSI: the IOMMU's RMW, and the notification it allows.
    void posted_msi() {
        sc_time c;
        if (pid.post(AgentId(2), kGuestVector, false, c)) {
            notified.push_back(pid.nv());
            apic->accept(pid.nv());
        }
    }
    SharedLine line;
    std::unique_ptr<LocalApic> apic;
    PostedDescriptor pid;
    std::unique_ptr<VmxCpu> cpu;
    GuestDriver driver;
    std::vector<Vector> notified;
};

uint64_t exits(const VmxCpu& c) {
    uint64_t n = 0;
    for (uint64_t e : c.stats().exits) n += e;
    return n;
}

// Calls `f` at each time given, in a process of its own.
struct At : sc_core::sc_module {
    SC_HAS_PROCESS(At);
    At(sc_core::sc_module_name n, std::vector<sc_time> times, std::function<void()> f)
        : sc_module(n), m_times(std::move(times)), m_f(std::move(f)) {
        SC_THREAD(run);
    }
    void run() {
        for (const sc_time& t : m_times) {
            wait(t - sc_core::sc_time_stamp());
            m_f();
        }
    }
    std::vector<sc_time> m_times;
    std::function<void()> m_f;
};

}  // namespace

TEST_CASE("a running vCPU takes a VT-d posted interrupt with zero exits", "[vmx_cpu]") {
    Pcpu p("cpu", 1, VmxCpuParams{}, VcpuConfig{});
    p.cpu->assign_posted(kGuestVector, p.driver, 0);
    At at("at", {ns(10000), ns(20000)}, [&] { p.posted_msi(); });
    sc_core::sc_start(ns(40000));
    CHECK(exits(*p.cpu) == 0);
    CHECK(p.cpu->stats().posted_in_guest == 2);
    CHECK(p.notified == std::vector<Vector>{kPostedIntrVector, kPostedIntrVector});
    REQUIRE(p.driver.calls.size() == 2);
    // Posted-interrupt processing, then the guest's own entry: no exit cost.
    const VmxCpuParams d;
    CHECK(p.driver.calls[0] - ns(10000) <
          d.pi_processing + d.guest_irq_entry + ns(200));  // + PID line accesses
    CHECK(p.cpu->stats().guest_interrupts == 2);
    CHECK(p.cpu->stats().context_switches == 0);
}

TEST_CASE("a blocked vCPU is woken through the wake-up vector 0xF1", "[vmx_cpu]") {
    VcpuConfig v;
    v.guest_idle = GuestIdle::Halt;
    Pcpu p("cpu", 1, VmxCpuParams{}, v);
    p.cpu->assign_posted(kGuestVector, p.driver, 0);
    At at("at", {ns(10000)}, [&] {
        CHECK(p.pid.nv() == kPostedIntrWakeupVector);  // halted since the start
        CHECK_FALSE(p.cpu->vcpu_loaded());
        p.posted_msi();
    });
    sc_core::sc_start(ns(40000));
    CHECK(p.notified == std::vector<Vector>{kPostedIntrWakeupVector});
    CHECK(p.cpu->stats().piw == 1);
    REQUIRE(p.driver.calls.size() == 1);
    CHECK(p.driver.calls[0] > ns(10000));
    // Halted at the start and again after the interrupt: the second HLT
    // exit is under way at the end, and an exit is counted when it ends
    // (at kvm_entry, as perf kvm stat pairs them).
    CHECK(p.cpu->stats().exits[size_t(ExitReason::Hlt)] == 1);
    // 0xF1 reached an idle pCPU: a host interrupt, no exit.
    CHECK(p.cpu->stats().exits[size_t(ExitReason::ExternalInterrupt)] == 0);
}

TEST_CASE("a threaded host handler costs exactly two context switches more than a hard one",
          "[vmx_cpu]") {
    Pcpu hard("hard", 1, VmxCpuParams{}, VcpuConfig{});
    Pcpu threaded("threaded", 2, VmxCpuParams{}, VcpuConfig{});
    hard.cpu->assign(kHostVector, kGuestVector, HostHandler::Hard, hard.driver, 0);
    threaded.cpu->assign(kHostVector, kGuestVector, HostHandler::Threaded, threaded.driver, 0);
    At at("at", {ns(10000), ns(30000)}, [&] {
        hard.remapped_msi();
        threaded.remapped_msi();
    });
    sc_core::sc_start(ns(60000));
    for (Pcpu* p : {&hard, &threaded}) {
        CHECK(p->cpu->stats().exits[size_t(ExitReason::ExternalInterrupt)] == 2);
        CHECK(p->driver.calls.size() == 2);
        CHECK(p->cpu->stats().injections == 2);
    }
    CHECK(hard.cpu->stats().context_switches == 0);
    CHECK(threaded.cpu->stats().context_switches == 4);
    CHECK(threaded.cpu->stats().context_switches - hard.cpu->stats().context_switches == 2 * 2);
    // 4.x placement without full preemption: the switches, put/load and the
    // thread's work fall between kvm_exit and kvm_entry.
    const VmxCpuParams d;
    const double extra = ns_of(2 * d.context_switch + d.vcpu_put + d.vcpu_load + d.irq_thread +
                               d.eventfd_signal + d.msi_inject);
    const double h = hard.cpu->stats().exit_handling_ns.mean();
    const double t = threaded.cpu->stats().exit_handling_ns.mean();
    CHECK(t - h > extra);
    CHECK(t - h < extra + 200);  // the kick and PID line accesses
}

TEST_CASE("SN set while preempted: a post meanwhile sends nothing and is taken at the load",
          "[vmx_cpu]") {
    // A threaded handler preempts the vCPU; a VT-d post of another device
    // lands while the IRQ thread runs (vCPU put, SN=1: VT-d posting is on).
    VmxCpuParams posting;
    posting.irq_posting = true;
    Pcpu p("cpu", 1, posting, VcpuConfig{});
    p.cpu->assign(kHostVector, 0x51, HostHandler::Threaded, p.driver, 0);
    p.cpu->assign_posted(kGuestVector, p.driver, 1);
    bool seen_sn = false;
    At msi("msi", {ns(10000)}, [&] { p.remapped_msi(); });
    // Inside the IRQ thread: exit, host IRQ, dispatch, put, switch.
    const VmxCpuParams d;
    const sc_time inside = ns(10000) + d.vmexit_hw + d.host_irq_entry + d.edge_irq +
                           d.fifo_wakeup + d.host_eoi + d.host_irq_exit + d.exit_dispatch +
                           d.trace_overhead + d.vcpu_put + d.context_switch + ns(50);
    At post("post", {inside}, [&] {
        seen_sn = p.pid.sn();
        p.posted_msi();
    });
    sc_core::sc_start(ns(60000));
    CHECK(seen_sn);
    CHECK(p.notified.empty());  // suppressed by SN
    CHECK(p.cpu->stats().pin == 0);
    CHECK(p.cpu->stats().posted_in_guest == 0);
    // Both vectors reached the guest after the load.
    CHECK(p.cpu->stats().guest_handler_calls[kGuestVector] == 1);
    CHECK(p.cpu->stats().guest_handler_calls[0x51] == 1);
    CHECK_FALSE(p.pid.sn());
}

TEST_CASE("where kvm_exit sits decides what the exit handling time shows", "[vmx_cpu]") {
    // 4.x placement without full preemption: the threaded handler's two
    // switches fall inside kvm_exit -> kvm_entry. With CONFIG_PREEMPT the
    // IRQ thread runs at preempt_enable(), before kvm_exit, and the time is
    // the hard one's (whose injection also comes before kvm_exit). 5.12's
    // placement (at the exit) also counts the host IRQ handler.
    VmxCpuParams full;
    full.preempt_full = true;
    VmxCpuParams at_exit;
    at_exit.kvm_exit_trace = KvmExitTrace::AtExit;
    Pcpu hard("hard", 1, VmxCpuParams{}, VcpuConfig{});
    Pcpu preempt("preempt", 2, full, VcpuConfig{});
    Pcpu early("early", 3, at_exit, VcpuConfig{});
    hard.cpu->assign(kHostVector, kGuestVector, HostHandler::Hard, hard.driver, 0);
    preempt.cpu->assign(kHostVector, kGuestVector, HostHandler::Threaded, preempt.driver, 0);
    early.cpu->assign(kHostVector, kGuestVector, HostHandler::Hard, early.driver, 0);
    At at("at", {ns(10000)}, [&] {
        hard.remapped_msi();
        preempt.remapped_msi();
        early.remapped_msi();
    });
    sc_core::sc_start(ns(40000));
    const VmxCpuParams d;
    const double h = hard.cpu->stats().exit_handling_ns.mean();
    CHECK(preempt.cpu->stats().context_switches == 2);
    CHECK(preempt.cpu->stats().exit_handling_ns.mean() == Approx(h).margin(1));
    CHECK(preempt.driver.calls.size() == 1);
    const double irq = ns_of(d.host_irq_entry + d.edge_irq + d.eventfd_signal + d.msi_inject +
                             d.host_eoi + d.host_irq_exit);
    CHECK(early.cpu->stats().exit_handling_ns.mean() > h + irq);
    // + the PID line accesses of the injection: a miss, as nothing has
    // touched the line before (without posting, no vCPU load writes it).
    CHECK(early.cpu->stats().exit_handling_ns.mean() < h + irq + 150);
}
