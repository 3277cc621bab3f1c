#include "report/vcd_writer.h"
#include "version.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace cidsim {

namespace {

constexpr uint64_t kPulsePs = 1000;

uint64_t ps_of(const sc_core::sc_time& t) { return uint64_t(ns_of(t) * 1000.0 + 0.5); }

std::string bits_value(const VectorBits& b) {
    std::string s = "b";
    bool lead = true;
    for (int v = 255; v >= 0; --v) {
        const bool one = b.test(unsigned(v));
        if (one) lead = false;
        if (!lead) s += one ? '1' : '0';
    }
    if (lead) s += '0';
    return s + " ";
}

std::string id_of(unsigned n) {
    std::string id;
    do {
        id += char(33 + n % 94);
        n /= 94;
    } while (n);
    return id;
}

struct Signal {
    std::string scope, name, id;
    unsigned width;
    std::string value;  // current value, VCD-formatted without the id
};

struct Change {
    uint64_t ps;
    size_t seq;
    unsigned signal;
    std::string value;
};

struct CpuSignals {
    unsigned pir, on, sn, notify, irr_nv, isr_nv, irr, isr, in_handler, irq_off;
    VectorBits pir_bits, irr_bits, isr_bits;
};

// A VCD reference is one whitespace-free token: a device named "my dev"
// (or "a $end b") would end the declaration early.
std::string vcd_reference(std::string name) {
    for (char& c : name)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) c = '_';
    return name;
}

}  // namespace

std::string vcd_text(const std::vector<TraceRecord>& events, const TraceContext& ctx,
                     const TimelineWindow& window, const std::vector<VcdWire>& wires) {
    std::vector<Signal> sig;
    auto add = [&](const std::string& scope, const std::string& name, unsigned width) {
        const unsigned n = unsigned(sig.size());
        sig.push_back({scope, name, id_of(n), width, width == 1 ? "0" : "b0 "});
        return n;
    };
    std::vector<CpuSignals> cpu(ctx.cpus);
    for (unsigned c = 0; c < ctx.cpus; ++c) {
        const std::string s = "cpu" + std::to_string(c);
        CpuSignals& k = cpu[c];
        k.pir = add(s, "pir", 256);
        k.on = add(s, "on", 1);
        k.sn = add(s, "sn", 1);
        k.notify = add(s, "notify", 1);
        k.irr_nv = add(s, "irr_nv", 1);
        k.isr_nv = add(s, "isr_nv", 1);
        k.irr = add(s, "irr", 256);
        k.isr = add(s, "isr", 256);
        k.in_handler = add(s, "in_handler", 1);
        k.irq_off = add(s, "irq_off", 1);
    }
    std::vector<std::vector<unsigned>> msi(ctx.device_names.size());
    for (size_t d = 0; d < ctx.device_names.size(); ++d)
        for (unsigned q = 0; q < ctx.device_queues[d]; ++q)
            msi[d].push_back(add("devices", ctx.queue_name(unsigned(d), q) + "_msi", 1));

    std::vector<Change> changes;
    auto set = [&](const sc_core::sc_time& t, unsigned s, const std::string& v, uint64_t delay = 0) {
        changes.push_back({ps_of(t) + delay, changes.size(), s, v});
    };
    auto pulse = [&](const sc_core::sc_time& t, unsigned s) {
        set(t, s, "1");
        set(t, s, "0", kPulsePs);
    };
    for (const TraceRecord& e : events) {
        if (e.kind == TraceKind::Msi) {
            if (e.device < msi.size() && e.queue < msi[e.device].size())
                pulse(e.at, msi[e.device][e.queue]);
            continue;
        }
        if (e.cpu >= ctx.cpus) continue;
        CpuSignals& k = cpu[e.cpu];
        switch (e.kind) {
            case TraceKind::PidPost:
                k.pir_bits.set(e.vector);
                set(e.at, k.pir, bits_value(k.pir_bits));
                if (e.flag) {
                    set(e.at, k.on, "1");
                    pulse(e.at, k.notify);
                }
                break;
            case TraceKind::PidXchg:
                if (e.word >= 0 && e.word < 4 && k.pir_bits.word[e.word]) {
                    k.pir_bits.word[e.word] = 0;
                    set(e.at, k.pir, bits_value(k.pir_bits));
                }
                break;
            case TraceKind::PidClearOn:
                set(e.at, k.on, "0");
                break;
            case TraceKind::ApicAccept:
                if (e.flag) break;
                k.irr_bits.set(e.vector);
                set(e.at, k.irr, bits_value(k.irr_bits));
                if (e.vector == ctx.nv) set(e.at, k.irr_nv, "1");
                break;
            case TraceKind::ApicDispatch:
                k.irr_bits.clear(e.vector);
                k.isr_bits.set(e.vector);
                set(e.at, k.irr, bits_value(k.irr_bits));
                set(e.at, k.isr, bits_value(k.isr_bits));
                if (e.vector == ctx.nv) {
                    set(e.at, k.irr_nv, "0");
                    set(e.at, k.isr_nv, "1");
                }
                break;
            case TraceKind::ApicEoi:
                if (e.word < 0) break;
                k.isr_bits.clear(unsigned(e.word));
                set(e.at, k.isr, bits_value(k.isr_bits));
                if (e.word == ctx.nv) set(e.at, k.isr_nv, "0");
                break;
            case TraceKind::HandlerBegin:
                set(e.at, k.in_handler, "1");
                break;
            case TraceKind::HandlerEnd:
                set(e.at, k.in_handler, "0");
                break;
            case TraceKind::Irq:
                if (e.word == int(IrqPhase::Entry)) set(e.at, k.irq_off, "1");
                if (e.word == int(IrqPhase::Exit)) set(e.at, k.irq_off, "0");
                break;
            default:
                break;
        }
    }
    for (const VcdWire& w : wires) {
        const unsigned s = add(w.scope, w.name, 1);
        for (const auto& [at, on] : w.changes) set(at, s, on ? "1" : "0");
    }
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        return a.ps != b.ps ? a.ps < b.ps : a.seq < b.seq;
    });

    std::ostringstream out;
    out << "$date cidsim trace $end\n$version cidsim " << version()
        << " $end\n$timescale 1ps $end\n$scope module cidsim $end\n";
    std::string scope;
    // Names that differ only where a reference cannot ("a b", "a_b") stay apart.
    std::set<std::pair<std::string, std::string>> taken;  // scope, reference
    std::string scope_reference;
    for (const Signal& s : sig) {
        if (s.scope != scope) {
            if (!scope.empty()) out << "$upscope $end\n";
            scope = s.scope;
            scope_reference = vcd_reference(scope);
            out << "$scope module " << scope_reference << " $end\n";
        }
        const std::string name = vcd_reference(s.name);
        std::string reference = name;
        for (unsigned n = 2; !taken.emplace(scope_reference, reference).second; ++n)
            reference = name + "_" + std::to_string(n);
        out << "$var wire " << s.width << " " << s.id << " " << reference;
        if (s.width > 1) out << " [" << s.width - 1 << ":0]";
        out << " $end\n";
    }
    if (!scope.empty()) out << "$upscope $end\n";
    out << "$upscope $end\n$enddefinitions $end\n";

    const uint64_t from = ps_of(window.from), to = ps_of(window.to);
    size_t i = 0;
    for (; i < changes.size() && changes[i].ps < from; ++i) sig[changes[i].signal].value = changes[i].value;
    out << "#" << from << "\n$dumpvars\n";
    for (const Signal& s : sig) out << s.value << s.id << "\n";
    out << "$end\n";
    uint64_t last = from;
    for (; i < changes.size() && changes[i].ps < to; ++i) {
        const Change& c = changes[i];
        Signal& s = sig[c.signal];
        if (s.value == c.value) continue;
        s.value = c.value;
        if (c.ps != last) out << "#" << c.ps << "\n";
        last = c.ps;
        out << c.value << s.id << "\n";
    }
    out << "#" << to << "\n";
    return out.str();
}

}  // namespace cidsim
