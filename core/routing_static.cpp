#include "core/routing_static.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace wmnsim::routing_detail {
namespace {

std::string quoted(const std::string& id) { return "\"" + id + "\""; }

}  // namespace

StaticTables::StaticTables(const RoutingInput& scenario, const LinkGraph& graph, IssueSink& issues)
    : scenario_(scenario),
      n_(scenario.nodes.size()),
      entry_(n_ * n_),
      usable_(scenario.routing.routes.size(), false),
      tables_(n_) {
  const auto& routes = scenario.routing.routes;
  const auto& nodes = scenario.nodes;

  // Next hops must be neighbours: unicast needs a link there (and, for wireless
  // links, the ACK back, which runner/network_links.cpp already requires).
  std::vector<std::optional<std::size_t>> default_route(n_);
  for (std::size_t i = 0; i < routes.size(); ++i) {
    const StaticRoute& r = routes[i];
    const auto node = static_cast<std::uint32_t>(r.node);
    const auto hop = static_cast<std::uint32_t>(r.next_hop);
    if (r.dst) {
      entry_[node * n_ + *r.dst] = i;
    } else {
      default_route[node] = i;
    }
    if (graph.arc(node, hop) != nullptr) {
      usable_[i] = true;
      continue;
    }
    std::vector<std::string> neighbours;
    for (const Arc& a : graph.out(node)) neighbours.push_back(nodes[a.to].id);
    const std::string what = quoted(nodes[hop].id) + " is not a neighbour of " +
                             quoted(nodes[node].id);
    if (neighbours.empty()) {
      issues.add(r.defined_at, what + ", which has no usable link: move it closer to other "
                                      "nodes, raise its tx_power_dbm or give it a wired link");
    } else {
      issues.add(r.defined_at, what + " (neighbours: " + join_list(neighbours, false) +
                                   "); pick one of them, or bring the two into range");
    }
  }

  // Destinations without an entry of their own take the node's default route.
  for (std::uint32_t node = 0; node < n_; ++node) {
    for (std::uint32_t dst = 0; dst < n_; ++dst) {
      auto& e = entry_[node * n_ + dst];
      if (node == dst) {
        e.reset();
        continue;
      }
      if (!e) e = default_route[node];
      if (e && usable_[*e]) {
        const auto hop = static_cast<std::uint32_t>(routes[*e].next_hop);
        const RoutingLink* link = graph.arc(node, hop)->link;
        tables_.set(node, dst, NextHop{hop, link->interface, link->address});
      }
    }
  }

  // Every explicit entry promises a route to its destination; check the whole path.
  // One report per loop and per dead end, at the first entry (in file order) that
  // runs into it; entries whose path meets an unusable next hop were reported above.
  std::set<std::pair<std::uint32_t, std::uint32_t>> reported;  // (dst, loop's lowest node / dead end)
  for (const StaticRoute& r : routes) {
    if (!r.dst) continue;
    const auto dst = static_cast<std::uint32_t>(*r.dst);
    const Walk w = walk(static_cast<std::uint32_t>(r.node), dst);
    if (w.end == End::arrived || w.end == End::bad_entry) continue;
    std::uint32_t key = w.nodes.back();
    if (w.end == End::loop) {
      const auto first = std::find(w.nodes.begin(), w.nodes.end(), w.nodes.back());
      key = *std::min_element(first, w.nodes.end());
    }
    if (reported.insert({dst, key}).second) issues.add(r.defined_at, describe(w, dst));
  }
}

StaticTables::Walk StaticTables::walk(std::uint32_t from, std::uint32_t to) const {
  Walk w;
  w.nodes.push_back(from);
  std::vector<bool> seen(n_, false);
  seen[from] = true;
  std::uint32_t at = from;
  while (at != to) {
    const auto& e = entry_[at * n_ + to];
    if (!e) {
      w.end = End::dead_end;
      return w;
    }
    if (!usable_[*e]) {
      w.end = End::bad_entry;
      w.route = *e;
      return w;
    }
    at = static_cast<std::uint32_t>(scenario_.routing.routes[*e].next_hop);
    w.nodes.push_back(at);
    if (seen[at]) {
      w.end = End::loop;
      return w;
    }
    seen[at] = true;
  }
  return w;
}

std::string StaticTables::sequence(const std::vector<std::uint32_t>& nodes) const {
  std::string out;
  for (const std::uint32_t n : nodes) {
    if (!out.empty()) out += " -> ";
    out += scenario_.nodes[n].id;
  }
  return out;
}

std::string StaticTables::table_path(std::uint32_t node) const {
  return pointer_join("/routing/tables", scenario_.nodes[node].id);
}

std::string StaticTables::describe(const Walk& w, std::uint32_t to) const {
  const std::string& dst = scenario_.nodes[to].id;
  switch (w.end) {
    case End::arrived:
      return {};
    case End::loop: {
      // The nodes on the cycle, each of which could break it.
      const auto first = std::find(w.nodes.begin(), w.nodes.end(), w.nodes.back());
      std::vector<std::string> on_cycle;
      for (auto it = first; it + 1 != w.nodes.end(); ++it) on_cycle.push_back(scenario_.nodes[*it].id);
      return "the static tables loop: " + sequence(w.nodes) + "; change the " + quoted(dst) +
             " (or \"*\") entry of one of " + join_list(on_cycle, false) +
             " under /routing/tables";
    }
    case End::dead_end: {
      const std::string& stuck = scenario_.nodes[w.nodes.back()].id;
      const std::string lead =
          w.nodes.size() > 1 ? "the static tables lead " + sequence(w.nodes) + " into a " : "";
      return lead + "dead end: " + stuck + " has no route to " + dst +
             "; add an entry under " + table_path(w.nodes.back()) + " (" + quoted(dst) +
             " or \"*\")";
    }
    case End::bad_entry: {
      const StaticRoute& r = scenario_.routing.routes[w.route];
      const std::string lead =
          w.nodes.size() > 1 ? "the static tables lead " + sequence(w.nodes) + " to " : "";
      return lead + "the entry " + r.defined_at + ", whose next hop " +
             quoted(scenario_.nodes[r.next_hop].id) + " is not a neighbour of " +
             quoted(scenario_.nodes[r.node].id) + " (see that entry)";
    }
  }
  return {};
}

std::string StaticTables::failure(std::uint32_t from, std::uint32_t to) const {
  return describe(walk(from, to), to);
}

}  // namespace wmnsim::routing_detail
