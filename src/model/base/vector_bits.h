#pragma once
// A 256-bit set indexed by interrupt vector: the shape of the LAPIC's IRR/ISR
// and of the posted-interrupt descriptor's PIR (four 64-bit words) [9.12].
#include <cstdint>

namespace cidsim {

using Vector = uint8_t;

// Vectors with a fixed meaning in Linux (arch/x86/include/asm/irq_vectors.h).
constexpr Vector kFirstExternalVector = 0x20;
constexpr Vector kPostedMsiNotificationVector = 0xEB;
constexpr Vector kLocalTimerVector = 0xEC;
// FIRST_SYSTEM_VECTOR is POSTED_MSI_NOTIFICATION_VECTOR in the merged code:
// device vectors, and the demux loop's dispatch, lie below it.
constexpr Vector kFirstSystemVector = 0xEB;

struct VectorBits {
    uint64_t word[4] = {0, 0, 0, 0};

    bool test(unsigned v) const { return (word[v >> 6] >> (v & 63)) & 1u; }
    void set(unsigned v) { word[v >> 6] |= uint64_t(1) << (v & 63); }
    void clear(unsigned v) { word[v >> 6] &= ~(uint64_t(1) << (v & 63)); }
    bool any() const { return (word[0] | word[1] | word[2] | word[3]) != 0; }
    // Highest set vector, or -1 when empty.
    int highest() const {
        for (int w = 3; w >= 0; --w)
            if (word[w]) return w * 64 + 63 - __builtin_clzll(word[w]);
        return -1;
    }
    // The lowest clear vector in [from, end), or `end` when all are set
    // (Linux's device-vector allocation walks upward this way).
    unsigned first_clear(unsigned from, unsigned end) const {
        while (from < end && test(from)) ++from;
        return from;
    }
    unsigned count() const {
        return __builtin_popcountll(word[0]) + __builtin_popcountll(word[1]) +
               __builtin_popcountll(word[2]) + __builtin_popcountll(word[3]);
    }
};

}  // namespace cidsim
