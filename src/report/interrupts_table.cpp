#include "report/interrupts_table.h"

#include <cstdio>

#include "report/trace_recorder.h"

namespace cidsim {

void InterruptCounts::add(const System& sys) {
    cpus.resize(sys.host().cpu_count());
    for (unsigned c = 0; c < sys.host().cpu_count(); ++c) {
        const CpuCoreStats& s = sys.host().cpu(c).stats();
        Cpu& k = cpus[c];
        for (unsigned v = 0; v < 256; ++v) k.handler_calls[v] += s.handler_calls[v];
        k.notifications += s.notifications;
        k.local_timer += sys.host().apic(c).stats().dispatched[kLocalTimerVector];
        k.spurious += s.unhandled_vector_calls;
    }
    vcpus.resize(sys.vcpu_count());
    for (unsigned i = 0; i < sys.vcpu_count(); ++i) {
        const VmxCpuStats& s = sys.vmx_cpu(i).stats();
        Vcpu& k = vcpus[i];
        k.host_device_irqs += s.host_device_irqs;
        k.pin += s.pin;
        k.piw += s.piw;
        k.host_ticks += s.host_tick_exits;
        k.guest_timers += s.guest_timer_exits;
        for (unsigned v = 0; v < 256; ++v) k.guest_handler_calls[v] += s.guest_handler_calls[v];
    }
    xen.resize(sys.xen_vcpu_count());
    for (unsigned i = 0; i < sys.xen_vcpu_count(); ++i) {
        const XenPcpuStats& s = sys.xen_pcpu(i).stats();
        xen[i].host_irqs += s.host_irqs;
        xen[i].guest_interrupts += s.guest_interrupts;
        xen[i].posted_in_guest += s.posted_in_guest;
        xen[i].avoided_eois += s.avoided_eois;
    }
    if (const PowerPartition* p = sys.power()) {
        power.resize(p->cpu_count());
        for (unsigned c = 0; c < p->cpu_count(); ++c) {
            power[c].ipis += p->cpu(c).stats().ipis;
            power[c].timer_interrupts += p->cpu(c).stats().timer_interrupts;
        }
    }
}

std::string interrupts_table(const System& sys) {
    InterruptCounts now;
    now.add(sys);
    return interrupts_table(sys, now);
}

namespace {

// kernel/irq/proc.c show_interrupts: the IRQ column is `prec` wide (the
// digits of nr_irqs, at least 3), each count "%10u ".
constexpr int kPrec = 3;

std::string header(const std::vector<std::string>& cpus) {
    std::string out(kPrec + 8, ' ');
    char buf[32];
    for (const std::string& c : cpus) {
        std::snprintf(buf, sizeof buf, "%-11s", c.c_str());
        out += buf;
    }
    return out + "\n";
}

std::string counts(const std::vector<uint64_t>& v) {
    std::string out;
    char buf[32];
    for (uint64_t n : v) {
        std::snprintf(buf, sizeof buf, "%10llu ", (unsigned long long)n);
        out += buf;
    }
    return out;
}

// An IRQ's line: number, counts, chip, hwirq, flow ("edge", or "Edge" where
// the architecture shows the level, as powerpc does), action.
std::string irq_line(unsigned irq, const std::vector<uint64_t>& v, const std::string& chip,
                     unsigned hwirq, const char* flow, const std::string& action) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%*u: ", kPrec, irq);
    std::string out = buf + counts(v);
    std::snprintf(buf, sizeof buf, " %8s %*u%s%-8s  ", chip.c_str(), kPrec, hwirq,
                  flow[0] == 'E' ? " " : "-", flow);
    return out + buf + action + "\n";
}

// arch_show_interrupts' rows: "%*s: " then the counts and the meaning.
std::string arch_row(const char* name, const std::vector<uint64_t>& v, const char* what) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%*s: ", kPrec, name);
    return buf + counts(v) + " " + what + "\n";
}

// ERR and MIS: one system-wide count each (arch/x86/kernel/irq.c).
std::string x86_tail() {
    char buf[64];
    std::string out;
    for (const char* name : {"ERR", "MIS"}) {
        std::snprintf(buf, sizeof buf, "%*s: %10u\n", kPrec, name, 0u);
        out += buf;
    }
    return out;
}

// A device function's PCI address for the chip name (one bus per device).
std::string bdf(unsigned device) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0000:%02x:00.0", (device + 1) & 0xFF);
    return buf;
}

template <class F>
std::vector<uint64_t> per(unsigned n, F value) {
    std::vector<uint64_t> v(n);
    for (unsigned i = 0; i < n; ++i) v[i] = value(i);
    return v;
}

// The host: every CPU, the vCPUs' pCPUs after the host's own (their APIC
// ids); device queues as IR-PCI-MSIX lines, assigned devices' as VFIO's.
std::string host_table(const System& sys, const InterruptCounts& k) {
    const unsigned n = sys.host().cpu_count(), m = sys.vcpu_count();
    std::vector<std::string> names;
    for (unsigned c = 0; c < n; ++c) names.push_back("CPU" + std::to_string(c));
    for (unsigned i = 0; i < m; ++i) names.push_back("CPU" + std::to_string(sys.vmx_cpu(i).apic_id()));
    std::string out = header(names);
    const TraceContext ctx = TraceContext::of(sys);
    unsigned irq = 24;
    for (size_t r = 0; r < sys.host().routes().size(); ++r, ++irq) {
        const VectorRoute& route = sys.host().routes()[r];
        std::vector<uint64_t> v = per(n, [&](unsigned c) {
            uint64_t calls = 0;
            for (unsigned vec = kFirstExternalVector; vec < kFirstSystemVector; ++vec)
                if (sys.host().route_of(c, Vector(vec)) == int(r)) calls += k.cpus[c].handler_calls[vec];
            return calls;
        });
        v.resize(n + m, 0);
        out += irq_line(irq, v, "IR-PCI-MSIX-" + bdf(route.device), route.queue, "edge",
                        ctx.queue_name(route.device, route.queue));
    }
    // Assigned devices: the host's VFIO handler, on the vCPU's pCPU.
    for (size_t d = 0; d < sys.config().devices.size(); ++d) {
        const int vcpu = sys.config().assigned_vcpu(sys.config().devices[d]);
        if (vcpu < 0 || m == 0) continue;
        std::vector<uint64_t> v(n + m, 0);
        v[n + unsigned(vcpu)] = k.vcpus[unsigned(vcpu)].host_device_irqs;
        out += irq_line(irq++, v, "IR-PCI-MSIX-" + bdf(unsigned(d)), 0, "edge",
                        "vfio-msix[0](" + bdf(unsigned(d)) + ")");
    }
    const auto host_and_vcpus = [&](auto host, auto guest) {
        std::vector<uint64_t> v = per(n, host);
        for (unsigned i = 0; i < m; ++i) v.push_back(guest(k.vcpus[i]));
        return v;
    };
    using V = InterruptCounts::Vcpu;
    out += arch_row("LOC", host_and_vcpus([&](unsigned c) { return k.cpus[c].local_timer; },
                                          [](const V& s) { return s.host_ticks + s.guest_timers; }),
                    " Local timer interrupts");
    out += arch_row("SPU", host_and_vcpus([&](unsigned c) { return k.cpus[c].spurious; },
                                          [](const V&) { return uint64_t(0); }),
                    " Spurious interrupts");
    if (m) {
        const auto none = [](unsigned) { return uint64_t(0); };
        out += arch_row("PIN", host_and_vcpus(none, [](const V& s) { return s.pin; }),
                        " Posted-interrupt notification event");
        out += arch_row("PIW", host_and_vcpus(none, [](const V& s) { return s.piw; }),
                        " Posted-interrupt wakeup event");
    }
    out += arch_row("PMN", host_and_vcpus([&](unsigned c) { return k.cpus[c].notifications; },
                                          [](const V&) { return uint64_t(0); }),
                    " Posted MSI notification event");
    return out + x86_tail();
}

// Each guest's own file: its vCPUs, the assigned devices' vectors with the
// guest handler's calls (the guest's MSI-X lines).
std::string guest_table(const System& sys, const InterruptCounts& k) {
    const unsigned m = sys.vcpu_count();
    std::vector<std::string> names;
    for (unsigned i = 0; i < m; ++i) names.push_back("CPU" + std::to_string(i));
    std::string out = header(names);
    unsigned irq = 24;
    for (unsigned v = kFirstExternalVector; v < kFirstSystemVector; ++v) {
        const std::vector<uint64_t> calls = per(m, [&](unsigned i) { return k.vcpus[i].guest_handler_calls[v]; });
        bool any = false;
        for (uint64_t c : calls) any = any || c;
        if (!any) continue;
        char action[32];
        std::snprintf(action, sizeof action, "guest-msix-%s", hex_vector(Vector(v)).c_str());
        const unsigned hwirq = irq - 24;
        out += irq_line(irq++, calls, "PCI-MSIX-0000:00:04.0", hwirq, "edge", action);
    }
    out += arch_row("LOC", per(m, [&](unsigned i) { return k.vcpus[i].guest_timers; }),
                    " Local timer interrupts");
    return out + x86_tail();
}

// A POWER partition (arch/powerpc/kernel/irq.c arch_show_interrupts, XIVE's
// IPIs: one "IPI" source, or with IPI/chip one "IPI-<node>" per chip).
std::string power_table(const System& sys, const InterruptCounts& k) {
    const PowerPartition& p = *sys.power();
    const unsigned n = p.cpu_count();
    std::vector<std::string> names;
    for (unsigned c = 0; c < n; ++c) names.push_back("CPU" + std::to_string(c));
    std::string out = header(names);
    const bool per_chip = p.descs().size() > 1;
    for (unsigned d = 0; d < p.descs().size(); ++d)
        out += irq_line(16 + d, per(n, [&](unsigned c) {
                            return !per_chip || p.layout().chip_of(c) == d ? k.power[c].ipis : 0;
                        }),
                        "XIVE-IPI", d, "Edge", per_chip ? "IPI-" + std::to_string(d) : "IPI");
    const auto zero = [](unsigned) { return uint64_t(0); };
    out += arch_row("LOC", per(n, [&](unsigned c) { return k.power[c].timer_interrupts; }),
                    " Local timer interrupts for timer event device");
    out += arch_row("BCT", per(n, zero), " Broadcast timer interrupts for timer event device");
    out += arch_row("LOC", per(n, zero), " Local timer interrupts for others");
    out += arch_row("SPU", per(n, zero), " Spurious interrupts");
    return out;
}

// A Xen domain's vCPUs (XenPcpuStats), each on its pCPU.
std::string xen_table(const InterruptCounts& k) {
    const unsigned m = unsigned(k.xen.size());
    std::vector<std::string> names;
    for (unsigned i = 0; i < m; ++i) names.push_back("vcpu" + std::to_string(i));
    using X = InterruptCounts::XenVcpu;
    const auto row = [&](const char* name, uint64_t X::*count, const char* what) {
        return arch_row(name, per(m, [&](unsigned i) { return k.xen[i].*count; }), what);
    };
    return header(names) +
           row("IRQ", &X::host_irqs,
               " Device interrupts taken by Xen (do_IRQ, the domain's pirqs)") +
           row("INJ", &X::guest_interrupts, " Virtual interrupts delivered to the guest") +
           row("PIG", &X::posted_in_guest, " Posted interrupts taken in guest mode (intpost)") +
           row("AEO", &X::avoided_eois, " EOIs APIC assist let the guest skip");
}

}  // namespace

std::string interrupts_table(const System& sys, const InterruptCounts& counts) {
    std::string out;
    if (sys.power()) out += "POWER partition:\n" + power_table(sys, counts) + "\nx86 host:\n";
    out += host_table(sys, counts);
    if (sys.vcpu_count()) out += "\nthe guest's own /proc/interrupts:\n" + guest_table(sys, counts);
    if (!counts.xen.empty()) out += "\nthe Xen domain's counters:\n" + xen_table(counts);
    return out;
}

}  // namespace cidsim
