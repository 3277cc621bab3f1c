#pragma once
// NotificationHandler: Linux's posted-MSI notification handler, the "demux"
// loop of sysvec_posted_msi_notification (arch/x86/kernel/irq.c), over an
// abstract PID accessor, so that the same code runs inside CpuCore (in
// simulated time) and in unit tests (recording the access order). It is
// resumable (kernel/resumable.h): an access may refuse until time has
// passed, and the handler goes on from there when resumed, so that CpuCore
// can be an SC_METHOD.
//
// Modelled (mechanism.md section 4, docs/specification.md): the four
// harvest strategies (`xchg_all`, `interleaved`, `read_then_xchg` with the
// 6.16 all-zero early return, `no_copy`), the two loop variants (`rfc_v1`,
// `merged` as in 6.10), the loop limit, and the harvest after clearing ON,
// which can be switched off to exhibit the stranded-interrupt race. Device
// handlers are called for set vectors from FIRST_EXTERNAL_VECTOR (0x20) up
// to below FIRST_SYSTEM_VECTOR (0xEB), lowest first, as
// for_each_set_bit_from does.
// Not modelled: irq_enter/irq_exit/EOI (CpuCore charges them around it).
#include <cstdint>

#include "model/base/param_visitor.h"
#include "model/base/vector_bits.h"

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
    // intel_ack_posted_msi_irq EOIs when it runs outside the demux handler
    // (a retriggered posted vector delivered through the IDT): the late-2025
    // fix; false is the kernel before it, which leaves that ISR bit set.
    bool retrigger_eoi_fix = true;

    void describe(ParamVisitor& v);
};

// What the handler does to the world. Each call either does it now and
// returns true, or returns false: time must pass first (the caller arranges
// that), and the handler makes the same call again when resumed.
class PirAccessor {
public:
    virtual ~PirAccessor() = default;
    virtual bool read_pir(unsigned word, uint64_t& value) = 0;  // 64-bit load
    virtual bool xchg_pir(unsigned word, uint64_t& value) = 0;  // locked xchg with 0
    virtual bool clear_on() = 0;                                // atomic clear_bit(ON)
    virtual bool call_handler(Vector vector) = 0;               // the device vector's handler
    // Tracing (only with report_steps): a harvest pass starts or ends, a
    // handler has returned.
    virtual bool pass_begin(unsigned /*pass*/, bool /*final*/) { return true; }
    virtual bool pass_end(unsigned /*pass*/, bool /*found*/) { return true; }
    virtual bool handler_returned(Vector) { return true; }
};

class NotificationHandler {
public:
    explicit NotificationHandler(const NotificationHandlerParams& params) : m_params(params) {}

    // Also make the tracing calls of PirAccessor.
    void report_steps(bool on) { m_report = on; }

    // Starts the handler for one notification.
    void start() { m_resume = 0; }
    // Runs the handler on until an access refuses (false) or it returns (true).
    bool resume(PirAccessor& pid);
    // Harvest passes made by the handler that returned.
    unsigned passes() const { return m_passes; }

    // Runs the handler from start to end, resuming at once after a refusal
    // (for accessors that need no simulated time); returns the number of
    // harvest passes.
    unsigned run(PirAccessor& pid);

private:
    // Sub-procedures of resume(), resumable the same way.
    bool harvest(PirAccessor& pid);      // one pass; sets m_found
    bool pir_pending(PirAccessor& pid);  // sets m_pending
    bool dispatch(PirAccessor& pid, unsigned first_word, unsigned end_word);  // consumes m_copy

    NotificationHandlerParams m_params;
    bool m_report = false;
    // State across suspensions.
    int m_resume = 0, m_harvest_resume = 0, m_pending_resume = 0, m_dispatch_resume = 0;
    unsigned m_loop = 0;      // loop iteration
    unsigned m_passes = 0;    // harvest passes so far
    bool m_final = false;     // this pass is the one after clearing ON
    bool m_found = false;     // this pass found a bit
    bool m_pending = false;   // pir_pending's answer
    unsigned m_word = 0;      // PIR word at hand
    uint64_t m_value = 0;     // what the last read or xchg returned
    unsigned m_dispatch_word = 0;
    Vector m_vector = 0;
    uint64_t m_copy[4] = {0, 0, 0, 0};
};

}  // namespace cidsim
