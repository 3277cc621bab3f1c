#include "model/power/xive.h"

namespace cidsim {

void XiveParams::describe(ParamVisitor& v) {
    v.time("trigger_ns", trigger, 0, 1e6,
           "from the trigger-page store reaching the target chip's XIVE to the exception at the "
           "target thread: ESB PQ update, event-queue write, exception (one lumped latency). "
           "Source: assumed 0.3-1 us (systems.md D, Costs)");
    v.time("cross_chip_ns", cross_chip, 0, 1e6,
           "extra for a trigger store from another chip (an MMIO store over the SMP link). "
           "Source: assumed, more across chips (systems.md D); range 100-500 ns");
    v.time("occupancy_ns", occupancy, 0, 1e5,
           "the XIVE router's busy time per event; events queue for it. Source: guess, a few tens "
           "of the router's cycles; no public figure of the router's rate was found. Range 5-112 "
           "ns: above 112 ns one chip could not serve P9's noirqdebug IPI/sys 0-63 (8.94 M "
           "IPIs/s, systems.md D); at 112 ns it would explain P9's per-CPU fall from 0-15 to "
           "0-63 (docs/calibration.md E2)");
    v.time("tima_ack_ns", tima_ack, 0, 1e6,
           "xive_get_irq: the TIMA acknowledge load and the event-queue read. Source: assumed "
           "0.1-0.5 us (systems.md D)");
    v.time("esb_eoi_ns", esb_eoi, 0, 1e6,
           "xive_ipi_eoi: the ESB EOI load (SET_PQ_00). Source: assumed 0.1-0.5 us (systems.md D)");
}

void XiveStats::describe(StatVisitor& v) const {
    v.count(unreported("triggers"), triggers, "count", "trigger stores the chip's XIVE served");
    v.count(unreported("cross_chip_triggers"), cross_chip_triggers, "count", "of them from another chip");
    v.count(unreported("queued"), queued, "count", "events that waited for the router");
}

}  // namespace cidsim
