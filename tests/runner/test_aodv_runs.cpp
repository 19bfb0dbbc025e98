// Whole runs with "routing": {"type": "aodv"}: a chain and a grid deliver UDP and
// TCP over routes AODV finds on the air (its RREQs, RREPs and RERRs real frames on
// the MAC), the results carry the routing object, a destination out of reach ends
// in discovery-failed drops, runs are repeatable, and bad AODV keys are refused at
// their JSON path.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/runner/run_checks.hpp"
#include "results/result_columns.hpp"
#include "runner/run_scenario.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// Nodes 200 m apart on a rows x cols grid under the range model (250 m decodable,
// 300 m sensed): grid neighbours hear each other, diagonals (283 m) do not.
nlohmann::json grid(int rows, int cols, const nlohmann::json& flows, double duration_s = 10) {
  nlohmann::json doc = {
      {"simulation", {{"duration_s", duration_s}, {"seed", 3}}},
      {"phy", {{"standard", "802.11b"}, {"data_rate_bps", 11e6}, {"basic_rate_bps", 2e6}}},
      {"propagation", {{"model", "range"}, {"rx_range_m", 250}, {"cs_range_m", 300}}},
      {"mac", {{"type", "dcf"}}},
      {"routing", {{"type", "aodv"}}},
      {"flows", flows},
  };
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      doc["nodes"].push_back({{"id", "N" + std::to_string(r * cols + c)}, {"position_m", {200.0 * c, 200.0 * r}}});
    }
  }
  return doc;
}

using test::expect_conserved;
using test::flow_row;

TEST(AodvRuns, ChainDeliversCbrAfterOneDiscovery) {
  // 100 kbit/s of 1000-byte datagrams over 3 hops: 125 sent, the first few held
  // while the expanding ring search finds N3 (TTL 1, then 3: about 240 ms).
  const auto flows = nlohmann::json::parse(R"([{"id": "f", "transport": "udp", "src": "N0", "dst": "N3",
      "payload_bytes": 1000, "traffic": {"type": "cbr", "rate_bps": 100000}}])");
  const Results r = run_scenario(parse_scenario(grid(1, 4, flows)));
  const auto& f = flow_row(r, "f");
  EXPECT_EQ(flow_column::sent_packets.of(f), 125u);
  EXPECT_EQ(flow_column::delivered_packets.of(f), 125u);
  EXPECT_EQ(flow_column::route.of(f), (std::vector<std::string>{"N0", "N1", "N2", "N3"}));
  EXPECT_EQ(flow_column::hops.of(f), 3u);
  ASSERT_TRUE(r.routing.has_value());
  const auto& total = (*r.routing)["total"];
  EXPECT_EQ(total["discoveries"].get<int>(), 1);
  EXPECT_EQ(total["discoveries_found"].get<int>(), 1);
  // TTL 1 fails after RING_TRAVERSAL_TIME(1) = 240 ms; TTL 3 reaches N3.
  EXPECT_GT(total["discovery_latency_max_s"].get<double>(), 0.240);
  EXPECT_LT(total["discovery_latency_max_s"].get<double>(), 0.260);
  EXPECT_EQ(total["rreq_attempts"].get<int>(), 2);
  EXPECT_GT(total["control_bytes_sent"].get<int>(), 0);
  EXPECT_EQ((*r.routing)["nodes"].size(), 4u);
  // The routes are kept alive by the traffic: no break on a clean chain.
  EXPECT_EQ(total["route_breaks"].get<int>(), 0);
  EXPECT_TRUE(r.to_json().contains("routing"));
  expect_conserved(r);
}

TEST(AodvRuns, GridDeliversCrossingUdpFlows) {
  const auto flows = nlohmann::json::parse(R"([
      {"id": "a", "transport": "udp", "src": "N0", "dst": "N8", "payload_bytes": 1000,
       "traffic": {"type": "cbr", "rate_bps": 200000}},
      {"id": "b", "transport": "udp", "src": "N6", "dst": "N2", "payload_bytes": 500,
       "traffic": {"type": "cbr", "rate_bps": 50000}}])");
  const Results r = run_scenario(parse_scenario(grid(3, 3, flows)));
  for (const char* id : {"a", "b"}) {
    const auto& f = flow_row(r, id);
    EXPECT_GE(flow_column::delivered_packets.of(f), flow_column::sent_packets.of(f) * 95 / 100) << id;
    EXPECT_EQ(flow_column::hops.of(f), 4u) << id;  // corner to corner: the shortest paths
  }
  EXPECT_EQ((*r.routing)["total"]["discoveries_failed"].get<int>(), 0);
  expect_conserved(r);
}

TEST(AodvRuns, GridDeliversTcpBesideUdp) {
  // A bulk TCP transfer across the grid loses frames at the retry limit to hidden
  // terminals (as under static routes); under AODV each such loss breaks a route
  // (RFC 6.11), and the RERRs and rediscoveries cost the UDP flow part of its
  // packets: both still deliver.
  const auto flows = nlohmann::json::parse(R"([
      {"id": "tcp", "transport": "tcp", "src": "N0", "dst": "N8", "payload_bytes": 1000},
      {"id": "udp", "transport": "udp", "src": "N6", "dst": "N2", "payload_bytes": 500,
       "traffic": {"type": "cbr", "rate_bps": 50000}}])");
  const Results r = run_scenario(parse_scenario(grid(3, 3, flows)));
  EXPECT_GT(flow_column::goodput_bps.of(flow_row(r, "tcp")), 300e3);
  const auto& udp = flow_row(r, "udp");
  EXPECT_GT(flow_column::delivered_packets.of(udp), flow_column::sent_packets.of(udp) / 4);
  const auto& total = (*r.routing)["total"];
  EXPECT_GT(total["route_breaks"].get<int>(), 0);
  EXPECT_GT(total["rerr_frames"].get<int>(), 0);
  EXPECT_GT(total["discoveries_found"].get<int>(), total["route_breaks"].get<int>() / 2);
  expect_conserved(r);
}

TEST(AodvRuns, UnreachableDestinationEndsInDiscoveryFailedDrops) {
  const auto flows = nlohmann::json::parse(R"([{"id": "f", "transport": "udp", "src": "N0", "dst": "N2",
      "payload_bytes": 1000, "traffic": {"type": "cbr", "rate_bps": 8000}}])");
  nlohmann::json doc = grid(1, 3, flows, 30);
  doc["nodes"][2]["position_m"] = {2000.0, 0.0};  // N2 far out of reach
  const Results r = run_scenario(parse_scenario(doc));
  const auto& f = flow_row(r, "f");
  EXPECT_EQ(flow_column::delivered_packets.of(f), 0u);
  const auto& total = (*r.routing)["total"];
  // 21.52 s per failed discovery (RFC defaults); a packet arriving after a failure
  // starts the next one.
  EXPECT_GE(total["discoveries_failed"].get<int>(), 1);
  EXPECT_GT(total["data_drops"]["discovery_failed"].get<int>(), 0);
  EXPECT_FALSE(r.warnings.empty());  // a flow that delivered nothing
  expect_conserved(r);
}

TEST(AodvRuns, RepeatableWithTheSameSeed) {
  const auto flows = nlohmann::json::parse(R"([
      {"id": "tcp", "transport": "tcp", "src": "N0", "dst": "N8", "payload_bytes": 1000}])");
  const Scenario s = parse_scenario(grid(3, 3, flows, 5));
  const Results a = run_scenario(s);
  const Results b = run_scenario(s);
  EXPECT_EQ(a.stats.events_executed, b.stats.events_executed);
  EXPECT_EQ(*a.routing, *b.routing);
}

TEST(AodvRuns, BadKeysAreRefusedAtTheirPath) {
  const auto flows = nlohmann::json::parse(R"([{"id": "f", "transport": "udp", "src": "N0", "dst": "N1"}])");
  auto refused_at = [&](const nlohmann::json& routing) {
    nlohmann::json doc = grid(1, 2, flows);
    doc["routing"] = routing;
    try {
      parse_scenario(doc);
    } catch (const ScenarioError& e) {
      return e.issues().front().path;
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused_at({{"type", "aodv"}, {"ttl_start", 0}}), "/routing/ttl_start");
  EXPECT_EQ(refused_at({{"type", "aodv"}, {"net_diameter", 10}, {"ttl_start", 11}}), "/routing/ttl_start");
  EXPECT_EQ(refused_at({{"type", "aodv"}, {"metric", "airtime"}}), "/routing/metric");
  EXPECT_EQ(refused_at({{"type", "aodv"}, {"active_route_timeout_s", 0}}), "/routing/active_route_timeout_s");
  EXPECT_EQ(refused_at({{"type", "aodv"}, {"hello_interval_s", 2}}), "/routing/hello_interval_s");
  EXPECT_EQ(refused_at({{"type", "aodv"}, {"ttl_strat", 2}}), "/routing/ttl_strat");
  EXPECT_EQ(refused_at({{"type", "auto"}, {"ttl_start", 2}}), "/routing/ttl_start");
  EXPECT_EQ(refused_at({{"type", "aodv"}, {"hello", true}, {"hello_interval_s", 2}, {"buffer_packets", 8}}),
            "accepted");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
