#include "model/x86/irte.h"

namespace cidsim {

namespace {
constexpr uint64_t field(uint64_t word, unsigned lo, unsigned width) {
    return (word >> lo) & ((uint64_t(1) << width) - 1);
}
}  // namespace

IrteBits Irte::encode() const {
    IrteBits b;
    b.lo = uint64_t(present) | uint64_t(fpd) << 1 | uint64_t(posted) << 15 |
           uint64_t(vector) << 16;
    if (posted) {
        b.lo |= uint64_t(urgent) << 14;
        b.lo |= (pda >> 6 & ((uint64_t(1) << 26) - 1)) << 38;  // address bits 31:6
        b.hi |= (pda >> 32) << 32;                              // address bits 63:32
    } else {
        b.lo |= uint64_t(destination) << 32;
    }
    b.hi |= uint64_t(sid) | uint64_t(sq & 3) << 16 | uint64_t(uint8_t(svt) & 3) << 18;
    return b;
}

Irte Irte::decode(const IrteBits& b) {
    Irte e;
    e.present = field(b.lo, 0, 1);
    e.fpd = field(b.lo, 1, 1);
    e.posted = field(b.lo, 15, 1);
    e.vector = Vector(field(b.lo, 16, 8));
    if (e.posted) {
        e.urgent = field(b.lo, 14, 1);
        e.pda = field(b.lo, 38, 26) << 6 | field(b.hi, 32, 32) << 32;
    } else {
        e.destination = uint32_t(field(b.lo, 32, 32));
    }
    e.sid = uint16_t(field(b.hi, 0, 16));
    e.sq = uint8_t(field(b.hi, 16, 2));
    e.svt = SourceValidation(field(b.hi, 18, 2));
    return e;
}

Irte Irte::remappable(Vector vector, uint32_t apic_id) {
    Irte e;
    e.present = true;
    e.vector = vector;
    e.destination = apic_id;
    return e;
}

Irte Irte::posted_to(Vector vector, uint64_t pda, bool urgent) {
    Irte e;
    e.present = true;
    e.posted = true;
    e.urgent = urgent;
    e.vector = vector;
    e.pda = pda;
    return e;
}

}  // namespace cidsim
