// Static routing over hand-built links: shortest-path next hops and their tie rule,
// gateway trees, static tables and every check with its message.
#include "core/routing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using nlohmann::json;

// A scenario document built node by node; the routing under test gets its links by hand.
class Doc {
 public:
  Doc() : j_({{"simulation", {{"duration_s", 1}}}, {"nodes", json::array()}, {"flows", json::array()}}) {}
  Doc& node(const std::string& id, double x, double y = 0, const std::string& role = "mesh") {
    j_["nodes"].push_back({{"id", id}, {"position_m", {x, y}}, {"role", role}});
    return *this;
  }
  Doc& host(const std::string& id) {
    j_["nodes"].push_back({{"id", id}, {"role", "host"}});
    return *this;
  }
  Doc& wire(const std::string& a, const std::string& b) {
    j_["links"].push_back({{"nodes", {a, b}}});
    return *this;
  }
  Doc& flow(const std::string& src, const std::string& dst, const std::string& transport = "udp") {
    const std::string id = "f" + std::to_string(j_["flows"].size());
    j_["flows"].push_back({{"id", id}, {"transport", transport}, {"src", src}, {"dst", dst}});
    return *this;
  }
  Doc& routing(json r) {
    j_["routing"] = std::move(r);
    return *this;
  }
  json& doc() { return j_; }
  Scenario parse() const { return parse_scenario(j_); }

 private:
  json j_;
};

std::uint32_t id(const Scenario& s, const std::string& name) {
  return static_cast<std::uint32_t>(s.find_node(name).value());
}

// Both directions of a radio link; the address encodes (node, interface) so tests
// can see which parallel link was taken.
void radio_pair(std::vector<RoutingLink>& links, std::uint32_t a, std::uint32_t b, double cost_s = 1e-3,
                std::uint32_t interface = 0) {
  links.push_back({a, b, interface, b * 10 + interface, cost_s, false});
  links.push_back({b, a, interface, a * 10 + interface, cost_s, false});
}

void wired_pair(std::vector<RoutingLink>& links, std::uint32_t a, std::uint32_t ia, std::uint32_t b,
                std::uint32_t ib, double cost_s = 1e-4) {
  links.push_back({a, b, ia, b, cost_s, true});
  links.push_back({b, a, ib, a, cost_s, true});
}

std::vector<ValidationIssue> issues_of(const Scenario& s, const std::vector<RoutingLink>& links) {
  try {
    compute_routing(s, links);
  } catch (const ScenarioError& e) {
    return e.issues();
  }
  return {};
}

std::vector<std::string> ids(const Scenario& s, const std::vector<std::uint32_t>& path) {
  std::vector<std::string> out;
  for (const auto n : path) out.push_back(s.nodes[n].id);
  return out;
}

using Names = std::vector<std::string>;

// ---- RoutingTables ------------------------------------------------------------------

TEST(RoutingTables, PathFollowsNextHopsAndStopsAtLoops) {
  RoutingTables t(4);
  EXPECT_EQ(t.next_hop(0, 3), nullptr);
  EXPECT_TRUE(t.path(0, 3).empty());
  EXPECT_EQ(t.path(2, 2), (std::vector<std::uint32_t>{2}));
  t.set(0, 3, {1, 0, 11});
  t.set(1, 3, {2, 1, 21});
  t.set(2, 3, {3, 0, 31});
  ASSERT_NE(t.next_hop(0, 3), nullptr);
  EXPECT_EQ(t.next_hop(0, 3)->address, 11u);
  EXPECT_EQ(t.path(0, 3), (std::vector<std::uint32_t>{0, 1, 2, 3}));
  t.set(2, 3, {0, 0, 1});  // 0 -> 1 -> 2 -> 0 ...
  EXPECT_TRUE(t.path(0, 3).empty());
  t.clear(2, 3);
  EXPECT_TRUE(t.path(0, 3).empty());
  EXPECT_THROW(t.set(1, 1, {2, 0, 0}), std::invalid_argument);
  EXPECT_THROW(t.next_hop(4, 0), std::out_of_range);
}

// ---- auto -----------------------------------------------------------------------------

TEST(RoutingAuto, ChainNextHops) {
  Doc d;
  for (int i = 0; i < 5; ++i) d.node("n" + std::to_string(i), 100.0 * i);
  d.flow("n0", "n4", "tcp");
  const Scenario s = d.parse();
  std::vector<RoutingLink> links;
  for (std::uint32_t i = 0; i + 1 < 5; ++i) radio_pair(links, i, i + 1);
  const Routing r = compute_routing(s, links);
  EXPECT_EQ(r.tables.next_hop(0, 4)->node, 1u);
  EXPECT_EQ(r.tables.next_hop(4, 0)->node, 3u);
  EXPECT_EQ(r.tables.next_hop(2, 1)->node, 1u);
  EXPECT_EQ(r.tables.next_hop(1, 0)->address, 0u);  // node 0, interface 0
  EXPECT_EQ(r.tables.path(0, 4), (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  ASSERT_EQ(r.flows.size(), 1u);
  EXPECT_EQ(r.flows[0].src, 0u);
  EXPECT_EQ(r.flows[0].dst, 4u);
  for (const auto& g : r.gateway) EXPECT_FALSE(g);  // no gateway in this chain
}

TEST(RoutingAuto, GridTiesGoToTheLowestNeighbourWhateverTheLinkOrder) {
  json doc = test::minimal_scenario();
  doc["nodes"] = json::array();
  doc["node_groups"] = {{{"id_prefix", "g"}, {"placement", "grid"}, {"rows", 3}, {"columns", 3},
                         {"spacing_m", 100}}};
  doc["flows"] = {{{"id", "f"}, {"transport", "udp"}, {"src", "g0"}, {"dst", "g8"}}};
  const Scenario s = parse_scenario(doc);
  // g0 g1 g2 / g3 g4 g5 / g6 g7 g8, four-neighbour links.
  std::vector<RoutingLink> links;
  for (std::uint32_t r = 0; r < 3; ++r) {
    for (std::uint32_t c = 0; c < 3; ++c) {
      if (c + 1 < 3) radio_pair(links, 3 * r + c, 3 * r + c + 1);
      if (r + 1 < 3) radio_pair(links, 3 * r + c, 3 * (r + 1) + c);
    }
  }
  const Routing first = compute_routing(s, links);
  EXPECT_EQ(ids(s, first.tables.path(0, 8)), (Names{"g0", "g1", "g2", "g5", "g8"}));
  EXPECT_EQ(ids(s, first.tables.path(8, 0)), (Names{"g8", "g5", "g2", "g1", "g0"}));
  EXPECT_EQ(ids(s, first.tables.path(6, 2)), (Names{"g6", "g3", "g0", "g1", "g2"}));

  std::mt19937 rng(5);
  for (int round = 0; round < 5; ++round) {
    std::shuffle(links.begin(), links.end(), rng);
    const Routing again = compute_routing(s, links);
    for (std::uint32_t a = 0; a < 9; ++a) {
      for (std::uint32_t b = 0; b < 9; ++b) {
        EXPECT_EQ(again.tables.path(a, b), first.tables.path(a, b)) << a << " -> " << b;
      }
    }
  }
}

TEST(RoutingAuto, TreeTopologyHasExactlyOnePath) {
  // r has children a and b; a has c and d; b has e.
  Doc d;
  for (const char* n : {"r", "a", "b", "c", "d", "e"}) d.node(n, 50.0 * d.doc()["nodes"].size());
  d.flow("c", "e");
  const Scenario s = d.parse();
  std::vector<RoutingLink> links;
  radio_pair(links, id(s, "r"), id(s, "a"));
  radio_pair(links, id(s, "r"), id(s, "b"));
  radio_pair(links, id(s, "a"), id(s, "c"));
  radio_pair(links, id(s, "a"), id(s, "d"));
  radio_pair(links, id(s, "b"), id(s, "e"));
  const Routing r = compute_routing(s, links);
  EXPECT_EQ(ids(s, r.tables.path(id(s, "c"), id(s, "e"))), (Names{"c", "a", "r", "b", "e"}));
  EXPECT_EQ(ids(s, r.tables.path(id(s, "d"), id(s, "c"))), (Names{"d", "a", "c"}));
  EXPECT_EQ(ids(s, r.tables.path(id(s, "e"), id(s, "d"))), (Names{"e", "b", "r", "a", "d"}));
}

// The cheapest path cost between every pair by Floyd-Warshall, independently of the
// Dijkstra under test.
std::vector<std::vector<double>> floyd_warshall(std::size_t n, const std::vector<RoutingLink>& links,
                                                bool hop_count) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> d(n, std::vector<double>(n, inf));
  for (std::size_t i = 0; i < n; ++i) d[i][i] = 0;
  for (const auto& l : links) d[l.from][l.to] = std::min(d[l.from][l.to], hop_count ? 1.0 : l.cost_s);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
  return d;
}

TEST(RoutingAuto, RandomTopologyPathsAreShortest) {
  json doc = test::minimal_scenario();
  doc["nodes"] = json::array();
  doc["node_groups"] = {{{"id_prefix", "n"}, {"placement", "random_uniform"}, {"count", 40},
                         {"area_m", {1000, 1000}}, {"seed", 3}}};
  doc["flows"] = {{{"id", "f"}, {"transport", "udp"}, {"src", "n0"}, {"dst", "n1"}}};
  for (const char* metric : {"hop_count", "airtime"}) {
    doc["routing"] = {{"metric", metric}};
    Scenario s = parse_scenario(doc);
    s.flows.clear();  // which pairs connect is up to the draw; the flows' check has its own tests
    const std::size_t n = s.nodes.size();
    // Links within 250 m, on two radios for some pairs, with random (and sometimes
    // asymmetric) costs, and a few one-way links.
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> cost(1e-3, 5e-3);
    std::vector<RoutingLink> links;
    for (std::uint32_t a = 0; a < n; ++a) {
      for (std::uint32_t b = a + 1; b < n; ++b) {
        const auto& pa = *s.nodes[a].position;
        const auto& pb = *s.nodes[b].position;
        if (std::hypot(pa.x_m - pb.x_m, pa.y_m - pb.y_m) > 250) continue;
        links.push_back({a, b, 0, b, cost(rng), false});
        if (rng() % 10 != 0) links.push_back({b, a, 0, a, cost(rng), false});
        if (rng() % 4 == 0) links.push_back({a, b, 1, b, cost(rng), false});
      }
    }
    const Routing r = compute_routing(s, links);
    const bool hops = std::string(metric) == "hop_count";
    const auto best = floyd_warshall(n, links, hops);
    int reachable = 0;
    for (std::uint32_t a = 0; a < n; ++a) {
      for (std::uint32_t b = 0; b < n; ++b) {
        if (a == b) continue;
        const auto path = r.tables.path(a, b);
        if (best[a][b] == std::numeric_limits<double>::infinity()) {
          EXPECT_TRUE(path.empty()) << a << " -> " << b;
          continue;
        }
        ++reachable;
        ASSERT_FALSE(path.empty()) << a << " -> " << b;
        EXPECT_EQ(path.front(), a);
        EXPECT_EQ(path.back(), b);
        double total = 0;
        for (std::size_t h = 0; h + 1 < path.size(); ++h) {
          const NextHop* hop = r.tables.next_hop(path[h], b);
          const auto used = std::find_if(links.begin(), links.end(), [&](const RoutingLink& l) {
            return l.from == path[h] && l.to == hop->node && l.interface == hop->interface;
          });
          ASSERT_NE(used, links.end());
          total += hops ? 1.0 : used->cost_s;
        }
        EXPECT_NEAR(total, best[a][b], 1e-9 * best[a][b]) << metric << " " << a << " -> " << b;
      }
    }
    EXPECT_GT(reachable, static_cast<int>(n * (n - 1) / 2));  // a mostly connected network
  }
}

TEST(RoutingAuto, ParallelLinksUseTheCheapestThenTheLowestInterface) {
  Doc d;
  d.node("A", 0).node("B", 100).flow("A", "B");
  d.routing({{"metric", "airtime"}});
  const Scenario s = d.parse();
  std::vector<RoutingLink> links;
  radio_pair(links, 0, 1, 2e-3, 0);
  radio_pair(links, 0, 1, 1e-3, 1);
  EXPECT_EQ(compute_routing(s, links).tables.next_hop(0, 1)->interface, 1u);
  links.clear();
  radio_pair(links, 0, 1, 1e-3, 1);
  radio_pair(links, 0, 1, 1e-3, 0);
  EXPECT_EQ(compute_routing(s, links).tables.next_hop(0, 1)->interface, 0u);
}

TEST(RoutingAuto, AirtimeAndHopCountChooseDifferentRoutes) {
  // A - C directly at a slow rate, or A - B - C over two fast hops.
  Doc d;
  d.node("A", 0).node("B", 100).node("C", 200).flow("A", "C");
  std::vector<RoutingLink> links;
  const Scenario probe = d.parse();
  radio_pair(links, 0, 1, 1e-3);
  radio_pair(links, 1, 2, 1e-3);
  radio_pair(links, 0, 2, 5e-3);
  d.routing({{"metric", "hop_count"}});
  EXPECT_EQ(ids(probe, compute_routing(d.parse(), links).tables.path(0, 2)), (Names{"A", "C"}));
  d.routing({{"metric", "airtime"}});
  EXPECT_EQ(ids(probe, compute_routing(d.parse(), links).tables.path(0, 2)), (Names{"A", "B", "C"}));
}

TEST(RoutingAuto, GatewayIsTheCheapestOneWithTiesToTheLowestIndex) {
  // G1 - a - b - G2 - c, and d halfway between G1 and G2 via its own links.
  Doc d;
  d.node("G1", 0, 0, "gateway").node("G2", 300, 0, "gateway");
  d.node("a", 100).node("b", 200).node("c", 400).node("m", 150, 100);
  d.flow("a", "@gateway").flow("@gateway", "b").flow("c", "@gateway", "tcp").flow("m", "@gateway");
  const Scenario s = d.parse();
  const auto G1 = id(s, "G1"), G2 = id(s, "G2"), a = id(s, "a"), b = id(s, "b"), c = id(s, "c"),
             m = id(s, "m");
  std::vector<RoutingLink> links;
  radio_pair(links, G1, a);
  radio_pair(links, a, b);
  radio_pair(links, b, G2);
  radio_pair(links, G2, c);
  radio_pair(links, m, G1);
  radio_pair(links, m, G2);
  const Routing r = compute_routing(s, links);
  EXPECT_EQ(r.gateway[G1], G1);
  EXPECT_EQ(r.gateway[G2], G2);
  EXPECT_EQ(r.gateway[a], G1);
  EXPECT_EQ(r.gateway[b], G2);
  EXPECT_EQ(r.gateway[c], G2);
  EXPECT_EQ(r.gateway[m], G1);  // one hop to either: the lower index
  EXPECT_EQ(r.flows[0].src, a);
  EXPECT_EQ(r.flows[0].dst, G1);
  EXPECT_EQ(r.flows[1].src, G2);
  EXPECT_EQ(r.flows[1].dst, b);
  EXPECT_EQ(r.flows[2].dst, G2);
  EXPECT_EQ(r.flows[3].dst, G1);
}

// ---- unreachable flows --------------------------------------------------------------

TEST(RoutingAuto, UnreachableFlowsAreReportedTogetherWithWhatToDo) {
  Doc d;
  d.node("A", 0).node("B", 100).node("GW", 200, 0, "gateway").node("far", 1000).node("C", 612, 0);
  d.node("D", 712);
  d.flow("A", "GW").flow("far", "GW").flow("A", "D", "tcp").flow("D", "@gateway");
  const Scenario s = d.parse();
  std::vector<RoutingLink> links;
  radio_pair(links, id(s, "A"), id(s, "B"));
  radio_pair(links, id(s, "B"), id(s, "GW"));
  radio_pair(links, id(s, "C"), id(s, "D"));
  const auto issues = issues_of(s, links);
  EXPECT_EQ(issues.size(), 3u) << test::render(issues);
  EXPECT_TRUE(test::has_issue(issues, "/flows/1",
                              "no route from \"far\" to \"GW\": \"far\" has no usable link (the nearest "
                              "node, \"D\", is 288 m away); move the nodes closer, raise tx_power_dbm, "
                              "lower /phy/data_rate_bps (links that lose /phy/auto_rate/max_fer or more "
                              "of their frames at it are not used) or add a wired link under /links"));
  EXPECT_TRUE(test::has_issue(issues, "/flows/2",
                              "no route from \"A\" to \"D\": \"A\" reaches only B, GW; the closest pair "
                              "across the gap is \"GW\" and \"C\", 412 m apart"));
  EXPECT_TRUE(test::has_issue(issues, "/flows/3/dst",
                              "\"@gateway\" resolves to no gateway: \"D\" reaches no gateway: \"D\" "
                              "reaches only C; the closest pair across the gap is \"C\" and \"GW\""));
}

TEST(RoutingAuto, OneWayLinksFailTheAckDirectionOfTcp) {
  Doc d;
  d.node("A", 0).node("B", 100).flow("A", "B", "tcp").flow("A", "B", "udp");
  const Scenario s = d.parse();
  const std::vector<RoutingLink> links{{0, 1, 0, 1, 1e-3, false}};
  const auto issues = issues_of(s, links);
  ASSERT_EQ(issues.size(), 1u) << test::render(issues);  // udp needs no way back
  EXPECT_TRUE(test::has_issue(issues, "/flows/0",
                              "no route back from \"B\" to \"A\" for the tcp ACKs: \"B\" has no usable link"));
}

// ---- gateway_trees --------------------------------------------------------------------

// Two gateways 600 m apart with a mesh between them:
//   G1 - a - b - c - G2, d hanging off b, e off c; host H wired to both gateways.
struct TwoTrees {
  Scenario s;
  std::vector<RoutingLink> links;
  std::uint32_t G1, G2, a, b, c, d, e, H;
};

TwoTrees two_trees(Doc doc, bool wired = true) {
  doc.node("G1", 0, 0, "gateway").node("G2", 400, 0, "gateway");
  doc.node("a", 100).node("b", 200).node("c", 300).node("d", 200, 100).node("e", 300, 100);
  if (wired) doc.host("H").wire("G1", "H").wire("G2", "H");
  TwoTrees t{doc.parse(), {}, 0, 0, 0, 0, 0, 0, 0, 0};
  const Scenario& s = t.s;
  t.G1 = id(s, "G1");
  t.G2 = id(s, "G2");
  t.a = id(s, "a");
  t.b = id(s, "b");
  t.c = id(s, "c");
  t.d = id(s, "d");
  t.e = id(s, "e");
  radio_pair(t.links, t.G1, t.a);
  radio_pair(t.links, t.a, t.b);
  radio_pair(t.links, t.b, t.c);
  radio_pair(t.links, t.c, t.G2);
  radio_pair(t.links, t.b, t.d);
  radio_pair(t.links, t.c, t.e);
  radio_pair(t.links, t.d, t.e);
  radio_pair(t.links, t.G1, t.G2, 1e-3, 0);  // gateways hear each other: never a tree link
  if (wired) {
    t.H = id(s, "H");
    wired_pair(t.links, t.G1, 1, t.H, 0);
    wired_pair(t.links, t.G2, 1, t.H, 1);
  }
  return t;
}

TEST(RoutingGatewayTrees, EveryMeshNodeJoinsItsNearestGatewayConsistently) {
  Doc doc;
  doc.routing({{"type", "gateway_trees"}});
  doc.flow("a", "@gateway");
  const TwoTrees t = two_trees(doc);
  const Routing r = compute_routing(t.s, t.links);
  EXPECT_EQ(r.gateway[t.G1], t.G1);
  EXPECT_EQ(r.gateway[t.G2], t.G2);
  EXPECT_EQ(r.gateway[t.a], t.G1);
  EXPECT_EQ(r.gateway[t.c], t.G2);
  EXPECT_EQ(r.gateway[t.e], t.G2);
  // b is two hops from both gateways: the tie goes to its lowest neighbour on a
  // shortest path (a, towards G1), and d, two hops from G1 through b and two from
  // G2 through e, follows its parent b into G1's tree.
  EXPECT_EQ(r.gateway[t.b], t.G1);
  EXPECT_EQ(r.tables.next_hop(t.b, t.G1)->node, t.a);
  EXPECT_EQ(r.gateway[t.d], t.G1);
  EXPECT_FALSE(r.gateway[t.H]);
  // Consistency: each mesh node's parent is in the same tree.
  for (const std::uint32_t x : {t.a, t.b, t.c, t.d, t.e}) {
    const auto path = r.tables.path(x, *r.gateway[x]);
    ASSERT_FALSE(path.empty());
    for (const auto hop : path) EXPECT_EQ(r.gateway[hop], r.gateway[x]) << t.s.nodes[x].id;
  }
  // Only tree links carry routes: d reaches e through b, c (not over the d-e link,
  // which joins two trees), and the gateways reach each other over the wire.
  EXPECT_EQ(ids(t.s, r.tables.path(t.d, t.e)), (Names{"d", "b", "a", "G1", "H", "G2", "c", "e"}));
  EXPECT_EQ(ids(t.s, r.tables.path(t.G1, t.G2)), (Names{"G1", "H", "G2"}));
}

TEST(RoutingGatewayTrees, HostsReachMeshNodesThroughTheirGateway) {
  Doc doc;
  doc.routing({{"type", "gateway_trees"}});
  doc.flow("H", "e", "tcp").flow("e", "H", "udp").flow("@gateway", "e").flow("d", "@gateway", "wccp");
  const TwoTrees t = two_trees(doc);
  const Routing r = compute_routing(t.s, t.links);
  EXPECT_EQ(ids(t.s, r.tables.path(t.H, t.e)), (Names{"H", "G2", "c", "e"}));  // downstream
  EXPECT_EQ(ids(t.s, r.tables.path(t.e, t.H)), (Names{"e", "c", "G2", "H"}));  // upstream
  EXPECT_EQ(ids(t.s, r.tables.path(t.H, t.d)), (Names{"H", "G1", "a", "b", "d"}));
  EXPECT_EQ(r.flows[2].src, t.G2);
  EXPECT_EQ(r.flows[2].dst, t.e);
  EXPECT_EQ(r.flows[3].src, t.d);
  EXPECT_EQ(r.flows[3].dst, t.G1);
  // The host's interfaces: 0 towards G1 and 1 towards G2, as wired_pair numbered them.
  EXPECT_EQ(r.tables.next_hop(t.H, t.e)->interface, 1u);
}

TEST(RoutingGatewayTrees, AirtimeMetricPicksTheFasterGateway) {
  // a hears G1 directly at a slow rate, and G2 over two fast hops.
  Doc doc;
  doc.node("G1", 0, 0, "gateway").node("G2", 300, 0, "gateway").node("a", 100).node("b", 200);
  doc.flow("a", "@gateway");
  std::vector<RoutingLink> links;
  radio_pair(links, 0, 2, 6e-3);
  radio_pair(links, 2, 3, 1e-3);
  radio_pair(links, 3, 1, 1e-3);
  doc.routing({{"type", "gateway_trees"}, {"metric", "hop_count"}});
  EXPECT_EQ(compute_routing(doc.parse(), links).gateway[2], 0u);
  doc.routing({{"type", "gateway_trees"}, {"metric", "airtime"}});
  const Routing r = compute_routing(doc.parse(), links);
  EXPECT_EQ(r.gateway[2], 1u);
  EXPECT_EQ(r.flows[0].dst, 1u);
}

TEST(RoutingGatewayTrees, TreesWithoutAWireBetweenThemCannotTalk) {
  Doc doc;
  doc.routing({{"type", "gateway_trees"}});
  doc.flow("a", "e").flow("a", "G1");
  const TwoTrees t = two_trees(doc, false);
  const auto issues = issues_of(t.s, t.links);
  ASSERT_EQ(issues.size(), 1u) << test::render(issues);
  EXPECT_TRUE(test::has_issue(issues, "/flows/0",
                              "no route from \"a\" to \"e\": \"a\" is in the tree of \"G1\" and \"e\" in "
                              "the tree of \"G2\", and no wired link joins the two"));
}

TEST(RoutingGatewayTrees, ANodeWithoutATreeHasNoGateway) {
  // x hears only y, and y hears x one way back: no two-way wireless path to a gateway.
  Doc doc;
  doc.routing({{"type", "gateway_trees"}});
  doc.node("GW", 0, 0, "gateway").node("y", 100).node("x", 200).node("z", -100);
  doc.flow("x", "@gateway");
  const Scenario s = doc.parse();
  std::vector<RoutingLink> links{{1, 0, 0, 0, 1e-3, false}, {2, 1, 0, 1, 1e-3, false},
                                 {1, 2, 0, 2, 1e-3, false}};
  radio_pair(links, 0, 3);
  const auto issues = issues_of(s, links);
  ASSERT_EQ(issues.size(), 1u) << test::render(issues);
  EXPECT_TRUE(test::has_issue(issues, "/flows/0/dst",
                              "\"@gateway\" resolves to no gateway: \"x\" reaches no gateway: \"x\" joins "
                              "no gateway tree: no path of two-way wireless links leads from it to a "
                              "gateway; the closest pair across the gap is \"y\" and \"GW\", 100 m apart"));
}

// ---- static -----------------------------------------------------------------------------

// A - B - GW, C off B; H behind GW.
struct Chain {
  Scenario s;
  std::vector<RoutingLink> links;
};

Chain static_chain(const json& tables, Doc doc = {}) {
  doc.node("A", 0).node("B", 100).node("GW", 200, 0, "gateway").node("C", 100, 100).host("H");
  doc.wire("GW", "H");
  doc.routing({{"type", "static"}, {"tables", tables}});
  Chain c{doc.parse(), {}};
  radio_pair(c.links, 0, 1);
  radio_pair(c.links, 1, 2);
  radio_pair(c.links, 1, 3);
  wired_pair(c.links, 2, 1, 4, 0);
  return c;
}

TEST(RoutingStatic, TablesAsWrittenWithDefaults) {
  Doc doc;
  doc.flow("A", "H", "tcp").flow("@gateway", "C").flow("C", "@gateway");
  const Chain c = static_chain(
      {{"A", {{"*", "B"}}},
       {"B", {{"A", "A"}, {"C", "C"}, {"*", "GW"}}},
       {"C", {{"*", "B"}}},
       {"GW", {{"H", "H"}, {"*", "B"}}},
       {"H", {{"*", "GW"}}}},
      doc);
  const Routing r = compute_routing(c.s, c.links);
  EXPECT_EQ(ids(c.s, r.tables.path(0, 4)), (Names{"A", "B", "GW", "H"}));
  EXPECT_EQ(ids(c.s, r.tables.path(4, 0)), (Names{"H", "GW", "B", "A"}));
  EXPECT_EQ(ids(c.s, r.tables.path(3, 0)), (Names{"C", "B", "A"}));
  EXPECT_EQ(r.tables.next_hop(2, 4)->interface, 1u);  // GW's wire
  EXPECT_EQ(r.tables.next_hop(2, 4)->address, 4u);
  EXPECT_EQ(r.gateway[3], 2u);  // C's tables lead to GW
  EXPECT_EQ(r.flows[1].src, 2u);
  EXPECT_EQ(r.flows[2].dst, 2u);
  EXPECT_FALSE(r.gateway[4]);
}

TEST(RoutingStatic, NoImplicitRoutes) {
  // B has an entry for GW only: A's packets for C find no route at B, even though
  // B and C are neighbours.
  Doc doc;
  doc.flow("A", "GW");
  const Chain c = static_chain({{"A", {{"*", "B"}}}, {"B", {{"GW", "GW"}}}}, doc);
  const Routing r = compute_routing(c.s, c.links);
  EXPECT_EQ(ids(c.s, r.tables.path(0, 2)), (Names{"A", "B", "GW"}));
  EXPECT_TRUE(r.tables.path(0, 3).empty());
  EXPECT_EQ(r.tables.next_hop(1, 3), nullptr);
  EXPECT_EQ(r.tables.next_hop(2, 1), nullptr);
}

TEST(RoutingStatic, NextHopMustBeANeighbour) {
  Doc doc;
  doc.flow("A", "GW");
  const Chain c = static_chain({{"A", {{"GW", "GW"}}}, {"H", {{"*", "A"}}}}, doc);
  const auto issues = issues_of(c.s, c.links);
  EXPECT_TRUE(test::has_issue(issues, "/routing/tables/A/GW",
                              "\"GW\" is not a neighbour of \"A\" (neighbours: B); pick one of them"));
  EXPECT_TRUE(test::has_issue(issues, "/routing/tables/H/*", "\"A\" is not a neighbour of \"H\" (neighbours: GW)"));
  EXPECT_TRUE(test::has_issue(issues, "/flows/0",
                              "no route from \"A\" to \"GW\": the entry /routing/tables/A/GW, whose next "
                              "hop \"GW\" is not a neighbour of \"A\" (see that entry)"));
  EXPECT_EQ(issues.size(), 3u) << test::render(issues);
}

TEST(RoutingStatic, LoopsAreReportedAtTheEntryAndTheFlow) {
  Doc doc;
  doc.flow("A", "GW");
  const Chain c = static_chain({{"A", {{"GW", "B"}}}, {"B", {{"GW", "A"}}}}, doc);
  const auto issues = issues_of(c.s, c.links);
  ASSERT_EQ(issues.size(), 2u) << test::render(issues);  // one loop, reported once for the tables
  EXPECT_TRUE(test::has_issue(issues, "/routing/tables/A/GW",
                              "the static tables loop: A -> B -> A; change the \"GW\" (or \"*\") entry of "
                              "one of A, B under /routing/tables"));
  EXPECT_TRUE(test::has_issue(issues, "/flows/0", "no route from \"A\" to \"GW\": the static tables loop: A -> B -> A"));
}

TEST(RoutingStatic, DeadEndsAreReportedWithTheNodeToFix) {
  Doc doc;
  doc.flow("A", "GW", "tcp");
  const Chain c = static_chain({{"A", {{"GW", "B"}}}, {"B", {{"GW", "GW"}}}}, doc);
  const auto issues = issues_of(c.s, c.links);
  ASSERT_EQ(issues.size(), 1u) << test::render(issues);
  // The data gets through; the ACKs from GW have nowhere to go.
  EXPECT_TRUE(test::has_issue(issues, "/flows/0",
                              "no route back from \"GW\" to \"A\" for the tcp ACKs: dead end: GW has no "
                              "route to A; add an entry under /routing/tables/GW (\"A\" or \"*\")"));

  const Chain c2 = static_chain({{"A", {{"GW", "B"}, {"C", "B"}}}, {"B", {{"A", "A"}}}}, doc);
  const auto issues2 = issues_of(c2.s, c2.links);
  EXPECT_TRUE(test::has_issue(issues2, "/routing/tables/A/GW",
                              "the static tables lead A -> B into a dead end: B has no route to GW; add "
                              "an entry under /routing/tables/B"));
  EXPECT_TRUE(test::has_issue(issues2, "/routing/tables/A/C", "dead end: B has no route to C"));
  EXPECT_TRUE(test::has_issue(issues2, "/flows/0", "no route from \"A\" to \"GW\": the static tables lead A -> B into a dead end"));
  EXPECT_EQ(issues2.size(), 3u) << test::render(issues2);
}

TEST(RoutingStatic, GatewayOfANodeWithoutRoutesIsAnError) {
  Doc doc;
  doc.flow("C", "@gateway");
  const Chain c = static_chain({{"A", {{"*", "B"}}}, {"B", {{"*", "GW"}}}}, doc);
  const auto issues = issues_of(c.s, c.links);
  ASSERT_EQ(issues.size(), 1u) << test::render(issues);
  EXPECT_TRUE(test::has_issue(issues, "/flows/0/dst",
                              "\"@gateway\" resolves to no gateway: the static tables of \"C\" lead to no "
                              "gateway; towards \"GW\": dead end: C has no route to GW"));
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(NodeIndexColumn, ReadsAsOptionalIndicesInFourBytesEach) {
  // Routing::gateway (issue 43 §3): per node its gateway or none.
  NodeIndexColumn column(4);
  ASSERT_EQ(column.size(), 4u);
  for (const std::optional<std::uint32_t> g : column) EXPECT_FALSE(g);
  column.set(1, 0);
  column.set(3, 99999);
  EXPECT_FALSE(column[0]);
  EXPECT_EQ(column[1], 0u);
  EXPECT_FALSE(column[2]);
  EXPECT_EQ(column[3], 99999u);
  std::vector<std::optional<std::uint32_t>> read(column.begin(), column.end());
  EXPECT_EQ(read, (std::vector<std::optional<std::uint32_t>>{std::nullopt, 0u, std::nullopt, 99999u}));
  // The marker for none is no node's index; a node beyond the column is refused.
  EXPECT_THROW(column.set(2, ~std::uint32_t{0}), std::out_of_range);
  EXPECT_THROW(column.set(4, 1), std::out_of_range);
  EXPECT_FALSE(column[2]);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
