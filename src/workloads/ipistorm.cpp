#include "workloads/ipistorm.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace cidsim {

void IpistormParams::describe(ParamVisitor& v) {
    v.text("cpulist", cpulist, "the CPUs running a kthread, as a kernel cpulist (\"0-63\", \"0-7,16-23\")");
    v.integer("offset", offset, "cpus", 0, 1u << 20,
              "each kthread calls CPU (cpu + offset) % n, n = the CPUs in cpulist");
    v.flag("wait", wait, "the sender spins until the target ran the function (csd_lock_wait)");
    v.integer("delay_us", delay_us, "us", 0, 1000000,
              "usleep_range(delay, delay + 1) after each call (0: an already-expired hrtimer, one "
              "timer interrupt per iteration)");
}

std::vector<unsigned> IpistormParams::cpus() const {
    std::vector<unsigned> out;
    std::stringstream in(cpulist);
    std::string part;
    while (std::getline(in, part, ',')) {
        size_t used = 0, used2 = 0;
        unsigned long lo = 0, hi = 0;
        try {
            lo = std::stoul(part, &used);
            hi = lo;
            if (used < part.size() && part[used] == '-') hi = std::stoul(part.substr(used + 1), &used2), used += 1 + used2;
        } catch (const std::exception&) {
            used = 0;
        }
        if (part.empty() || used != part.size() || hi < lo || hi > 65535)
            throw std::invalid_argument("\"" + cpulist + "\" is not a cpulist like \"0-15\" or \"0-7,16-23\"");
        for (unsigned long c = lo; c <= hi; ++c) out.push_back(unsigned(c));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.empty()) throw std::invalid_argument("an empty cpulist");
    return out;
}

}  // namespace cidsim
