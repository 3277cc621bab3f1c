// The x86 host's topology: sockets, cores and SMT siblings as Linux numbers
// them (topology.threads_per_core, topology.smt_numbering), and what the
// siblings share (the lines of a vector's irq_desc, at same-core cost).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config_loader.h"
#include "config_error.h"
#include "model/linux/edge_irq_desc.h"

using namespace cidsim;
using nlohmann::json;

namespace {

// 2 sockets of 4 cores of 2 threads: 16 CPUs.
json smt_host(const char* numbering) {
    return {{"topology", {{"cpus", 16}, {"sockets", 2}, {"threads_per_core", 2},
                          {"smt_numbering", numbering}}},
            {"devices", {{{"name", "dev0"}, {"vectors", 1}, {"irq_cpus", {0}}}}},
            {"workloads", json::array()}};
}

std::vector<unsigned> cores_of(const TopologyParams& t) {
    std::vector<unsigned> v;
    for (unsigned c = 0; c < t.cpus; ++c) v.push_back(t.core_of(c));
    return v;
}

std::vector<unsigned> sockets_of(const TopologyParams& t) {
    std::vector<unsigned> v;
    for (unsigned c = 0; c < t.cpus; ++c) v.push_back(t.socket_of(c));
    return v;
}

}  // namespace

TEST_CASE("x86 SMT: split numbering puts CPU c and c + cores on one core, adjacent c and c + 1",
          "[topology]") {
    const TopologyParams split = load_config(smt_host("split")).topology;
    CHECK(cores_of(split) == std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7});
    CHECK(sockets_of(split) == std::vector<unsigned>{0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1});
    const TopologyParams adjacent = load_config(smt_host("adjacent")).topology;
    CHECK(cores_of(adjacent) == std::vector<unsigned>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7});
    CHECK(sockets_of(adjacent) == std::vector<unsigned>{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1});
    // Without SMT every CPU is a core, the sockets split the CPUs in order.
    json plain = smt_host("split");
    plain["topology"]["threads_per_core"] = 1;
    const TopologyParams one = load_config(plain).topology;
    CHECK(one.core_of(9) == 9);
    CHECK(one.socket_of(7) == 0);
    CHECK(one.socket_of(8) == 1);
}

TEST_CASE("x86 SMT: an override of a core sets both of its threads", "[topology][overrides]") {
    json c = smt_host("split");
    c["overrides"] = {{{"cores", {5}}, {"cpu", {{"eoi_ns", 77}}}}};
    const std::vector<CpuCoreParams> p = x86_cpu_params(load_config(c));
    REQUIRE(p.size() == 16);
    for (unsigned cpu = 0; cpu < 16; ++cpu)
        CHECK((ns_of(p[cpu].eoi) == 77) == (cpu == 5 || cpu == 13));
}

TEST_CASE("x86 SMT: a vector moved to a sibling thread gets its irq_desc from the shared core",
          "[topology][irq_desc]") {
    SharedLineParams line;
    line.hit = ns(1);
    line.same_core = ns(3);
    line.miss = ns(100);
    line.snoop_modified = ns(40);
    line.invalidate_per_sharer = ns(2);
    // CPUs 0 and 2 share core 0 (split numbering, 2 cores); CPU 1 is core 1.
    const auto topology = std::make_shared<const LineTopology>(
        std::vector<uint8_t>{0, 0, 0, 0}, std::vector<uint32_t>{0, 1, 0, 1}, std::vector<uint8_t>{},
        SupplierRule::Lowest);
    EdgeIrqDesc desc(line, topology, 0);
    // Each line from the sibling's L1/L2 (3 ns, one copy dropped) instead of a hit.
    CHECK(desc.handle(2) == ns(2 * (3 + 2 - 1)));
    // From the other core it is a fetch of a modified line.
    CHECK(desc.handle(1) == ns(2 * (100 + 40 + 2 - 1)));
}

TEST_CASE("x86 SMT: CPUs that are not whole cores are bad input", "[topology]") {
    json c = smt_host("split");
    c["topology"]["cpus"] = 15;
    CHECK_THAT(cidsim_test::config_error(c, "smt.json"),
               Catch::StartsWith("smt.json: topology.threads_per_core: 15 CPUs (topology.cpus) "
                                 "are not whole cores of 2 threads"));
    c["topology"]["cpus"] = 2;
    c["topology"]["sockets"] = 2;
    CHECK_THROWS_WITH(load_config(c, "smt.json"), Catch::Contains("topology.sockets: 2 sockets but only 1 cores"));
}
