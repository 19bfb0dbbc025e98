// Per-hop statistics (outputs.hops, runner/hop_statistics.hpp): each flow's packets
// followed node by node, the drops placed where they happened, and adding them up
// to the flow's own counts; asked for or not, the run is the same.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "results/result_columns.hpp"
#include "runner/run_scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

nlohmann::json shipped(const char* path, double duration_s) {
  nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / path);
  doc["simulation"]["duration_s"] = duration_s;
  doc["outputs"]["hops"] = true;
  return doc;
}

std::uint64_t u(const nlohmann::ordered_json& row, const std::string& key) { return row.at(key).get<std::uint64_t>(); }

const nlohmann::ordered_json& row_of(const Results& r, const std::string& flow, const std::string& direction,
                                     const std::string& node) {
  for (const auto& h : *r.hops) {
    if (hop_column::flow.of(h) == flow && hop_column::direction.of(h) == direction && hop_column::node.of(h) == node) {
      return h;
    }
  }
  throw std::out_of_range("no hops row " + flow + "/" + direction + "/" + node);
}

// Over the nodes, each flow's drops (every cause) add up to its own drop columns,
// its source's originated data to tx_packets and its destination's delivered data
// to rx_packets; stale copies add up to the summary's.
void expect_balanced(const Results& r) {
  ASSERT_TRUE(r.hops.has_value());
  std::uint64_t stale = 0;
  for (const auto& f : r.flows) {
    const std::string id = flow_column::id.of(f);
    SCOPED_TRACE(id);
    std::map<std::string, std::uint64_t> drops;
    std::uint64_t originated = 0, delivered = 0;
    for (const auto& h : *r.hops) {
      if (hop_column::flow.of(h) != id) continue;
      drops["dropped_packets"] += hop_column::drops.of(h);
      for (std::size_t c = 0; c < kDropCauseCount; ++c) {
        const auto& column = node_drops(static_cast<DropCause>(c));
        drops[std::string(column.key())] += column.of(h);
      }
      if (hop_column::direction.of(h) == "data") {
        originated += hop_column::originated.of(h);
        delivered += hop_column::delivered.of(h);
      }
      stale += hop_column::stale_copy_drops.of(h);
    }
    for (const auto& [key, n] : drops) EXPECT_EQ(n, u(f, key)) << key;
    EXPECT_EQ(originated, flow_column::tx_packets.of(f));
    EXPECT_EQ(delivered, flow_column::rx_packets.of(f));
  }
  EXPECT_EQ(stale, r.summary.at("packets").at("stale_copy_drops").get<std::uint64_t>());
}

TEST(HopStatistics, TheFlagshipsHiddenFlowLosesItsPacketsAtItsOwnMac) {
  const Results r = run_scenario(parse_scenario(shipped("scenarios/two_hop_chain_tcp.json", 30)));
  expect_balanced(r);
  // A -> B -> GW, one row per node along the path, data first, then the ACKs back.
  std::vector<std::string> order;
  for (const auto& h : *r.hops) {
    if (hop_column::flow.of(h) == "A_to_GW") order.push_back(hop_column::direction.of(h) + ":" + hop_column::node.of(h));
  }
  EXPECT_EQ(order, (std::vector<std::string>{"data:A", "data:B", "data:GW", "ack:GW", "ack:B", "ack:A"}));
  const auto& a = row_of(r, "A_to_GW", "data", "A");
  const auto& b = row_of(r, "A_to_GW", "data", "B");
  const auto& gw = row_of(r, "A_to_GW", "data", "GW");
  EXPECT_EQ(hop_column::hop.of(a), 0u);
  EXPECT_EQ(hop_column::hop.of(b), 1u);
  EXPECT_EQ(hop_column::hop.of(gw), 2u);
  // 000's mechanism, seen per hop: A's segments die at A, given up at the retry
  // limit (their frames collide at B with the gateway's, which A cannot hear);
  // B loses none of what it receives.
  EXPECT_GT(hop_column::drops.of(a), 0u);
  EXPECT_EQ(u(a, "drops_retry_limit"), hop_column::drops.of(a));
  EXPECT_EQ(hop_column::drops.of(b), 0u);
  EXPECT_LT(hop_column::forwarded.of(b), hop_column::originated.of(a));
  EXPECT_LE(hop_column::delivered.of(gw), hop_column::forwarded.of(b));
  // The delay from the source grows along the path.
  EXPECT_LT(hop_column::delay_mean_s.of(b), hop_column::delay_mean_s.of(gw));
  EXPECT_TRUE(a.at("delay_mean_s").is_null());
}

TEST(HopStatistics, StaleCopiesAreNotCountedAsLosses) {
  // The 004 mesh loses MAC ACKs within 10 s: senders give up copies the next hop has.
  const Results r = run_scenario(parse_scenario(shipped("scenarios/fu2009/mesh40_4gw.json", 10)));
  expect_balanced(r);
  EXPECT_GT(r.summary.at("packets").at("stale_copy_drops").get<std::uint64_t>(), 0u);
}

TEST(HopStatistics, AskingForThemLeavesTheRunAsItIs) {
  nlohmann::json doc = shipped("scenarios/two_hop_chain_tcp.json", 5);
  RunOptions options;
  options.fingerprint = true;
  const Results with = run_scenario(parse_scenario(doc), options);
  doc["outputs"].erase("hops");
  const Results without = run_scenario(parse_scenario(doc), options);
  ASSERT_TRUE(with.stats.fingerprint && without.stats.fingerprint);
  EXPECT_EQ(with.stats.fingerprint->value(), without.stats.fingerprint->value());
  EXPECT_EQ(with.flows, without.flows);
  EXPECT_TRUE(with.to_json().contains("hops"));
  EXPECT_FALSE(without.hops.has_value());
  EXPECT_FALSE(without.to_json().contains("hops"));  // absent unless asked
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
