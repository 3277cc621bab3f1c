#pragma once
// Interrupt Remapping Table Entry: the 128-bit in-memory layout and its
// decoded fields, for both formats [9.10] (remappable, IM=0) and [9.11]
// (posted, IM=1). encode(decode(x)) == x for every field listed here.
#include <cstdint>

#include "model/base/vector_bits.h"

namespace cidsim {

struct IrteBits {
    uint64_t lo = 0;  // bits 63:0
    uint64_t hi = 0;  // bits 127:64
    bool operator==(const IrteBits& o) const { return lo == o.lo && hi == o.hi; }
};

// Source-id verification types (SVT) [9.10].
enum class SourceValidation : uint8_t { None = 0, RequesterId = 1, Bus = 2 };

struct Irte {
    bool present = false;      // P, bit 0
    bool fpd = false;          // fault processing disable, bit 1
    bool posted = false;       // IM, bit 15
    bool urgent = false;       // URG, bit 14 (posted)
    Vector vector = 0;         // bits 23:16
    uint32_t destination = 0;  // DST, bits 63:32 (remappable): x2APIC id
    uint64_t pda = 0;          // posted descriptor address (64-byte aligned) (posted)
    uint16_t sid = 0;          // source id, bits 79:64
    uint8_t sq = 0;            // source-id qualifier, bits 81:80
    SourceValidation svt = SourceValidation::None;  // bits 83:82

    IrteBits encode() const;
    static Irte decode(const IrteBits& bits);

    static Irte remappable(Vector vector, uint32_t apic_id);
    static Irte posted_to(Vector vector, uint64_t pda, bool urgent = false);
};

}  // namespace cidsim
