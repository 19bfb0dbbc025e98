// Static routing (core/routing.hpp): next-hop tables for auto, gateway_trees and
// static routing, "@gateway" flow ends, and the reachability check of every flow.

#include "core/routing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include "core/input_error.hpp"
#include "core/routing_graph.hpp"
#include "core/routing_static.hpp"

namespace wmnsim {

// Aliases, not using-declarations: those would reach the files after this one in a batch
// of the asan build (scripts/check_unity.py).
using LinkGraph = routing_detail::LinkGraph;
using StaticTables = routing_detail::StaticTables;

// ---- RoutingTables ------------------------------------------------------------------

RoutingTables::RoutingTables(std::size_t nodes) : nodes_(nodes), columns_(nodes) {}

RoutingTables::RoutingTables(std::size_t nodes, std::vector<NextHop> hops, std::shared_ptr<const Source> source)
    : nodes_(nodes), hops_(std::move(hops)), source_(std::move(source)), columns_(nodes) {}

void NodeIndexColumn::set(std::size_t node, std::uint32_t index) {
  if (index == kNone) throw std::out_of_range("NodeIndexColumn: no node has index " + std::to_string(index));
  indices_.at(node) = index;
}

void RoutingTables::out_of_range() { throw std::out_of_range("RoutingTables: node index out of range"); }

const std::vector<std::uint32_t>& RoutingTables::fill(std::uint32_t dst) const {
  std::vector<std::uint32_t>& col = columns_[dst];
  col.assign(nodes_, kNoHop);
  if (source_) source_->column(dst, col);
  col[dst] = kNoHop;
  return col;
}

void RoutingTables::set(std::uint32_t node, std::uint32_t dst, NextHop hop) {
  if (node >= nodes_ || dst >= nodes_ || hop.node >= nodes_) out_of_range();
  if (node == dst || hop.node == node) {
    throw std::invalid_argument("RoutingTables: a node routes neither to itself nor through itself");
  }
  if (hops_.size() >= kNoHop) throw std::length_error("RoutingTables: too many entries");
  column(dst);
  hops_.push_back(hop);
  columns_[dst][node] = static_cast<std::uint32_t>(hops_.size() - 1);
}

void RoutingTables::clear(std::uint32_t node, std::uint32_t dst) {
  if (node >= nodes_ || dst >= nodes_) out_of_range();
  column(dst);
  columns_[dst][node] = kNoHop;
}

std::size_t RoutingTables::columns_in_use() const {
  return static_cast<std::size_t>(
      std::count_if(columns_.begin(), columns_.end(), [](const auto& c) { return !c.empty(); }));
}

std::vector<std::uint32_t> RoutingTables::path(std::uint32_t src, std::uint32_t dst) const {
  if (src >= nodes_ || dst >= nodes_) out_of_range();
  std::vector<std::uint32_t> p{src};
  // A loop-free path visits each node at most once: a node seen before means the
  // tables send the packet round in circles. Found as soon as it repeats, so a
  // path costs its length, not the node count.
  std::unordered_set<std::uint32_t> seen{src};
  std::uint32_t at = src;
  while (at != dst) {
    const NextHop* hop = next_hop(at, dst);
    if (hop == nullptr) return {};
    at = hop->node;
    p.push_back(at);
    if (!seen.insert(at).second) return {};
  }
  return p;
}

namespace {

std::string quoted(const std::string& id) { return "\"" + id + "\""; }

bool is_role(const RoutingInput& s, std::size_t node, NodeRole role) { return s.nodes[node].role == role; }

std::vector<std::uint32_t> gateways_of(const RoutingInput& s) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < s.nodes.size(); ++i) {
    if (is_role(s, i, NodeRole::gateway)) out.push_back(i);
  }
  return out;
}

std::optional<double> distance_m(const RoutingInput& s, std::size_t a, std::size_t b) {
  const auto& pa = s.nodes[a].position;
  const auto& pb = s.nodes[b].position;
  if (!pa || !pb) return std::nullopt;
  return std::hypot(pa->x_m - pb->x_m, pa->y_m - pb->y_m, pa->z_m - pb->z_m);
}

std::string metres(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, d < 10 ? "%.1f m" : "%.0f m", d);
  return buf;
}

// Why a node reaches none of a set of nodes over a graph, with what to change. For
// auto and gateway_trees; static tables explain themselves (StaticTables::failure).
class Diagnosis {
 public:
  // `used`: the graph the tables were computed on. `wireless` and `roots`: gateway
  // trees only (the two-way wireless graph the trees grow on, and each node's root).
  Diagnosis(const RoutingInput& s, const LinkGraph& all, const LinkGraph& used,
            const LinkGraph* wireless = nullptr,
            const NodeIndexColumn* roots = nullptr)
      : s_(s), all_(all), used_(used), wireless_(wireless), roots_(roots) {}

  std::string why(std::uint32_t from, std::span<const std::uint32_t> to) const {
    if (all_.out(from).empty()) return no_link(from);
    if (to.size() == 1 && all_.out(to[0]).empty()) return no_link(to[0]);
    if (roots_ != nullptr) {
      for (const std::uint32_t x : {from, to.size() == 1 ? to[0] : from}) {
        if (!is_role(s_, x, NodeRole::mesh) || (*roots_)[x]) continue;
        std::vector<std::uint32_t> gws = gateways_of(s_);
        return quoted(s_.nodes[x].id) +
               " joins no gateway tree: no path of two-way wireless links leads from it to a "
               "gateway" + gap(*wireless_, x, gws) + "; " + s_.unreachable_advice + ", or use " + s_.auto_routing;
      }
      if (to.size() == 1) {
        const std::optional<std::uint32_t> ra = (*roots_)[from];
        const std::optional<std::uint32_t> rb = (*roots_)[to[0]];
        if (ra && rb && *ra != *rb) {
          return quoted(s_.nodes[from].id) + " is in the tree of " + quoted(s_.nodes[*ra].id) +
                 " and " + quoted(s_.nodes[to[0]].id) + " in the tree of " +
                 quoted(s_.nodes[*rb].id) +
                 ", and no wired link joins the two; wire both gateways to a common node under " +
                 s_.links_at + ", or use " + s_.auto_routing;
        }
      }
    }
    std::vector<std::string> reached;
    const std::vector<bool> r = used_.reachable_from(from);
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (r[i] && i != from) reached.push_back(s_.nodes[i].id);
    }
    return quoted(s_.nodes[from].id) + " reaches only " +
           (reached.empty() ? std::string("its own links") : join_list(reached, false)) +
           gap(used_, from, to) + "; " + s_.unreachable_advice;
  }

 private:
  std::string no_link(std::uint32_t x) const {
    std::string out = quoted(s_.nodes[x].id) + " has no usable link";
    std::optional<std::pair<double, std::size_t>> nearest;
    for (std::size_t i = 0; i < s_.nodes.size(); ++i) {
      const auto d = i == x ? std::nullopt : distance_m(s_, x, i);
      if (d && (!nearest || *d < nearest->first)) nearest = {*d, i};
    }
    if (nearest) {
      out += " (the nearest node, " + quoted(s_.nodes[nearest->second].id) + ", is " +
             metres(nearest->first) + " away)";
    }
    return out + "; " + s_.unreachable_advice;
  }

  // The two closest nodes across the gap: one reached from `from`, one that reaches
  // a target. Bridging them is the cheapest fix.
  std::string gap(const LinkGraph& g, std::uint32_t from, std::span<const std::uint32_t> to) const {
    const std::vector<bool> near_side = g.reachable_from(from);
    std::vector<bool> far_side(s_.nodes.size(), false);
    for (const std::uint32_t t : to) {
      const std::vector<bool> r = g.reaching(t);
      for (std::size_t i = 0; i < r.size(); ++i) far_side[i] = far_side[i] || r[i];
    }
    // The closest pair, ties to the lowest (a, b). The far side is filed in a grid
    // of about one node per cell; from each near node the rings of cells around
    // its own are searched outwards until a ring is farther away than the best pair
    // so far. About n cells' worth of work on a mesh, rather than near x far
    // distances, whatever the shape of the two sides.
    std::vector<std::size_t> far;
    double lo[2] = {0.0, 0.0}, hi[2] = {0.0, 0.0};
    for (std::size_t b = 0; b < far_side.size(); ++b) {
      const auto& pb = s_.nodes[b].position;
      if (!far_side[b] || !pb) continue;
      const double c[2] = {pb->x_m, pb->y_m};
      for (int k = 0; k < 2; ++k) {
        lo[k] = far.empty() ? c[k] : std::min(lo[k], c[k]);
        hi[k] = far.empty() ? c[k] : std::max(hi[k], c[k]);
      }
      far.push_back(b);
    }
    if (far.empty()) return {};
    const double span = std::max(hi[0] - lo[0], hi[1] - lo[1]);
    // Cells of about one node each; at least 1 m, at most 1024 a side.
    const double cell = std::max({1.0, span / 1024.0, std::sqrt((hi[0] - lo[0]) * (hi[1] - lo[1]) / static_cast<double>(far.size()))});
    const auto cells = [&](int k) { return static_cast<long>((hi[k] - lo[k]) / cell) + 1; };
    const long cols = cells(0), rows = cells(1);
    const auto cell_of = [&](double v, int k, long count) {
      return std::clamp(static_cast<long>(std::floor((v - lo[k]) / cell)), 0L, count - 1);
    };
    std::vector<std::vector<std::size_t>> grid(static_cast<std::size_t>(cols * rows));
    for (const std::size_t b : far) {
      const auto& pb = *s_.nodes[b].position;
      grid[static_cast<std::size_t>(cell_of(pb.y_m, 1, rows) * cols + cell_of(pb.x_m, 0, cols))].push_back(b);
    }
    std::optional<std::pair<double, std::pair<std::size_t, std::size_t>>> best;
    const auto consider = [&](std::size_t a, std::size_t b) {
      const double d = *distance_m(s_, a, b);
      if (!best || d < best->first || (d == best->first && std::pair(a, b) < best->second)) best = {d, {a, b}};
    };
    for (std::size_t a = 0; a < near_side.size(); ++a) {
      if (!near_side[a] || !s_.nodes[a].position) continue;
      const auto& pa = *s_.nodes[a].position;
      // No far node is nearer than the far side's box; a later near node (a
      // higher index) does not win a tie.
      const double box = std::hypot(std::max({lo[0] - pa.x_m, 0.0, pa.x_m - hi[0]}),
                                    std::max({lo[1] - pa.y_m, 0.0, pa.y_m - hi[1]}));
      if (best && box >= best->first) continue;
      const long cx = cell_of(pa.x_m, 0, cols), cy = cell_of(pa.y_m, 1, rows);
      // Ring r: the cells at Chebyshev distance r from (cx, cy). Each of their
      // nodes is at least (r - 1) cells away (a near node outside the far side's
      // box counts from the border cell, and is farther still).
      for (long r = 0; r <= std::max(cols, rows); ++r) {
        if (best && std::max(box, static_cast<double>(r - 1) * cell) > best->first) break;
        for (long y = cy - r; y <= cy + r; ++y) {
          if (y < 0 || y >= rows) continue;
          const bool edge_row = y == cy - r || y == cy + r;
          for (long x = cx - r; x <= cx + r; x += edge_row ? 1 : 2 * r) {
            if (x >= 0 && x < cols) {
              for (const std::size_t b : grid[static_cast<std::size_t>(y * cols + x)]) consider(a, b);
            }
            if (r == 0) break;
          }
        }
      }
    }
    if (!best) return {};
    return "; the closest pair across the gap is " + quoted(s_.nodes[best->second.first].id) +
           " and " + quoted(s_.nodes[best->second.second].id) + ", " + metres(best->first) +
           " apart";
  }

  const RoutingInput& s_;
  const LinkGraph& all_;
  const LinkGraph& used_;
  const LinkGraph* wireless_;
  const NodeIndexColumn* roots_;
};

// The cheapest gateway of each mesh node over `g` (ties: the lowest index); a
// gateway is its own, hosts have none. One shortest-path run per gateway.
NodeIndexColumn nearest_gateways(const RoutingInput& s, const LinkGraph& g) {
  const std::size_t n = s.nodes.size();
  NodeIndexColumn out(n);
  std::vector<double> best(n, routing_detail::kUnreachable);
  for (const std::uint32_t gw : gateways_of(s)) {  // ascending: a later gateway must be cheaper
    const std::uint32_t target[] = {gw};
    const std::vector<double> d = g.distances_to(target);
    for (std::uint32_t x = 0; x < n; ++x) {
      if (is_role(s, x, NodeRole::mesh) && d[x] < best[x] && !routing_detail::same_cost(d[x], best[x])) {
        best[x] = d[x];
        out.set(x, gw);
      }
    }
  }
  for (std::uint32_t x = 0; x < n; ++x) {
    if (is_role(s, x, NodeRole::gateway)) out.set(x, x);
  }
  return out;
}

// 004 Sec. 4.1: every mesh node joins the routing tree of its best gateway. Trees
// grow over two-way wireless links only (a gateway's uplink is the root, not a
// branch). The parent of X is its next hop towards the nearest gateway (multi-source
// Dijkstra, the usual tie rule), and X's root is its parent's root, so a subtree
// never straddles two trees even when two gateways are equally near.
struct Trees {
  std::vector<std::optional<std::uint32_t>> parent;
  std::vector<std::optional<std::uint32_t>> root;
};

Trees grow_trees(const RoutingInput& s, const LinkGraph& wireless) {
  const std::size_t n = s.nodes.size();
  const std::vector<std::uint32_t> gws = gateways_of(s);
  const std::vector<double> dist = wireless.distances_to(gws);
  Trees t{std::vector<std::optional<std::uint32_t>>(n), std::vector<std::optional<std::uint32_t>>(n)};
  for (std::uint32_t x = 0; x < n; ++x) {
    if (!is_role(s, x, NodeRole::mesh)) continue;
    if (const routing_detail::Arc* a = wireless.best_arc(x, dist)) t.parent[x] = a->to;
  }
  for (const std::uint32_t g : gws) t.root[g] = g;
  // Each node's root is its parent's: walk up to a node whose root is known (or
  // that has no parent), then give every node on the way that root, so each node
  // is walked over once (a chain of n nodes costs n steps, not n^2 / 2).
  std::vector<bool> done(n, false);
  for (const std::uint32_t g : gws) done[g] = true;
  std::vector<std::uint32_t> way;
  for (std::uint32_t x = 0; x < n; ++x) {
    way.clear();
    std::uint32_t at = x;
    while (!done[at] && t.parent[at]) {
      way.push_back(at);
      if (way.size() > n) throw std::logic_error("gateway trees: parent pointers loop");
      at = *t.parent[at];
    }
    done[at] = true;
    for (const std::uint32_t y : way) {
      t.root[y] = t.root[at];
      done[y] = true;
    }
  }
  return t;
}

}  // namespace

Routing compute_routing(const RoutingInput& scenario, std::span<const RoutingLink> links) {
  const std::size_t n = scenario.nodes.size();
  const RoutingSection& rs = scenario.routing;
  IssueSink issues;
  Routing out;
  const std::vector<std::uint32_t> gws = gateways_of(scenario);
  const LinkGraph all(n, links, rs.metric);

  std::optional<StaticTables> statics;
  std::optional<LinkGraph> wireless, tree_graph;
  std::optional<Diagnosis> diagnosis;
  switch (rs.type) {
    case RoutingType::automatic: {
      out.gateway = nearest_gateways(scenario, all);
      out.tables = routing_detail::shortest_path_tables(all);
      diagnosis.emplace(scenario, all, all);
      break;
    }
    case RoutingType::aodv: {
      // No tables: AODV finds routes during the run (core/aodv.hpp), and a flow
      // whose ends are not connected is simulated (its packets are dropped when
      // discovery fails). "@gateway" is the nearest gateway over the links, as
      // under auto.
      out.gateway = nearest_gateways(scenario, all);
      out.tables = RoutingTables(n);
      diagnosis.emplace(scenario, all, all);
      break;
    }
    case RoutingType::gateway_trees: {
      std::set<std::pair<std::uint32_t, std::uint32_t>> radio_pairs;
      for (const RoutingLink& l : links) {
        if (!l.wired) radio_pairs.insert({l.from, l.to});
      }
      wireless.emplace(n, links, rs.metric, [&](const RoutingLink& l) {
        return !l.wired && radio_pairs.contains({l.to, l.from});  // the ACK must come back
      });
      Trees trees = grow_trees(scenario, *wireless);
      // Routes use the tree links, both ways, and every wired link: a host wired to
      // several gateways reaches a mesh node through that node's own gateway.
      tree_graph.emplace(n, links, rs.metric, [&](const RoutingLink& l) {
        return l.wired || trees.parent[l.from] == l.to || trees.parent[l.to] == l.from;
      });
      out.tables = routing_detail::shortest_path_tables(*tree_graph);
      out.gateway = NodeIndexColumn(n);
      for (std::uint32_t x = 0; x < n; ++x) {
        if (trees.root[x]) out.gateway.set(x, *trees.root[x]);
      }
      diagnosis.emplace(scenario, all, *tree_graph, &*wireless, &out.gateway);
      break;
    }
    case RoutingType::static_tables: {
      statics.emplace(scenario, all, issues);
      out.tables = statics->tables();
      // "@gateway" under static tables: the gateway the node's own tables lead to in
      // the fewest hops (in practice where its "*" route ends); ties: lowest index.
      out.gateway = NodeIndexColumn(n);
      // Per gateway, every node's hops to it along its tables, each node walked
      // once (a node's count is its next hop's plus one), not a walk per node:
      // nodes x gateways, not nodes x gateways x path length.
      constexpr std::int64_t kUnknown = -2, kNone = -1;
      std::vector<std::int64_t> hops(n);
      std::vector<bool> on_way(n, false);
      std::vector<std::uint32_t> way;
      std::vector<std::int64_t> best(n, kNone);
      for (const std::uint32_t g : gws) {  // ascending: a later gateway must be nearer
        std::fill(hops.begin(), hops.end(), kUnknown);
        hops[g] = 0;
        for (std::uint32_t x = 0; x < n; ++x) {
          way.clear();
          std::uint32_t at = x;
          bool lost = false;
          while (hops[at] == kUnknown) {
            if (on_way[at]) {  // the tables loop: no path from anyone on the way
              lost = true;
              break;
            }
            on_way[at] = true;
            way.push_back(at);
            const NextHop* hop = out.tables.next_hop(at, g);
            if (hop == nullptr) {
              lost = true;
              break;
            }
            at = hop->node;
          }
          const std::int64_t base = lost ? kNone : hops[at];
          for (std::size_t i = way.size(); i-- > 0;) {
            hops[way[i]] = base == kNone ? kNone : base + static_cast<std::int64_t>(way.size() - i);
            on_way[way[i]] = false;
          }
        }
        for (std::uint32_t x = 0; x < n; ++x) {
          if (!is_role(scenario, x, NodeRole::mesh) || hops[x] <= 0) continue;
          if (best[x] == kNone || hops[x] < best[x]) {
            best[x] = hops[x];
            out.gateway.set(x, g);
          }
        }
      }
      for (const std::uint32_t g : gws) out.gateway.set(g, g);
      break;
    }
  }

  auto failure = [&](std::uint32_t from, std::uint32_t to) {
    if (statics) return statics->failure(from, to);
    const std::uint32_t target[] = {to};
    return diagnosis->why(from, target);
  };
  auto no_gateway = [&](std::uint32_t x) {
    const std::string& id = scenario.nodes[x].id;
    if (statics) {
      return "the static tables of " + quoted(id) + " lead to no gateway; towards " +
             quoted(scenario.nodes[gws.front()].id) + ": " + statics->failure(x, gws.front());
    }
    return quoted(id) + " reaches no gateway: " + diagnosis->why(x, gws);
  };

  out.flows.resize(scenario.flows.size());
  for (std::size_t i = 0; i < scenario.flows.size(); ++i) {
    const RoutingInput::FlowEntry& f = scenario.flows[i];
    if (!f.src && !f.dst) continue;                    // the loader reports it
    if ((!f.src || !f.dst) && gws.empty()) continue;  // "@gateway" without one: ditto
    std::optional<std::uint32_t> src, dst;
    if (f.src) src = static_cast<std::uint32_t>(*f.src);
    if (f.dst) dst = static_cast<std::uint32_t>(*f.dst);
    if (!src && !gws.empty()) src = out.gateway[*dst];
    if (!dst && !gws.empty()) dst = out.gateway[*src];
    if (!src || !dst) {
      const std::uint32_t mesh = src ? *src : *dst;
      issues.add(src ? f.dst_at : f.src_at,
                 issues.full() ? std::string() : "\"@gateway\" resolves to no gateway: " + no_gateway(mesh));
      continue;
    }
    out.flows[i] = FlowEnds{*src, *dst};
    if (rs.type == RoutingType::aodv) continue;
    const std::string& a = scenario.nodes[*src].id;
    const std::string& b = scenario.nodes[*dst].id;
    // A report already full counts the flow without diagnosing it (each diagnosis
    // walks the network).
    if (out.tables.path(*src, *dst).empty()) {
      issues.add(f.defined_at, issues.full() ? std::string()
                                             : "no route from " + quoted(a) + " to " + quoted(b) + ": " + failure(*src, *dst));
    } else if (f.needs_return_path && out.tables.path(*dst, *src).empty()) {
      issues.add(f.defined_at, issues.full() ? std::string()
                                             : "no route back from " + quoted(b) + " to " + quoted(a) + " for the " +
                                                   f.transport + " ACKs: " + failure(*dst, *src));
    }
  }

  if (!issues.empty()) throw ScenarioError(issues.take());
  return out;
}

}  // namespace wmnsim
