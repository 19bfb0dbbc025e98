// 001's capacity models on whole scenarios (scenario/capacity_problem.hpp,
// analysis/capacity_report.hpp): links, routes and contention from the PHY and the
// routing, B from Bianchi's model, the shares of the shipped 001 chains.

#include "analysis/capacity_report.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include "control/capacity_model.hpp"
#include "core/input_error.hpp"
#include "core/simulation.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"
#include "runner/network_links.hpp"
#include "scenario/capacity_problem.hpp"
#include "scenario/phy_builder.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

Scenario jamshaid(const std::string& file) {
  return load_scenario_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios" / "jamshaid" / file);
}

double bianchi_1mbps_1000_bytes_tcp() {
  return control::one_hop_mac_capacity_bps(phy::profile_80211b(), phy::kDsssMcs[0], phy::kDsssMcs[0], MacType::dcf,
                                           MacParams{}, 1000, 40);
}

TEST(CapacityReport, ThreeHopParkingLotSharesOneSixthOfB) {
  // chain_1mbps: internet -> n1, n2, n3 through gateway n0, 200 m spacing, 250 m
  // decoding: the wired hop is not in the model; 1 + 2 + 3 wireless hops in one
  // collision domain and (550 m sensing) one clique: B/6 each under both models.
  const nlohmann::ordered_json r = capacity_report(jamshaid("chain_1mbps.json"));
  const double b = r["b"]["mac_capacity_bps"].get<double>();
  EXPECT_EQ(r["b"]["source"], "bianchi");
  EXPECT_DOUBLE_EQ(b, bianchi_1mbps_1000_bytes_tcp());
  EXPECT_EQ(r["b"]["payload_bytes"], 1000);
  EXPECT_EQ(r["b"]["header_bytes"], 40);
  EXPECT_EQ(r["links"], 6);  // n0-n1, n1-n2, n2-n3, both ways
  const auto& flows = r["flows"];
  ASSERT_EQ(flows.size(), 3u);
  for (std::size_t f = 0; f < 3; ++f) {
    EXPECT_EQ(flows[f]["hops"], f + 1);
    EXPECT_EQ(flows[f]["route"].front(), "n0");
    EXPECT_TRUE(flows[f]["active"].get<bool>());
    EXPECT_NEAR(flows[f]["collision_domain_bps"].get<double>(), b / 6, 1e-6);
    EXPECT_NEAR(flows[f]["clique_bps"].get<double>(), b / 6, 1e-6);
  }
  EXPECT_EQ(flows[2]["route"], nlohmann::ordered_json({"n0", "n1", "n2", "n3"}));
  EXPECT_NEAR(r["models"]["collision_domain"]["u_opt_bps"].get<double>(), b, 1e-6);
  EXPECT_EQ(r["models"]["clique"]["constraints"].size(), 1u);
}

TEST(CapacityReport, SevenHopChainFollowsTheActiveFlows) {
  // chain7_short_lived: flows 1->0, 0->5, 0->7, 3->0, 0->6 (22 hops), then 1->0 and 0->5
  // stop at 150 s, 0->7 at 200 s, and 1->0, 0->7 come back at 250 s. By hand: the
  // collision domain of link (n2,n3) holds the links n0..n5, every hop of the flows
  // within 5 hops of the gateway and 5 of the longer ones: 1 + 5 + 5 + 3 + 5 = 19 at
  // first; the clique {(n0,n1) .. (n3,n4)} (sensing reaches 400 m, not 600) holds
  // 1 + 4 + 4 + 3 + 4 = 16. Later: 5 + 3 + 5 = 13 and 4 + 3 + 4 = 11; 3 + 5 = 8 and
  // 3 + 4 = 7; 3 + 5 + 1 + 5 = 14 and 3 + 4 + 1 + 4 = 12.
  const Scenario s = jamshaid("chain7_short_lived.json");
  struct Case {
    double at_s;
    double cd, clique;  // the active flows' share, as a fraction of B
  };
  for (const Case c : {Case{0, 1.0 / 19, 1.0 / 16}, Case{175, 1.0 / 13, 1.0 / 11}, Case{225, 1.0 / 8, 1.0 / 7},
                       Case{275, 1.0 / 14, 1.0 / 12}}) {
    CapacityReportOptions o;
    o.at = Time::from_seconds(c.at_s);
    const nlohmann::ordered_json r = capacity_report(s, o);
    const double b = r["b"]["mac_capacity_bps"].get<double>();
    for (const auto& f : r["flows"]) {
      const bool on = f["active"].get<bool>();
      EXPECT_NEAR(f["collision_domain_bps"].get<double>(), on ? c.cd * b : 0.0, 1e-6) << c.at_s << " " << f["id"];
      EXPECT_NEAR(f["clique_bps"].get<double>(), on ? c.clique * b : 0.0, 1e-6) << c.at_s << " " << f["id"];
    }
  }
}

TEST(CapacityProblem, MoreDomainWorkThanTheCapIsAnInputError) {
  // The bound on the collision domains' work (kMaxCapacityDomainVisits) lowered
  // below the chain's is refused with what to do, before any domain is found.
  const Scenario s = jamshaid("chain7_short_lived.json");
  Simulation sim(s.simulation.seed, s.name, spdlog::level::off);
  const phy::PhyNetwork net = phy::build_phy(sim, s);
  const Routing routing = compute_routing(s, routing_links(s, net));
  EXPECT_EQ(capacity_problem(s, net, routing).problem.links.size(), 14u);
  try {
    capacity_problem(s, net, routing, {}, 10);
    ADD_FAILURE() << "no error";
  } catch (const ScenarioError& e) {
    ASSERT_EQ(e.issues().size(), 1u);
    EXPECT_NE(e.issues()[0].message.find("link visits (14 links)"), std::string::npos) << e.issues()[0].message;
    EXPECT_NE(e.issues()[0].message.find("fair_rate_bps"), std::string::npos);
  }
}

TEST(CapacityProblem, ASparseNetworkBeyondTheOldLinkCap) {
  // 80 x 80 nodes 200 m apart (range model, 250 m decoding): 25,280 links, past the
  // 20,000 the model once refused because it paired every link with every other.
  // Four flows from the corners to the centre's gateway.
  nlohmann::json doc = {
      {"simulation", {{"duration_s", 1}, {"seed", 1}}},
      {"phy", {{"standard", "802.11b"}, {"data_rate_bps", 11e6}, {"basic_rate_bps", 2e6}}},
      {"propagation", {{"model", "range"}, {"rx_range_m", 250}, {"cs_range_m", 550}}},
      {"nodes", nlohmann::json::array()},
      {"flows", nlohmann::json::array()},
  };
  const int side = 80;
  for (int i = 0; i < side * side; ++i) {
    nlohmann::json node = {{"id", "n" + std::to_string(i)}, {"position_m", {200 * (i % side), 200 * (i / side)}}};
    if (i == side * side / 2 + side / 2) node["role"] = "gateway";
    doc["nodes"].push_back(node);
  }
  for (const int corner : {0, side - 1, side * (side - 1), side * side - 1}) {
    doc["flows"].push_back({{"id", "f" + std::to_string(corner)}, {"transport", "udp"},
                            {"src", "n" + std::to_string(corner)}, {"dst", "@gateway"}});
  }
  const Scenario s = parse_scenario(doc);
  Simulation sim(s.simulation.seed, s.name, spdlog::level::off);
  const phy::PhyNetwork net = phy::build_phy(sim, s);
  const Routing routing = compute_routing(s, routing_links(s, net));
  const ScenarioCapacity sc = capacity_problem(s, net, routing);
  EXPECT_EQ(sc.problem.links.size(), 4u * side * (side - 1));
  // Contention is found for the routes' links only.
  std::size_t rows = 0;
  for (const auto& row : sc.problem.contention) rows += row.empty() ? 0 : 1;
  std::set<std::size_t> used;
  for (const auto& route : sc.problem.routes) used.insert(route.begin(), route.end());
  EXPECT_EQ(rows, used.size());
  EXPECT_GE(used.size(), 4u * 39);  // each corner is at least 39 hops out
  for (const CapacityModel m : {CapacityModel::collision_domain, CapacityModel::clique}) {
    const std::vector<double> shares = control::fair_shares(sc.problem, m, std::vector<bool>{});
    ASSERT_EQ(shares.size(), 4u);
    for (const double r : shares) EXPECT_GT(r, 0.0) << static_cast<int>(m);
  }
}

TEST(CapacityProblem, ContentionFromThePhy) {
  const Scenario s = jamshaid("chain7_short_lived.json");
  Simulation sim(s.simulation.seed, s.name, spdlog::level::off);
  const phy::PhyNetwork net = phy::build_phy(sim, s);
  const Routing routing = compute_routing(s, routing_links(s, net));
  const ScenarioCapacity sc = capacity_problem(s, net, routing);
  const auto& p = sc.problem;
  // By chain position: n<i> (the wired host is a node too, so indices are not positions).
  const auto link = [&](int i, int j) {
    const auto a = static_cast<std::uint32_t>(*s.find_node("n" + std::to_string(i)));
    const auto b = static_cast<std::uint32_t>(*s.find_node("n" + std::to_string(j)));
    for (std::size_t l = 0; l < p.links.size(); ++l) {
      if (p.links[l].from == a && p.links[l].to == b) return l;
    }
    throw std::logic_error("no link " + std::to_string(a) + " -> " + std::to_string(b));
  };
  EXPECT_EQ(p.links.size(), 14u);  // neighbours only: 400 m is beyond the 250 m decoding range
  EXPECT_TRUE(p.contend(link(0, 1), link(1, 2)));   // share n1
  EXPECT_TRUE(p.contend(link(0, 1), link(3, 4)));   // n1 and n3: 400 m, sensed
  EXPECT_FALSE(p.contend(link(0, 1), link(4, 5)));  // n1 and n4: 600 m
  EXPECT_TRUE(p.contend(link(4, 5), link(1, 2)));   // symmetric: n4 and n2
  // Routes in the data direction: 0 -> 5 leaves the gateway.
  const std::size_t f05 = *s.find_flow("0to5");
  ASSERT_EQ(p.routes[f05].size(), 5u);
  EXPECT_EQ(p.routes[f05].front(), link(0, 1));
  EXPECT_EQ(p.routes[f05].back(), link(4, 5));
  // All flows active at 0 s but the two that start at 250 s.
  const std::vector<bool> at0 = active_flows(s, Time::zero());
  EXPECT_EQ(std::count(at0.begin(), at0.end(), true), 5);
  EXPECT_FALSE(at0[*s.find_flow("1to0_again")]);
  EXPECT_TRUE(active_flows(s, Time::s(260))[*s.find_flow("1to0_again")]);
  EXPECT_FALSE(active_flows(s, Time::s(150))[*s.find_flow("1to0")]);  // stop is exclusive
}

TEST(CapacityProblem, GivenCapacityReplacesBianchi) {
  CapacityReportOptions o;
  o.capacity.mac_capacity_bps = 750e3;  // 001 Sec. 5.3: 125 kbit/s each in the 3-hop lot
  const nlohmann::ordered_json r = capacity_report(jamshaid("chain_1mbps.json"), o);
  EXPECT_EQ(r["b"]["source"], "given");
  for (const auto& f : r["flows"]) EXPECT_NEAR(f["collision_domain_bps"].get<double>(), 125e3, 1e-6);
  o.capacity.mac_capacity_bps = -1;
  EXPECT_THROW(capacity_report(jamshaid("chain_1mbps.json"), o), std::invalid_argument);
}

TEST(CapacityProblem, AutoRateGivesEachLinkItsOwnB) {
  // "auto" needs sinr reception, under which 24.5 dBm reaches every node of the chain
  // at 11 Mbit/s: 12 links, every flow one hop, one collision domain: B/3 each, B
  // from Bianchi at each link's rate.
  Scenario s = parse_scenario(apply_overrides(jamshaid("chain_1mbps.json").document,
                                              {"/phy/data_rate_bps=\"auto\"", "/phy/reception={\"model\": \"sinr\"}"}));
  const nlohmann::ordered_json r = capacity_report(s);
  EXPECT_EQ(r["b"]["source"], "bianchi_per_link");
  ASSERT_EQ(r["links"], 12);
  ASSERT_EQ(r["b"]["per_link"].size(), 12u);
  const double b11 = control::one_hop_mac_capacity_bps(phy::profile_80211b(), phy::kDsssMcs[3], phy::kDsssMcs[0],
                                                       MacType::dcf, MacParams{}, 1000, 40);
  for (const auto& l : r["b"]["per_link"]) EXPECT_DOUBLE_EQ(l["mac_capacity_bps"].get<double>(), b11);
  for (const auto& f : r["flows"]) {
    EXPECT_EQ(f["hops"], 1);
    EXPECT_NEAR(f["collision_domain_bps"].get<double>(), b11 / 3, 1e-6);
  }
}

TEST(CapacityProblem, AMeasuredBIsMeasuredOncePerDistinctLinkRate) {
  // At 10 dBm under sinr the chain's "auto" links run at 11 or 2 Mbit/s: each rate
  // is measured once, and each link takes its own rate's B (a stand-in measurement
  // here: a tenth of the rate; runner/one_hop_capacity.hpp runs the real one).
  Scenario s = parse_scenario(apply_overrides(
      jamshaid("chain_1mbps.json").document,
      {"/phy/data_rate_bps=\"auto\"", "/phy/reception={\"model\": \"sinr\"}", "/phy/tx_power_dbm=10"}));
  std::vector<std::optional<double>> asked;
  CapacityReportOptions o;
  o.capacity.measured_mac_capacity_bps = [&asked](std::optional<double> rate) {
    asked.push_back(rate);
    return rate.value_or(0.0) / 10;
  };
  const nlohmann::ordered_json r = capacity_report(s, o);
  EXPECT_EQ(r["b"]["source"], "measured_per_link");
  ASSERT_EQ(asked.size(), 2u);
  std::sort(asked.begin(), asked.end());
  EXPECT_EQ(asked[0], 2e6);
  EXPECT_EQ(asked[1], 11e6);
  std::set<double> per_link;
  for (const auto& l : r["b"]["per_link"]) per_link.insert(l["mac_capacity_bps"].get<double>());
  EXPECT_EQ(per_link, (std::set<double>{2e5, 1.1e6}));
  EXPECT_EQ(r["b"]["mac_capacity_bps"], 1.1e6);  // the fastest shown, as with Bianchi's per link
  // At a fixed rate: one measurement, asked for the scenario's own rate (empty).
  asked.clear();
  o.capacity.measured_mac_capacity_bps = [&asked](std::optional<double> rate) {
    asked.push_back(rate);
    return 700e3;
  };
  const nlohmann::ordered_json fixed = capacity_report(jamshaid("chain_1mbps.json"), o);
  EXPECT_EQ(fixed["b"]["source"], "measured");
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_FALSE(asked[0].has_value());
  for (const auto& f : fixed["flows"]) EXPECT_NEAR(f["collision_domain_bps"].get<double>(), 700e3 / 6, 1e-6);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
