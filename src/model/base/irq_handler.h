#pragma once
// IrqHandler: what a CPU calls for a device vector, whoever the CPU is (an
// x86 CpuCore, a KVM or Xen vCPU, a threaded handler's IrqThread). Only the
// interface: each family's CPU decides when it may call it.
#include <cstdint>

#include <systemc>

namespace cidsim {

// A driver's interrupt handler: does its work as at time `at` (now, or
// later when may_handle_at allowed it) and returns the CPU time it takes.
class IrqHandler {
public:
    virtual ~IrqHandler() = default;
    virtual sc_core::sc_time handle(uint32_t cookie, unsigned cpu, const sc_core::sc_time& at) = 0;
    // May `cpu` run the handler now as at `at` (later than now), because
    // nothing it sees or changes can be touched by anyone else before then?
    virtual bool may_handle_at(uint32_t /*cookie*/, unsigned /*cpu*/,
                               const sc_core::sc_time& /*at*/) const {
        return false;
    }
};

}  // namespace cidsim
