// cidsim's blocks in a SystemC design of one's own: a plain TLM-2.0
// initiator (no cidsim Device) writes remappable-format MSIs into cidsim's
// IOMMU, which remaps them through its IRTE table (or posts them into a
// posted-interrupt descriptor) and sends the interrupt message over a link
// to a local APIC; the CPU core takes the interrupt and calls the driver
// handler registered for the vector, here one that prints what it got.
// The wiring is System's (src/sim/system.cpp): IOMMU -> LAPIC by a link,
// LAPIC -> core by reference, one PID per core. Senders that are not
// declared to the IOMMU (add_source) make it act at the kernel's time,
// which is always exact.
//   tlm_bolt_in [remappable|posted]
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "kernel/link.h"
#include "model/x86/cpu_core.h"
#include "model/x86/iommu.h"
#include "model/x86/irte.h"
#include "model/x86/local_apic.h"
#include "model/x86/msi.h"
#include "model/x86/posted_descriptor.h"
#include "model/coherence/shared_line.h"

using sc_core::sc_time;
using sc_core::SC_NS;

// The initiator: three MSI writes (the MSI-X table entry's address and
// data) 1 us apart, as any TLM-2.0 model of a device would issue them.
struct MsiWriter : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<MsiWriter> socket;
    uint64_t address;

    SC_HAS_PROCESS(MsiWriter);
    MsiWriter(sc_core::sc_module_name name, uint64_t msi_address)
        : sc_module(name), socket("socket"), address(msi_address) {
        SC_THREAD(run);
    }
    void run() {
        for (int i = 0; i < 3; ++i) {
            wait(sc_time(1000, SC_NS));
            uint32_t data = 0;
            tlm::tlm_generic_payload gp;
            gp.set_command(tlm::TLM_WRITE_COMMAND);
            gp.set_address(address);
            gp.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
            gp.set_data_length(4);
            gp.set_streaming_width(4);
            gp.set_byte_enable_ptr(nullptr);
            sc_time delay = sc_core::SC_ZERO_TIME;
            socket->b_transport(gp, delay);
            std::printf("%10.2f ns  initiator wrote MSI %d to 0x%llx\n",
                        sc_core::sc_time_stamp().to_seconds() * 1e9, i,
                        (unsigned long long)address);
        }
    }
};

// The driver's handler of the vector: what the core runs when it takes it.
struct PrintingHandler : cidsim::IrqHandler {
    int calls = 0;
    sc_time handle(uint32_t cookie, unsigned cpu, const sc_time& at) override {
        ++calls;
        std::printf("%10.2f ns  MSI taken by core %u: handler of queue %u runs\n",
                    at.to_seconds() * 1e9, cpu, cookie);
        return sc_time(200, SC_NS);  // the handler's own cost
    }
};

int sc_main(int argc, char** argv) {
    using namespace cidsim;
    const bool posted = argc > 1 && std::strcmp(argv[1], "posted") == 0;
    const unsigned cpus = 2, target = 1;
    const Vector vector = 0x24;
    const uint64_t pid_base = 0x10000000;

    // One shared-line cost model for the PIDs: agents 0..cpus-1 are the
    // cores, agent `cpus` the remapping unit, all on socket 0.
    const SharedLine line(SharedLineParams{}, std::vector<uint8_t>(cpus + 1, 0));
    Iommu iommu("iommu", IommuParams{}, AgentId(cpus));
    std::vector<std::unique_ptr<LocalApic>> apics;
    std::vector<std::unique_ptr<PostedDescriptor>> pids;
    std::vector<std::unique_ptr<CpuCore>> cores;
    for (unsigned c = 0; c < cpus; ++c) {
        const std::string name = "cpu" + std::to_string(c);
        apics.push_back(std::make_unique<LocalApic>((name + "_lapic").c_str(), LocalApicParams{}, c));
        pids.push_back(std::make_unique<PostedDescriptor>(pid_base + 64 * c,
                                                          kPostedMsiNotificationVector, c, line));
        cores.push_back(std::make_unique<CpuCore>(name.c_str(), CpuCoreParams{},
                                                  NotificationHandlerParams{}, c, AgentId(c),
                                                  *apics[c], *pids[c]));
        connect(iommu.apic_port(c), apics[c]->messages_in());
        iommu.attach_descriptor(*pids[c]);
    }

    // IRTE 0 sends `vector` to core `target`: remapped, or posted into its PID.
    iommu.write_irte(0, posted ? Irte::posted_to(vector, pid_base + 64 * target)
                               : Irte::remappable(vector, target));
    PrintingHandler handler;
    cores[target]->register_handler(vector, handler, 0);

    MsiWriter writer("writer", msi::remappable_address(0, false));
    writer.socket.bind(iommu.msi_socket);

    sc_core::sc_start(sc_time(10, sc_core::SC_US));
    std::printf("%s mode: %d MSIs taken by core %u (IOMMU: %llu requests, %llu faults)\n",
                posted ? "posted" : "remappable", handler.calls, target,
                (unsigned long long)iommu.stats().requests,
                (unsigned long long)iommu.faults_total());
    return handler.calls == 3 ? 0 : 1;
}
