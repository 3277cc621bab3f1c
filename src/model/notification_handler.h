#pragma once
// NotificationHandler: Linux's posted-MSI notification handler, the "demux"
// loop of sysvec_posted_msi_notification (arch/x86/kernel/irq.c), as an
// algorithm over an abstract PID accessor so that the same code runs inside
// CpuCore (in simulated time) and in unit tests (recording the access order).
//
// Modelled (spec/mechanism.md section 4): the four harvest strategies
// (`xchg_all`, `interleaved`, `read_then_xchg` with the 6.16 all-zero early
// return, `no_copy`), the two loop variants (`rfc_v1`, `merged` as in 6.10),
// the loop limit, and the harvest after clearing ON, which can be switched
// off to exhibit the stranded-interrupt race. Device handlers are called for
// set vectors from FIRST_EXTERNAL_VECTOR (0x20) up to below
// FIRST_SYSTEM_VECTOR (0xEC), lowest first, as for_each_set_bit_from does.
// Not modelled: irq_enter/irq_exit/EOI (CpuCore charges them around run()).
#include <cstdint>

#include "model/param_visitor.h"
#include "model/vector_bits.h"

namespace cidsim {

enum class HarvestStrategy : int { XchgAll, Interleaved, ReadThenXchg, NoCopy };
enum class LoopVariant : int { RfcV1, Merged };
extern const char* const kHarvestStrategyNames[4];
extern const char* const kLoopVariantNames[2];

struct NotificationHandlerParams {
    HarvestStrategy harvest = HarvestStrategy::ReadThenXchg;  // merged upstream
    LoopVariant loop = LoopVariant::Merged;
    uint64_t loop_limit = 3;    // MAX_POSTED_MSI_COALESCING_LOOP
    bool final_harvest = true;  // harvest after clearing ON (false is the buggy variant)

    void describe(ParamVisitor& v);
};

// What the handler does to the world; every call may take simulated time.
class PirAccessor {
public:
    virtual ~PirAccessor() = default;
    virtual uint64_t read_pir(unsigned word) = 0;  // 64-bit load
    virtual uint64_t xchg_pir(unsigned word) = 0;  // locked xchg with 0
    virtual void clear_on() = 0;                   // atomic clear_bit(ON)
    virtual void call_handler(Vector vector) = 0;  // the device vector's handler
};

// Told where each harvest pass starts and ends (tracing only).
class HarvestListener {
public:
    virtual ~HarvestListener() = default;
    virtual void pass_begin(unsigned pass, bool final) = 0;
    virtual void pass_end(unsigned pass, bool found) = 0;
};

class NotificationHandler {
public:
    explicit NotificationHandler(const NotificationHandlerParams& params) : m_params(params) {}

    // nullptr (the default) costs one pointer test per pass.
    void set_listener(HarvestListener* listener) { m_listener = listener; }

    // Runs the demux loop; returns the number of harvest passes made.
    unsigned run(PirAccessor& pid) const;

private:
    bool harvest(PirAccessor& pid) const;  // true when it found any bit
    bool pass(PirAccessor& pid, unsigned n, bool final) const;  // harvest, reported
    bool pir_pending(PirAccessor& pid) const;
    void call_handlers(PirAccessor& pid, unsigned word, uint64_t bits) const;

    NotificationHandlerParams m_params;
    HarvestListener* m_listener = nullptr;
};

}  // namespace cidsim
