// 001's capacity models (control/capacity_model.hpp): collision domains, cliques,
// max-min fair shares by progressive filling, B from Bianchi's model.

#include "control/capacity_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "control/bianchi.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::control {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

constexpr double kB = 1e6;  // B, bit/s: shares are then fractions of 10^6
constexpr double kTol = 1e-9 * kB;

// Nodes on a line at unit spacing, each within transmission range of its two
// neighbours only: links both ways between neighbours. Streams go from a node to
// `sink` along the line. Two links contend (clique model) when an endpoint of one is
// at most `contention_hops` positions from an endpoint of the other (2: ns-2's
// defaults, carrier sense to two hops; 1: transmission range only).
struct Line {
  CapacityProblem p;
  int contention_hops = 2;

  explicit Line(std::size_t nodes, int hops = 2) : contention_hops(hops) {
    p.node_count = nodes;
    for (std::uint32_t i = 0; i + 1 < nodes; ++i) {
      p.links.push_back({i, i + 1, 0});
      p.links.push_back({i + 1, i, 0});
    }
    const std::size_t n = p.links.size();
    p.contention.assign(n, {});
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        int d = std::numeric_limits<int>::max();
        for (const std::uint32_t a : {p.links[i].from, p.links[i].to}) {
          for (const std::uint32_t b : {p.links[j].from, p.links[j].to}) {
            d = std::min(d, std::abs(static_cast<int>(a) - static_cast<int>(b)));
          }
        }
        if (d <= contention_hops) p.contention[i].push_back(static_cast<std::uint32_t>(j));
      }
    }
    p.mac_capacity_bps = kB;
  }
  std::size_t link(std::uint32_t from, std::uint32_t to) const {
    for (std::size_t l = 0; l < p.links.size(); ++l) {
      if (p.links[l].from == from && p.links[l].to == to) return l;
    }
    throw std::logic_error("no link");
  }
  // Adds a stream from `src` to `dst` along the line; returns its index.
  std::size_t stream(std::uint32_t src, std::uint32_t dst) {
    std::vector<std::size_t> route;
    for (std::uint32_t a = src; a != dst;) {
      const std::uint32_t b = dst > a ? a + 1 : a - 1;
      route.push_back(link(a, b));
      a = b;
    }
    p.routes.push_back(route);
    return p.routes.size() - 1;
  }
};

void expect_rates(const CapacityResult& r, const std::vector<double>& fractions_of_b) {
  ASSERT_EQ(r.rate_bps.size(), fractions_of_b.size());
  for (std::size_t s = 0; s < fractions_of_b.size(); ++s) {
    EXPECT_NEAR(r.rate_bps[s], fractions_of_b[s] * kB, kTol) << "stream " << s;
  }
}

double u_opt(const CapacityProblem& p, const CapacityResult& r) {
  double u = 0;
  for (std::size_t s = 0; s < r.rate_bps.size(); ++s) u += r.rate_bps[s] * static_cast<double>(p.routes[s].size());
  return u;
}

TEST(CapacityModel, TwoHopParkingLotGivesAThirdEach) {
  // 001 Sec. 1: 1-hop and 2-hop node to the gateway: W/3 each, 2W/3 in all.
  Line g(3);
  g.stream(1, 0);
  g.stream(2, 0);
  for (const CapacityModel m : {CapacityModel::collision_domain, CapacityModel::clique}) {
    const CapacityResult r = solve_capacity(g.p, m);
    expect_rates(r, {1.0 / 3, 1.0 / 3});
    EXPECT_NEAR(r.u_opt_bps, kB, kTol);  // 1 * W/3 + 2 * W/3: the medium fully used
  }
}

TEST(CapacityModel, ThreeHopParkingLotIsOneCollisionDomain) {
  // 001 Sec. 5.3: every link in one collision domain, 1 + 2 + 3 = 6 hops: B/6 each
  // (125 kbit/s with B = 750 kbit/s at 1 Mbit/s).
  Line g(4);
  g.stream(0, 1);
  g.stream(0, 2);
  g.stream(0, 3);
  const auto domains = medium_constraints(g.p, CapacityModel::collision_domain);
  ASSERT_FALSE(domains.empty());
  for (const CapacityConstraint& d : domains) EXPECT_EQ(d.links.size(), g.p.links.size());  // each holds all 6
  EXPECT_EQ(domains.size(), 1u);  // duplicates merged
  for (const CapacityModel m : {CapacityModel::collision_domain, CapacityModel::clique}) {
    const CapacityResult r = solve_capacity(g.p, m);
    expect_rates(r, {1.0 / 6, 1.0 / 6, 1.0 / 6});
    EXPECT_NEAR(r.u_opt_bps, kB, kTol);
  }
}

TEST(CapacityModel, FiveHopChainFourFlowsByHand) {
  // Gateway 0, nodes 1..5; streams from the nodes 2..5 hops away (14 hops in all).
  // Collision domain of link (2,3): every link with an endpoint in {1, 2, 3, 4}, i.e.
  // all five, so 2 + 3 + 4 + 5 = 14 hops share one B: B/14.
  // Cliques (carrier sense to two hops): four consecutive links; the one nearest the
  // gateway, {(0,1) .. (3,4)}, carries 4 + 4 + 3 + 2 = 13 hops: B/13.
  // With contention only within transmission range, cliques of three links: the
  // first carries 4 + 4 + 3 = 11 hops: B/11.
  for (const int hops : {2, 1}) {
    Line g(6, hops);
    for (std::uint32_t n = 2; n <= 5; ++n) g.stream(n, 0);
    const CapacityResult cd = solve_capacity(g.p, CapacityModel::collision_domain);
    expect_rates(cd, {1.0 / 14, 1.0 / 14, 1.0 / 14, 1.0 / 14});
    EXPECT_NEAR(cd.u_opt_bps, kB, kTol);
    const CapacityResult cl = solve_capacity(g.p, CapacityModel::clique);
    const double share = hops == 2 ? 1.0 / 13 : 1.0 / 11;
    expect_rates(cl, {share, share, share, share});
    EXPECT_NEAR(cl.u_opt_bps, 14 * share * kB, kTol);
    EXPECT_NEAR(cl.u_opt_bps, u_opt(g.p, cl), kTol);
    // Every stream is frozen by the clique holding link (0,1).
    for (const auto& b : cl.bottleneck) {
      ASSERT_TRUE(b.has_value());
      const auto& links = cl.constraints[*b].links;
      EXPECT_TRUE(std::find(links.begin(), links.end(), g.link(1, 0)) != links.end());
    }
    // Cliques are maximal and counted once: links used are (1,0) .. (5,4); 2 cliques of
    // four consecutive links, or 3 of three.
    EXPECT_EQ(cl.constraints.size(), hops == 2 ? 2u : 3u);
  }
}

TEST(CapacityModel, TwoBottlenecksGiveUnequalShares) {
  // Node 0 = L1, node 1 = gateway, nodes 2..7 = R1..R6. Streams L1 -> G, R5 -> G,
  // R6 -> G. Collision domains: that of (R3,R2) holds R1..R5's links, 5 + 5 = 10
  // hops of the right streams only: B/10 each. Then L1 rises alone until the domain
  // of (R2,R1), {(L1,G), (G,R1) .. (R4,R3)}, is full: L1 + 4 B/10 + 4 B/10 = B,
  // L1 = B/5. Cliques (carrier sense to two hops: four consecutive links):
  // {(G,R1) .. (R3,R4)} holds 4 + 4 = 8 hops of the right streams: B/8 each; then L1
  // rises in {(L1,G), (G,R1), (R1,R2), (R2,R3)}, which holds L1 + 3 B/8 + 3 B/8:
  // L1 = B/4.
  Line g(8);
  const std::size_t l1 = g.stream(0, 1), r5 = g.stream(6, 1), r6 = g.stream(7, 1);
  const CapacityResult cd = solve_capacity(g.p, CapacityModel::collision_domain);
  EXPECT_NEAR(cd.rate_bps[l1], kB / 5, kTol);
  EXPECT_NEAR(cd.rate_bps[r5], kB / 10, kTol);
  EXPECT_NEAR(cd.rate_bps[r6], kB / 10, kTol);
  ASSERT_TRUE(cd.bottleneck[l1] && cd.bottleneck[r5]);
  EXPECT_NE(*cd.bottleneck[l1], *cd.bottleneck[r5]);
  EXPECT_EQ(*cd.bottleneck[r5], *cd.bottleneck[r6]);
  EXPECT_NEAR(cd.u_opt_bps, (1.0 / 5 + 5.0 / 10 + 6.0 / 10) * kB, kTol);
  const CapacityResult cl = solve_capacity(g.p, CapacityModel::clique);
  EXPECT_NEAR(cl.rate_bps[l1], kB / 4, kTol);
  EXPECT_NEAR(cl.rate_bps[r5], kB / 8, kTol);
  EXPECT_NEAR(cl.rate_bps[r6], kB / 8, kTol);
  // Feasible: M L R <= B under both models (Eq. 7).
  for (const CapacityResult* r : {&cd, &cl}) {
    const Eigen::MatrixXd ml = medium_usage(g.p, r->constraints) * link_usage(g.p);
    const Eigen::VectorXd rates = Eigen::Map<const Eigen::VectorXd>(r->rate_bps.data(), 3);
    EXPECT_LE((ml * rates).maxCoeff(), kB * (1 + 1e-9));
  }
}

TEST(CapacityModel, CliqueAndCollisionDomainDifferWhereDomainsOverCount) {
  // 001 A.2.2: a collision domain may hold links that do not contend. Line 0-1-2-3-4,
  // streams 0 -> 1 and 3 -> 4, contention within transmission range only: the two
  // links are 2 apart (nodes 1 and 3) and never contend, so each is a clique of its
  // own with all of B; the collision domain of (1,2) holds both: B/2 each.
  Line g(5, 1);
  g.stream(0, 1);
  g.stream(3, 4);
  expect_rates(solve_capacity(g.p, CapacityModel::collision_domain), {0.5, 0.5});
  const CapacityResult cl = solve_capacity(g.p, CapacityModel::clique);
  expect_rates(cl, {1.0, 1.0});
  EXPECT_EQ(cl.constraints.size(), 2u);
  EXPECT_NEAR(cl.u_opt_bps, 2 * kB, kTol);
  // With carrier sense to two hops they contend: one clique, B/2 each.
  Line h(5, 2);
  h.stream(0, 1);
  h.stream(3, 4);
  expect_rates(solve_capacity(h.p, CapacityModel::clique), {0.5, 0.5});
}

TEST(CapacityModel, CostsTheRoutesNeighbourhoodsNotLinksSquared) {
  // A line of 20,000 nodes (39,998 links) with one 3-hop stream at its start, and
  // contention given only for the links the stream uses: the domains of the far
  // links are never kept, and the answer is the short line's. (Pairing every link
  // with every other, as the model once did, is 1.6e9 pairs here.)
  CapacityProblem p;
  p.node_count = 20000;
  for (std::uint32_t i = 0; i + 1 < p.node_count; ++i) {
    p.links.push_back({i, i + 1, 0});
    p.links.push_back({i + 1, i, 0});
  }
  p.contention.assign(p.links.size(), {});
  p.routes = {{0, 2, 4}};  // 0 -> 1 -> 2 -> 3
  for (const std::size_t i : p.routes[0]) {
    for (const std::uint32_t j : {0u, 2u, 4u}) p.contention[i].push_back(j);
  }
  p.mac_capacity_bps = kB;
  for (const CapacityModel m : {CapacityModel::collision_domain, CapacityModel::clique}) {
    const CapacityResult r = solve_capacity(p, m);
    EXPECT_NEAR(r.rate_bps[0], kB / 3, kTol);
    // Only resources that hold a used link: the domains of the first few links.
    EXPECT_LE(r.constraints.size(), 6u);
  }
}

TEST(CapacityModel, InactiveStreamsGetZeroAndFreeTheirShare) {
  Line g(4);
  g.stream(0, 1);
  g.stream(0, 2);
  g.stream(0, 3);
  const bool active[] = {true, false, true};
  for (const CapacityModel m : {CapacityModel::collision_domain, CapacityModel::clique}) {
    const CapacityResult r = solve_capacity(g.p, m, active);
    expect_rates(r, {1.0 / 4, 0.0, 1.0 / 4});  // 1 + 3 hops share B
    EXPECT_FALSE(r.bottleneck[1].has_value());
    EXPECT_NEAR(r.u_opt_bps, kB, kTol);
    const std::vector<double> shares = fair_shares(g.p, m, active);
    EXPECT_EQ(shares, r.rate_bps);
  }
  const bool none[] = {false, false, false};
  expect_rates(solve_capacity(g.p, CapacityModel::clique, none), {0.0, 0.0, 0.0});
  EXPECT_THROW(solve_capacity(g.p, CapacityModel::clique, std::span<const bool>(active, 2)), std::invalid_argument);
}

TEST(CapacityModel, PerLinkCapacitiesTakeTheSlowestLink) {
  Line g(3);
  g.stream(1, 0);
  g.stream(2, 0);
  g.p.link_capacity_bps.assign(g.p.links.size(), kB);
  g.p.link_capacity_bps[g.link(2, 1)] = kB / 2;  // the far link runs at half the rate
  expect_rates(solve_capacity(g.p, CapacityModel::collision_domain), {1.0 / 6, 1.0 / 6});
}

TEST(CapacityModel, StreamWithoutWirelessHopIsUnconstrained) {
  Line g(3);
  g.stream(1, 0);
  g.p.routes.push_back({});
  const CapacityResult r = solve_capacity(g.p, CapacityModel::collision_domain);
  EXPECT_NEAR(r.rate_bps[0], kB, kTol);
  EXPECT_TRUE(std::isinf(r.rate_bps[1]));
  EXPECT_NEAR(r.u_opt_bps, kB, kTol);
}

TEST(CapacityModel, MatricesFollowTheDefinitions) {
  Line g(3);
  g.stream(2, 0);
  const Eigen::MatrixXd l = link_usage(g.p);
  ASSERT_EQ(l.rows(), 4);
  ASSERT_EQ(l.cols(), 1);
  EXPECT_EQ(l(static_cast<Eigen::Index>(g.link(2, 1)), 0), 1.0);
  EXPECT_EQ(l(static_cast<Eigen::Index>(g.link(1, 0)), 0), 1.0);
  EXPECT_EQ(l.sum(), 2.0);
  const auto c = medium_constraints(g.p, CapacityModel::clique);
  ASSERT_EQ(c.size(), 1u);  // the two used links share node 1
  EXPECT_EQ(c[0].links.size(), 2u);
  EXPECT_EQ(medium_usage(g.p, c).sum(), 2.0);
}

TEST(CapacityModel, BadProblemsAreRefusedWithAReason) {
  Line g(3);
  g.stream(1, 0);
  CapacityProblem p = g.p;
  p.routes.push_back({99});
  try {
    solve_capacity(p, CapacityModel::collision_domain);
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("link 99"), std::string::npos) << e.what();
  }
  p = g.p;
  p.contention.clear();
  EXPECT_THROW(solve_capacity(p, CapacityModel::clique), std::invalid_argument);
  EXPECT_NO_THROW(solve_capacity(p, CapacityModel::collision_domain));
  p = g.p;
  p.mac_capacity_bps = 0;
  EXPECT_THROW(solve_capacity(p, CapacityModel::collision_domain), std::invalid_argument);
}

TEST(CapacityModel, OneHopCapacityIsBianchiForOneStation) {
  // 802.11b at 1 Mbit/s, DCF: one station sends back to back with a mean backoff of
  // (W - 1) / 2 = 15.5 slots: S = payload / (T_s + 15.5 sigma + sigma) in Bianchi's
  // slot accounting (the idle slot counts the transmission slot too; bianchi.hpp).
  const phy::PhyProfile profile = phy::profile_80211b();
  const phy::Mcs* one = &phy::kDsssMcs[0];
  ASSERT_EQ(one->rate_bps, 1'000'000);
  MacParams mac;
  const double b = one_hop_mac_capacity_bps(profile, *one, *one, MacType::dcf, mac, 1000, 40);
  const ExchangeTimes t = exchange_times(profile, *one, *one, 1040, Time::zero(), CollisionGap::difs);
  const Saturation s = saturation(backoff_chain(32, 1024, 7), 1, slot_durations(AccessMode::basic, t), 8000.0);
  EXPECT_DOUBLE_EQ(b, s.throughput_bps);
  // About 0.84 of the link rate: a 1040-byte packet takes 8.5 ms of 9.5 ms.
  EXPECT_GT(b, 0.80e6);
  EXPECT_LT(b, 0.88e6);
  // RTS/CTS costs airtime; a larger window costs idle slots.
  mac.rts_threshold_bytes = 0;
  EXPECT_LT(one_hop_mac_capacity_bps(profile, *one, *one, MacType::dcf, mac, 1000, 40), b);
  mac.rts_threshold_bytes.reset();
  mac.cw_min = 64;
  EXPECT_LT(one_hop_mac_capacity_bps(profile, *one, *one, MacType::dcf, mac, 1000, 40), b);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::control
