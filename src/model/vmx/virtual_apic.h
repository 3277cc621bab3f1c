#pragma once
// VirtualApic: a vCPU's virtual-APIC page as APICv uses it [SDM 29]: the
// virtual IRR and ISR, RVI/SVI as their highest bits, and virtual-interrupt
// delivery's rule (a vector is delivered when its priority class exceeds
// that of the highest in-service vector). With VID the guest's EOI is
// virtualised (clears the highest vISR bit, no exit) except for vectors in
// the EOI-exit bitmap (level-triggered, none for edge MSIs: an EOI-induced
// exit is counted only for those); without it the EOI traps (vmx_cpu.h).
// Not modelled: the virtual TPR, the guest's own IF beyond "interrupts
// enabled outside its handler", self-IPIs.
#include "model/base/vector_bits.h"

namespace cidsim {

struct VirtualApic {
    VectorBits irr;
    VectorBits isr;
    VectorBits eoi_exit_bitmap;  // level-triggered vectors: their EOI exits

    // The vector virtual-interrupt delivery would deliver now, or -1.
    int deliverable() const {
        const int v = irr.highest();
        if (v < 0) return -1;
        const int s = isr.highest();
        return (s < 0 || (v >> 4) > (s >> 4)) ? v : -1;
    }
    Vector acknowledge() {
        const Vector v = Vector(deliverable());
        irr.clear(v);
        isr.set(v);
        return v;
    }
    // The guest's EOI: the highest in-service vector is done; returned.
    int end_of_interrupt() {
        const int s = isr.highest();
        if (s >= 0) isr.clear(unsigned(s));
        return s;
    }
};

}  // namespace cidsim
