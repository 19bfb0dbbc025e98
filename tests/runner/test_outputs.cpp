// Nothing accepted and then ignored (docs/scenario.md, outputs): every time-series
// kind is recorded or refused, and check_runnable() refuses what run_scenario()
// refuses, without simulating.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/not_supported.hpp"
#include "results/result_columns.hpp"
#include "runner/run_scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

nlohmann::json udp_chain() {
  auto doc = test::minimal_scenario();
  doc["simulation"]["duration_s"] = 3;
  doc["flows"][0]["transport"] = "udp";
  return doc;
}

std::set<std::string> ids_of(const TimeSeries& ts) {
  std::set<std::string> ids;
  for (const auto& s : ts.samples) ids.insert(s.id);
  return ids;
}

TEST(Outputs, ContentionWindowIsRecordedPerAccessCategoryUnderEdca) {
  auto doc = udp_chain();
  doc["outputs"]["timeseries"] = {"contention_window"};
  Results dcf = run_scenario(parse_scenario(doc));
  EXPECT_EQ(ids_of(dcf.timeseries.at("contention_window")), (std::set<std::string>{"A", "B", "GW"}));
  doc["mac"]["type"] = "edca";
  Results edca = run_scenario(parse_scenario(doc));
  const std::set<std::string> ids = ids_of(edca.timeseries.at("contention_window"));
  EXPECT_EQ(ids.size(), 12u);
  EXPECT_TRUE(ids.contains("A:ac_vo") && ids.contains("GW:ac_bk"));
  // Idle categories sit at their CWmin (802.11 defaults for b: AC_VO 8, AC_BK 32).
  for (const auto& s : edca.timeseries.at("contention_window").samples) {
    if (s.id == "B:ac_vo") {
      EXPECT_EQ(s.value, 8.0);
    }
    if (s.id == "B:ac_bk") {
      EXPECT_EQ(s.value, 32.0);
    }
  }
}

TEST(Outputs, WeightedIntraMeshLossIsRecordedPerNodeAndSumsToTheSummary) {
  auto doc = udp_chain();
  // B's own saturated flow keeps its short queue full, so packets A sends through B
  // are dropped there after one hop.
  // 180 m hops at 2 Mbit/s: A cannot reach GW directly, every hop delivers (at
  // 200 m a hop loses more than auto_rate.max_fer of its frames and is not routed).
  doc["phy"]["data_rate_bps"] = 2e6;
  doc["nodes"][1]["position_m"] = {180, 0};
  doc["nodes"][2]["position_m"] = {360, 0};
  doc["nodes"][1]["mac"] = {{"queue", {{"capacity_packets", 2}}}};
  doc["flows"].push_back({{"id", "f2"}, {"transport", "udp"}, {"src", "B"}, {"dst", "GW"}});
  doc["outputs"]["timeseries"] = {"weighted_intra_mesh_loss"};
  Results r = run_scenario(parse_scenario(doc));
  const TimeSeries& ts = r.timeseries.at("weighted_intra_mesh_loss");
  EXPECT_EQ(ts.unit, "bit/s");
  EXPECT_EQ(ids_of(ts), (std::set<std::string>{"A", "B", "GW"}));
  double total_bits = 0.0;
  for (const auto& s : ts.samples) total_bits += s.value * ts.interval.to_seconds();
  // No warm-up, so the summary's window is the whole run.
  const double summary = summary_column::weighted_intra_mesh_loss_bps.of(r.summary);
  EXPECT_GT(summary, 0.0);
  EXPECT_NEAR(total_bits / 3.0, summary, 1e-9 * summary);
}

TEST(Outputs, WccpRateIsRecordedPerWccpFlowOnceTheFirstAckSetsIt) {
  auto doc = udp_chain();
  doc["flows"][0]["transport"] = "wccp";
  doc["outputs"]["timeseries"] = {"wccp_rate", "flow_rtt"};
  const Scenario s = parse_scenario(doc);
  check_runnable(s);  // every kind of the format is recorded now
  const Results r = run_scenario(s);
  const TimeSeries& rate = r.timeseries.at("wccp_rate");
  ASSERT_FALSE(rate.samples.empty());
  EXPECT_EQ(ids_of(rate), (std::set<std::string>{doc["flows"][0]["id"].get<std::string>()}));
  for (const auto& sample : rate.samples) EXPECT_GT(sample.value, 0.0);
  EXPECT_FALSE(r.timeseries.at("flow_rtt").samples.empty());
}

// 002's parking lot, short: relays R9, R6, R3 with one radio per side.
nlohmann::json parking_lot() {
  std::ifstream in(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios" / "badarla" / "parking_lot.json");
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["simulation"]["duration_s"] = 3;
  doc["simulation"]["warmup_s"] = 0;
  doc["simulation"]["measurement_interval_s"] = 1;
  return doc;
}

TEST(Outputs, TxopLimitIsRecordedPerRadioAndAccessCategory) {
  const nlohmann::json doc = parking_lot();
  EXPECT_NO_THROW(check_runnable(parse_scenario(doc)));  // the scenario asks for txop_limit
  Results r = run_scenario(parse_scenario(doc));
  const TimeSeries& frames = r.timeseries.at("txop_limit");
  EXPECT_EQ(frames.unit, "frames");
  const std::set<std::string> ids = ids_of(frames);
  // Sample ids as for contention_window: R9's second radio is "R9/1".
  EXPECT_TRUE(ids.contains("R9:ac_be") && ids.contains("R9/1:ac_be") && ids.contains("a0:ac_vo"));
  for (const auto& s : frames.samples) {
    if (s.id == "R9/1:ac_be") {
      EXPECT_EQ(s.value, 9.0);
    } else if (s.id == "R3:ac_be") {
      EXPECT_EQ(s.value, 3.0);
    } else if (s.id == "a0:ac_be") {
      EXPECT_EQ(s.value, 1.0);
    }
  }
  // AC_VI keeps 802.11a's default time limit, 3.008 ms.
  for (const auto& s : r.timeseries.at("txop_limit_time").samples) {
    EXPECT_TRUE(s.id.ends_with(":ac_vi")) << s.id;
    EXPECT_DOUBLE_EQ(s.value, 3.008e-3);
  }
}

TEST(Outputs, RadiosTableHasOneRowPerRadioInNodeThenRadioOrder) {
  Results r = run_scenario(parse_scenario(parking_lot()));
  ASSERT_EQ(r.radios.size(), r.nodes.size() + 3);  // three relays with two radios
  const std::vector<std::pair<std::string, int>> first{{"S:0", 48}, {"R9:0", 44}, {"R9:1", 48}, {"R6:0", 40},
                                                       {"R6:1", 44}, {"R3:0", 36}, {"R3:1", 40}, {"d0:0", 48}};
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(radio_column::id.of(r.radios[i]), first[i].first);
    EXPECT_EQ(radio_column::channel.of(r.radios[i]), first[i].second) << first[i].first;
  }
  EXPECT_EQ(radio_column::node.of(r.radios[2]), "R9");
  EXPECT_EQ(radio_column::radio.of(r.radios[2]), 1u);
  EXPECT_EQ(radio_column::txop_limit_frames.of(r.radios[2]), 9);
  EXPECT_EQ(radio_column::cw_min.of(r.radios[2]), 16);
  EXPECT_EQ(radio_column::txop_limit_frames.of(r.radios[7]), 1);
  for (const auto& row : r.radios) {
    EXPECT_EQ(row.size(), r.radios[0].size());  // same keys
    EXPECT_EQ(radio_column::txop_limit_s.of(row), 0.0);
  }
  // Node rows pool their radios: R9's counters are the sum of its two radios'.
  const auto& r9 = r.nodes[1];
  ASSERT_EQ(node_column::id.of(r9), "R9");
  EXPECT_EQ(mac_column::tx_success.of(r9),
            mac_column::tx_success.of(r.radios[1]) + mac_column::tx_success.of(r.radios[2]));
  EXPECT_GT(mac_column::tx_success.of(r9), 0u);
  // Both delays, per radio and pooled; R9 forwards data on its radio to S.
  EXPECT_TRUE(kMacServiceDelay.mean_s.value_in(r.radios[2]).has_value());
  EXPECT_TRUE(kMacQueueingDelay.p99_s.value_in(r.radios[2]).has_value());
  EXPECT_TRUE(kMacQueueingDelay.mean_s.value_in(r9).has_value());
  const nlohmann::ordered_json doc = r.to_json();
  ASSERT_TRUE(doc.contains("radios"));
  EXPECT_EQ(doc["radios"].size(), r.radios.size());
}

TEST(Outputs, CheckRunnableFindsWhatOnlyTheNetworkSees) {
  auto doc = udp_chain();
  EXPECT_NO_THROW(check_runnable(parse_scenario(doc)));
  doc["nodes"][0]["position_m"] = {-100000, 0};  // A hears no one
  try {
    check_runnable(parse_scenario(doc));
    FAIL() << "an unreachable flow passed";
  } catch (const ScenarioError& e) {
    EXPECT_TRUE(test::has_issue(e.issues(), "/flows/0", "no route"));
  }
  doc = udp_chain();
  doc["propagation"] = {{"model", "log_distance"}, {"shadowing", {{"sigma_db", 3.0}, {"mode", "per_frame"}}}};
  EXPECT_THROW(check_runnable(parse_scenario(doc)), NotSupportedError);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
