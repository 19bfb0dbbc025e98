#pragma once
// The graph static routing runs on (core/routing.hpp), internal to core/routing*.cpp.
//
// RoutingLinks are collapsed to one arc per ordered pair of nodes: a multi-radio
// pair keeps its cheapest link by the metric (then by cost_s, then the lowest
// interface), so routing never depends on the order of the link list. Distances to a
// destination come from one Dijkstra run (Boost.Graph) on the reversed graph, built
// once per LinkGraph, so a whole column of the next-hop table costs one run; several
// destinations at once (gateway trees) hang off a virtual source joined to each of
// them at zero cost. shortest_path_tables() computes a column only when a lookup
// first needs it; all_pairs() computes every column at once (the reference the
// tests hold the lazy tables to).
//
// The next hop of X towards D is the neighbour N minimising weight(X, N) + dist(N, D);
// equal costs (within a relative tolerance, since Dijkstra may add equal paths up in
// different orders) go to the lowest node index. Every weight is positive, so each
// hop strictly lowers the remaining distance and the tables are loop-free.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "core/routing.hpp"

namespace wmnsim::routing_detail {

inline constexpr double kUnreachable = std::numeric_limits<double>::infinity();

// Equal within a relative tolerance of 1e-9 (far below any real cost difference:
// the cheapest 802.11 hop costs about 1e-4 s against path sums below 1 s).
bool same_cost(double a, double b);

struct Arc {
  std::uint32_t to = 0;
  double weight = 0.0;  // 1 (hop_count) or cost_s (airtime)
  const RoutingLink* link = nullptr;
};

// The reversed arcs of a graph as Boost.Graph holds them, plus a virtual source
// (vertex n), built once and reused by every distances_to() call.
class ReversedGraph;

class LinkGraph {
 public:
  using Keep = std::function<bool(const RoutingLink&)>;
  // Throws std::invalid_argument for a link that names an unknown node, joins a node
  // to itself, or (airtime) has no positive finite cost: those are bugs of the caller.
  LinkGraph(std::size_t nodes, std::span<const RoutingLink> links, RoutingMetric metric,
            const Keep& keep = {});
  ~LinkGraph();
  LinkGraph(LinkGraph&&) noexcept;

  std::size_t node_count() const { return out_.size(); }
  std::span<const Arc> out(std::uint32_t node) const { return out_[node]; }  // by Arc::to
  const Arc* arc(std::uint32_t from, std::uint32_t to) const;

  // Per node: the cost of its cheapest path to the nearest of `targets`.
  std::vector<double> distances_to(std::span<const std::uint32_t> targets) const;
  // The arc `node` leaves by towards the targets of `dist` (see the tie rule above);
  // nullptr when no neighbour reaches them.
  const Arc* best_arc(std::uint32_t node, std::span<const double> dist) const;
  // Breadth-first: the nodes `node` reaches, and the nodes that reach `node`.
  std::vector<bool> reachable_from(std::uint32_t node) const;
  std::vector<bool> reaching(std::uint32_t node) const;

 private:
  std::vector<std::vector<Arc>> out_;
  mutable std::unique_ptr<ReversedGraph> reversed_;  // built by the first distances_to()
};

// Shortest-path next hops between every pair of nodes of `g`, and their costs.
struct AllPairs {
  RoutingTables tables;
  std::vector<double> dist;  // node_count x node_count, row = from, column = to
  double distance(std::uint32_t from, std::uint32_t to) const {
    return dist[static_cast<std::size_t>(from) * tables.node_count() + to];
  }
};
AllPairs all_pairs(const LinkGraph& g);

// The same next hops as all_pairs(g).tables, each column computed on first use.
// The tables keep what they need of `g` (not `g` itself, nor its links).
RoutingTables shortest_path_tables(const LinkGraph& g);

}  // namespace wmnsim::routing_detail
