#include "model/coherence/line_topology.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace cidsim {

LineTopology::LineTopology(std::vector<uint8_t> node, std::vector<uint32_t> core,
                           std::vector<uint8_t> hops, SupplierRule rule)
    : m_node(std::move(node)), m_core(std::move(core)), m_hops(std::move(hops)), m_rule(rule) {
    if (m_core.size() != m_node.size())
        throw std::invalid_argument("LineTopology: one core per agent");
    if (m_node.size() > 65535) throw std::invalid_argument("LineTopology: at most 65535 agents");
    m_nodes = m_node.empty() ? 1 : unsigned(*std::max_element(m_node.begin(), m_node.end())) + 1;
    if (m_hops.empty()) {
        m_hops.resize(size_t(m_nodes) * m_nodes);
        for (unsigned i = 0; i < m_nodes; ++i)
            for (unsigned j = 0; j < m_nodes; ++j) m_hops[i * m_nodes + j] = uint8_t(std::abs(int(i) - int(j)));
    } else if (m_hops.size() != size_t(m_nodes) * m_nodes) {
        throw std::invalid_argument("LineTopology: the hop matrix must be nodes x nodes");
    }
}

std::shared_ptr<const LineTopology> LineTopology::of_nodes(std::vector<uint8_t> node_of_agent) {
    std::vector<uint32_t> core(node_of_agent.size());
    for (size_t a = 0; a < core.size(); ++a) core[a] = uint32_t(a);
    return std::make_shared<const LineTopology>(std::move(node_of_agent), std::move(core),
                                                std::vector<uint8_t>{}, SupplierRule::Lowest);
}

}  // namespace cidsim
