#pragma once
// The links routing may use (core/routing.hpp's RoutingLink), from the PHY of a
// scenario and its wired links, and the interface numbering the node layer shares.
//
// Interfaces of a node: its radios first (interface r is radio r), then its wired
// links in the order of Scenario::links. wired_interface(), wired_interfaces() and
// wired_link_of() are the one place that numbering is computed, for routing and
// forwarding alike.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/routing.hpp"
#include "scenario/scenario.hpp"
#include "scenario/phy_builder.hpp"

namespace wmnsim {

// Every directed link of the network:
//  - wireless: from each radio to each radio of another node on its channel, when
//    both directions have a usable rate (phy::usable_link_rate): a unicast frame needs
//    its ACK back. interface = the sender's radio index, address = the receiving
//    radio's RadioId, cost_s = airtime_cost_s at the link's data rate;
//  - wired: both directions of each Scenario::links entry, interface =
//    wired_interface(), address = the receiving node's index, cost_s = 8192 bits
//    serialised at the link rate plus the propagation delay.
// Sorted by (from, to, interface).
std::vector<RoutingLink> routing_links(const Scenario& scenario, const phy::PhyNetwork& net);

// The 802.11s airtime cost of a link at `data_rate` (IEEE 802.11s-2012, 802.11-2012
// 13.9): ca = (O + Bt / r) / (1 - ef), Bt = 8192 bits, ef = 0 on a usable link.
// O is not the standard's per-PHY constant but the exchange this simulator models:
// data PPDU preamble and header, MAC header, LLC/SNAP and FCS at rate r, SIFS, the
// ACK at the basic rate, DIFS.
double airtime_cost_s(const Scenario& scenario, const phy::PhyNetwork& net, const phy::Mcs& data_rate);

// The interface of `node` on wired link `link_index` (an index into Scenario::links
// that touches `node`): radio count + its rank among the node's wired links.
// Throws std::invalid_argument when the link does not touch the node.
std::uint32_t wired_interface(const Scenario& scenario, std::size_t node, std::size_t link_index);

// wired_interface() of both ends of every Scenario::links entry, in one pass over
// the links: element k is (the interface at links[k].a, the one at links[k].b).
std::vector<std::pair<std::uint32_t, std::uint32_t>> wired_interfaces(const Scenario& scenario);

// The inverse: the Scenario::links index behind interface `interface` of `node`;
// empty for a radio interface or a number past the node's last link.
std::optional<std::size_t> wired_link_of(const Scenario& scenario, std::size_t node,
                                         std::uint32_t interface);

}  // namespace wmnsim
