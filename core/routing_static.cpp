#include "core/routing_static.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <unordered_set>
#include <utility>

namespace wmnsim::routing_detail {
namespace {

std::string quoted_id(const std::string& id) { return "\"" + id + "\""; }

}  // namespace

std::optional<std::size_t> StaticTables::Entries::entry(std::uint32_t node, std::uint32_t dst) const {
  if (node == dst) return std::nullopt;
  const auto it = own.find(static_cast<std::uint64_t>(node) * n + dst);
  return it != own.end() ? std::optional<std::size_t>(it->second) : default_route[node];
}

// A column of the tables: each node's usable route towards the destination, as the
// route's index (the tables hold one next hop per route).
class StaticTables::Columns final : public RoutingTables::Source {
 public:
  explicit Columns(std::shared_ptr<const Entries> entries) : entries_(std::move(entries)) {}
  void column(std::uint32_t dst, std::span<std::uint32_t> out) const override {
    for (std::uint32_t node = 0; node < entries_->n; ++node) {
      const auto e = entries_->entry(node, dst);
      if (e && entries_->usable[*e]) out[node] = static_cast<std::uint32_t>(*e);
    }
  }

 private:
  std::shared_ptr<const Entries> entries_;
};

StaticTables::StaticTables(const RoutingInput& scenario, const LinkGraph& graph, IssueSink& issues)
    : scenario_(scenario), n_(scenario.nodes.size()), entries_(std::make_shared<Entries>()) {
  const auto& routes = scenario.routing.routes;
  const auto& nodes = scenario.nodes;
  Entries& entries = *entries_;
  entries.n = n_;
  entries.default_route.assign(n_, std::nullopt);
  entries.usable.assign(routes.size(), false);

  // Next hops must be neighbours: unicast needs a link there (and, for wireless
  // links, the ACK back, which runner/network_links.cpp already requires).
  std::vector<NextHop> hops(routes.size());  // by route; those of unusable routes are never read
  for (std::size_t i = 0; i < routes.size(); ++i) {
    const StaticRoute& r = routes[i];
    const auto node = static_cast<std::uint32_t>(r.node);
    const auto hop = static_cast<std::uint32_t>(r.next_hop);
    if (r.dst) {
      entries.own[static_cast<std::uint64_t>(node) * n_ + *r.dst] = i;
    } else {
      entries.default_route[node] = i;
    }
    if (const Arc* arc = graph.arc(node, hop)) {
      entries.usable[i] = true;
      hops[i] = NextHop{hop, arc->link->interface, arc->link->address};
      continue;
    }
    std::vector<std::string> neighbours;
    for (const Arc& a : graph.out(node)) neighbours.push_back(nodes[a.to].id);
    const std::string what = quoted_id(nodes[hop].id) + " is not a neighbour of " +
                             quoted_id(nodes[node].id);
    if (neighbours.empty()) {
      issues.add(r.defined_at, what + ", which has no usable link: " + scenario.unreachable_advice);
    } else {
      issues.add(r.defined_at, what + " (neighbours: " + join_list(neighbours, false) +
                                   "); pick one of them, or bring the two into range");
    }
  }
  // Destinations without an entry of their own take the node's default route; the
  // tables look each column up when a lookup first needs it.
  if (routes.size() >= RoutingTables::kNoHop) throw std::length_error("static routing: too many routes");
  tables_ = RoutingTables(n_, std::move(hops), std::make_shared<const Columns>(entries_));

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
  // The nodes visited so far: a walk costs its length, not the node count (one
  // walk per explicit entry).
  std::unordered_set<std::uint32_t> seen{from};
  std::uint32_t at = from;
  while (at != to) {
    const auto e = entries_->entry(at, to);
    if (!e) {
      w.end = End::dead_end;
      return w;
    }
    if (!entries_->usable[*e]) {
      w.end = End::bad_entry;
      w.route = *e;
      return w;
    }
    at = static_cast<std::uint32_t>(scenario_.routing.routes[*e].next_hop);
    w.nodes.push_back(at);
    if (!seen.insert(at).second) {
      w.end = End::loop;
      return w;
    }
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
      return "the static tables loop: " + sequence(w.nodes) + "; change the " + quoted_id(dst) +
             " (or \"*\") entry of one of " + join_list(on_cycle, false) +
             " under " + scenario_.tables_at;
    }
    case End::dead_end: {
      const std::string& stuck = scenario_.nodes[w.nodes.back()].id;
      const std::string lead =
          w.nodes.size() > 1 ? "the static tables lead " + sequence(w.nodes) + " into a " : "";
      return lead + "dead end: " + stuck + " has no route to " + dst +
             "; add an entry under " + scenario_.nodes[w.nodes.back()].table_at + " (" + quoted_id(dst) +
             " or \"*\")";
    }
    case End::bad_entry: {
      const StaticRoute& r = scenario_.routing.routes[w.route];
      const std::string lead =
          w.nodes.size() > 1 ? "the static tables lead " + sequence(w.nodes) + " to " : "";
      return lead + "the entry " + r.defined_at + ", whose next hop " +
             quoted_id(scenario_.nodes[r.next_hop].id) + " is not a neighbour of " +
             quoted_id(scenario_.nodes[r.node].id) + " (see that entry)";
    }
  }
  return {};
}

std::string StaticTables::failure(std::uint32_t from, std::uint32_t to) const {
  return describe(walk(from, to), to);
}

}  // namespace wmnsim::routing_detail
