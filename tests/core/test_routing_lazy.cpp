// Routing tables computed per destination on first use (core/routing_graph.hpp,
// shortest_path_tables) against the full computation (all_pairs): the same next
// hops, interfaces and paths on random graphs, by hop count and by airtime, for
// auto routing, its "@gateway" choice, and gateway trees; and only the columns
// that lookups ask for exist.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/input_error.hpp"
#include "core/routing.hpp"
#include "core/routing_graph.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using routing_detail::all_pairs;
using routing_detail::LinkGraph;
using routing_detail::shortest_path_tables;

// Random links between nodes within `range` on a unit square: some one-way, some on
// a second radio; costs from a short list, so that equal-cost paths (ties) abound.
std::vector<RoutingLink> random_links(std::uint32_t n, double range, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coord(0.0, 1.0);
  std::vector<double> x(n), y(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    x[i] = coord(rng);
    y[i] = coord(rng);
  }
  const double costs[] = {1e-3, 1e-3, 2e-3, 3e-3, 1.5e-3};
  std::vector<RoutingLink> links;
  for (std::uint32_t a = 0; a < n; ++a) {
    for (std::uint32_t b = a + 1; b < n; ++b) {
      if (std::hypot(x[a] - x[b], y[a] - y[b]) > range) continue;
      links.push_back({a, b, 0, b * 10, costs[rng() % 5], false});
      if (rng() % 8 != 0) links.push_back({b, a, 0, a * 10, costs[rng() % 5], false});
      if (rng() % 5 == 0) links.push_back({a, b, 1, b * 10 + 1, costs[rng() % 5], false});
    }
  }
  std::shuffle(links.begin(), links.end(), rng);  // the order of links must not matter
  return links;
}

// Every entry and every path of `lazy` equals `full`'s, asking for the destinations
// in a shuffled order.
void expect_same_tables(const RoutingTables& full, const RoutingTables& lazy, std::uint32_t seed) {
  const std::uint32_t n = static_cast<std::uint32_t>(full.node_count());
  ASSERT_EQ(lazy.node_count(), n);
  std::vector<std::uint32_t> dsts(n);
  std::iota(dsts.begin(), dsts.end(), 0u);
  std::shuffle(dsts.begin(), dsts.end(), std::mt19937(seed));
  int routes = 0;
  for (const std::uint32_t d : dsts) {
    for (std::uint32_t x = 0; x < n; ++x) {
      const NextHop* a = full.next_hop(x, d);
      const NextHop* b = lazy.next_hop(x, d);
      ASSERT_EQ(a == nullptr, b == nullptr) << x << " -> " << d;
      if (a == nullptr) continue;
      ++routes;
      EXPECT_EQ(a->node, b->node) << x << " -> " << d;
      EXPECT_EQ(a->interface, b->interface) << x << " -> " << d;
      EXPECT_EQ(a->address, b->address) << x << " -> " << d;
      EXPECT_EQ(full.path(x, d), lazy.path(x, d)) << x << " -> " << d;
    }
  }
  EXPECT_GT(routes, static_cast<int>(n * (n - 1) / 2));  // a mostly connected network
  EXPECT_EQ(lazy.columns_in_use(), n);
}

TEST(RoutingLazyTables, SameNextHopsAndPathsAsTheFullComputation) {
  for (const RoutingMetric metric : {RoutingMetric::hop_count, RoutingMetric::airtime}) {
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(std::string(to_string(metric)) + " seed " + std::to_string(seed));
      const std::uint32_t n = 30 + 10 * seed;
      const std::vector<RoutingLink> links = random_links(n, 0.3, seed);
      const LinkGraph g(n, links, metric);
      const RoutingTables lazy = shortest_path_tables(g);
      EXPECT_EQ(lazy.columns_in_use(), 0u);  // nothing computed before a lookup
      expect_same_tables(all_pairs(g).tables, lazy, seed);
    }
  }
}

TEST(RoutingLazyTables, OnlyTheDestinationsLookedUpAreComputed) {
  const std::vector<RoutingLink> links = random_links(50, 0.3, 7);
  const LinkGraph g(50, links, RoutingMetric::airtime);
  const RoutingTables full = all_pairs(g).tables;
  const RoutingTables lazy = shortest_path_tables(g);
  EXPECT_EQ(lazy.path(3, 41), full.path(3, 41));
  EXPECT_EQ(lazy.columns_in_use(), 1u);  // the column of 41
  EXPECT_EQ(lazy.path(41, 3), full.path(41, 3));
  EXPECT_EQ(lazy.columns_in_use(), 2u);
  // A copy keeps what was computed and computes the rest alike.
  const RoutingTables copy = lazy;
  EXPECT_EQ(copy.columns_in_use(), 2u);
  for (std::uint32_t x = 0; x < 50; ++x) EXPECT_EQ(copy.path(x, 17), full.path(x, 17));
  EXPECT_EQ(lazy.columns_in_use(), 2u);
}

TEST(RoutingLazyTables, SetAndClearChangeOneEntryOfAComputedColumn) {
  const std::vector<RoutingLink> links = random_links(40, 0.35, 5);
  const LinkGraph g(40, links, RoutingMetric::hop_count);
  const RoutingTables full = all_pairs(g).tables;
  RoutingTables lazy = shortest_path_tables(g);
  const NextHop* before = full.next_hop(0, 20);
  ASSERT_NE(before, nullptr);
  lazy.set(0, 20, NextHop{before->node, 7, 99});
  EXPECT_EQ(lazy.next_hop(0, 20)->interface, 7u);
  lazy.clear(1, 20);
  EXPECT_EQ(lazy.next_hop(1, 20), nullptr);
  for (std::uint32_t x = 2; x < 40; ++x) {
    const NextHop* a = full.next_hop(x, 20);
    const NextHop* b = lazy.next_hop(x, 20);
    ASSERT_EQ(a == nullptr, b == nullptr);
    if (a) {
      EXPECT_EQ(a->node, b->node);
    }
  }
}

RoutingInput input(std::uint32_t n, RoutingType type, RoutingMetric metric, const std::vector<std::uint32_t>& gateways) {
  RoutingInput in;
  for (std::uint32_t i = 0; i < n; ++i) in.nodes.push_back({"n" + std::to_string(i), NodeRole::mesh, std::nullopt, {}});
  for (const std::uint32_t g : gateways) in.nodes[g].role = NodeRole::gateway;
  in.routing.type = type;
  in.routing.metric = metric;
  return in;
}

TEST(RoutingLazyTables, AutoRoutingAndItsGatewaysMatchTheFullComputation) {
  for (const RoutingMetric metric : {RoutingMetric::hop_count, RoutingMetric::airtime}) {
    SCOPED_TRACE(std::string(to_string(metric)));
    const std::uint32_t n = 60;
    const std::vector<RoutingLink> links = random_links(n, 0.3, 11);
    const std::vector<std::uint32_t> gws{4, 17, 33, 50};
    const RoutingInput in = input(n, RoutingType::automatic, metric, gws);
    const Routing r = compute_routing(in, links);
    const routing_detail::AllPairs full = all_pairs(LinkGraph(n, links, metric));
    EXPECT_EQ(r.tables.columns_in_use(), 0u);  // no flow, no lookup
    // "@gateway": the cheapest gateway, ties to the lowest index.
    for (std::uint32_t x = 0; x < n; ++x) {
      std::optional<std::uint32_t> best;
      for (const std::uint32_t g : gws) {
        const double d = full.distance(x, g);
        if (d != routing_detail::kUnreachable && (!best || (d < full.distance(x, *best) &&
                                                            !routing_detail::same_cost(d, full.distance(x, *best))))) {
          best = g;
        }
      }
      if (std::find(gws.begin(), gws.end(), x) != gws.end()) best = x;
      EXPECT_EQ(r.gateway[x], best) << x;
    }
    expect_same_tables(full.tables, r.tables, 3);
  }
}

TEST(RoutingLazyTables, GatewayTreesMatchTheFullComputationOverTheTreeLinks) {
  for (const RoutingMetric metric : {RoutingMetric::hop_count, RoutingMetric::airtime}) {
    SCOPED_TRACE(std::string(to_string(metric)));
    const std::uint32_t n = 60;
    std::vector<RoutingLink> links = random_links(n, 0.3, 13);
    const std::vector<std::uint32_t> gws{2, 25, 40};
    // The gateways wired in a chain.
    links.push_back({2, 25, 5, 25, 1e-4, true});
    links.push_back({25, 2, 5, 2, 1e-4, true});
    links.push_back({25, 40, 6, 40, 1e-4, true});
    links.push_back({40, 25, 5, 25, 1e-4, true});
    RoutingInput in = input(n, RoutingType::gateway_trees, metric, gws);
    in.flows.push_back({7, std::nullopt, false, "udp", {}, {}, {}});  // up to "@gateway"
    const Routing r = compute_routing(in, links);
    EXPECT_LE(r.tables.columns_in_use(), 1u);  // the flow's check: one destination
    // The trees as the routing grew them: each mesh node's next hop to its root.
    std::vector<std::optional<std::uint32_t>> parent(n);
    for (std::uint32_t x = 0; x < n; ++x) {
      if (r.gateway[x] && *r.gateway[x] != x) parent[x] = r.tables.next_hop(x, *r.gateway[x])->node;
    }
    const LinkGraph tree(n, links, metric, [&](const RoutingLink& l) {
      return l.wired || parent[l.from] == l.to || parent[l.to] == l.from;
    });
    expect_same_tables(all_pairs(tree).tables, r.tables, 5);
  }
}

// Static tables are looked up per column too: a node's own entry for the
// destination, else its "*" entry, as written.
TEST(RoutingLazyTables, StaticTablesAreTheEntriesThenTheDefaults) {
  const std::uint32_t n = 50;
  const std::vector<RoutingLink> links = random_links(n, 0.35, 17);
  const LinkGraph g(n, links, RoutingMetric::hop_count);
  const RoutingTables full = all_pairs(g).tables;
  RoutingInput in = input(n, RoutingType::static_tables, RoutingMetric::hop_count, {0});
  // "*": the shortest path towards node 0; own entries: the shortest paths to 9 and 31.
  for (std::uint32_t x = 1; x < n; ++x) {
    if (const NextHop* h = full.next_hop(x, 0)) in.routing.routes.push_back({x, std::nullopt, h->node, "/r"});
  }
  for (const std::uint32_t d : {9u, 31u}) {
    for (std::uint32_t x = 0; x < n; ++x) {
      if (const NextHop* h = full.next_hop(x, d)) in.routing.routes.push_back({x, d, h->node, "/r"});
    }
  }
  const Routing r = compute_routing(in, links);
  for (std::uint32_t d = 0; d < n; ++d) {
    for (std::uint32_t x = 0; x < n; ++x) {
      const NextHop* own = d == 9 || d == 31 ? full.next_hop(x, d) : nullptr;
      const NextHop* expected = x == d ? nullptr : own ? own : full.next_hop(x, 0);
      const NextHop* got = r.tables.next_hop(x, d);
      ASSERT_EQ(expected == nullptr, got == nullptr) << x << " -> " << d;
      if (expected) {
        EXPECT_EQ(expected->node, got->node);
        EXPECT_EQ(expected->interface, got->interface);
        EXPECT_EQ(expected->address, got->address);
      }
    }
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// compute_routing refuses the flows, and its message names this pair across the gap.
void expect_closest_pair(const RoutingInput& in, const std::vector<RoutingLink>& links, const std::string& pair) {
  try {
    (void)compute_routing(in, links);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the closest pair across the gap is " + pair), std::string::npos) << what.substr(0, 2000);
  }
}

// A chain of 100,000 nodes 100 m apart, cut between n50000 and n50001, its gateway
// at n0, under gateway trees: the first half joins n0's tree, the second half none,
// and the flow from the far end is reported with the closest pair across the cut.
// Each node's root costs one step (a walk to the root per node was 1.25e9 steps
// here), and the closest pair is found without pairing the halves (2.5e9 distances).
TEST(RoutingScale, AChainOf100000NodesCostsItsLength) {
  const std::uint32_t n = 100000;
  RoutingInput in = input(n, RoutingType::gateway_trees, RoutingMetric::hop_count, {0});
  for (std::uint32_t i = 0; i < n; ++i) in.nodes[i].position = Position{100.0 * i, 0.0, 0.0};
  std::vector<RoutingLink> links;
  for (std::uint32_t i = 0; i + 1 < n; ++i) {
    if (i == 50000) continue;
    links.push_back({i, i + 1, 0, i + 1, 1e-3, false});
    links.push_back({i + 1, i, 0, i, 1e-3, false});
  }
  in.flows.push_back({n - 1, std::nullopt, false, "udp", "/flows/0", "/flows/0/src", "/flows/0/dst"});
  expect_closest_pair(in, links, "\"n50001\" and \"n50000\", 100 m apart");
  in.flows.front().src = 50000;  // the near side's end: joins n0's tree
  const Routing r = compute_routing(in, links);
  EXPECT_EQ(r.gateway[50000], 0u);
  EXPECT_EQ(r.gateway[1], 0u);
  EXPECT_FALSE(r.gateway[50001]);
  EXPECT_EQ(r.tables.path(50000, 0).size(), 50001u);
}

// A 300 x 300 grid (90,000 nodes, 100 m apart) cut between rows 149 and 150: the
// closest pair across the cut is found through the grid of the far side, not by
// pairing the halves (2e9 distances), and the tie among the 300 pairs 100 m apart
// goes to the lowest indices.
TEST(RoutingScale, AGridCutInTwoFindsItsClosestPair) {
  const std::uint32_t side = 300, n = side * side;
  RoutingInput in = input(n, RoutingType::automatic, RoutingMetric::hop_count, {});
  for (std::uint32_t i = 0; i < n; ++i) in.nodes[i].position = Position{100.0 * (i % side), 100.0 * (i / side), 0.0};
  std::vector<RoutingLink> links;
  const auto join = [&](std::uint32_t a, std::uint32_t b) {
    links.push_back({a, b, 0, b, 1e-3, false});
    links.push_back({b, a, 0, a, 1e-3, false});
  };
  for (std::uint32_t y = 0; y < side; ++y) {
    for (std::uint32_t x = 0; x < side; ++x) {
      const std::uint32_t i = y * side + x;
      if (x + 1 < side) join(i, i + 1);
      if (y + 1 < side && y != 149) join(i, i + side);
    }
  }
  in.flows.push_back({0, n - 1, false, "udp", "/flows/0", "/flows/0/src", "/flows/0/dst"});
  expect_closest_pair(in, links, "\"n44700\" and \"n45000\", 100 m apart");
}

// "@gateway" under static tables on a chain of 100,000 nodes whose "*" routes all
// lead to n0: every node's gateway is n0 (n99999, a gateway too, is reached by
// none), found with one walk per node and gateway (a walk per node and gateway
// from scratch was 1e10 steps here).
TEST(RoutingScale, StaticGatewaysOfAChainOf100000Nodes) {
  const std::uint32_t n = 100000;
  RoutingInput in = input(n, RoutingType::static_tables, RoutingMetric::hop_count, {0, n - 1});
  std::vector<RoutingLink> links;
  for (std::uint32_t i = 0; i + 1 < n; ++i) {
    links.push_back({i, i + 1, 0, i + 1, 1e-3, false});
    links.push_back({i + 1, i, 0, i, 1e-3, false});
  }
  for (std::uint32_t x = 1; x + 1 < n; ++x) in.routing.routes.push_back({x, std::nullopt, x - 1, "/r"});
  in.flows.push_back({50000, std::nullopt, false, "udp", "/flows/0", "/flows/0/src", "/flows/0/dst"});
  const Routing r = compute_routing(in, links);
  EXPECT_EQ(r.gateway[1], 0u);
  EXPECT_EQ(r.gateway[50000], 0u);
  EXPECT_EQ(r.gateway[n - 2], 0u);
  EXPECT_EQ(r.gateway[n - 1], n - 1);
  EXPECT_EQ(r.flows[0].dst, 0u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
