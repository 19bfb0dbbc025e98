#include "scenario/mac_builder.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace wmnsim::mac {

MacNetwork build_macs(Simulation& sim, const Scenario& scenario, phy::PhyNetwork& phy, PacketPool& pool,
                      DropSink& drops) {
  const std::vector<DropSink*> same(scenario.nodes.size(), &drops);
  return build_macs(sim, scenario, phy, pool, same);
}

MacNetwork build_macs(Simulation& sim, const Scenario& scenario, phy::PhyNetwork& phy, PacketPool& pool,
                      std::span<DropSink* const> node_drops) {
  if (node_drops.size() != scenario.nodes.size()) throw std::invalid_argument("build_macs: one DropSink per node");
  MacNetwork net;
  net.macs.resize(phy.medium->radio_count());
  net.node_macs.resize(scenario.nodes.size());
  for (std::size_t n = 0; n < scenario.nodes.size(); ++n) {
    const NodeConfig& node = scenario.nodes[n];
    for (std::size_t r = 0; r < phy.node_radios[n].size(); ++r) {
      const phy::RadioId id = phy.node_radios[n][r];
      MacConfig config;
      config.type = scenario.mac.type;
      config.params = node.radios[r].mac;
      config.control_rate = phy.basic_rate;
      const phy::PhyNetwork* net_phy = &phy;
      config.data_rate = [net_phy, id](std::uint32_t to) { return phy::link_data_rate(*net_phy, id, to); };
      auto mac = std::make_unique<Mac>(sim, phy.medium->radio(id), config, pool, *node_drops[n],
                                       sim.random().stream("node", node.id, "backoff/" + std::to_string(r)));
      net.node_macs[n].push_back(mac.get());
      net.macs[id] = std::move(mac);
    }
  }
  return net;
}

}  // namespace wmnsim::mac
