#include "report/interrupts_table.h"

#include <cstdio>

#include "report/trace_recorder.h"

namespace cidsim {

std::string vcpu_interrupts_table(const System& sys, const InterruptCounts& counts);

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
        for (unsigned v = 0; v < 256; ++v) k.guest_handler_calls[v] += s.guest_handler_calls[v];
    }
}

std::string interrupts_table(const System& sys) {
    InterruptCounts now;
    now.add(sys);
    return interrupts_table(sys, now);
}

namespace {
std::string cell(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " %10llu", (unsigned long long)v);
    return buf;
}
}  // namespace

std::string interrupts_table(const System& sys, const InterruptCounts& counts) {
    const unsigned n = sys.host().cpu_count();
    std::string out = "     ";
    for (unsigned c = 0; c < n; ++c) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %10s", ("CPU" + std::to_string(c)).c_str());
        out += buf;
    }
    out += "\n";
    const TraceContext ctx = TraceContext::of(sys);
    for (size_t r = 0; r < sys.host().routes().size(); ++r) {
        const VectorRoute& route = sys.host().routes()[r];
        char label[16];
        std::snprintf(label, sizeof label, "%4zu:", 24 + r);
        out += label;
        std::string vectors;
        for (unsigned c = 0; c < n; ++c) {
            uint64_t calls = 0;
            for (unsigned v = kFirstExternalVector; v < kFirstSystemVector; ++v)
                if (sys.host().route_of(c, Vector(v)) == int(r)) {
                    calls += counts.cpus[c].handler_calls[v];
                    vectors += (vectors.empty() ? "" : ", ") + hex_vector(v) + "@CPU" +
                               std::to_string(c);
                }
            out += cell(calls);
        }
        out += "  CIDSIM-MSIX  " + ctx.queue_name(route.device, route.queue) + "  (vector " +
               vectors + ")\n";
    }
    auto row = [&](const char* label, auto value, const char* what) {
        out += label;
        for (unsigned c = 0; c < n; ++c) out += cell(value(c));
        out += std::string("  ") + what + "\n";
    };
    row(" PMN:", [&](unsigned c) { return counts.cpus[c].notifications; },
        "Posted MSI notification event");
    row(" LOC:", [&](unsigned c) { return counts.cpus[c].local_timer; }, "Local timer interrupts");
    row(" SPU:", [&](unsigned c) { return counts.cpus[c].spurious; },
        "Spurious: a set vector with no handler");
    if (sys.vcpu_count()) out += vcpu_interrupts_table(sys, counts);
    return out;
}

// The vCPUs' pCPUs as the host sees them (PIN, PIW, assigned devices'
// host interrupts) and each guest's own /proc/interrupts (its vectors).
std::string vcpu_interrupts_table(const System& sys, const InterruptCounts& counts) {
    const unsigned n = sys.vcpu_count();
    std::string out = "\nhost, the vCPUs' pCPUs:\n     ";
    for (unsigned i = 0; i < n; ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %10s", ("CPU" + std::to_string(sys.vmx_cpu(i).apic_id())).c_str());
        out += buf;
    }
    out += "\n";
    auto row = [&](const char* label, auto value, const char* what) {
        out += label;
        for (unsigned i = 0; i < n; ++i) out += cell(value(counts.vcpus[i]));
        out += std::string("  ") + what + "\n";
    };
    using V = InterruptCounts::Vcpu;
    row("VFIO:", [](const V& s) { return s.host_device_irqs; },
        "assigned devices' MSIs taken by the host (remapped IRTE)");
    row(" PIN:", [](const V& s) { return s.pin; }, "Posted-interrupt notification event");
    row(" PIW:", [](const V& s) { return s.piw; }, "Posted-interrupt wakeup event");
    row(" PMN:", [](const V&) { return uint64_t(0); }, "Posted MSI notification event");
    out += "guests (each vCPU's own count):\n";
    for (unsigned i = 0; i < n; ++i)
        for (unsigned v = kFirstExternalVector; v < kFirstSystemVector; ++v) {
            const uint64_t calls = counts.vcpus[i].guest_handler_calls[v];
            if (!calls) continue;
            char buf[96];
            std::snprintf(buf, sizeof buf, "  vcpu%u vector %s %10llu  guest MSI-X handler\n", i,
                          hex_vector(v).c_str(), (unsigned long long)calls);
            out += buf;
        }
    return out;
}

}  // namespace cidsim
