// The parameters of the Xen HVM path (a config's `xen` section), described
// once: unit, default, range, meaning and source of each.
#include "model/xen/xen_params.h"

namespace cidsim {

const char* const kXenVariantNames[7] = {"no_eoi_work", "lock_only", "lock_inline_walk", "full",
                                         "bitmap",      "rwlock",    "intpost"};
const char* const kXenEoiNames[4] = {"apic_assist", "trap_msr", "trap_mmio", "virtualised"};

void XenParams::describe(ParamVisitor& v) {
    visit_choice(v, "variant", variant, kXenVariantNames,
                 "the EOI path (systems.md C, experiment E1): no_eoi_work (the avoided EOI only "
                 "clears the ISR bit, before 66bf4ef048) | lock_only (event_lock taken, no "
                 "walk) | lock_inline_walk (lock + every pirq walked, inlined callback doing "
                 "nothing) | full (2018 code: retpolined callback, __msi_pirq_eoi on a match) | "
                 "bitmap (the proposed per-domain vector bitmap: maskable MSIs return at once) | "
                 "rwlock (Xen 4.17's 9875c69c4b: read_lock on EOI, write_lock on delivery) | "
                 "intpost (iommu=intpost with VID: posted into the vCPU's PID, no host IRQ)");
    visit_choice(v, "eoi", eoi, kXenEoiNames,
                 "how the guest's EOI reaches Xen: apic_assist (viridian: an edge vector into an "
                 "empty ISR needs no EOI write; the avoided EOI is completed at the next pending "
                 "interrupt) | trap_msr (x2APIC or HV_X64_MSR_EOI write: MSR-write exit) | "
                 "trap_mmio (xAPIC: APIC-access exit) | virtualised (VID: no exit, not reaching "
                 "hvm_dpci_msi_eoi). intpost implies virtualised. Source: systems.md C");
    v.integer("vcpus", vcpus, "vCPUs", 1, kMaxXenVcpus,
              "vCPUs of the HVM domain, each pinned to its own pCPU after topology.cpus (APIC "
              "id topology.cpus + its index). Source: assumed 32 (systems.md E1: 16-48)");
    v.integer("pirqs", pirqs, "pirqs", 1, 4096,
              "P: pirqs mapped in the domain and walked by pt_pirq_iterate; the assigned "
              "devices' vectors are the first, the rest see no interrupts. Source: assumed "
              "64 (systems.md E1: 8-256)");
    v.integer("sockets", sockets, "sockets", 1, 8,
              "sockets the vCPUs' pCPUs are split evenly across (vCPU i on socket i*sockets/n). "
              "Source: assumed 2 (systems.md E1)");
    v.flag("walk_stops_at_match", walk_stops_at_match,
           "9480a1a519 (XSA-395, 2022): a match ends the walk (false: 2018, rc is overwritten "
           "per entry, so a match ends it only as the last mapped entry of its batch of 8). "
           "Source: systems.md C");
    v.flag("pirq_tree_on_lock_line", pirq_tree_on_lock_line,
           "d->pirq_tree (and nr_pirqs) share event_lock's cache line in struct domain, so "
           "every host interrupt's pirq_info() lookup in __do_IRQ_guest loads the lock's "
           "line. Source: struct domain's layout in xen/include/xen/sched.h (event_lock, "
           "two pointers, grant_table, then pirq_tree; the struct is page-aligned): with "
           "8-byte spinlock_t (no lock debugging or profiling) pirq_tree lies 32-40 bytes "
           "after event_lock, on its 64-byte line; layout computed by hand, not by pahole");
    v.time("vmexit_hw_ns", vmexit_hw, 0, 1e5,
           "hardware VM exit. Source: assumed as vm.vmexit_hw_ns (kvm-unit-tests x86/vmexit.c "
           "round trips); range 50-300 ns");
    v.time("vmentry_hw_ns", vmentry_hw, 0, 1e5,
           "hardware VM entry. Source: assumed as vm.vmentry_hw_ns; range 50-300 ns");
    v.time("exit_dispatch_ns", exit_dispatch, 0, 1e6,
           "vmx_vmexit_handler's entry and dispatch to the exit reason, and the return path "
           "to vmx_asm_do_vmentry. Source: guess from instruction counts "
           "(xen/arch/x86/hvm/vmx/vmx.c, entry.S); range 80-400 ns");
    v.time("do_irq_ns", do_irq, 0, 1e6,
           "do_IRQ -> __do_IRQ_guest -> hvm_do_IRQ_dpci (the desc and pirq lines apart): "
           "vector lookup, action walk, raise HVM_DPCI_SOFTIRQ. Source: guess from "
           "xen/arch/x86/irq.c; range 100-500 ns");
    v.time("host_eoi_ns", host_eoi, 0, 1e5,
           "the host x2APIC EOI write (a maskable MSI is ACKTYPE_NONE: EOI at once). Source: "
           "guess, as cpu.eoi_ns; range 20-100 ns");
    v.time("softirq_ns", softirq, 0, 1e6,
           "do_softirq -> dpci_softirq, list handling around hvm_dirq_assist. Source: guess "
           "(xen/drivers/passthrough/io.c); range 50-400 ns");
    v.time("deliver_ns", deliver, 0, 1e6,
           "hvm_dirq_assist's work under event_lock besides the destination checks: "
           "vmsi_deliver, vlapic_set_irq (vIRR bit), vcpu_kick of the running vCPU. Source: "
           "guess from instruction counts (systems.md C: not fitted); range 60-400 ns");
    v.time("dest_check_ns", dest_check, 0, 1e5,
           "vmsi_deliver's vlapic_match_dest per vCPU of the domain (each vCPU's vlapic "
           "APIC_ID line read-mostly, shared-clean: physical destination compare). Source: "
           "guess, about ten instructions and an L2 hit; range 2-20 ns per vCPU");
    v.time("intr_assist_ns", intr_assist, 0, 1e6,
           "vmx_intr_assist at entry without VID: hvm_vcpu_has_pending_irq, vlapic_ack and "
           "VM-entry event injection. Source: guess (xen/arch/x86/hvm/vmx/intr.c); range "
           "100-500 ns");
    v.time("eoi_trap_ns", eoi_trap, 0, 1e6,
           "a trapped EOI's handling between exit and entry (MSR or APIC-access decode, "
           "vlapic_reg_write), the hardware exit and entry apart. Source: assumed, trapped-EOI "
           "exit + entry 0.5-1 us (systems.md C) less those; range 0.2-0.8 us");
    v.time("vlapic_eoi_ns", vlapic_eoi, 0, 1e5,
           "vlapic_EOI_set -> vlapic_handle_EOI before hvm_dpci_msi_eoi (ISR update). Source: "
           "guess; range 20-150 ns");
    v.time("radix_batch_ns", radix_batch, 0, 1e5,
           "one radix_tree_gang_lookup of up to 8 pirqs in pt_pirq_iterate (the tree's nodes "
           "read-mostly, cached). Source: guess (xen/common/radix-tree.c); range 20-150 ns");
    v.time("walk_entry_ns", walk_entry, 0, 1e5,
           "per walked pirq, besides the load of its line: the loop, the MAPPED test and the "
           "inlined callback. Source: FITTED to E1's calibration figure lock_inline_walk "
           "1.1 M IOPS (systems.md C; scripts/calibrate_xen.sh)");
    v.time("indirect_call_ns", indirect_call, 0, 1e5,
           "per walked pirq in the real code: the retpolined indirect call of "
           "_hvm_dpci_msi_eoi and its MACH_MSI / gvec / vlapic_match_dest tests. Source: "
           "assumed: a retpoline's return-stack trap costs about 30-40 cycles a call "
           "(systems.md C: tens of cycles), 10-13 ns at 3 GHz, the call and tests a few "
           "cycles more; range 8-25 ns");
    v.time("msi_pirq_eoi_ns", msi_pirq_eoi, 0, 1e5,
           "__msi_pirq_eoi on a match, besides its irq_desc lock RMW: finds nothing to do for "
           "a maskable MSI. Source: guess (xen/arch/x86/irq.c); range 20-200 ns");
    v.time("bitmap_check_ns", bitmap_check, 0, 1e5,
           "the bitmap fix's test of the vector's bit (its line load apart). Source: guess; "
           "range 2-20 ns");
    v.time("guest_irq_entry_ns", guest_irq_entry, 0, 1e5,
           "the guest's interrupt entry and ISR dispatch (Windows KiInterruptDispatch). "
           "Source: guess, as vm.guest_irq_entry_ns; range 50-400 ns");
    v.time("guest_irq_exit_ns", guest_irq_exit, 0, 1e5,
           "the guest's interrupt exit and iret. Source: guess; range 40-300 ns");
    v.time("guest_eoi_ns", guest_eoi, 0, 1e5,
           "a virtualised guest EOI (VID, no exit). Source: guess, as vm.guest_eoi_ns; range "
           "5-50 ns");
    v.time("pi_processing_ns", pi_processing, 0, 1e5,
           "intpost: the CPU's posted-interrupt processing in guest mode, the PID line "
           "apart. Source: assumed 0.1-0.2 us (systems.md A)");
}

}  // namespace cidsim
