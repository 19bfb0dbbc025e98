#include "scenario/mac_builder.hpp"

#include <stdexcept>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace wmnsim::mac {

namespace {

// The radio's queue discipline (queue.discipline), one per access function: one
// under DCF, one per access category under EDCA. The Mac starts with drop-tail
// queues; before the first packet, replacing them moves nothing.
void install_queues(Mac& mac, MacType type, const MacParams& params, DropSink& drops, const link::QueueContext& context,
                    const RandomStreams& random, const std::string& node_id, std::size_t radio) {
  const link::QueueDisciplineChoice& choice = params.queue_discipline;
  if (!choice.build) return;  // not chosen by a parse: the Mac's own drop tail
  const std::vector<AccessCategory> dcf{AccessCategory::ac_be};
  const std::vector<AccessCategory> edca{AccessCategory::ac_bk, AccessCategory::ac_be, AccessCategory::ac_vi,
                                         AccessCategory::ac_vo};
  link::QueueContext c = context;
  for (const AccessCategory ac : type == MacType::dcf ? dcf : edca) {
    c.random = random.stream("node", node_id, "queue/radio" + std::to_string(radio) + "/" + std::string(to_string(ac)));
    mac.set_queue(ac, choice.build(params.queue, choice.params, drops, c));
  }
}

}  // namespace

link::QueueContext queue_context(const Scenario& scenario) {
  link::QueueContext c;
  c.flow_subscriber.reserve(scenario.flows.size());
  const auto is_mesh = [&](const std::optional<std::size_t>& n) {
    return n && scenario.nodes[*n].role == NodeRole::mesh;
  };
  for (const FlowConfig& f : scenario.flows) {
    // An "@gateway" end is empty here; the gateway routing resolves it later.
    std::optional<std::size_t> sub = is_mesh(f.src) ? f.src : is_mesh(f.dst) ? f.dst : f.src ? f.src : f.dst;
    c.flow_subscriber.push_back(sub ? static_cast<std::uint32_t>(*sub) : kNoFlow);
  }
  return c;
}

MacNetwork build_macs(Simulation& sim, const Scenario& scenario, phy::PhyNetwork& phy, PacketPool& pool,
                      DropSink& drops) {
  const std::vector<DropSink*> same(scenario.nodes.size(), &drops);
  return build_macs(sim, scenario, phy, pool, same);
}

MacNetwork build_macs(Simulation& sim, const Scenario& scenario, phy::PhyNetwork& phy, PacketPool& pool,
                      std::span<DropSink* const> node_drops) {
  if (node_drops.size() != scenario.nodes.size()) throw std::invalid_argument("build_macs: one DropSink per node");
  if (phy.node_build_order.size() != scenario.nodes.size()) {
    throw std::invalid_argument("build_macs: the PHY's node build order has one place per node (build_phy)");
  }
  MacNetwork net;
  net.macs.resize(phy.medium->radio_count());
  const link::QueueContext context = queue_context(scenario);
  // One MacContext (its MacTiming, the data rates) per radio profile, shared by the
  // MACs (the control rate is the network's): the medium keeps one copy of each
  // profile, so its address names it.
  std::vector<std::shared_ptr<const MacContext>> contexts;
  const phy::PhyNetwork* net_phy = &phy;
  const auto shared_context = [&](const phy::PhyProfile& profile) {
    for (const auto& c : contexts) {
      if (&c->profile == &profile) return c;
    }
    const phy::Mcs& control = phy.basic_rate != nullptr ? *phy.basic_rate : profile.lowest_rate();
    return contexts.emplace_back(std::make_shared<const MacContext>(
        MacContext{sim.scheduler(), profile, mac_timing(profile, control), pool, phy.medium->payload_pool(),
                   [net_phy](std::uint32_t from, std::uint32_t to) { return phy::link_data_rate(*net_phy, from, to); }}));
  };
  // Built in the nodes' build order, so that MACs near each other in space lie near
  // each other in memory (PhyNetwork::node_build_order); nothing a MAC's
  // construction does depends on the others (its streams are named by its node).
  for (const std::uint32_t n : phy.node_build_order) {
    const NodeConfig& node = scenario.nodes[n];
    for (std::size_t r = 0; r < phy.node_radios[n].size(); ++r) {
      const phy::RadioId id = phy.node_radios[n][r];
      MacConfig config;
      config.type = scenario.mac.type;
      config.params = *node.radios[r].mac;
      config.context = shared_context(phy.medium->radio(id).profile());
      auto mac = std::make_unique<Mac>(sim, phy.medium->radio(id), config, pool, *node_drops[n],
                                       sim.random().stream("node", node.id, "backoff/" + std::to_string(r)));
      install_queues(*mac, scenario.mac.type, *node.radios[r].mac, *node_drops[n], context, sim.random(), node.id, r);
      net.macs[id] = std::move(mac);
    }
  }
  for (std::size_t n = 0; n < scenario.nodes.size(); ++n) {  // the lists in the nodes' order
    net.node_macs.add_list();
    for (const phy::RadioId id : phy.node_radios[n]) net.node_macs.push_back(net.macs[id].get());
  }
  net.node_macs.shrink_to_fit();
  return net;
}

}  // namespace wmnsim::mac
