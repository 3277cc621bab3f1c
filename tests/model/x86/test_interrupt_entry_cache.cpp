// InterruptEntryCache: hits and misses by IRTE index, LRU replacement,
// invalidation by index and of all [VT-d 6.4, 6.5.2.5].
#include <catch2/catch.hpp>

#include "model/x86/interrupt_entry_cache.h"

using namespace cidsim;

TEST_CASE("a filled entry hits until it is invalidated", "[iec]") {
    InterruptEntryCache<int> iec(4);
    CHECK(iec.find(7) == nullptr);
    CHECK(iec.fill(7, 70) == 70);
    REQUIRE(iec.find(7) != nullptr);
    CHECK(*iec.find(7) == 70);
    iec.invalidate(7);
    CHECK(iec.find(7) == nullptr);
    iec.fill(1, 10);
    iec.fill(2, 20);
    iec.invalidate_all();
    CHECK(iec.size() == 0);
    CHECK(iec.find(1) == nullptr);
}

TEST_CASE("the least recently used entry makes room", "[iec]") {
    InterruptEntryCache<int> iec(2);
    iec.find(1);
    iec.fill(1, 10);
    iec.find(2);
    iec.fill(2, 20);
    CHECK(iec.find(1) != nullptr);  // 1 is now more recent than 2
    iec.find(3);
    iec.fill(3, 30);                // evicts 2
    CHECK(iec.find(2) == nullptr);
    CHECK(iec.find(1) != nullptr);
    CHECK(iec.find(3) != nullptr);
    CHECK(iec.size() == 2);
}

TEST_CASE("with no capacity nothing is cached", "[iec]") {
    InterruptEntryCache<int> iec(0);
    CHECK(iec.fill(5, 50) == 50);
    CHECK(iec.find(5) == nullptr);
    CHECK(iec.pass_through(60) == 60);
    CHECK(iec.size() == 0);
}
