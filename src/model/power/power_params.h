#pragma once
// The POWER partition's parameters (a config's `power` section; systems.md
// section D): the chips, cores and SMT threads, which IPI descriptor each
// CPU uses and what note_interrupt does, and the costs of Linux's generic
// IPI path (kernel/smp.c, arch/powerpc/kernel/smp.c, sysdev/xive/common.c)
// and of the ipistorm loop around it. Every cost names its source in
// describe() (power_params.cpp).
#include <cstdint>
#include <vector>

#include "model/linux/irq_desc.h"
#include "model/base/param_visitor.h"
#include "model/power/xive.h"

namespace cidsim {

// One irq_desc for every hardware IPI (before the series), or one per chip
// (series 8/9-9/9: xive_init_ipis allocates one irq per node).
enum class IpiDescs : int { System, Chip };
extern const char* const kIpiDescsNames[2];

struct PowerParams {
    std::vector<uint64_t> cores_per_chip{16, 16};
    uint64_t threads_per_core = 4;
    IpiDescs ipi_descs = IpiDescs::System;
    IrqDebug irqdebug = IrqDebug::On;
    LineOrder desc_line_order = LineOrder::Random;
    bool idle_poll = true;  // pseries snooze polls: set_nr_if_polling skips the IPI

    sc_core::sc_time call_prep = ns(150);
    sc_core::sc_time enqueue = ns(20);
    sc_core::sc_time message = ns(30);
    sc_core::sc_time cause_ipi = ns(50);
    sc_core::sc_time exception_entry = ns(100);
    sc_core::sc_time exception_exit = ns(100);
    sc_core::sc_time kstat = ns(10);
    sc_core::sc_time demux = ns(30);
    sc_core::sc_time flush = ns(60);
    sc_core::sc_time unlock = ns(10);
    sc_core::sc_time randomness = ns(60);
    sc_core::sc_time note_interrupt = ns(15);
    sc_core::sc_time usleep_enter = ns(600);
    sc_core::sc_time timer_delta = ns(100);
    sc_core::sc_time timer_handler = ns(700);
    sc_core::sc_time usleep_exit = ns(600);
    sc_core::sc_time loop = ns(1500);
    sc_core::sc_time loop_jitter = ns(500);
    sc_core::sc_time poll_exit = ns(200);

    void describe(ParamVisitor& v);
};

}  // namespace cidsim
