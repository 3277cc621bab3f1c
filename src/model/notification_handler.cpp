#include "model/notification_handler.h"

namespace cidsim {

const char* const kHarvestStrategyNames[4] = {"xchg_all", "interleaved", "read_then_xchg",
                                              "no_copy"};
const char* const kLoopVariantNames[2] = {"rfc_v1", "merged"};

void NotificationHandlerParams::describe(ParamVisitor& v) {
    visit_choice(v, "harvest", harvest, kHarvestStrategyNames,
                 "how PIR is copied out: xchg_all | interleaved | read_then_xchg | no_copy");
    visit_choice(v, "loop", loop, kLoopVariantNames,
                 "demux loop: rfc_v1 (re-read PIR to continue) | merged (Linux 6.10)");
    v.integer("loop_limit", loop_limit, "harvests", 1, 64,
              "MAX_POSTED_MSI_COALESCING_LOOP: most harvests per notification");
    v.flag("final_harvest", final_harvest,
           "harvest once more after clearing ON (false exhibits stranded interrupts)");
}

void NotificationHandler::call_handlers(PirAccessor& pid, unsigned word, uint64_t bits) const {
    while (bits) {
        unsigned v = word * 64 + unsigned(__builtin_ctzll(bits));
        bits &= bits - 1;
        if (v >= kFirstExternalVector && v < kFirstSystemVector) pid.call_handler(Vector(v));
    }
}

bool NotificationHandler::harvest(PirAccessor& pid) const {
    uint64_t copy[4] = {0, 0, 0, 0};
    bool found = false;
    switch (m_params.harvest) {
        case HarvestStrategy::XchgAll:
            for (unsigned i = 0; i < 4; ++i) found |= (copy[i] = pid.xchg_pir(i)) != 0;
            break;
        case HarvestStrategy::Interleaved:
            for (unsigned i = 0; i < 4; ++i)
                if (pid.read_pir(i)) found |= (copy[i] = pid.xchg_pir(i)) != 0;
            break;
        case HarvestStrategy::ReadThenXchg:
            for (unsigned i = 0; i < 4; ++i) copy[i] = pid.read_pir(i);
            for (unsigned i = 0; i < 4; ++i)
                if (copy[i]) {
                    copy[i] = pid.xchg_pir(i);
                    found = true;
                }
            break;
        case HarvestStrategy::NoCopy:
            for (unsigned i = 0; i < 4; ++i) {
                if (!pid.read_pir(i)) continue;
                uint64_t bits = pid.xchg_pir(i);
                found |= bits != 0;
                call_handlers(pid, i, bits);
            }
            return found;
    }
    if (found)
        for (unsigned i = 0; i < 4; ++i) call_handlers(pid, i, copy[i]);
    return found;
}

bool NotificationHandler::pass(PirAccessor& pid, unsigned n, bool final) const {
    if (!m_listener) return harvest(pid);
    m_listener->pass_begin(n, final);
    const bool found = harvest(pid);
    m_listener->pass_end(n, found);
    return found;
}

bool NotificationHandler::pir_pending(PirAccessor& pid) const {
    for (unsigned i = 0; i < 4; ++i)
        if (pid.read_pir(i)) return true;
    return false;
}

unsigned NotificationHandler::run(PirAccessor& pid) const {
    const unsigned limit = unsigned(m_params.loop_limit);
    unsigned passes = 0;
    if (m_params.loop == LoopVariant::Merged) {
        // while (++i < MAX_POSTED_MSI_COALESCING_LOOP)
        //     if (!handle_pending_pir(pid->pir64, regs)) break;
        for (unsigned i = 1; i < limit; ++i) {
            ++passes;
            if (!pass(pid, passes, false)) break;
        }
        pid.clear_on();
        if (m_params.final_harvest) {
            ++passes;
            pass(pid, passes, true);
        }
    } else {
        // RFC v1: harvest while PIR (re-read) still has bits, up to the limit.
        for (unsigned i = 0; i < limit; ++i) {
            ++passes;
            pass(pid, passes, false);
            if (!pir_pending(pid)) break;
        }
        pid.clear_on();
        if (m_params.final_harvest && pir_pending(pid)) {
            ++passes;
            pass(pid, passes, true);
        }
    }
    return passes;
}

}  // namespace cidsim
