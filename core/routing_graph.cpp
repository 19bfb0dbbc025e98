#include "core/routing_graph.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

namespace wmnsim::routing_detail {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, double>>;

// Which of two parallel links (same ordered node pair) routing uses: cheapest by the
// metric, then by airtime, then the lowest interface, then address, so the choice
// never depends on the order of the link list.
bool preferred(const Arc& a, const Arc& b) {
  return std::tuple(a.weight, a.link->cost_s, a.link->interface, a.link->address) <
         std::tuple(b.weight, b.link->cost_s, b.link->interface, b.link->address);
}

std::vector<bool> breadth_first(const std::vector<std::vector<std::uint32_t>>& adj,
                                std::uint32_t start) {
  std::vector<bool> seen(adj.size(), false);
  std::deque<std::uint32_t> queue{start};
  seen[start] = true;
  while (!queue.empty()) {
    const std::uint32_t at = queue.front();
    queue.pop_front();
    for (const std::uint32_t next : adj[at]) {
      if (!seen[next]) {
        seen[next] = true;
        queue.push_back(next);
      }
    }
  }
  return seen;
}

}  // namespace

class ReversedGraph {
 public:
  // Arcs by node, as (to, weight); the same insertion order always gives the same graph.
  template <class Arcs>
  explicit ReversedGraph(const Arcs& out) : n_(out.size()), graph_(out.size() + 1) {
    for (std::uint32_t from = 0; from < n_; ++from) {
      for (const auto& a : out[from]) boost::add_edge(a.to, from, a.weight, graph_);
    }
  }

  // A shortest path from the virtual source to X here is one from X to the nearest
  // target in the real graph.
  std::vector<double> distances_to(std::span<const std::uint32_t> targets) {
    boost::clear_out_edges(n_, graph_);
    for (const std::uint32_t t : targets) boost::add_edge(n_, t, 0.0, graph_);
    std::vector<double> dist(n_ + 1, kUnreachable);
    boost::dijkstra_shortest_paths(
        graph_, n_,
        boost::distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, graph_)))
            .distance_inf(kUnreachable));
    dist.pop_back();
    return dist;
  }

 private:
  std::size_t n_;
  Graph graph_;
};

bool same_cost(double a, double b) {
  if (a == b) return true;
  if (std::isinf(a) || std::isinf(b)) return false;  // unreachable equals only unreachable
  return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

LinkGraph::LinkGraph(std::size_t nodes, std::span<const RoutingLink> links, RoutingMetric metric,
                     const Keep& keep)
    : out_(nodes) {
  for (const RoutingLink& l : links) {
    if (l.from >= nodes || l.to >= nodes || l.from == l.to) {
      throw std::invalid_argument("routing link " + std::to_string(l.from) + " -> " +
                                  std::to_string(l.to) + " does not join two of the " +
                                  std::to_string(nodes) + " nodes");
    }
    if (!std::isfinite(l.cost_s) || l.cost_s < 0.0 ||
        (metric == RoutingMetric::airtime && l.cost_s <= 0.0)) {
      throw std::invalid_argument("routing link " + std::to_string(l.from) + " -> " +
                                  std::to_string(l.to) + " has cost " +
                                  std::to_string(l.cost_s) + " s; it must be positive");
    }
    if (keep && !keep(l)) continue;
    const Arc arc{l.to, metric == RoutingMetric::hop_count ? 1.0 : l.cost_s, &l};
    auto& row = out_[l.from];
    const auto at = std::lower_bound(row.begin(), row.end(), l.to,
                                     [](const Arc& a, std::uint32_t to) { return a.to < to; });
    if (at != row.end() && at->to == l.to) {
      if (preferred(arc, *at)) *at = arc;
    } else {
      row.insert(at, arc);
    }
  }
}

LinkGraph::~LinkGraph() = default;
LinkGraph::LinkGraph(LinkGraph&&) noexcept = default;

const Arc* LinkGraph::arc(std::uint32_t from, std::uint32_t to) const {
  const auto& row = out_[from];
  const auto at = std::lower_bound(row.begin(), row.end(), to,
                                   [](const Arc& a, std::uint32_t t) { return a.to < t; });
  return at != row.end() && at->to == to ? &*at : nullptr;
}

std::vector<double> LinkGraph::distances_to(std::span<const std::uint32_t> targets) const {
  if (!reversed_) reversed_ = std::make_unique<ReversedGraph>(out_);
  return reversed_->distances_to(targets);
}

const Arc* LinkGraph::best_arc(std::uint32_t node, std::span<const double> dist) const {
  double best = kUnreachable;
  for (const Arc& a : out_[node]) best = std::min(best, a.weight + dist[a.to]);
  if (best == kUnreachable) return nullptr;
  // Arcs are sorted by neighbour, so the first one within tolerance is the lowest index.
  for (const Arc& a : out_[node]) {
    if (same_cost(a.weight + dist[a.to], best)) return &a;
  }
  return nullptr;  // unreachable: `best` itself qualifies
}

std::vector<bool> LinkGraph::reachable_from(std::uint32_t node) const {
  std::vector<std::vector<std::uint32_t>> adj(out_.size());
  for (std::size_t from = 0; from < out_.size(); ++from) {
    for (const Arc& a : out_[from]) adj[from].push_back(a.to);
  }
  return breadth_first(adj, node);
}

std::vector<bool> LinkGraph::reaching(std::uint32_t node) const {
  std::vector<std::vector<std::uint32_t>> adj(out_.size());
  for (std::uint32_t from = 0; from < out_.size(); ++from) {
    for (const Arc& a : out_[from]) adj[a.to].push_back(from);
  }
  return breadth_first(adj, node);
}

AllPairs all_pairs(const LinkGraph& g) {
  const std::size_t n = g.node_count();
  AllPairs out{RoutingTables(n), std::vector<double>(n * n, kUnreachable)};
  for (std::uint32_t dst = 0; dst < n; ++dst) {
    const std::uint32_t target[] = {dst};
    const std::vector<double> d = g.distances_to(target);
    for (std::uint32_t x = 0; x < n; ++x) {
      out.dist[x * n + dst] = d[x];
      if (x == dst) continue;
      if (const Arc* a = g.best_arc(x, d)) {
        out.tables.set(x, dst, NextHop{a->to, a->link->interface, a->link->address});
      }
    }
  }
  return out;
}

namespace {

// What the lazy tables keep of a LinkGraph: its arcs without their links, in the
// same order, and the reversed graph.
class ShortestPathSource final : public RoutingTables::Source {
 public:
  struct Hop {
    std::uint32_t to = 0;
    double weight = 0.0;
  };

  explicit ShortestPathSource(const LinkGraph& g) : first_(g.node_count() + 1, 0) {
    std::vector<std::span<const Hop>> rows;
    for (std::uint32_t x = 0; x < g.node_count(); ++x) {
      for (const Arc& a : g.out(x)) arcs_.push_back(Hop{a.to, a.weight});
      first_[x + 1] = static_cast<std::uint32_t>(arcs_.size());
    }
    for (std::uint32_t x = 0; x < g.node_count(); ++x) rows.push_back(row(x));
    reversed_ = std::make_unique<ReversedGraph>(rows);
  }

  // LinkGraph::best_arc over the copied arcs: the lowest index within tolerance.
  void column(std::uint32_t dst, std::span<std::uint32_t> out) const override {
    const std::uint32_t target[] = {dst};
    // Copies of a RoutingTables share this source, and the reversed graph's
    // virtual source edges change per run: one column at a time.
    std::vector<double> d;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      d = reversed_->distances_to(target);
    }
    for (std::uint32_t x = 0; x + 1 < first_.size(); ++x) {
      if (x == dst) continue;
      double best = kUnreachable;
      for (const Hop& a : row(x)) best = std::min(best, a.weight + d[a.to]);
      if (best == kUnreachable) continue;
      for (std::uint32_t k = first_[x]; k < first_[x + 1]; ++k) {
        if (same_cost(arcs_[k].weight + d[arcs_[k].to], best)) {
          out[x] = k;
          break;
        }
      }
    }
  }

 private:
  std::span<const Hop> row(std::uint32_t x) const {
    return std::span<const Hop>(arcs_).subspan(first_[x], first_[x + 1] - first_[x]);
  }

  std::vector<Hop> arcs_;
  std::vector<std::uint32_t> first_;  // node x's arcs: [first_[x], first_[x + 1])
  // Dijkstra adds and removes the virtual source's arcs: one column at a time (mutex_).
  std::unique_ptr<ReversedGraph> reversed_;
  mutable std::mutex mutex_;
};

}  // namespace

RoutingTables shortest_path_tables(const LinkGraph& g) {
  std::vector<NextHop> hops;
  for (std::uint32_t x = 0; x < g.node_count(); ++x) {
    for (const Arc& a : g.out(x)) hops.push_back(NextHop{a.to, a.link->interface, a.link->address});
  }
  if (hops.size() >= RoutingTables::kNoHop) throw std::length_error("routing: too many links");
  return RoutingTables(g.node_count(), std::move(hops), std::make_shared<const ShortestPathSource>(g));
}

}  // namespace wmnsim::routing_detail
