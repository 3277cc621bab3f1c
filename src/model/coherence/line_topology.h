#pragma once
// LineTopology: where the agents that share cache lines sit (systems.md D,
// "SharedLine needs"): each agent's node (chip or socket) and core, and the
// hop count between nodes. A transfer's distance class follows from it:
// same core (SMT siblings share the L1/L2), same node, or another node so
// many hops away. One topology is shared by every line of a machine.
// Not modelled: distances inside a chip (ring or mesh stops), directories.
#include <cstdint>
#include <memory>
#include <vector>

namespace cidsim {

using AgentId = uint16_t;

enum class LineDistance : uint8_t { SameCore, SameNode, OtherNode };

// Which copy answers a read of a line several agents share. POWER's
// coherence lets the nearest cache intervene (an SMT sibling's, then one on
// the requester's chip, then the fewest hops away); the x86 socket model
// keeps one fixed forwarder, the lowest-numbered holder, a stand-in for
// MESIF's F copy (its results, E1's among them, were calibrated with it).
enum class SupplierRule : uint8_t { Lowest, Nearest };

class LineTopology {
public:
    // node[a] and core[a] of every agent a; hops[i * nodes + j] between
    // nodes i and j (empty: |i - j|, nodes in a line).
    LineTopology(std::vector<uint8_t> node, std::vector<uint32_t> core,
                 std::vector<uint8_t> hops = {}, SupplierRule rule = SupplierRule::Nearest);
    // Each agent a core of its own, on node_of_agent[a]; hops |i - j|; the
    // lowest-numbered holder supplies.
    static std::shared_ptr<const LineTopology> of_nodes(std::vector<uint8_t> node_of_agent);

    unsigned agents() const { return unsigned(m_node.size()); }
    unsigned nodes() const { return m_nodes; }
    uint8_t node(AgentId a) const { return m_node[a]; }
    LineDistance distance(AgentId a, AgentId b) const {
        if (m_core[a] == m_core[b]) return LineDistance::SameCore;
        return m_node[a] == m_node[b] ? LineDistance::SameNode : LineDistance::OtherNode;
    }
    unsigned hops(AgentId a, AgentId b) const { return m_hops[m_node[a] * m_nodes + m_node[b]]; }
    SupplierRule supplier_rule() const { return m_rule; }

private:
    std::vector<uint8_t> m_node;
    std::vector<uint32_t> m_core;
    unsigned m_nodes = 0;
    std::vector<uint8_t> m_hops;
    SupplierRule m_rule;
};

}  // namespace cidsim
