#include "model/linux/notification_handler.h"

#include "kernel/resumable.h"

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
    v.flag("retrigger_eoi_fix", retrigger_eoi_fix,
           "posted mode: a device vector delivered through the IDT (irq_retrigger's IPI on the "
           "device vector) gets its EOI from intel_ack_posted_msi_irq outside the demux "
           "handler (the late-2025 fix, posted_msi_handler_active); false: no EOI, the ISR bit "
           "stays and blocks its own and every lower priority class");
}

bool NotificationHandler::resume(PirAccessor& pid) {
    const unsigned limit = unsigned(m_params.loop_limit);
    switch (m_resume) {
        case 0:
            m_passes = 0;
            if (m_params.loop == LoopVariant::Merged) {
                // while (++i < MAX_POSTED_MSI_COALESCING_LOOP)
                //     if (!handle_pending_pir(pid->pir64, regs)) break;
                for (m_loop = 1; m_loop < limit; ++m_loop) {
                    m_final = false;
                    CIDSIM_AWAIT(m_resume, m_harvest_resume, harvest(pid));
                    if (!m_found) break;
                }
                CIDSIM_UNTIL(m_resume, pid.clear_on());
                if (m_params.final_harvest) {
                    m_final = true;
                    CIDSIM_AWAIT(m_resume, m_harvest_resume, harvest(pid));
                }
            } else {
                // RFC v1: harvest while PIR (re-read) still has bits, up to the limit.
                for (m_loop = 0; m_loop < limit; ++m_loop) {
                    m_final = false;
                    CIDSIM_AWAIT(m_resume, m_harvest_resume, harvest(pid));
                    CIDSIM_AWAIT(m_resume, m_pending_resume, pir_pending(pid));
                    if (!m_pending) break;
                }
                CIDSIM_UNTIL(m_resume, pid.clear_on());
                if (m_params.final_harvest) {
                    CIDSIM_AWAIT(m_resume, m_pending_resume, pir_pending(pid));
                    if (m_pending) {
                        m_final = true;
                        CIDSIM_AWAIT(m_resume, m_harvest_resume, harvest(pid));
                    }
                }
            }
    }
    return true;
}

bool NotificationHandler::harvest(PirAccessor& pid) {
    switch (m_harvest_resume) {
        case 0:
            ++m_passes;
            if (m_report) CIDSIM_UNTIL(m_harvest_resume, pid.pass_begin(m_passes, m_final));
            m_found = false;
            for (unsigned w = 0; w < 4; ++w) m_copy[w] = 0;
            if (m_params.harvest == HarvestStrategy::XchgAll) {
                for (m_word = 0; m_word < 4; ++m_word) {
                    CIDSIM_UNTIL(m_harvest_resume, pid.xchg_pir(m_word, m_value));
                    m_found |= (m_copy[m_word] = m_value) != 0;
                }
            } else if (m_params.harvest == HarvestStrategy::ReadThenXchg) {
                for (m_word = 0; m_word < 4; ++m_word)
                    CIDSIM_UNTIL(m_harvest_resume, pid.read_pir(m_word, m_copy[m_word]));
                for (m_word = 0; m_word < 4; ++m_word) {
                    if (!m_copy[m_word]) continue;
                    CIDSIM_UNTIL(m_harvest_resume, pid.xchg_pir(m_word, m_copy[m_word]));
                    m_found = true;
                }
            } else {  // Interleaved; NoCopy also calls each word's handlers after its xchg
                for (m_word = 0; m_word < 4; ++m_word) {
                    CIDSIM_UNTIL(m_harvest_resume, pid.read_pir(m_word, m_value));
                    if (!m_value) continue;
                    CIDSIM_UNTIL(m_harvest_resume, pid.xchg_pir(m_word, m_value));
                    m_found |= (m_copy[m_word] = m_value) != 0;
                    if (m_params.harvest == HarvestStrategy::NoCopy) {
                        CIDSIM_AWAIT(m_harvest_resume, m_dispatch_resume,
                                     dispatch(pid, m_word, m_word + 1));
                    }
                }
            }
            if (m_found && m_params.harvest != HarvestStrategy::NoCopy) {
                CIDSIM_AWAIT(m_harvest_resume, m_dispatch_resume, dispatch(pid, 0, 4));
            }
            if (m_report) CIDSIM_UNTIL(m_harvest_resume, pid.pass_end(m_passes, m_found));
    }
    return true;
}

bool NotificationHandler::pir_pending(PirAccessor& pid) {
    switch (m_pending_resume) {
        case 0:
            for (m_word = 0; m_word < 4; ++m_word) {
                CIDSIM_UNTIL(m_pending_resume, pid.read_pir(m_word, m_value));
                if (m_value) break;
            }
    }
    m_pending = m_word < 4;
    return true;
}

// for_each_set_bit_from(FIRST_EXTERNAL_VECTOR) over the harvested copy,
// below FIRST_SYSTEM_VECTOR.
bool NotificationHandler::dispatch(PirAccessor& pid, unsigned first_word, unsigned end_word) {
    switch (m_dispatch_resume) {
        case 0:
            for (m_dispatch_word = first_word; m_dispatch_word < end_word; ++m_dispatch_word) {
                while (m_copy[m_dispatch_word]) {
                    m_vector = Vector(m_dispatch_word * 64 +
                                      unsigned(__builtin_ctzll(m_copy[m_dispatch_word])));
                    m_copy[m_dispatch_word] &= m_copy[m_dispatch_word] - 1;
                    if (m_vector < kFirstExternalVector || m_vector >= kFirstSystemVector) continue;
                    CIDSIM_UNTIL(m_dispatch_resume, pid.call_handler(m_vector));
                    if (m_report) CIDSIM_UNTIL(m_dispatch_resume, pid.handler_returned(m_vector));
                }
            }
    }
    return true;
}

unsigned NotificationHandler::run(PirAccessor& pid) {
    start();
    while (!resume(pid)) {
    }
    return m_passes;
}

}  // namespace cidsim
