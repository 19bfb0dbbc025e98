#include "runner/network_links.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include "mac/frame.hpp"
#include "mac/mac_timing.hpp"
#include "phy/airtime.hpp"

namespace wmnsim {
namespace {

// Bt, the test frame size of the airtime metric (IEEE 802.11-2012 13.9).
constexpr std::uint32_t kTestFrameBits = 8192;

}  // namespace

double airtime_cost_s(const Scenario& scenario, const phy::PhyNetwork& net, const phy::Mcs& data_rate) {
  // One unicast exchange of a Bt-bit payload as the MAC sends it: the data PPDU
  // (preamble, PLCP header, MAC header, LLC/SNAP, payload, FCS, OFDM padding,
  // signal extension), SIFS, the ACK PPDU at the control rate, then DIFS before the
  // next access. Channel-access backoff is left out, as the standard's O does.
  const auto kind = scenario.mac.type == MacType::edca ? mac::FrameKind::qos_data : mac::FrameKind::data;
  const mac::MacTiming timing = mac::mac_timing(net.profile, *net.basic_rate);
  const Time exchange = phy::airtime(net.profile, data_rate, mac::mpdu_bytes(kind, kTestFrameBits / 8)) +
                        timing.sifs + timing.ack_airtime + timing.difs;
  return exchange.to_seconds();  // ef = 0: usable_link_rate keeps the FER below auto_rate.max_fer
}

std::uint32_t wired_interface(const Scenario& scenario, std::size_t node, std::size_t link_index) {
  const auto& links = scenario.links;
  if (link_index >= links.size() || (links[link_index].a != node && links[link_index].b != node)) {
    throw std::invalid_argument("wired link " + std::to_string(link_index) + " does not touch node " +
                                std::to_string(node));
  }
  std::uint32_t rank = 0;
  for (std::size_t k = 0; k < link_index; ++k) rank += links[k].a == node || links[k].b == node;
  return static_cast<std::uint32_t>(scenario.nodes[node].radios.size()) + rank;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> wired_interfaces(const Scenario& scenario) {
  std::vector<std::uint32_t> next(scenario.nodes.size());  // per node: its next free interface
  for (std::size_t n = 0; n < next.size(); ++n) next[n] = static_cast<std::uint32_t>(scenario.nodes[n].radios.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  out.reserve(scenario.links.size());
  for (const WiredLinkConfig& w : scenario.links) {
    const std::uint32_t at_a = next[w.a]++;
    out.emplace_back(at_a, next[w.b]++);
  }
  return out;
}

std::optional<std::size_t> wired_link_of(const Scenario& scenario, std::size_t node, std::uint32_t interface) {
  const std::size_t radios = scenario.nodes[node].radios.size();
  if (interface < radios) return std::nullopt;
  std::size_t rank = interface - radios;
  for (std::size_t k = 0; k < scenario.links.size(); ++k) {
    if (scenario.links[k].a != node && scenario.links[k].b != node) continue;
    if (rank == 0) return k;
    --rank;
  }
  return std::nullopt;
}

std::vector<RoutingLink> routing_links(const Scenario& scenario, const phy::PhyNetwork& net) {
  std::vector<RoutingLink> out;
  const auto& node_radios = net.node_radios;

  // RadioId -> (node, radio index): the medium knows radios, routing knows nodes.
  struct Owner {
    std::uint32_t node = 0, radio = 0;
  };
  std::vector<Owner> owner(net.medium->radio_count());
  for (std::uint32_t n = 0; n < node_radios.size(); ++n) {
    for (std::uint32_t r = 0; r < node_radios[n].size(); ++r) owner[node_radios[n][r]] = {n, r};
  }

  for (std::uint32_t n = 0; n < node_radios.size(); ++n) {
    for (std::uint32_t r = 0; r < node_radios[n].size(); ++r) {
      const phy::RadioId from = node_radios[n][r];
      for (const phy::Link& l : net.medium->neighbours(from)) {
        const Owner to = owner[l.to];
        if (to.node == n || net.medium->channel_of(l.to) != net.medium->channel_of(from)) continue;
        const phy::Mcs* rate = phy::usable_link_rate(net, from, l.to);
        if (rate == nullptr || phy::usable_link_rate(net, l.to, from) == nullptr) continue;
        out.push_back(RoutingLink{n, to.node, r, l.to, airtime_cost_s(scenario, net, *rate), false});
      }
    }
  }

  const auto interfaces = wired_interfaces(scenario);
  for (std::size_t k = 0; k < scenario.links.size(); ++k) {
    const WiredLinkConfig& w = scenario.links[k];
    const double cost = kTestFrameBits / w.rate_bps + w.delay.to_seconds();
    const auto a = static_cast<std::uint32_t>(w.a), b = static_cast<std::uint32_t>(w.b);
    out.push_back(RoutingLink{a, b, interfaces[k].first, b, cost, true});
    out.push_back(RoutingLink{b, a, interfaces[k].second, a, cost, true});
  }

  std::sort(out.begin(), out.end(), [](const RoutingLink& x, const RoutingLink& y) {
    return std::tie(x.from, x.to, x.interface) < std::tie(y.from, y.to, y.interface);
  });
  return out;
}

}  // namespace wmnsim
