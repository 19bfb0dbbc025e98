#pragma once
// Builds the MAC layer of a scenario on top of its PHY: one Mac per radio, each
// with the radio's resolved parameters (the scenario-wide `mac` section with the
// node's and the radio's overrides applied: scenario.hpp RadioConfig::mac), the
// scenario's MAC type, control frames at the basic rate and data at each link's
// rate (fixed, or chosen per link: scenario/phy_builder.hpp link_data_rate).

#include <memory>
#include <span>
#include <vector>

#include "core/flat_lists.hpp"
#include "scenario/scenario.hpp"
#include "core/simulation.hpp"
#include "mac/mac.hpp"
#include "scenario/phy_builder.hpp"

namespace wmnsim::mac {

struct MacNetwork {
  std::vector<std::unique_ptr<Mac>> macs;           // by radio id
  FlatLists<Mac*> node_macs;                        // by scenario node index, in radio order
};

// What the scenario's queue disciplines may know of it (link/packet_classifier.hpp):
// each flow's subscriber, its end with role "mesh" (the source when both or
// neither end is one).
link::QueueContext queue_context(const Scenario& scenario);

// Backoff streams are named ("node", <node id>, "backoff/<radio index>"), so adding
// a node or a radio elsewhere changes no one's draws (docs/random.md).
// Every MAC reports its drops to `drops`...
MacNetwork build_macs(Simulation& sim, const Scenario& scenario, phy::PhyNetwork& phy, PacketPool& pool,
                      DropSink& drops);
// ... or to its node's sink (node_drops[node index]: the node records where it dropped).
MacNetwork build_macs(Simulation& sim, const Scenario& scenario, phy::PhyNetwork& phy, PacketPool& pool,
                      std::span<DropSink* const> node_drops);

}  // namespace wmnsim::mac
