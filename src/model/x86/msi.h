#pragma once
// MSI write format with interrupt remapping [5.1.2]: a DWORD write to
// 0xFEEx_xxxx whose address carries, in remappable format (bit 4 = 1), a
// 16-bit handle (bits 19:5 = handle[14:0], bit 2 = handle[15]) and SHV
// (bit 3); with SHV the data's low 16 bits are a subhandle added to it.
// Plus the TLM extension that tells the remapping unit where a write came
// in: its requester id (for source-id verification) and its root port.
#include <cstdint>

#include <tlm>

namespace cidsim {

class RootPort;

namespace msi {
constexpr uint64_t kBase = 0xFEE00000;

inline uint64_t remappable_address(uint16_t handle, bool shv) {
    return kBase | uint64_t(handle & 0x7FFF) << 5 | 1u << 4 | uint64_t(shv) << 3 |
           uint64_t(handle >> 15) << 2;
}

struct Decoded {
    bool in_range = false;            // 0xFEEx_xxxx
    bool remappable_format = false;   // bit 4
    uint16_t handle = 0;
    bool shv = false;
};

inline Decoded decode(uint64_t address) {
    Decoded d;
    d.in_range = (address & 0xFFF00000) == kBase && (address >> 32) == 0;
    d.remappable_format = address >> 4 & 1;
    d.shv = address >> 3 & 1;
    d.handle = uint16_t((address >> 5 & 0x7FFF) | (address >> 2 & 1) << 15);
    return d;
}
}  // namespace msi

// A sender of MSI writes, asked about its next write not yet sent: lower
// bounds that stay true as time passes (anything it decides later to send,
// it sends later still).
class MsiSource {
public:
    virtual ~MsiSource() = default;
    // When it may send it (and the DMA writes the MSI is ordered after).
    virtual sc_core::sc_time earliest_send() const = 0;
    // When it may reach the remapping unit.
    virtual sc_core::sc_time earliest_arrival() const = 0;
    // The root port it writes through (or nullptr) and the least any write
    // of its MSI takes there: earliest_arrival() is never before the port's
    // free_at() plus that. One bound for all the port's senders, which the
    // remapping unit checks before asking each of them.
    virtual const RootPort* writes_through() const { return nullptr; }
    virtual sc_core::sc_time shortest_write() const { return sc_core::SC_ZERO_TIME; }
};

struct MsiIngress : tlm::tlm_extension<MsiIngress> {
    uint16_t source_id = 0;
    RootPort* port = nullptr;

    tlm::tlm_extension_base* clone() const override { return new MsiIngress(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const MsiIngress&>(other);
    }
};

}  // namespace cidsim
