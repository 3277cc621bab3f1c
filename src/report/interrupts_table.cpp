#include "report/interrupts_table.h"

#include <cstdio>

#include "report/trace_recorder.h"

namespace cidsim {

namespace {
std::string cell(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " %10llu", (unsigned long long)v);
    return buf;
}
}  // namespace

std::string interrupts_table(const System& sys) {
    const unsigned n = sys.cpu_count();
    std::string out = "     ";
    for (unsigned c = 0; c < n; ++c) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %10s", ("CPU" + std::to_string(c)).c_str());
        out += buf;
    }
    out += "\n";
    const TraceContext ctx = TraceContext::of(sys);
    for (size_t r = 0; r < sys.routes().size(); ++r) {
        const VectorRoute& route = sys.routes()[r];
        char label[16];
        std::snprintf(label, sizeof label, "%4zu:", 24 + r);
        out += label;
        std::string vectors;
        for (unsigned c = 0; c < n; ++c) {
            uint64_t calls = 0;
            for (unsigned v = kFirstExternalVector; v < kFirstSystemVector; ++v)
                if (sys.route_of(c, Vector(v)) == int(r)) {
                    calls += sys.cpu(c).stats().handler_calls[v];
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
    row(" PMN:", [&](unsigned c) { return sys.cpu(c).stats().notifications; },
        "Posted MSI notification event");
    row(" LOC:", [&](unsigned c) { return sys.apic(c).stats().dispatched[kLocalTimerVector]; },
        "Local timer interrupts");
    row(" SPU:", [&](unsigned c) { return sys.cpu(c).stats().unhandled_vector_calls; },
        "Spurious: a set vector with no handler");
    return out;
}

}  // namespace cidsim
