// TieOrder (kernel/tie_order.h): before a participant acts at the kernel's
// time, every participant ranked before it catches up, lowest rank first,
// equal ranks in the order added; the participant itself and those after it
// do not.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "kernel/tie_order.h"

using namespace cidsim;

namespace {

struct Named : Participant {
    std::string name;
    std::vector<std::string>* log;
    Named(std::string n, std::vector<std::string>* l) : name(std::move(n)), log(l) {}
    void catch_up() override { log->push_back(name); }
};

}  // namespace

TEST_CASE("those ranked before a participant catch up, lowest rank first", "[tie_order]") {
    std::vector<std::string> log;
    Named a("a", &log), b("b", &log), c("c", &log), d("d", &log);
    TieOrder order;
    CHECK(order.empty());
    order.add(c, 30);
    order.add(a, 10);
    order.add(d, 40);
    order.add(b, 20);
    CHECK_FALSE(order.empty());

    order.catch_up_before(&c);
    CHECK(log == std::vector<std::string>{"a", "b"});
    log.clear();
    order.catch_up_before(&a);  // the first acts without waiting for anyone
    CHECK(log.empty());
    order.catch_up_before(nullptr);  // everyone
    CHECK(log == std::vector<std::string>{"a", "b", "c", "d"});
}

TEST_CASE("equal ranks go in the order added", "[tie_order]") {
    std::vector<std::string> log;
    Named first("first", &log), second("second", &log), third("third", &log), low("low", &log);
    TieOrder order;
    order.add(first, 5);
    order.add(second, 5);
    order.add(third, 5);
    order.add(low, 1);
    order.catch_up_before(&third);
    CHECK(log == std::vector<std::string>{"low", "first", "second"});
}

TEST_CASE("a participant not in the order sees everyone catch up", "[tie_order]") {
    std::vector<std::string> log;
    Named a("a", &log), outsider("outsider", &log);
    TieOrder order;
    order.add(a, 0);
    order.catch_up_before(&outsider);
    CHECK(log == std::vector<std::string>{"a"});
}
