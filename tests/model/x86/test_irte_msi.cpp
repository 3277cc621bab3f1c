// IRTE layouts [9.10] [9.11] at the bit positions of mechanism.md section 1
// (docs/specification.md), and the remappable-format MSI address [5.1.2].
#include <catch2/catch.hpp>

#include "model/x86/irte.h"
#include "model/x86/msi.h"

using namespace cidsim;

namespace {
uint64_t bits(uint64_t word, unsigned lo, unsigned width) {
    return word >> lo & ((uint64_t(1) << width) - 1);
}
}  // namespace

TEST_CASE("remappable IRTE: P 0, FPD 1, IM 15 = 0, vector 23:16, DST 63:32, SID/SQ/SVT",
          "[irte]") {
    Irte e = Irte::remappable(0xA7, 0x12345678);
    e.fpd = true;
    e.sid = 0xBEEF;
    e.sq = 2;
    e.svt = SourceValidation::Bus;
    const IrteBits b = e.encode();
    CHECK(bits(b.lo, 0, 1) == 1);
    CHECK(bits(b.lo, 1, 1) == 1);
    CHECK(bits(b.lo, 15, 1) == 0);
    CHECK(bits(b.lo, 16, 8) == 0xA7);
    CHECK(bits(b.lo, 32, 32) == 0x12345678);
    CHECK(bits(b.hi, 0, 16) == 0xBEEF);   // bits 79:64
    CHECK(bits(b.hi, 16, 2) == 2);        // bits 81:80
    CHECK(bits(b.hi, 18, 2) == 2);        // bits 83:82
    CHECK(bits(b.hi, 20, 44) == 0);       // reserved
    CHECK(bits(b.lo, 24, 8) == 0);        // reserved
    const Irte d = Irte::decode(b);
    CHECK(d.present);
    CHECK(d.fpd);
    CHECK_FALSE(d.posted);
    CHECK(d.vector == 0xA7);
    CHECK(d.destination == 0x12345678);
    CHECK(d.sid == 0xBEEF);
    CHECK(d.sq == 2);
    CHECK(d.svt == SourceValidation::Bus);
    CHECK(d.encode() == b);
}

TEST_CASE("posted IRTE: URG 14, IM 15 = 1, vector 23:16, PDA-low 63:38, PDA-high 127:96",
          "[irte]") {
    const uint64_t pda = 0xFEDCBA98'76543210ull & ~uint64_t(63);
    Irte e = Irte::posted_to(0x31, pda, true);
    e.sid = 0x0100;
    e.svt = SourceValidation::RequesterId;
    const IrteBits b = e.encode();
    CHECK(bits(b.lo, 0, 1) == 1);
    CHECK(bits(b.lo, 14, 1) == 1);
    CHECK(bits(b.lo, 15, 1) == 1);
    CHECK(bits(b.lo, 16, 8) == 0x31);
    CHECK(bits(b.lo, 38, 26) == bits(pda, 6, 26));  // address bits 31:6
    CHECK(bits(b.hi, 32, 32) == pda >> 32);          // address bits 63:32
    CHECK(bits(b.hi, 0, 16) == 0x0100);
    CHECK(bits(b.hi, 18, 2) == 1);
    const Irte d = Irte::decode(b);
    CHECK(d.posted);
    CHECK(d.urgent);
    CHECK(d.vector == 0x31);
    CHECK(d.pda == pda);
    CHECK(d.destination == 0);
    CHECK(d.sid == 0x0100);
    CHECK(d.svt == SourceValidation::RequesterId);
    CHECK(d.encode() == b);
}

TEST_CASE("IRTE round trip over many field values, both formats", "[irte]") {
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 1000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        Irte e;
        e.present = x & 1;
        e.fpd = x >> 1 & 1;
        e.posted = x >> 2 & 1;
        e.vector = Vector(x >> 8);
        e.sid = uint16_t(x >> 16);
        e.sq = uint8_t(x >> 32 & 3);
        e.svt = SourceValidation(x >> 34 & 3);
        if (e.posted) {
            e.urgent = x >> 3 & 1;
            e.pda = (x * 0x2545F4914F6CDD1Dull) & ~uint64_t(63);
        } else {
            e.destination = uint32_t(x >> 20);
        }
        const Irte d = Irte::decode(e.encode());
        INFO("iteration " << i);
        REQUIRE(d.present == e.present);
        REQUIRE(d.fpd == e.fpd);
        REQUIRE(d.posted == e.posted);
        REQUIRE(d.urgent == e.urgent);
        REQUIRE(d.vector == e.vector);
        REQUIRE(d.destination == e.destination);
        REQUIRE(d.pda == e.pda);
        REQUIRE(d.sid == e.sid);
        REQUIRE(d.sq == e.sq);
        REQUIRE(d.svt == e.svt);
        REQUIRE(d.encode() == e.encode());
    }
}

TEST_CASE("MSI address: handle 14:0 at bits 19:5, handle 15 at bit 2, SHV bit 3, format bit 4",
          "[msi]") {
    const uint64_t a = msi::remappable_address(0x8ABC, true);
    CHECK((a & 0xFFF00000) == 0xFEE00000);
    CHECK(bits(a, 5, 15) == 0x0ABC);
    CHECK(bits(a, 2, 1) == 1);
    CHECK(bits(a, 3, 1) == 1);
    CHECK(bits(a, 4, 1) == 1);
    const msi::Decoded d = msi::decode(a);
    CHECK(d.in_range);
    CHECK(d.remappable_format);
    CHECK(d.shv);
    CHECK(d.handle == 0x8ABC);

    for (unsigned h : {0u, 1u, 0x7FFFu, 0x8000u, 0xFFFFu}) {
        for (bool shv : {false, true}) {
            const msi::Decoded r = msi::decode(msi::remappable_address(uint16_t(h), shv));
            CHECK(r.handle == h);
            CHECK(r.shv == shv);
            CHECK(r.remappable_format);
        }
    }
}

TEST_CASE("MSI address: compatibility format and addresses outside 0xFEEx_xxxx", "[msi]") {
    // Compatibility format: destination id in 19:12, bit 4 = 0.
    const msi::Decoded compat = msi::decode(0xFEE01000);
    CHECK(compat.in_range);
    CHECK_FALSE(compat.remappable_format);
    CHECK_FALSE(msi::decode(0xFED00010).in_range);
    CHECK_FALSE(msi::decode(0x1'FEE00010ull).in_range);
}
