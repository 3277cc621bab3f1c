// The vector plan (src/config/vector_plan.h): which CPU or vCPU, vector and
// IRTE each device queue gets, and a config refused when a queue gets none.
#include <catch2/catch.hpp>

#include "config/config_loader.h"
#include "config/vector_plan.h"
#include "config_error.h"

using namespace cidsim;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

SimConfig load(const std::string& text) { return load_config(json::parse(text), "c.json"); }

}  // namespace

TEST_CASE("a host device's queues take the lowest free vector from first_vector, cycling "
          "over irq_cpus, and the IRTEs in device order", "[vector_plan]") {
    const SimConfig c = load(R"({"topology": {"cpus": 2}, "devices": [
        {"name": "a", "vectors": 3, "irq_cpus": [0, 1], "first_vector": 48},
        {"name": "b", "vectors": 2, "irq_cpus": [0], "first_vector": 48}]})");
    const VectorPlan plan = plan_vectors(c);
    REQUIRE(plan.devices.size() == 2);
    const auto& a = plan.devices[0];
    const auto& b = plan.devices[1];
    REQUIRE(a.size() == 3);
    REQUIRE(b.size() == 2);
    CHECK((a[0].cpu == 0 && a[0].vector == 0x30 && a[0].irte_index == 0));
    CHECK((a[1].cpu == 1 && a[1].vector == 0x30 && a[1].irte_index == 1));
    CHECK((a[2].cpu == 0 && a[2].vector == 0x31 && a[2].irte_index == 2));
    CHECK((b[0].cpu == 0 && b[0].vector == 0x32 && b[0].irte_index == 3));
    CHECK((b[1].cpu == 0 && b[1].vector == 0x33 && b[1].irte_index == 4));
    CHECK(plan.host_cpu_vectors[0].count() == 4);
    CHECK(plan.host_cpu_vectors[1].count() == 1);
    for (const auto& q : a) CHECK_FALSE(q.posted);
}

TEST_CASE("a KVM queue is posted to a vCPU with APICv and posting on; otherwise it takes a "
          "host vector on the vCPU's pCPU beside its guest vector", "[vector_plan]") {
    const std::string config = R"({"mode": "remappable", "topology": {"cpus": 1},
        "vm": {"irq_posting": POSTING},
        "vcpus": [{"apicv": true}, {"apicv": false, "vid": false}],
        "devices": [{"name": "a", "assigned_to": "vcpu0", "vectors": 2, "first_vector": 64},
                    {"name": "b", "assigned_to": "vcpu1", "vectors": 1, "first_vector": 64}]})";
    for (const bool posting : {false, true}) {
        std::string text = config;
        text.replace(text.find("POSTING"), 7, posting ? "true" : "false");
        const VectorPlan plan = plan_vectors(load(text));
        const auto& a = plan.devices[0];
        const auto& b = plan.devices[1];
        CHECK((a[0].cpu == 0 && a[0].guest_vector == 0x40 && a[1].guest_vector == 0x41));
        CHECK((b[0].cpu == 1 && b[0].guest_vector == 0x40 && b[0].irte_index == 2));
        CHECK(a[0].posted == posting);
        CHECK_FALSE(b[0].posted);  // no APICv on vcpu1
        if (!posting) CHECK((a[0].vector == 0x40 && a[1].vector == 0x41));
        CHECK(b[0].vector == 0x40);
        for (const VectorBits& host : plan.host_cpu_vectors) CHECK_FALSE(host.any());
    }
}

TEST_CASE("a Xen guest's spread queues are dealt to its vCPUs round robin across devices",
          "[vector_plan]") {
    const VectorPlan plan = plan_vectors(load(R"({"mode": "remappable",
        "topology": {"cpus": 1, "root_ports": 2},
        "xen": {"vcpus": 2, "sockets": 1, "pirqs": 64, "variant": "full"},
        "devices": [{"name": "a", "assigned_to": "guest", "vectors": 3},
                    {"name": "b", "root_port": 1, "assigned_to": "guest", "vectors": 1}]})"));
    CHECK(plan.devices[0][0].cpu == 0);
    CHECK(plan.devices[0][1].cpu == 1);
    CHECK(plan.devices[0][2].cpu == 0);
    CHECK(plan.devices[1][0].cpu == 1);
    CHECK(plan.devices[1][0].guest_vector == plan.devices[0][1].guest_vector + 1);
}

TEST_CASE("a queue that finds no free vector is refused when the config loads, naming the "
          "device's vectors, the queue and where", "[vector_plan]") {
    CHECK_THROWS_WITH(load(R"({"topology": {"cpus": 1}, "devices": [
        {"name": "a", "vectors": 2, "irq_cpus": [0], "first_vector": 233},
        {"name": "b", "vectors": 1, "irq_cpus": [0], "first_vector": 234}]})"),
                      Contains("devices[1].vectors: 1 queue, but queue 0 finds no free device "
                               "vector on CPU 0 from first_vector 0xEA up to 0xEA"));
    CHECK_THROWS_WITH(load(R"({"mode": "remappable", "topology": {"cpus": 1},
        "vcpus": [{"apicv": true}],
        "devices": [{"name": "a", "assigned_to": "vcpu0", "vectors": 3, "first_vector": 233}]})"),
                      Contains("devices[0].vectors: 3 queues, but queue 2 finds no free guest "
                               "vector on vcpu0"));
}
