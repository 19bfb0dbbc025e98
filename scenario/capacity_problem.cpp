#include "scenario/capacity_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
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
  if (rc.kind == phy::ReceptionKind::sinr) return l->reach.decodable || medium.power_dbm(x, *l) >= rc.cca_threshold;
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
                                  const CapacityOptions& options, std::size_t max_domain_visits) {
  const phy::Medium& medium = *net.medium;
  ScenarioCapacity out;
  control::CapacityProblem& p = out.problem;
  p.node_count = scenario.nodes.size();

  // Links: each direction of a radio pair that decodes both ways.
  std::map<std::pair<phy::RadioId, phy::RadioId>, std::size_t> index;
  const auto add_link = [&](phy::RadioId from, phy::RadioId to) {
    const auto [it, fresh] = index.try_emplace({from, to}, p.links.size());
    if (fresh) {
      p.links.push_back({medium.node_of(from), medium.node_of(to), medium.channel_of(from)});
      out.link_radios.emplace_back(from, to);
    }
    return it->second;
  };
  for (std::size_t n = 0; n < net.node_radios.size(); ++n) {
    for (const phy::RadioId from : net.node_radios[n]) {
      for (const phy::Link& l : medium.neighbours(from)) {
        if (medium.node_of(l.to) == medium.node_of(from)) continue;
        if (medium.channel_of(l.to) != medium.channel_of(from)) continue;
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

  // The collision domains' cost (control/capacity_model.hpp, Eq. 6): the domains of
  // the links near the routes (links_near_routes) are built, each holding the links
  // at the nodes within range of its ends, so finding them visits at most the sum
  // over those links of S(from) + S(to), S(x) the links at x and at its neighbours.
  // That grows with the routes' neighbourhoods; with links x links only where
  // everyone hears everyone.
  const std::size_t n = p.links.size();
  {
    std::vector<std::vector<std::uint32_t>> neighbours(p.node_count);
    std::vector<double> degree(p.node_count, 0.0);
    for (const control::CapacityLink& l : p.links) {
      neighbours[l.from].push_back(l.to);
      degree[l.from] += 1.0;
      degree[l.to] += 1.0;
    }
    std::vector<double> around(p.node_count, 0.0);
    for (std::size_t x = 0; x < p.node_count; ++x) {
      around[x] = degree[x];
      for (const std::uint32_t y : neighbours[x]) around[x] += degree[y];
    }
    double visits = 0.0;
    for (const std::size_t k : control::links_near_routes(p)) visits += around[p.links[k].from] + around[p.links[k].to];
    if (visits > static_cast<double>(max_domain_visits)) {
      char text[160];
      std::snprintf(text, sizeof text, "%.3g link visits (%zu links)", visits, n);
      throw ScenarioError(
          {{"", std::string("001's capacity model finds each link's collision domain (the links near its ends), and in "
                            "this network that takes up to ") +
                    text + "; at most " + std::to_string(max_domain_visits) +
                    " (a crowd in which every radio hears every other): give the gateway controller its shares "
                    "(fair_rate_bps, or the flows' fair_share_bps) or model a sparser network"}});
    }
  }

  // Contention (clique model), from the PHY, between the links some route uses: the
  // only entries the model reads (control/capacity_model.hpp). A used link is checked
  // against the used links at its nodes and at the radios its ends reach or are
  // reached by, found from the medium's neighbour lists, not against every link.
  p.contention.assign(n, {});
  {
    std::vector<bool> used(n, false);
    std::vector<std::size_t> used_links;
    for (const auto& route : p.routes) {
      for (const std::size_t l : route) {
        if (!used[l]) used_links.push_back(l);
        used[l] = true;
      }
    }
    std::sort(used_links.begin(), used_links.end());
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> at_node;     // node -> used links at it
    std::unordered_map<phy::RadioId, std::vector<std::size_t>> at_radio;    // radio -> used links at it
    std::unordered_map<phy::RadioId, std::vector<phy::RadioId>> heard_from;  // radio -> used ends that reach it
    for (const std::size_t l : used_links) {
      at_node[p.links[l].from].push_back(l);
      at_node[p.links[l].to].push_back(l);
      for (const phy::RadioId r : {out.link_radios[l].first, out.link_radios[l].second}) {
        std::vector<std::size_t>& mine = at_radio[r];
        if (mine.empty()) {
          for (const phy::Link& link : medium.neighbours(r)) heard_from[link.to].push_back(r);
        }
        mine.push_back(l);
      }
    }
    std::vector<std::size_t> candidates;
    const auto add_at = [&](phy::RadioId r) {
      if (const auto it = at_radio.find(r); it != at_radio.end()) candidates.insert(candidates.end(), it->second.begin(), it->second.end());
    };
    for (const std::size_t i : used_links) {
      candidates.clear();
      const control::CapacityLink& x = p.links[i];
      for (const std::uint32_t node : {x.from, x.to}) {
        const std::vector<std::size_t>& here = at_node[node];
        candidates.insert(candidates.end(), here.begin(), here.end());
      }
      for (const phy::RadioId u : {out.link_radios[i].first, out.link_radios[i].second}) {
        for (const phy::Link& link : medium.neighbours(u)) add_at(link.to);
        if (const auto it = heard_from.find(u); it != heard_from.end()) {
          for (const phy::RadioId v : it->second) add_at(v);
        }
      }
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
      const auto [a, b] = out.link_radios[i];
      for (const std::size_t j : candidates) {
        const control::CapacityLink& y = p.links[j];
        if (x.channel != y.channel) continue;
        const auto [c, d] = out.link_radios[j];
        bool contend = x.from == y.from || x.from == y.to || x.to == y.from || x.to == y.to;
        for (const phy::RadioId u : {a, b}) {
          for (const phy::RadioId v : {c, d}) contend = contend || reaches(medium, u, v) || reaches(medium, v, u);
        }
        if (contend) p.contention[i].push_back(static_cast<std::uint32_t>(j));
      }
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
  // Measured: once per distinct rate (a run each).
  std::map<std::int64_t, double> measured;
  const auto b_at = [&](const phy::Mcs& rate) {
    if (options.measured_mac_capacity_bps) {
      const auto [it, fresh] = measured.try_emplace(rate.rate_bps, 0.0);
      if (fresh) {
        it->second = options.measured_mac_capacity_bps(
            net.fixed_data_rate != nullptr ? std::nullopt : std::optional<double>(static_cast<double>(rate.rate_bps)));
      }
      return it->second;
    }
    return control::one_hop_mac_capacity_bps(net.profile, rate, *net.basic_rate, scenario.mac.type,
                                             scenario.mac.params, out.payload_bytes, out.header_bytes);
  };
  out.b_measured = static_cast<bool>(options.measured_mac_capacity_bps) && !options.mac_capacity_bps;
  if (options.mac_capacity_bps) {
    if (!(*options.mac_capacity_bps > 0.0) || !std::isfinite(*options.mac_capacity_bps)) {
      throw std::invalid_argument("the MAC capacity B must be a positive number of bit/s, got " +
                                  std::to_string(*options.mac_capacity_bps));
    }
    p.mac_capacity_bps = *options.mac_capacity_bps;
    out.b_given = true;
  } else if (net.fixed_data_rate != nullptr) {
    p.mac_capacity_bps = b_at(*net.fixed_data_rate);
    if (!out.b_measured) out.bianchi_bps = p.mac_capacity_bps;
  } else {
    // "auto": each link at its own rate; B(u) is the slowest link's (control/capacity_model.hpp).
    // Measured, a link that carries no data rate is measured at the basic rate too.
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
