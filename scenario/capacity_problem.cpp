#include "scenario/capacity_problem.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/input_error.hpp"
#include "transport/transport_entry.hpp"

namespace wmnsim {

namespace {

// Can a signal from radio x make a difference at radio y: sensed, or interfering
// with a reception there (the rule in capacity_problem.hpp).
bool reaches(const phy::Medium& medium, phy::RadioId x, phy::RadioId y) {
  const phy::Link* l = medium.link(x, y);
  if (l == nullptr) return false;
  const phy::ReceptionConfig& rc = medium.reception();
  if (rc.kind == phy::ReceptionKind::sinr) return l->reach.decodable || l->power_dbm >= rc.cca_threshold;
  return l->reach.sensed || l->reach.interferes;
}

bool decodable(const phy::Medium& medium, phy::RadioId x, phy::RadioId y) {
  const phy::Link* l = medium.link(x, y);
  return l != nullptr && l->reach.decodable;
}

}  // namespace

std::uint32_t header_bytes_of(const FlowConfig& flow) {
  static const transport::TransportRegistry registry = transport::builtin_transports();
  const transport::TransportEntry* e = registry.find(flow.transport_name);
  return static_cast<std::uint32_t>(e != nullptr ? e->header_bytes : 28);
}

ScenarioCapacity capacity_problem(const Scenario& scenario, const phy::PhyNetwork& net, const Routing& routing,
                                  const CapacityOptions& options, std::size_t max_links) {
  const phy::Medium& medium = *net.medium;
  ScenarioCapacity out;
  control::CapacityProblem& p = out.problem;
  p.node_count = scenario.nodes.size();

  // Links: each direction of a radio pair that decodes both ways.
  std::map<std::pair<phy::RadioId, phy::RadioId>, std::size_t> index;
  const auto add_link = [&](phy::RadioId from, phy::RadioId to) {
    const auto [it, fresh] = index.try_emplace({from, to}, p.links.size());
    if (fresh) {
      p.links.push_back({medium.spec(from).node, medium.spec(to).node, medium.spec(from).channel});
      out.link_radios.emplace_back(from, to);
    }
    return it->second;
  };
  for (const auto& radios : net.node_radios) {
    for (const phy::RadioId from : radios) {
      for (const phy::Link& l : medium.neighbours(from)) {
        if (medium.spec(l.to).node == medium.spec(from).node) continue;
        if (medium.spec(l.to).channel != medium.spec(from).channel) continue;
        if (l.reach.decodable && decodable(medium, l.to, from)) add_link(from, l.to);
      }
    }
  }

  // Routes: each flow's data direction, its wireless hops.
  p.routes.assign(scenario.flows.size(), {});
  for (std::size_t f = 0; f < scenario.flows.size() && f < routing.flows.size(); ++f) {
    const FlowEnds ends = routing.flows[f];
    const std::vector<std::uint32_t> path = routing.tables.path(ends.src, ends.dst);
    for (std::size_t k = 0; k + 1 < path.size(); ++k) {
      const std::uint32_t a = path[k];
      const NextHop* hop = routing.tables.next_hop(a, ends.dst);
      if (hop == nullptr) break;
      if (hop->interface >= net.node_radios[a].size()) continue;  // a wired hop
      // A static route may name a link the PHY does not call one: it is still a hop.
      p.routes[f].push_back(add_link(net.node_radios[a][hop->interface], hop->address));
    }
  }

  // Contention (clique model), from the PHY: every pair of links.
  const std::size_t n = p.links.size();
  if (n > max_links) {
    throw ScenarioError({{"", "001's capacity model pairs every link of the network with every other, and this one has " +
                                  std::to_string(n) + " (each direction of a radio pair that decodes both ways); at most " +
                                  std::to_string(max_links) + ": give the gateway controller its shares " +
                                  "(fair_rate_bps, or the flows' fair_share_bps) or model a smaller network"}});
  }
  p.contention.assign(n * n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const auto [a, b] = out.link_radios[i];
    for (std::size_t j = i; j < n; ++j) {
      const auto [c, d] = out.link_radios[j];
      bool contend = false;
      if (p.links[i].channel == p.links[j].channel) {
        const control::CapacityLink &x = p.links[i], &y = p.links[j];
        contend = x.from == y.from || x.from == y.to || x.to == y.from || x.to == y.to;
        for (const phy::RadioId u : {a, b}) {
          for (const phy::RadioId v : {c, d}) contend = contend || reaches(medium, u, v) || reaches(medium, v, u);
        }
      }
      p.contention[i * n + j] = p.contention[j * n + i] = contend;
    }
  }

  // B.
  out.payload_bytes = 1460;
  out.header_bytes = 28;
  bool first = true;
  for (const FlowConfig& f : scenario.flows) {
    const auto payload = static_cast<std::uint32_t>(f.payload_bytes);
    if (first || payload < out.payload_bytes) {
      out.payload_bytes = payload;
      out.header_bytes = header_bytes_of(f);
      first = false;
    }
  }
  const auto b_at = [&](const phy::Mcs& rate) {
    return control::one_hop_mac_capacity_bps(net.profile, rate, *net.basic_rate, scenario.mac.type,
                                             scenario.mac.params, out.payload_bytes, out.header_bytes);
  };
  if (options.mac_capacity_bps) {
    if (!(*options.mac_capacity_bps > 0.0) || !std::isfinite(*options.mac_capacity_bps)) {
      throw std::invalid_argument("the MAC capacity B must be a positive number of bit/s, got " +
                                  std::to_string(*options.mac_capacity_bps));
    }
    p.mac_capacity_bps = *options.mac_capacity_bps;
    out.b_given = true;
  } else if (net.fixed_data_rate != nullptr) {
    out.bianchi_bps = b_at(*net.fixed_data_rate);
    p.mac_capacity_bps = *out.bianchi_bps;
  } else {
    // "auto": each link at its own rate; B(u) is the slowest link's (control/capacity_model.hpp).
    p.link_capacity_bps.reserve(n);
    for (const auto& [from, to] : out.link_radios) {
      const phy::Mcs* rate = phy::link_data_rate(net, from, to);
      p.link_capacity_bps.push_back(b_at(rate != nullptr ? *rate : *net.basic_rate));
    }
    p.mac_capacity_bps = p.link_capacity_bps.empty()
                             ? b_at(*net.basic_rate)
                             : *std::max_element(p.link_capacity_bps.begin(), p.link_capacity_bps.end());
  }
  return out;
}

std::vector<bool> active_flows(const Scenario& scenario, Time at) {
  std::vector<bool> active;
  active.reserve(scenario.flows.size());
  for (const FlowConfig& f : scenario.flows) active.push_back(f.start <= at && (!f.stop || at < *f.stop));
  return active;
}

}  // namespace wmnsim
