// Valid scenarios: defaults, overrides merged per node, generated nodes, and every
// scenario file in the repository.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

#include "control/congestion_notification_params.hpp"
#include "control/counter_starvation_params.hpp"
#include "control/gateway_rate_control_params.hpp"
#include "control/wccp_params.hpp"
#include "core/random.hpp"
#include "scenario/scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using nlohmann::json;
using namespace time_literals;
using test::minimal_scenario;

Scenario parse_or_fail(const json& doc) {
  try {
    return parse_scenario(doc);
  } catch (const ScenarioError& e) {
    ADD_FAILURE() << "unexpected issues:\n" << e.what();
    return {};
  }
}

double distance(const Scenario& s, std::size_t a, std::size_t b) {
  const Position& p = *s.nodes[a].position;
  const Position& q = *s.nodes[b].position;
  return std::hypot(p.x_m - q.x_m, p.y_m - q.y_m, p.z_m - q.z_m);
}

TEST(ScenarioDefaults, MinimalScenarioGetsEveryDefault) {
  const Scenario s = parse_or_fail(minimal_scenario());
  EXPECT_EQ(s.simulation.duration, 10_s);
  EXPECT_EQ(s.simulation.warmup, Time::zero());
  EXPECT_EQ(s.simulation.seed, 1u);
  EXPECT_EQ(s.simulation.measurement_interval, 1_s);
  EXPECT_EQ(s.timeseries, std::vector<std::string>{"flow_goodput"});

  EXPECT_EQ(s.phy.standard, PhyStandard::dot11b);
  EXPECT_EQ(s.phy.data_rate_bps, 11e6);
  EXPECT_EQ(s.phy.basic_rate_bps, 1e6);
  EXPECT_EQ(s.phy.preamble, phy::Preamble::Long);
  EXPECT_EQ(s.phy.slot, 20_us);
  EXPECT_EQ(s.phy.sifs, 10_us);
  EXPECT_EQ(s.phy.channel, 6);
  EXPECT_EQ(s.phy.reception.model, ReceptionModel::sinr);
  EXPECT_FALSE(s.phy.reception.rx_sensitivity_dbm.has_value());

  EXPECT_EQ(s.propagation.model, PropagationModel::log_distance);
  EXPECT_EQ(s.propagation.exponent, 3.0);
  EXPECT_EQ(s.propagation.shadowing.sigma_db, 0.0);

  EXPECT_EQ(s.mac.type, MacType::dcf);
  EXPECT_EQ(s.mac.params.cw_min, 32);
  EXPECT_EQ(s.mac.params.cw_max, 1024);
  EXPECT_EQ(s.mac.params.short_retry_limit, 7);
  EXPECT_EQ(s.mac.params.long_retry_limit, 4);
  EXPECT_FALSE(s.mac.params.rts_threshold_bytes.has_value());
  EXPECT_EQ(s.mac.params.queue.unit, link::QueueLimit::Unit::packets);
  EXPECT_EQ(s.mac.params.queue.capacity, 50);

  ASSERT_EQ(s.nodes.size(), 3u);
  EXPECT_EQ(s.nodes[0].role, NodeRole::mesh);
  EXPECT_EQ(s.nodes[2].role, NodeRole::gateway);
  EXPECT_EQ(s.nodes[1].defined_at(), "/nodes/1");
  ASSERT_EQ(s.nodes[0].radios.size(), 1u);
  EXPECT_EQ(s.nodes[0].radios[0].channel, 6);
  EXPECT_EQ(s.nodes[0].radios[0].tx_power_dbm, 20.0);
  EXPECT_EQ(s.nodes[0].radios[0].mac->cw_min, 32);

  EXPECT_EQ(s.routing.type, RoutingType::automatic);
  EXPECT_EQ(s.routing.metric, RoutingMetric::hop_count);
  EXPECT_TRUE(s.links.empty());
  EXPECT_TRUE(s.controllers.empty());

  ASSERT_EQ(s.flows.size(), 1u);
  const FlowConfig& f = s.flows[0];
  EXPECT_EQ(f.transport_name, "tcp");
  EXPECT_EQ(f.src, 0u);
  EXPECT_EQ(f.dst, 2u);
  EXPECT_EQ(f.start, Time::zero());
  EXPECT_FALSE(f.stop.has_value());
  EXPECT_EQ(f.payload_bytes, 1460);
  EXPECT_EQ(f.traffic.type, TrafficType::saturated);
  EXPECT_EQ(f.params_as<TcpConfig>().variant, TcpVariant::newreno);
  EXPECT_FALSE(f.params_as<TcpConfig>().delayed_ack);
  EXPECT_EQ(f.params_as<TcpConfig>().min_rto, 200_ms);
  EXPECT_EQ(f.params_as<TcpConfig>().window_packets, 64);
  EXPECT_EQ(s.document, minimal_scenario());
}

TEST(ScenarioDefaults, OfdmStandardsChangeTimingWindowsAndChannel) {
  json doc = minimal_scenario();
  doc["phy"] = {{"standard", "802.11a"}};
  doc["mac"] = {{"type", "edca"}};
  const Scenario s = parse_or_fail(doc);
  EXPECT_EQ(s.phy.data_rate_bps, 54e6);
  EXPECT_EQ(s.phy.basic_rate_bps, 6e6);
  EXPECT_EQ(s.phy.slot, 9_us);
  EXPECT_EQ(s.phy.sifs, 16_us);
  EXPECT_EQ(s.phy.channel, 36);
  // 802.11-2007 EDCA defaults, as window sizes (aCWmin + 1 = 16 for OFDM).
  const MacParams& m = s.mac.params;
  EXPECT_EQ(m.ac(AccessCategory::ac_be).aifsn, 3);
  EXPECT_EQ(m.ac(AccessCategory::ac_be).cw_min, 16);
  EXPECT_EQ(m.ac(AccessCategory::ac_bk).aifsn, 7);
  EXPECT_EQ(m.ac(AccessCategory::ac_vi).cw_min, 8);
  EXPECT_EQ(m.ac(AccessCategory::ac_vi).txop.time, 3008_us);
  EXPECT_EQ(m.ac(AccessCategory::ac_vo).cw_min, 4);
  EXPECT_EQ(m.ac(AccessCategory::ac_vo).cw_max, 8);
  EXPECT_EQ(m.ac(AccessCategory::ac_vo).txop.time, 1504_us);
  // Unnamed categories leave the packets untagged: the MAC's classifier decides
  // (AC_BE unless a controller such as 002's ACK priority routes them elsewhere).
  EXPECT_FALSE(s.flows[0].access_category.has_value());
  EXPECT_FALSE(s.flows[0].ack_access_category.has_value());
}

TEST(ScenarioDefaults, RangeModelImpliesThresholdReception) {
  json doc = minimal_scenario();
  doc["propagation"] = {{"model", "range"}, {"rx_range_m", 120}};
  const Scenario s = parse_or_fail(doc);
  EXPECT_EQ(s.phy.reception.model, ReceptionModel::threshold);
  EXPECT_EQ(s.propagation.rx_range_m, 120.0);
  EXPECT_EQ(s.propagation.cs_range_m, 550.0);
  EXPECT_EQ(s.propagation.interference_range_m, 550.0);  // follows cs_range_m
}

TEST(ScenarioDefaults, Ns2ReceptionAndThePhyOptionKeys) {
  json doc = minimal_scenario();
  doc["phy"] = {{"tx_power_dbm", 24.5}, {"reception", {{"model", "ns2"}, {"signal_floor_dbm", -90}}}};
  doc["propagation"] = {{"model", "two_ray"}, {"frequency_hz", 914e6}};
  Scenario s = parse_or_fail(doc);
  EXPECT_EQ(s.phy.reception.model, ReceptionModel::ns2);
  EXPECT_EQ(s.phy.reception.signal_floor_dbm, -90.0);
  EXPECT_FALSE(s.phy.reception.preamble_detection_snr_db.has_value());
  EXPECT_EQ(s.propagation.frequency_hz, 914e6);
  // Defaults: no SINR condition on preambles, the floor from the noise, the channel's frequency.
  s = parse_or_fail(minimal_scenario());
  EXPECT_FALSE(s.phy.reception.signal_floor_dbm.has_value());
  EXPECT_FALSE(s.propagation.frequency_hz.has_value());
  doc = minimal_scenario();
  doc["phy"] = {{"reception", {{"preamble_detection_snr_db", 4}}}};
  doc["propagation"] = {{"reference_gain_db", 20}};  // K above 0 dB is accepted
  s = parse_or_fail(doc);
  EXPECT_EQ(s.phy.reception.preamble_detection_snr_db, 4.0);
  EXPECT_EQ(s.propagation.reference_gain_db, 20.0);
}

TEST(ScenarioDefaults, LargestSeedIsKeptExactly) {
  json doc = minimal_scenario();
  doc["simulation"]["seed"] = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(parse_or_fail(doc).simulation.seed, std::numeric_limits<std::uint64_t>::max());
  doc = json::parse(R"({"seed": 18446744073709551615})");  // as text, too
  json full = minimal_scenario();
  full["simulation"]["seed"] = doc["seed"];
  EXPECT_EQ(parse_or_fail(full).simulation.seed, 18446744073709551615ull);
}

TEST(ScenarioParse, MacOverridesMergeNodeThenRadio) {
  json doc = minimal_scenario();
  doc["nodes"][1]["mac"] = {{"cw_min", 128}, {"queue", {{"capacity_bytes", 256000}}}};
  doc["nodes"][1]["radios"] = {{{"channel", 1}},
                               {{"channel", 11}, {"mac", {{"rts_threshold_bytes", 0}}}}};
  const Scenario s = parse_or_fail(doc);
  const NodeConfig& b = s.nodes[1];
  ASSERT_EQ(b.radios.size(), 2u);
  EXPECT_EQ(b.radios[0].mac->cw_min, 128);
  EXPECT_EQ(b.radios[0].mac->cw_max, 1024);  // inherited
  EXPECT_EQ(b.radios[0].mac->queue.unit, link::QueueLimit::Unit::bytes);
  EXPECT_EQ(b.radios[0].mac->queue.capacity, 256000);
  EXPECT_FALSE(b.radios[0].mac->rts_threshold_bytes.has_value());
  EXPECT_EQ(b.radios[1].channel, 11);
  EXPECT_EQ(b.radios[1].mac->cw_min, 128);
  EXPECT_EQ(b.radios[1].mac->rts_threshold_bytes, 0);
  EXPECT_EQ(s.nodes[0].radios[0].mac->cw_min, 32);  // others untouched
}

// Radios without a MAC override of their own share one MacParams (issue 43 §3): the
// nodes without one share /mac's, a node group's radios share the group's, and an
// override makes a new one only where it is written.
TEST(ScenarioParse, RadiosWithoutAnOverrideShareOneMacParams) {
  json doc = minimal_scenario();
  doc["mac"] = {{"cw_min", 64}};
  doc["nodes"][1]["mac"] = {{"cw_min", 128}};
  doc["nodes"][1]["radios"] = {{{"channel", 1}}, {{"channel", 11}, {"mac", {{"rts_threshold_bytes", 0}}}}};
  doc["node_groups"] = {{{"id_prefix", "n"}, {"placement", "line"}, {"count", 3}, {"origin_m", {0, 50}},
                         {"spacing_m", 200}, {"mac", {{"long_retry_limit", 5}}}},
                        {{"id_prefix", "g"}, {"placement", "line"}, {"count", 2}, {"origin_m", {0, 500}},
                         {"spacing_m", 200}}};
  const Scenario s = parse_or_fail(doc);
  ASSERT_EQ(s.nodes.size(), 3u + 3u + 2u);
  const auto* scenario_wide = s.nodes[0].radios[0].mac.get();
  EXPECT_EQ(scenario_wide->cw_min, 64);
  EXPECT_EQ(s.nodes[2].radios[0].mac.get(), scenario_wide);  // GW: no override
  EXPECT_EQ(s.nodes[6].radios[0].mac.get(), scenario_wide);  // group "g": no override
  EXPECT_EQ(s.nodes[7].radios[0].mac.get(), scenario_wide);
  const auto* node_b = s.nodes[1].radios[0].mac.get();
  EXPECT_NE(node_b, scenario_wide);
  EXPECT_EQ(node_b->cw_min, 128);
  EXPECT_NE(s.nodes[1].radios[1].mac.get(), node_b);  // its own override
  EXPECT_EQ(s.nodes[1].radios[1].mac->cw_min, 128);
  EXPECT_EQ(s.nodes[1].radios[1].mac->rts_threshold_bytes, 0);
  const auto* group_n = s.nodes[3].radios[0].mac.get();
  EXPECT_NE(group_n, scenario_wide);
  EXPECT_EQ(group_n->long_retry_limit, 5);
  EXPECT_EQ(group_n->cw_min, 64);
  EXPECT_EQ(s.nodes[4].radios[0].mac.get(), group_n);
  EXPECT_EQ(s.nodes[5].radios[0].mac.get(), group_n);
}

TEST(ScenarioParse, TrafficRateAndIntervalAgree) {
  json doc = minimal_scenario();
  doc["flows"][0] = {
      {"id", "u"},   {"transport", "udp"},   {"src", "A"},
      {"dst", "GW"}, {"payload_bytes", 500}, {"traffic", {{"type", "cbr"}, {"interval_s", 0.005}}}};
  doc["flows"].push_back({{"id", "v"},
                          {"transport", "udp"},
                          {"src", "B"},
                          {"dst", "GW"},
                          {"payload_bytes", 50},
                          {"traffic", {{"type", "poisson"}, {"rate_bps", 800000}}}});
  const Scenario s = parse_or_fail(doc);
  EXPECT_DOUBLE_EQ(s.flows[0].traffic.rate_bps, 800000.0);  // 001: 500 B every 5 ms
  EXPECT_EQ(s.flows[0].traffic.packet_interval, 5_ms);
  EXPECT_EQ(s.flows[1].traffic.packet_interval, 500_us);  // 000: 2000 ACK-sized packets/s
}

TEST(ScenarioParse, OfferedLoadScaleMultipliesEveryRateAndKeepsTheCbrPhase) {
  json doc = minimal_scenario();
  doc["simulation"]["offered_load_scale"] = 1.25;
  doc["flows"][0] = {{"id", "u"},   {"transport", "udp"}, {"src", "A"}, {"dst", "GW"}, {"payload_bytes", 500},
                     {"traffic", {{"type", "cbr"}, {"interval_s", 0.005}, {"phase", 0.5}}}};
  doc["flows"].push_back({{"id", "v"},
                          {"transport", "udp"},
                          {"src", "B"},
                          {"dst", "GW"},
                          {"payload_bytes", 500},
                          {"traffic", {{"type", "on_off"}, {"rate_bps", 800000}, {"on_s", 1}, {"off_s", 1}}}});
  doc["flows"].push_back({{"id", "w"}, {"transport", "tcp"}, {"src", "B"}, {"dst", "GW"}});
  const Scenario s = parse_or_fail(doc);
  EXPECT_DOUBLE_EQ(s.flows[0].traffic.rate_bps, 1e6);  // 500 B every 4 ms
  EXPECT_EQ(s.flows[0].traffic.packet_interval, 4_ms);
  EXPECT_DOUBLE_EQ(s.flows[0].traffic.phase, 0.5);
  EXPECT_DOUBLE_EQ(s.flows[1].traffic.rate_bps, 1e6);
  EXPECT_EQ(s.flows[1].traffic.on_mean, 1_s);  // periods are not rates: unscaled
  EXPECT_EQ(s.flows[2].traffic.type, TrafficType::saturated);
}

TEST(ScenarioParse, AnyGatewayEndpointAndStaticRoutes) {
  json doc = minimal_scenario();
  doc["flows"][0]["dst"] = "@gateway";
  doc["routing"] = {{"type", "static"},
                    {"tables", {{"A", {{"*", "B"}}}, {"B", {{"GW", "GW"}, {"A", "A"}}}}}};
  const Scenario s = parse_or_fail(doc);
  EXPECT_EQ(s.flows[0].src, 0u);
  EXPECT_FALSE(s.flows[0].dst.has_value());
  ASSERT_EQ(s.routing.routes.size(), 3u);
  EXPECT_EQ(s.routing.routes[0].node, 0u);
  EXPECT_FALSE(s.routing.routes[0].dst.has_value());
  EXPECT_EQ(s.routing.routes[0].next_hop, 1u);
  EXPECT_EQ(s.routing.routes[0].defined_at, "/routing/tables/A/*");
}

TEST(ScenarioParse, ControllersGetPaperDefaultsAndTargets) {
  json doc = minimal_scenario();
  doc["controllers"] = {{{"type", "counter_starvation"}},
                        {{"type", "lscc"}, {"nodes", {"A", "B"}}, {"start_s", 5}},
                        {{"type", "gateway_rate_control"}, {"scheme", "fred"}}};
  const Scenario s = parse_or_fail(doc);
  ASSERT_EQ(s.controllers.size(), 3u);
  const auto& cs = s.controllers[0].params_as<CounterStarvationParams>();
  EXPECT_EQ(cs.cw_min_factor, 4.0);
  EXPECT_EQ(cs.gateways, std::vector<std::size_t>{2});
  EXPECT_EQ(s.controllers[0].id, "counter_starvation#0");
  const auto& lscc = s.controllers[1].params_as<CongestionNotificationParams>();
  EXPECT_TRUE(lscc.link_selective);
  EXPECT_EQ(lscc.congestion_threshold, 0.6);
  EXPECT_EQ(lscc.initial_duration, 100_ms);
  EXPECT_EQ(lscc.look_ahead_share, 0.02);
  EXPECT_EQ(s.controllers[1].nodes, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(s.controllers[1].start, 5_s);
  const auto& grc = s.controllers[2].params_as<GatewayRateControlParams>();
  EXPECT_EQ(grc.gateway, 2u);  // the only gateway
  EXPECT_EQ(grc.scheme, GatewayScheme::fred);
  EXPECT_EQ(grc.fred.max_th_packets, 15);
}

TEST(ScenarioParse, WccpFlowsGetTheInNetworkControllerImplicitly) {
  json doc = minimal_scenario();
  doc["flows"][0]["transport"] = "wccp";
  const Scenario s = parse_or_fail(doc);
  ASSERT_EQ(s.controllers.size(), 1u);
  EXPECT_EQ(s.controllers[0].type, "wccp");
  EXPECT_EQ(s.controllers[0].params_as<WccpControllerParams>().busyness_threshold, 0.92);
  EXPECT_EQ(s.controllers[0].nodes.size(), 3u);
}

TEST(ScenarioParse, RtoKeysOfTcpAndWccpFlows) {
  // ns-2.27's minrto_ 1 s and rtxcur_init_ 6 s, which 003 ran (docs/transport.md).
  json doc = minimal_scenario();
  doc["flows"][0]["tcp"] = {{"min_rto_s", 1}, {"initial_rto_s", 6}};
  const TcpConfig tcp = parse_or_fail(doc).flows[0].params_as<TcpConfig>();
  EXPECT_EQ(tcp.min_rto, 1_s);
  EXPECT_EQ(tcp.initial_rto, 6_s);
  EXPECT_EQ(parse_or_fail(minimal_scenario()).flows[0].params_as<TcpConfig>().initial_rto, 1_s);  // RFC 6298 2.1
  doc["flows"][0].erase("tcp");
  doc["flows"][0]["transport"] = "wccp";
  doc["flows"][0]["wccp"] = {{"min_rto_s", 1}, {"initial_rto_s", 6}};
  const WccpConfig wccp = parse_or_fail(doc).flows[0].params_as<WccpConfig>();
  EXPECT_EQ(wccp.min_rto, 1_s);
  EXPECT_EQ(wccp.initial_rto, 6_s);
}

TEST(ScenarioParse, WccpTimeoutRestartKeyReachesTheFlowsConfig) {
  json doc = minimal_scenario();
  doc["flows"][0]["transport"] = "wccp";
  EXPECT_EQ(parse_or_fail(doc).flows[0].params_as<WccpConfig>().timeout_restart, WccpTimeoutRestart::rto);
  doc["flows"][0]["wccp"] = {{"timeout_restart", "srtt"}};
  EXPECT_EQ(parse_or_fail(doc).flows[0].params_as<WccpConfig>().timeout_restart, WccpTimeoutRestart::srtt);
}

// EDCA under deferral "ns2" loads once no category has a TXOP limit: the standard's
// AC_VI and AC_VO limits cleared (the refusals: tests/scenarios/bad_inputs.json).
TEST(ScenarioMac, EdcaUnderNs2LoadsWithTheStandardsTxopLimitsCleared) {
  json doc = minimal_scenario();
  doc["mac"] = {{"type", "edca"},
                {"deferral", "ns2"},
                {"access_categories", {{"ac_vi", {{"txop_limit_us", 0}}}, {"ac_vo", {{"txop_limit_us", 0}}}}}};
  const Scenario s = parse_or_fail(doc);
  EXPECT_EQ(s.mac.params.deferral, Deferral::ns2);
  for (const EdcaParams& ac : s.mac.params.access_categories) {
    EXPECT_EQ(ac.txop.time, Time::zero());
    EXPECT_EQ(ac.txop.frames, 0);
  }
}

TEST(ScenarioNodeGroups, LineAndGridNumberTheirNodes) {
  json doc = minimal_scenario();
  doc["node_groups"] = {{{"id_prefix", "n"},
                         {"first_index", 1},
                         {"placement", "line"},
                         {"count", 3},
                         {"origin_m", {0, 50}},
                         {"spacing_m", 200}},
                        {{"id_prefix", "g"},
                         {"placement", "grid"},
                         {"rows", 2},
                         {"columns", 3},
                         {"origin_m", {0, 1000}},
                         {"spacing_m", 10}}};
  const Scenario s = parse_or_fail(doc);
  ASSERT_EQ(s.nodes.size(), 3u + 3u + 6u);
  EXPECT_EQ(s.nodes[3].id, "n1");
  EXPECT_EQ(s.nodes[5].id, "n3");
  EXPECT_EQ(s.nodes[5].position->x_m, 400.0);
  EXPECT_EQ(s.nodes[5].position->y_m, 50.0);
  doc["node_groups"][0]["direction_deg"] = 180;
  EXPECT_EQ(parse_or_fail(doc).nodes[5].position->y_m, 50.0);  // exactly, despite sin(pi)
  EXPECT_EQ(parse_or_fail(doc).nodes[5].position->x_m, -400.0);
  EXPECT_EQ(s.nodes[5].defined_at(), "/node_groups/0");
  // The second group's nodes, after three explicit nodes and the first group's three.
  EXPECT_EQ(s.nodes[6 + 4].defined_at(), "/node_groups/1");
  EXPECT_EQ(s.nodes[2].defined_at(), "/nodes/2");
  EXPECT_EQ(s.nodes[6 + 4].id, "g4");  // row 1, column 1
  EXPECT_EQ(s.nodes[6 + 4].position->x_m, 10.0);
  EXPECT_EQ(s.nodes[6 + 4].position->y_m, 1010.0);
  EXPECT_EQ(s.find_node("g5"), 11u);
}

TEST(ScenarioNodeGroups, RandomGridIsDeterministicDistinctAndAvoidsTakenPoints) {
  json doc = minimal_scenario();
  doc["nodes"][0]["position_m"] = {0, 0};
  doc["nodes"][1]["position_m"] = {20, 0};
  doc["nodes"][2]["position_m"] = {0, 20};
  doc["node_groups"] = {{{"id_prefix", "s"},
                         {"placement", "random_grid"},
                         {"count", 30},
                         {"area_m", {100, 100}},
                         {"spacing_m", 20},
                         {"seed", 7}}};
  const Scenario a = parse_or_fail(doc);
  const Scenario b = parse_or_fail(doc);
  ASSERT_EQ(a.nodes.size(), 33u);
  std::set<std::pair<double, double>> seen;
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const Position& p = *a.nodes[i].position;
    EXPECT_TRUE(seen.emplace(p.x_m, p.y_m).second) << "two nodes at " << p.x_m << "," << p.y_m;
    EXPECT_EQ(std::fmod(p.x_m, 20.0), 0.0);
    EXPECT_LE(p.x_m, 100.0);
    EXPECT_EQ(p.x_m, b.nodes[i].position->x_m);  // same seed, same snapshot
    EXPECT_EQ(p.y_m, b.nodes[i].position->y_m);
  }
  doc["node_groups"][0]["seed"] = 8;
  const Scenario c = parse_or_fail(doc);
  bool differs = false;
  for (std::size_t i = 3; i < c.nodes.size(); ++i) {
    differs |= c.nodes[i].position->x_m != a.nodes[i].position->x_m ||
               c.nodes[i].position->y_m != a.nodes[i].position->y_m;
  }
  EXPECT_TRUE(differs);
  // The simulation seed does not move nodes: runs with many seeds share one snapshot.
  doc["node_groups"][0]["seed"] = 7;
  doc["simulation"]["seed"] = 99;
  EXPECT_EQ(parse_or_fail(doc).nodes[10].position->x_m, a.nodes[10].position->x_m);
}

TEST(ScenarioShadowingSeed, FollowsTheTopologyNotTheSimulationSeed) {
  json doc = minimal_scenario();
  doc["propagation"] = {{"shadowing", {{"sigma_db", 4}}}};
  // Fixed positions: one snapshot, seed 1 whatever the run's seed.
  EXPECT_EQ(parse_or_fail(doc).propagation.shadowing.seed, 1u);
  doc["simulation"]["seed"] = 99;
  EXPECT_EQ(parse_or_fail(doc).propagation.shadowing.seed, 1u);

  // One random group: its placement seed (004: --set /node_groups/0/seed=N).
  const json group = {{"id_prefix", "s"}, {"placement", "random_uniform"}, {"count", 3},
                      {"area_m", {500, 500}}, {"origin_m", {1000, 1000}}, {"seed", 7}};
  doc["node_groups"] = {group};
  EXPECT_EQ(parse_or_fail(doc).propagation.shadowing.seed, 7u);
  // A line draws nothing and does not count.
  doc["node_groups"].push_back({{"id_prefix", "l"}, {"placement", "line"}, {"count", 2},
                                {"origin_m", {0, 3000}}, {"spacing_m", 100}});
  EXPECT_EQ(parse_or_fail(doc).propagation.shadowing.seed, 7u);

  // Two random groups: folded, so that either seed changes it (docs/random.md).
  json second = group;
  second["id_prefix"] = "t";
  second["origin_m"] = {5000, 5000};
  second["seed"] = 9;
  doc["node_groups"].push_back(second);
  const std::uint64_t folded = parse_or_fail(doc).propagation.shadowing.seed;
  EXPECT_EQ(folded, RandomStreams(7).key_for("9"));
  doc["node_groups"][2]["seed"] = 10;
  EXPECT_NE(parse_or_fail(doc).propagation.shadowing.seed, folded);
  doc["node_groups"][0]["seed"] = 8;
  EXPECT_NE(parse_or_fail(doc).propagation.shadowing.seed, RandomStreams(7).key_for("10"));

  // An explicit seed wins.
  doc["propagation"]["shadowing"]["seed"] = 12345;
  EXPECT_EQ(parse_or_fail(doc).propagation.shadowing.seed, 12345u);
}

TEST(ScenarioMac, QueueLifetimeIsInheritedAndOverriddenPerNodeAndRadio) {
  json doc = minimal_scenario();
  EXPECT_FALSE(parse_or_fail(doc).nodes[0].radios[0].mac->queue_lifetime);  // default: none
  doc["mac"] = {{"queue_lifetime_s", 0.05}};
  doc["nodes"][1]["mac"] = {{"queue_lifetime_s", "none"}};
  doc["nodes"][2]["radios"] = {{{"mac", {{"queue_lifetime_s", 0.01}}}}};
  const Scenario s = parse_or_fail(doc);
  EXPECT_EQ(s.nodes[0].radios[0].mac->queue_lifetime, 50_ms);
  EXPECT_FALSE(s.nodes[1].radios[0].mac->queue_lifetime);
  EXPECT_EQ(s.nodes[2].radios[0].mac->queue_lifetime, 10_ms);
}

TEST(ScenarioNodeGroups, TooManyNodesForTheGridIsAnError) {
  json doc = minimal_scenario();
  doc["node_groups"] = {{{"id_prefix", "s"},
                         {"placement", "random_grid"},
                         {"count", 10},
                         {"area_m", {20, 20}},
                         {"spacing_m", 20}}};
  EXPECT_TRUE(
      test::has_issue(test::issues_of(doc), "/node_groups/0/count", "only 3 free grid points"));
  doc["node_groups"] = {
      {{"id_prefix", "A"},
       {"placement", "line"},
       {"count", 1},
       {"spacing_m", 5},
       {"origin_m", {999, 0}}},
      {{"id_prefix", "x"}, {"placement", "line"}, {"count", 2}, {"rows", 2}, {"spacing_m", 5}}};
  const auto issues = test::issues_of(doc);
  EXPECT_TRUE(
      test::has_issue(issues, "/node_groups/1/rows", "does not apply to placement \"line\""));
}

// ---- overrides ------------------------------------------------------------------

TEST(ScenarioOverrides, SetNestedValueCreateKeysAndIndexArrays) {
  const json doc = apply_overrides(minimal_scenario(), {
                                                           "/simulation/seed=7",
                                                           "/mac/queue/capacity_packets=100",
                                                           "/nodes/1/position_m/0=150",
                                                           "/flows/0/tcp/variant=reno",
                                                       });
  EXPECT_EQ(doc["simulation"]["seed"], 7);
  EXPECT_EQ(doc["mac"]["queue"]["capacity_packets"], 100);  // /mac and /mac/queue created
  EXPECT_EQ(doc["nodes"][1]["position_m"][0], 150);
  const Scenario s = parse_or_fail(doc);
  EXPECT_EQ(s.simulation.seed, 7u);
  EXPECT_EQ(s.mac.params.queue.capacity, 100);
  EXPECT_EQ(s.nodes[1].position->x_m, 150.0);
  EXPECT_EQ(s.flows[0].params_as<TcpConfig>().variant, TcpVariant::reno);
  EXPECT_EQ(s.document, doc);
}

TEST(ScenarioOverrides, ValuesParseAsJsonElseAsStrings) {
  const json doc =
      apply_overrides(json::object(), {"/a=6", "/b=true", "/c=802.11a", "/d=\"6\"", "/e=[1, 2]",
                                       "/f={\"type\": \"tcc\"}", "/g=", "/h=null", "/i=x=y"});
  EXPECT_EQ(doc["a"], 6);
  EXPECT_EQ(doc["b"], true);
  EXPECT_EQ(doc["c"], "802.11a");
  EXPECT_EQ(doc["d"], "6");
  EXPECT_EQ(doc["e"], json::array({1, 2}));
  EXPECT_EQ(doc["f"]["type"], "tcc");
  EXPECT_EQ(doc["g"], "");
  EXPECT_TRUE(doc["h"].is_null());
  EXPECT_EQ(doc["i"], "x=y");  // the first '=' splits
}

TEST(ScenarioOverrides, AppendAndEscapes) {
  json doc =
      apply_overrides(minimal_scenario(), {"/controllers=[]", "/controllers/-={\"type\": \"tcc\"}",
                                           "/controllers/1={\"type\": \"wccp\"}", "/a~1b/c~0d=1"});
  EXPECT_EQ(doc["controllers"].size(), 2u);
  EXPECT_EQ(doc["controllers"][1]["type"], "wccp");
  EXPECT_EQ(doc["a/b"]["c~d"], 1);
}

TEST(ScenarioOverrides, BadPointersNameThePointer) {
  const auto issues_for = [](const std::vector<std::string>& sets) {
    try {
      apply_overrides(minimal_scenario(), sets);
    } catch (const ScenarioError& e) {
      return e.issues();
    }
    return std::vector<ValidationIssue>{};
  };
  EXPECT_TRUE(test::has_issue(issues_for({"/nodes/7/id=X"}), "/nodes/7/id",
                              "array index 7 is out of range: /nodes has 3 elements"));
  EXPECT_TRUE(test::has_issue(issues_for({"/nodes/first/id=X"}), "/nodes/first/id",
                              "\"first\" is not an array index"));
  EXPECT_TRUE(
      test::has_issue(issues_for({"/nodes/01/id=X"}), "/nodes/01/id", "is not an array index"));
  EXPECT_TRUE(test::has_issue(issues_for({"/simulation/duration_s/x=1"}),
                              "/simulation/duration_s/x",
                              "/simulation/duration_s is a number, not an object or array"));
  EXPECT_TRUE(test::has_issue(issues_for({"/nodes/-/id=X"}), "/nodes/-/id", "out of range"));
  EXPECT_TRUE(
      test::has_issue(issues_for({"simulation/seed=3"}), "", "the pointer must start with \"/\""));
  EXPECT_TRUE(
      test::has_issue(issues_for({"/simulation/seed"}), "", "expected /json/pointer=value"));
  EXPECT_TRUE(test::has_issue(issues_for({"/a~2=1"}), "/a~2", "bad escape"));
  // All bad assignments are reported together.
  EXPECT_EQ(issues_for({"/nodes/9/id=X", "nonsense"}).size(), 2u);
}

// ---- files ------------------------------------------------------------------------

class ScenarioFile : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& name, const std::string& text) {
    const auto dir = std::filesystem::temp_directory_path() / "wmnsim_scenario_tests";
    std::filesystem::create_directories(dir);
    const auto path = dir / name;
    std::ofstream(path) << text;
    return path;
  }
  static std::vector<ValidationIssue> read_issues(const std::filesystem::path& path) {
    try {
      read_json_file(path);
    } catch (const ScenarioError& e) {
      return e.issues();
    }
    return {};
  }
};

TEST_F(ScenarioFile, MalformedJsonGivesLineAndColumn) {
  const auto path = write("trailing_comma.json", "{\n  \"simulation\": {\"duration_s\": 10},\n}\n");
  const auto issues = read_issues(path);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].path, "");
  EXPECT_NE(issues[0].message.find("trailing_comma.json: invalid JSON at line 3, column 1"),
            std::string::npos)
      << issues[0].message;
}

TEST_F(ScenarioFile, MissingFileIsNamed) {
  const auto issues = read_issues("/nonexistent/dir/x.json");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues[0].message.find("cannot open scenario file \"/nonexistent/dir/x.json\""),
            std::string::npos);
}

TEST_F(ScenarioFile, DuplicateKeysAreErrors) {
  const auto path = write(
      "dup.json", R"({"mac": {"cw_min": 32, "cw_min": 64}, "nodes": [{"id": "A", "id": "B"}]})");
  const auto issues = read_issues(path);
  EXPECT_TRUE(test::has_issue(issues, "/mac/cw_min", "duplicate key \"cw_min\""));
  EXPECT_TRUE(test::has_issue(issues, "/nodes/0/id", "duplicate key \"id\""));
}

TEST_F(ScenarioFile, LoadNamesTheScenarioAfterTheFile) {
  const auto path = write("tiny_chain.json", minimal_scenario().dump());
  EXPECT_EQ(load_scenario_file(path).name, "tiny_chain");
}

std::vector<std::filesystem::path> scenario_files() {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path root = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    if (entry.path().parent_path().filename() == "schema") continue;
    if (entry.path().filename().string().ends_with(".reference.json")) continue;  // docs/references.md
    if (entry.path().filename().string().ends_with(".sweep.json")) continue;      // docs/sweeps.md
    // A study's reproduction folder holds experiments, stored runs and generated scenarios,
    // checked by the sweep that runs them (docs/reproduce.md).
    if (std::find(entry.path().begin(), entry.path().end(), std::filesystem::path("reproduction")) != entry.path().end()) continue;
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ScenarioFiles, EveryScenarioInTheRepositoryLoads) {
  const auto files = scenario_files();
  EXPECT_GE(files.size(), 6u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    try {
      const Scenario s = load_scenario_file(path);
      EXPECT_FALSE(s.description.empty()) << "cite the paper and section in \"description\"";
    } catch (const ScenarioError& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// The ```json examples of docs/scenario.md are complete scenarios; keep them valid.
TEST(ScenarioFiles, ExamplesInTheDocumentationLoad) {
  std::ifstream in(std::filesystem::path(WMNSIM_SOURCE_DIR) / "docs/scenario.md");
  ASSERT_TRUE(in) << "docs/scenario.md is missing";
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t examples = 0;
  for (std::size_t at = text.find("```json\n"); at != std::string::npos;
       at = text.find("```json\n", at)) {
    const std::size_t begin = at + 8;
    const std::size_t end = text.find("```", begin);
    ASSERT_NE(end, std::string::npos);
    SCOPED_TRACE("example " + std::to_string(examples));
    parse_or_fail(json::parse(text.substr(begin, end - begin)));
    ++examples;
    at = end + 3;
  }
  EXPECT_GE(examples, 2u);
}

TEST(ScenarioFiles, FlagshipChainHidesAFromTheGateway) {
  const Scenario s = load_scenario_file(std::filesystem::path(WMNSIM_SOURCE_DIR) /
                                        "scenarios/two_hop_chain_tcp.json");
  const std::size_t a = *s.find_node("A"), b = *s.find_node("B"), gw = *s.find_node("GW");
  const PropagationSection& p = s.propagation;
  ASSERT_EQ(p.model, PropagationModel::range);
  EXPECT_LE(distance(s, a, b), p.rx_range_m);
  EXPECT_LE(distance(s, b, gw), p.rx_range_m);
  EXPECT_GT(distance(s, a, gw), p.cs_range_m);            // neither decodable nor sensed
  EXPECT_GT(distance(s, a, gw), p.interference_range_m);  // nor interfering
  EXPECT_EQ(s.simulation.duration, 120_s);
  EXPECT_EQ(s.phy.data_rate_bps, 11e6);
  EXPECT_EQ(s.phy.basic_rate_bps, 2e6);
  EXPECT_EQ(s.phy.slot, 20_us);
  EXPECT_EQ(s.phy.sifs, 10_us);
  EXPECT_EQ(s.phy.sifs + 2 * s.phy.slot, 50_us);  // Table 3 DIFS
  EXPECT_EQ(s.mac.params.cw_min, 32);
  EXPECT_EQ(s.mac.params.cw_max, 1024);
  EXPECT_EQ(s.mac.params.short_retry_limit, 7);
  EXPECT_FALSE(s.mac.params.rts_threshold_bytes.has_value());
  ASSERT_EQ(s.flows.size(), 2u);
  for (const auto& f : s.flows) {
    EXPECT_EQ(f.transport_name, "tcp");
    EXPECT_EQ(f.params_as<TcpConfig>().variant, TcpVariant::newreno);
    EXPECT_EQ(f.payload_bytes + 40, 1500);  // 1500-byte IP packets
    EXPECT_EQ(f.dst, gw);
  }
}

TEST(ScenarioFiles, FuMeshHas40StationsAndFourCornerGateways) {
  const Scenario s = load_scenario_file(std::filesystem::path(WMNSIM_SOURCE_DIR) /
                                        "scenarios/fu2009/mesh40_4gw.json");
  std::size_t gateways = 0, stations = 0;
  for (const auto& n : s.nodes) (n.role == NodeRole::gateway ? gateways : stations)++;
  EXPECT_EQ(gateways, 4u);
  EXPECT_EQ(stations, 40u);
  EXPECT_EQ(s.flows.size(), 80u);
  EXPECT_FALSE(s.phy.data_rate_bps.has_value());  // auto MCS per link
  EXPECT_EQ(s.propagation.reference_gain_db, -140.046);
  EXPECT_EQ(s.nodes[0].radios[0].mac->queue.capacity, 2000000);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
