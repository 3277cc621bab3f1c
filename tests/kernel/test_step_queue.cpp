// StepQueue (kernel/step_queue.h): many blocks' timed steps on one kernel
// event, run at their times, ties in push order, and visible to the tie
// order as acts still due at this picosecond.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "kernel/step_queue.h"
#include "model/base/param_visitor.h"  // ns()
#include "kernel/sim_clock.h"

using namespace cidsim;
using sc_core::sc_time;

namespace {

// Steps every `period`, logging its name, the time, others_act_now() and
// time_to_pending_activity() each time.
struct Ticker : TimedStep {
    struct Entry {
        std::string who;
        sc_time at;
        bool others_due;
        sc_time to_next;
    };
    std::string name;
    sc_time period;
    int left;
    std::vector<Entry>* log;
    Ticker(std::string n, sc_time p, int count, std::vector<Entry>* l)
        : name(std::move(n)), period(p), left(count), log(l) {}
    void step_due() override {
        log->push_back({name, sim_now(), others_act_now(), time_to_pending_activity()});
        if (--left > 0) StepQueue::instance().push(sim_now() + period, *this);
    }
};

}  // namespace

TEST_CASE("steps run at their times, ties in push order, the others due now visible",
          "[step_queue]") {
    std::vector<Ticker::Entry> log;
    Ticker a("a", ns(10), 3, &log), b("b", ns(15), 2, &log), c("c", ns(0), 2, &log);
    StepQueue& q = StepQueue::instance();
    q.push(ns(10), a);
    q.push(ns(15), b);
    q.push(ns(30), c);  // and again at 30: a zero period steps twice at one time
    sc_core::sc_start();
    // a: 10 20 30; b: 15 30; c: 30 30.
    std::vector<std::string> order;
    std::vector<sc_time> times;
    for (const auto& e : log) order.push_back(e.who), times.push_back(e.at);
    CHECK(order == std::vector<std::string>{"a", "b", "a", "c", "b", "a", "c"});
    CHECK(times == std::vector<sc_time>{ns(10), ns(15), ns(20), ns(30), ns(30), ns(30), ns(30)});
    // At 30 the queue holds c, b and a, in the order they were pushed; each
    // sees those after it as acting now, and c's second step (pushed as it
    // ran) comes last and sees none.
    std::vector<bool> others;
    for (const auto& e : log) others.push_back(e.others_due);
    CHECK(others == std::vector<bool>{false, false, false, true, true, true, false});
    // The next queued step is pending activity, though the queue's kernel
    // event is not armed while it runs steps.
    std::vector<sc_time> to_next;
    for (size_t i = 0; i < 6; ++i) to_next.push_back(log[i].to_next);
    CHECK(to_next == std::vector<sc_time>{ns(5), ns(5), ns(10), ns(0), ns(0), ns(0)});
    CHECK(sc_core::sc_time_stamp() == ns(30));
}
