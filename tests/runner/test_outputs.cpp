// Nothing accepted and then ignored (docs/scenario.md, outputs): every time-series
// kind is recorded or refused, and check_runnable() refuses what run_scenario()
// refuses, without simulating.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/not_supported.hpp"
#include "runner/run_scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {

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
  const double summary = r.summary["weighted_intra_mesh_loss_bps"].get<double>();
  EXPECT_GT(summary, 0.0);
  EXPECT_NEAR(total_bits / 3.0, summary, 1e-9 * summary);
}

TEST(Outputs, KindsNotRecordedYetAreRefusedByRunAndByTheCheck) {
  for (const char* kind : {"wccp_rate", "txop_limit"}) {
    auto doc = udp_chain();
    doc["outputs"]["timeseries"] = {"flow_goodput", kind};
    const Scenario s = parse_scenario(doc);
    for (const bool run : {false, true}) {
      try {
        if (run) {
          run_scenario(s);
        } else {
          check_runnable(s);
        }
        FAIL() << kind << " accepted";
      } catch (const NotSupportedError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("/outputs/timeseries/1: \"" + std::string(kind) + "\" is not recorded yet", 0),
                  0u)
            << e.what();
      }
    }
  }
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
  doc["controllers"] = {{{"type", "tcc"}}};
  EXPECT_THROW(check_runnable(parse_scenario(doc)), NotSupportedError);
}

}  // namespace
}  // namespace wmnsim
