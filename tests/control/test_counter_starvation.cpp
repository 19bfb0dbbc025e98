// The controller interface, the registry, and the counter-starvation policy (000
// Sec. 5.6): which nodes it finds from the routing, what it changes, start/stop,
// and that it gives the flagship's starved two-hop flow a share back.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "control/congestion_notification_params.hpp"
#include "control/controller_registry.hpp"
#include "control/counter_starvation.hpp"
#include "core/not_supported.hpp"
#include "scenario/scenario.hpp"
#include "runner/network.hpp"
#include "runner/run_scenario.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// 000 Fig. 37: a gateway with three branches; each branch's one-hop node feeds two
// two-hop nodes. Range model: 200 m hops are decodable (250 m), the gateway does
// not reach the two-hop nodes (283 m and more).
nlohmann::json tree(const nlohmann::json& controllers, const std::string& mac_type = "dcf") {
  nlohmann::json doc = {
      {"simulation", {{"duration_s", 1}, {"seed", 1}}},
      {"phy", {{"standard", "802.11b"}, {"data_rate_bps", 11e6}, {"basic_rate_bps", 2e6}}},
      {"propagation", {{"model", "range"}, {"rx_range_m", 250}, {"cs_range_m", 300}}},
      {"mac", {{"type", mac_type}}},
      {"nodes", {{{"id", "GW"}, {"position_m", {0, 0}}, {"role", "gateway"}}}},
      {"controllers", controllers},
  };
  const double pi = 3.14159265358979;
  for (int b = 0; b < 3; ++b) {
    const double a = 2 * pi * b / 3;
    const std::string one = "b" + std::to_string(b);
    doc["nodes"].push_back({{"id", one}, {"position_m", {200 * std::cos(a), 200 * std::sin(a)}}});
    for (int k = 0; k < 2; ++k) {
      const double a2 = a + (k == 0 ? -0.5 : 0.5);
      const std::string two = one + "_" + std::to_string(k);
      doc["nodes"].push_back(
          {{"id", two}, {"position_m", {200 * std::cos(a) + 200 * std::cos(a2), 200 * std::sin(a) + 200 * std::sin(a2)}}});
      doc["flows"].push_back({{"id", two + "_up"}, {"transport", "tcp"}, {"src", two}, {"dst", "GW"}});
    }
    doc["flows"].push_back({{"id", one + "_up"}, {"transport", "tcp"}, {"src", one}, {"dst", "GW"}});
  }
  return doc;
}

int cw_min_of(const Network& net, const Scenario& s, const std::string& node,
              AccessCategory ac = AccessCategory::ac_be) {
  return net.macs().node_macs.at(*s.find_node(node), 0)->params(ac).cw_min;
}

TEST(CounterStarvation, RaisesCwMinOfTheGatewaysOneHopNeighboursOnly) {
  const Scenario s = parse_scenario(tree(nlohmann::json::parse(R"([{"type": "counter_starvation"}])")));
  Simulation sim(s.simulation.seed);
  Network net(sim, s);
  for (const char* one : {"b0", "b1", "b2"}) EXPECT_EQ(cw_min_of(net, s, one), 128) << one;
  for (const char* two : {"b0_0", "b0_1", "b1_0", "b1_1", "b2_0", "b2_1", "GW"}) {
    EXPECT_EQ(cw_min_of(net, s, two), 32) << two;
  }
  const auto stats = net.controller(0).statistics();
  ASSERT_EQ(stats["changed"].size(), 3u);
  EXPECT_EQ(stats["changed"][0]["cw_min_before"], 32);
  EXPECT_EQ(stats["changed"][0]["cw_min_after"], 128);
  EXPECT_EQ(stats["changed"][0]["gateway"], "GW");
}

TEST(CounterStarvation, FactorAndAbsoluteWindow) {
  {
    const Scenario s = parse_scenario(tree(nlohmann::json::parse(R"([{"type": "counter_starvation", "cw_min_factor": 8}])")));
    Simulation sim(1);
    Network net(sim, s);
    EXPECT_EQ(cw_min_of(net, s, "b1"), 256);
  }
  {
    const Scenario s = parse_scenario(tree(nlohmann::json::parse(R"([{"type": "counter_starvation", "cw_min": 64}])")));
    Simulation sim(1);
    Network net(sim, s);
    EXPECT_EQ(cw_min_of(net, s, "b1"), 64);
    EXPECT_EQ(cw_min_of(net, s, "b1_1"), 32);
  }
}

TEST(CounterStarvation, UnderEdcaOnlyTheChosenCategories) {
  const Scenario s = parse_scenario(
      tree(nlohmann::json::parse(R"([{"type": "counter_starvation", "access_categories": ["ac_be"]}])"), "edca"));
  Simulation sim(1);
  Network net(sim, s);
  const int be = s.mac.params.ac(AccessCategory::ac_be).cw_min, vo = s.mac.params.ac(AccessCategory::ac_vo).cw_min;
  EXPECT_EQ(cw_min_of(net, s, "b2", AccessCategory::ac_be), 4 * be);
  EXPECT_EQ(cw_min_of(net, s, "b2", AccessCategory::ac_vo), vo);
  EXPECT_EQ(cw_min_of(net, s, "b2_0", AccessCategory::ac_be), be);
}

// Finding the gateway's one-hop neighbours asks the routing for the gateway's
// route only to the nodes its radios hear: one routing column per such node, not
// one per node (10,000 nodes would be 10^4 shortest-path runs and 400 MB of columns).
TEST(CounterStarvation, LooksUpRoutesOnlyToNodesTheGatewayHears) {
  nlohmann::json doc = {
      {"simulation", {{"duration_s", 1}, {"seed", 1}}},
      {"phy", {{"standard", "802.11b"}, {"data_rate_bps", 11e6}, {"basic_rate_bps", 2e6}}},
      {"propagation", {{"model", "range"}, {"rx_range_m", 250}, {"cs_range_m", 300}}},
      {"nodes", nlohmann::json::array({{{"id", "GW"}, {"position_m", {0, 0}}, {"role", "gateway"}}})},
      {"flows", nlohmann::json::array({{{"id", "f"}, {"transport", "udp"}, {"src", "n5"}, {"dst", "GW"}}})},
      {"controllers", nlohmann::json::parse(R"([{"type": "counter_starvation"}])")},
  };
  const int nodes = 2000;  // a chain 200 m apart: each hears only the next and the previous
  for (int i = 1; i < nodes; ++i) doc["nodes"].push_back({{"id", "n" + std::to_string(i)}, {"position_m", {200 * i, 0}}});
  const Scenario s = parse_scenario(doc);
  Simulation sim(1);
  Network net(sim, s);
  EXPECT_EQ(cw_min_of(net, s, "n1"), 128);
  EXPECT_EQ(cw_min_of(net, s, "n2"), 32);
  // The gateway's column (the flow's and the up routes') and n1's (the only node it hears).
  EXPECT_LE(net.routing().tables.columns_in_use(), 2u);
}

TEST(CounterStarvation, AccessCategoriesNeedEdca) {
  try {
    (void)parse_scenario(tree(nlohmann::json::parse(R"([{"type": "counter_starvation", "access_categories": ["ac_be"]}])")));
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("/controllers/0/access_categories: DCF has a single category"),
              std::string::npos)
        << e.what();
  }
}

TEST(CounterStarvation, ActsBetweenStartAndStop) {
  const Scenario s = parse_scenario(
      tree(nlohmann::json::parse(R"([{"type": "counter_starvation", "start_s": 0.2, "stop_s": 0.5}])")));
  Simulation sim(1);
  Network net(sim, s);
  EXPECT_EQ(cw_min_of(net, s, "b0"), 32);
  sim.run_until(Time::ms(300));
  EXPECT_EQ(cw_min_of(net, s, "b0"), 128);
  sim.run_until(Time::ms(600));
  EXPECT_EQ(cw_min_of(net, s, "b0"), 32);
}

TEST(ControllerRegistry, ParseOnlyTypesAreRefusedWithTheirPath) {
  nlohmann::json doc = tree(nlohmann::json::parse(R"([{"type": "counter_starvation"}, {"type": "tcc"}])"), "edca");
  const Scenario s = parse_scenario(doc);
  // A registry where tcc is parsed but not simulated (as a new entry starts out).
  control::ControllerRegistry registry = control::ControllerRegistry::with_builtins();
  control::ControllerEntry parse_only = control::tcc_entry();
  parse_only.build = nullptr;
  registry.add(std::move(parse_only));
  Simulation sim(1);
  try {
    Network net(sim, s, registry);
    FAIL() << "expected NotSupportedError";
  } catch (const NotSupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("/controllers/1/type: \"tcc\" is not simulated yet"), std::string::npos)
        << e.what();
  }
}

// A controller from outside the library, plugged in by name: every timer tick it
// counts, and at start it halves the gateway's CWmin.
class Probe final : public control::Controller {
 public:
  using Controller::Controller;
  void start() override {
    auto& gw = *context().macs.at(*context().find_node("GW"), 0);
    gw.set_cw_min(AccessCategory::ac_be, 16);
    every(Time::ms(100), [this] { ++ticks_; });
  }
  nlohmann::ordered_json statistics() const override { return {{"ticks", ticks_}}; }

 private:
  int ticks_ = 0;
};

TEST(ControllerRegistry, AControllerPlugsInByNameWithTimersAndStatistics) {
  control::ControllerRegistry registry = control::ControllerRegistry::with_builtins();
  registry.add("edca_txop", [](const ControllerConfig& c, control::ControlContext& ctx) {
    return std::make_unique<Probe>(c, ctx);
  });
  EXPECT_TRUE(registry.has("counter_starvation"));
  const Scenario s = parse_scenario(
      tree(nlohmann::json::parse(R"([{"type": "edca_txop", "id": "probe", "stop_s": 0.55}])"), "edca"));
  Simulation sim(1);
  Network net(sim, s, registry);
  EXPECT_EQ(cw_min_of(net, s, "GW"), 16);
  sim.run_until(Time::s(1));
  EXPECT_EQ(net.controller(0).id(), "probe");
  EXPECT_EQ(net.controller(0).statistics()["ticks"], 5);  // 0.1 .. 0.5 s; stopped at 0.55
}

TEST(CounterStarvation, GivesTheFlagshipsTwoHopFlowItsShareBack) {
  // 000 Sec. 6.2.1: with the policy (CWmin 128 at B) the two-hop flow is no longer
  // starved; without it it gets under a tenth of the one-hop flow (test_network).
  nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/two_hop_chain_tcp.json");
  doc["simulation"]["duration_s"] = 30;
  doc["controllers"] = nlohmann::json::parse(R"([{"type": "counter_starvation"}])");
  const Results r = run_scenario(parse_scenario(doc));
  double two_hop = 0, one_hop = 0;
  for (const auto& f : r.flows) (flow_column::id.of(f) == "A_to_GW" ? two_hop : one_hop) = flow_column::goodput_bps.of(f);
  EXPECT_GT(two_hop, 0.2 * one_hop);
  EXPECT_GT(summary_column::jain_fairness_index.of(r.summary), 0.75);
  ASSERT_EQ(r.controllers.size(), 1u);
  EXPECT_EQ(controller_column::statistics.cell(r.controllers[0])["changed"][0]["node"], "B");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
