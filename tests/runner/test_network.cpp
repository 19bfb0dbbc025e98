// Whole runs through every layer: exact UDP delivery on a clean multi-hop path,
// a saturated source keeps the MAC busy as the MAC-only saturation testbed does,
// TCP up and down through a gateway's wired link, determinism, the starvation of
// the flagship's two-hop flow, and packet conservation on every scenario shipped
// in scenarios/ (shortened).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/runner/run_checks.hpp"
#include "control/controller_registry.hpp"
#include "scenario/scenario.hpp"
#include "fixtures/saturation_testbed.hpp"
#include "scenario/phy_builder.hpp"
#include "runner/run_scenario.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// A chain of nodes 200 m apart under the range model (250 m decodable, 300 m
// sensed): neighbours hear each other, nodes two apart are hidden.
nlohmann::json chain(int nodes, const nlohmann::json& flows, double duration_s = 10) {
  nlohmann::json doc = {
      {"simulation", {{"duration_s", duration_s}, {"seed", 1}}},
      {"phy", {{"standard", "802.11b"}, {"data_rate_bps", 11e6}, {"basic_rate_bps", 2e6}}},
      {"propagation", {{"model", "range"}, {"rx_range_m", 250}, {"cs_range_m", 300}}},
      {"mac", {{"type", "dcf"}}},
      {"routing", {{"type", "auto"}}},
      {"flows", flows},
  };
  for (int i = 0; i < nodes; ++i) {
    nlohmann::json n = {{"id", "N" + std::to_string(i)}, {"position_m", {200.0 * i, 0}}};
    if (i == nodes - 1) n["role"] = "gateway";
    doc["nodes"].push_back(n);
  }
  return doc;
}

using test::expect_conserved;
using test::flow_row;

TEST(Network, CbrOverThreeHopsDeliversExactlyWhatWasSent) {
  // 100 kbit/s of 1000-byte datagrams: one every 80 ms from 0 to 9.92 s.
  const auto flows = nlohmann::json::parse(R"([{"id": "f", "transport": "udp", "src": "N0", "dst": "N3",
      "payload_bytes": 1000, "traffic": {"type": "cbr", "rate_bps": 100000}}])");
  const Results r = run_scenario(parse_scenario(chain(4, flows)));
  const auto& f = flow_row(r, "f");
  EXPECT_EQ(flow_column::sent_packets.of(f), 125u);
  EXPECT_EQ(flow_column::delivered_packets.of(f), 125u);
  EXPECT_EQ(flow_column::dropped_packets.of(f), 0u);
  EXPECT_EQ(flow_column::hops.of(f), 3u);
  EXPECT_EQ(flow_column::route.of(f), (std::vector<std::string>{"N0", "N1", "N2", "N3"}));
  // 124 datagrams land inside [0, 10 s) counted over 10 s (the last one at 9.92 s + a few ms too).
  EXPECT_NEAR(flow_column::goodput_bps.of(f), 125 * 1000 * 8 / 10.0, 1e-6);
  // Forwarded by the two relays, delivered once.
  EXPECT_EQ(node_column::forwarded.of(r.nodes[1]), 125u);
  EXPECT_EQ(node_column::forwarded.of(r.nodes[2]), 125u);
  expect_conserved(r);
}

TEST(Network, SaturatedUdpKeepsTheMacAsBusyAsTheSaturationTestbed) {
  const auto flows = nlohmann::json::parse(R"([{"id": "f", "transport": "udp", "src": "N0", "dst": "N1",
      "payload_bytes": 1472}])");
  nlohmann::json doc = chain(2, flows, 11);
  doc["simulation"]["warmup_s"] = 1;
  const Scenario scenario = parse_scenario(doc);
  const Results r = run_scenario(scenario);

  mac::SaturationSetup setup;
  setup.profile = phy::profile_for(scenario.phy);
  setup.data_rate_bps = 11e6;
  setup.control_rate_bps = 2e6;
  setup.stations = 1;
  setup.ip_bytes = 1500;
  setup.params = *scenario.nodes[0].radios[0].mac;
  setup.warmup = Time::s(1);
  setup.duration = Time::s(10);
  const mac::SaturationResult bed = mac::run_saturation(setup);
  const double expected = bed.throughput_bps * 1472.0 / 1500.0;  // payload of each 1500-byte datagram
  EXPECT_NEAR(flow_column::goodput_bps.of(flow_row(r, "f")), expected, 0.01 * expected);
  expect_conserved(r);
}

TEST(Network, TcpUpAndDownThroughAGatewaysWiredLink) {
  nlohmann::json doc = chain(3, nlohmann::json::parse(R"([
      {"id": "up", "transport": "tcp", "src": "N0", "dst": "internet"},
      {"id": "down", "transport": "tcp", "src": "internet", "dst": "N1", "start_s": 1}])"));
  doc["nodes"].push_back({{"id", "internet"}, {"role", "host"}});
  doc["links"] = nlohmann::json::parse(R"([{"nodes": ["N2", "internet"], "rate_bps": 1e8, "delay_s": 0.01}])");
  const Results r = run_scenario(parse_scenario(doc));
  const auto& up = flow_row(r, "up");
  const auto& down = flow_row(r, "down");
  EXPECT_EQ(flow_column::route.of(up), (std::vector<std::string>{"N0", "N1", "N2", "internet"}));
  EXPECT_EQ(flow_column::route.of(down), (std::vector<std::string>{"internet", "N2", "N1"}));
  EXPECT_GT(flow_column::goodput_bps.of(up), 0.0);
  EXPECT_GT(flow_column::goodput_bps.of(down), 0.0);
  EXPECT_GT(flow_column::goodput_bps.of(up) + flow_column::goodput_bps.of(down), 1e6);
  EXPECT_EQ(node_column::role.of(r.nodes[3]), "host");
  EXPECT_FALSE(mac_column::data_attempts.value_in(r.nodes[3]).has_value());  // a host has no MAC
  expect_conserved(r);
}

TEST(Network, AFlowThatDeliversNothingIsWarnedAboutWithItsPath) {
  // The second flow's one datagram leaves 0.5 ms before the end: it cannot arrive.
  const auto flows = nlohmann::json::parse(R"([
      {"id": "f", "transport": "udp", "src": "N0", "dst": "N2", "traffic": {"type": "cbr", "rate_bps": 100000}},
      {"id": "late", "transport": "udp", "src": "N0", "dst": "N2", "start_s": 9.9995,
       "traffic": {"type": "cbr", "rate_bps": 100000}},
      {"id": "never", "transport": "udp", "src": "N0", "dst": "N2", "start_s": 20}])");
  const Results r = run_scenario(parse_scenario(chain(3, flows)));
  ASSERT_EQ(r.warnings.size(), 1u);  // "never" starts after the end: cut, not silent
  EXPECT_EQ(r.warnings[0].path, "/flows/1");
  EXPECT_EQ(r.warnings[0].message, "flow \"late\" delivered nothing (sent 1, dropped 0); route N0 -> N1 -> N2");
  const auto doc = r.to_json();
  EXPECT_EQ(doc["warnings"][0]["path"], "/flows/1");
  EXPECT_EQ(doc["warnings"][0]["message"], r.warnings[0].message);
}

TEST(Network, NoWarningsWhenEveryFlowDelivers) {
  const auto flows = nlohmann::json::parse(R"([{"id": "f", "transport": "tcp", "src": "N0", "dst": "N2"}])");
  const Results r = run_scenario(parse_scenario(chain(3, flows, 2)));
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.to_json()["warnings"], nlohmann::ordered_json::array());
}

TEST(Network, QueueLifetimeDropsAreAccountedAndSaturatedSourcesKeepSending) {
  // A saturated source over two hops: the second datagram waits about one
  // exchange behind the first, and the relay's traffic makes waits longer, so a
  // 2 ms lifetime drops some of them. The source refills after each such drop,
  // so it keeps sending to the end; the ledger balances.
  const auto flows = nlohmann::json::parse(R"([{"id": "f", "transport": "udp", "src": "N0", "dst": "N2",
      "payload_bytes": 1472}])");
  nlohmann::json doc = chain(3, flows, 5);
  doc["mac"]["queue_lifetime_s"] = 0.002;
  doc["outputs"] = {{"timeseries", {"flow_goodput"}}};
  const Results r = run_scenario(parse_scenario(doc));
  const auto drops = summary_column::drops.of(r.summary).at("lifetime_expired").get<std::uint64_t>();
  EXPECT_GT(drops, 0u);
  const auto& expired = node_drops(DropCause::lifetime_expired);
  EXPECT_EQ(expired.of(r.nodes[0]) + expired.of(r.nodes[1]), drops);
  EXPECT_GE(flow_column::dropped_packets.of(flow_row(r, "f")), drops);
  const auto& series = r.timeseries.at("flow_goodput").samples;
  ASSERT_FALSE(series.empty());
  EXPECT_GT(series.back().value, 1e5);  // still delivering in the last second
  expect_conserved(r);

  // Without a lifetime nothing is dropped for age.
  doc["mac"].erase("queue_lifetime_s");
  EXPECT_EQ(summary_column::drops.of(run_scenario(parse_scenario(doc)).summary).at("lifetime_expired"), 0);
}

TEST(Network, DifferentRunSeedsShareTheSnapshotsRoutes) {
  // 004 (scenarios/fu2009/mesh40_4gw.json): shadowing is part of the snapshot, so
  // runs with other simulation seeds keep every route; another placement seed
  // (positions and shadowing) changes them.
  const std::filesystem::path mesh = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/fu2009/mesh40_4gw.json";
  const auto routes = [&](int seed, int placement) {
    nlohmann::json doc = read_json_file(mesh);
    doc["simulation"]["duration_s"] = 0.01;
    doc["simulation"]["seed"] = seed;
    doc["node_groups"][0]["seed"] = placement;
    RunOptions quiet;
    quiet.log_level = spdlog::level::off;  // 10 ms deliver nothing: no warnings wanted here
    std::vector<std::vector<std::string>> out;
    for (const auto& f : run_scenario(parse_scenario(doc), quiet).flows) out.push_back(flow_column::route.of(f));
    return out;
  };
  const auto one = routes(1, 1);
  EXPECT_EQ(routes(2, 1), one);
  EXPECT_EQ(routes(3, 1), one);
  EXPECT_NE(routes(1, 2), one);
}

TEST(Network, SameSeedSameResultsOtherSeedOtherResults) {
  const std::filesystem::path flagship = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/two_hop_chain_tcp.json";
  const auto shortened = [&](int seed) {
    nlohmann::json doc = read_json_file(flagship);
    doc["simulation"]["duration_s"] = 5;
    doc["simulation"]["seed"] = seed;
    RunOptions options;
    options.fingerprint = true;
    return run_scenario(parse_scenario(doc), options);
  };
  const Results a = shortened(1), b = shortened(1), c = shortened(2);
  ASSERT_TRUE(a.stats.fingerprint && b.stats.fingerprint && c.stats.fingerprint);
  EXPECT_EQ(a.stats.fingerprint->value(), b.stats.fingerprint->value());
  EXPECT_EQ(nlohmann::ordered_json(a.flows).dump(), nlohmann::ordered_json(b.flows).dump());
  EXPECT_NE(a.stats.fingerprint->value(), c.stats.fingerprint->value());
}

TEST(Network, FlagshipTwoHopFlowStarves) {
  // 000 Sec. 4.2: with TCP, default CWmin and RTS off, the two-hop flow A->GW gets a
  // small fraction of what the one-hop flow B->GW gets.
  nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/two_hop_chain_tcp.json");
  doc["simulation"]["duration_s"] = 30;
  const Results r = run_scenario(parse_scenario(doc));
  const double two_hop = flow_column::goodput_bps.of(flow_row(r, "A_to_GW"));
  const double one_hop = flow_column::goodput_bps.of(flow_row(r, "B_to_GW"));
  EXPECT_LT(two_hop, 0.1 * one_hop);
  EXPECT_GT(one_hop, 3e6);
  EXPECT_LT(summary_column::jain_fairness_index.of(r.summary), 0.6);
  expect_conserved(r);
}

TEST(Network, FairSharesGiveRatiosAndUtilizationAgainstTheFairAllocation) {
  // Two CBR flows below capacity: each gets exactly its offered rate, so against
  // fair shares of twice and half that rate the ratios are 0.5 and 2.
  const auto flows = nlohmann::json::parse(R"([
      {"id": "two", "transport": "udp", "src": "N0", "dst": "N2", "payload_bytes": 1000,
       "traffic": {"type": "cbr", "rate_bps": 100000}, "fair_share_bps": 200000},
      {"id": "one", "transport": "udp", "src": "N1", "dst": "N2", "payload_bytes": 1000,
       "traffic": {"type": "cbr", "rate_bps": 100000}, "fair_share_bps": 50000}])");
  const Results r = run_scenario(parse_scenario(chain(3, flows)));
  EXPECT_DOUBLE_EQ(flow_column::fair_ratio.of(flow_row(r, "two")), 0.5);
  EXPECT_DOUBLE_EQ(flow_column::fair_ratio.of(flow_row(r, "one")), 2.0);
  EXPECT_DOUBLE_EQ(summary_column::min_fair_ratio.of(r.summary), 0.5);
  EXPECT_DOUBLE_EQ(summary_column::max_fair_ratio.of(r.summary), 2.0);
  // U = 100k x 2 + 100k x 1; U_opt = 200k x 2 + 50k x 1.
  EXPECT_DOUBLE_EQ(summary_column::utilization_ratio.of(r.summary), 300000.0 / 450000.0);
  EXPECT_DOUBLE_EQ(summary_column::effective_utilization_bps.of(r.summary), 300000.0);
  EXPECT_DOUBLE_EQ(summary_column::jain_fairness_index.of(r.summary), 1.0);
}

TEST(Network, EveryShippedScenarioConservesPackets) {
  // Shortened to 2 s; controllers without a factory and time series not recorded
  // are left out so the network underneath still runs. Every transport runs as
  // written (WCCP flows as WCCP, with the controller the loader adds for them).
  int runs = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios")) {
    if (entry.path().extension() != ".json" || entry.path().parent_path().filename() == "schema") continue;
    if (entry.path().filename().string().ends_with(".reference.json")) continue;  // docs/references.md
    if (entry.path().filename().string().ends_with(".sweep.json")) continue;      // docs/sweeps.md
    // A study's reproduction folder holds experiments, stored runs and generated scenarios,
    // checked by the sweep that runs them (docs/reproduce.md).
    if (std::find(entry.path().begin(), entry.path().end(), std::filesystem::path("reproduction")) != entry.path().end()) continue;
    SCOPED_TRACE(entry.path().string());
    nlohmann::json doc = read_json_file(entry.path());
    doc["simulation"]["duration_s"] = 2;
    doc["simulation"].erase("warmup_s");
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& c : doc.value("controllers", nlohmann::json::array())) {
      if (control::ControllerRegistry::with_builtins().has(c["type"].get<std::string>())) kept.push_back(c);
    }
    doc["controllers"] = kept;
    if (doc.contains("outputs") && doc["outputs"].contains("timeseries")) {  // kinds not recorded yet
      nlohmann::json kinds = nlohmann::json::array();
      for (const auto& k : doc["outputs"]["timeseries"]) {
        if (why_not_recorded(k.get<std::string>()) == nullptr) kinds.push_back(k);
      }
      doc["outputs"]["timeseries"] = kinds;
    }
    for (auto& f : doc["flows"]) {
      // A flow that would start after the shortened end (001's multi-radio flows
      // start at 100 s and later) starts at once instead.
      if (f.value("start_s", 0.0) >= 2.0) f["start_s"] = 0.0;
    }
    const Results r = run_scenario(parse_scenario(doc));
    expect_conserved(r);
    EXPECT_GT(summary_column::packets.of(r.summary)["delivered"].get<std::uint64_t>(), 0u);
    ++runs;
  }
  EXPECT_GE(runs, 7);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
