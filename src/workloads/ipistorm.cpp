#include "workloads/ipistorm.h"

#include "model/linux/cpulist.h"

namespace cidsim {

void IpistormParams::describe(ParamVisitor& v) {
    v.text("cpulist", cpulist, "the CPUs running a kthread, as a kernel cpulist (\"0-63\", \"0-7,16-23\")");
    v.integer("offset", offset, "cpus", 0, 1u << 20,
              "each kthread calls CPU (cpu + offset) % n, n = the CPUs in cpulist: a CPU "
              "number, not a place in the list (ipistorm.c), so a list that does not start at "
              "CPU 0 calls CPUs below it, which run no kthread and poll: no IPI is sent");
    v.flag("wait", wait, "the sender spins until the target ran the function (csd_lock_wait)");
    v.integer("delay_us", delay_us, "us", 0, 1000000,
              "usleep_range(delay, delay + 1) after each call (0: an already-expired hrtimer, one "
              "timer interrupt per iteration)");
}

std::vector<unsigned> IpistormParams::cpus() const { return parse_cpulist(cpulist); }

}  // namespace cidsim
