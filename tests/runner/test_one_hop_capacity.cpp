// B measured in a one-hop run (runner/one_hop_capacity.hpp, 001 App. A.2) against
// Bianchi's one-station figure (the capacity model's default B): equal where the
// model's assumptions hold (one station, data frames only), lower where TCP's ACKs
// share the air.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "analysis/capacity_report.hpp"
#include "results/result_columns.hpp"
#include "runner/one_hop_capacity.hpp"
#include "runner/run_scenario.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {

nlohmann::json parking_lot() {
  return read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/jamshaid/chain_1mbps.json");
}

TEST(OneHopCapacity, TheOneHopScenarioHasTheMeshsRadioAndItsSmallestFlow) {
  nlohmann::json doc = parking_lot();
  doc["flows"][1]["payload_bytes"] = 500;
  const nlohmann::json one_hop = one_hop_scenario(parse_scenario(doc));
  EXPECT_EQ(one_hop["phy"], doc["phy"]);
  EXPECT_EQ(one_hop["mac"], doc["mac"]);
  EXPECT_EQ(one_hop["propagation"], doc["propagation"]);
  ASSERT_EQ(one_hop["nodes"].size(), 2u);
  EXPECT_EQ(one_hop["nodes"][0]["role"], "gateway");
  EXPECT_EQ(one_hop["nodes"][1]["position_m"][0], 200.0);  // the gateway's nearest neighbour
  ASSERT_EQ(one_hop["flows"].size(), 1u);
  EXPECT_EQ(one_hop["flows"][0]["payload_bytes"], 500);
  EXPECT_EQ(one_hop["flows"][0]["transport"], "tcp");
  EXPECT_EQ(one_hop["flows"][0]["src"], "sta");
  EXPECT_FALSE(one_hop.contains("controllers"));
  EXPECT_NO_THROW(parse_scenario(one_hop));
}

TEST(OneHopCapacity, MeasuredBMatchesBianchiForUdpAndFallsBelowItForTcp) {
  nlohmann::json doc = parking_lot();
  const Scenario tcp = parse_scenario(doc);
  for (auto& f : doc["flows"]) {
    f["transport"] = "udp";
    f.erase("tcp");
  }
  const Scenario udp = parse_scenario(doc);
  const auto bianchi = [](const Scenario& s) {
    const auto report = capacity_report(s);
    EXPECT_EQ(report["b"]["source"], "bianchi");
    return report["b"]["mac_capacity_bps"].get<double>();
  };
  // One saturated UDP station: what Bianchi's model describes, within 2 %.
  const double udp_b = measure_mac_capacity_bps(udp);
  EXPECT_NEAR(udp_b / bianchi(udp), 1.0, 0.02);
  // TCP: the ACKs take airtime Bianchi's data-only B leaves out.
  const double tcp_b = measure_mac_capacity_bps(tcp);
  EXPECT_LT(tcp_b, 0.95 * bianchi(tcp));
  EXPECT_GT(tcp_b, 0.6 * bianchi(tcp));
}

TEST(OneHopCapacity, TheGatewayControllerSharesTheMeasuredOrGivenB) {
  // The parking lot's collision domain holds every link: each flow's share is B/6
  // (docs/capacity.md), whichever B the controller's model takes.
  nlohmann::json doc = parking_lot();
  doc["simulation"]["duration_s"] = 5;
  doc["simulation"]["warmup_s"] = 1;
  doc["controllers"][0]["mac_capacity"] = "measured";
  const Scenario s = parse_scenario(doc);
  const double measured = measure_mac_capacity_bps(s);
  const auto stats = controller_column::statistics.cell(run_scenario(s).controllers.at(0));
  EXPECT_EQ(stats["mac_capacity_bps"].get<double>(), measured);
  EXPECT_DOUBLE_EQ(stats["classes"][0]["share_bps"].get<double>(), measured / 6);
  doc["controllers"][0].erase("mac_capacity");
  doc["controllers"][0]["mac_capacity_bps"] = 600000;
  doc["controllers"][0]["share_mode"] = "offline";
  const auto given = controller_column::statistics.cell(run_scenario(parse_scenario(doc)).controllers.at(0));
  EXPECT_DOUBLE_EQ(given["classes"][2]["share_bps"].get<double>(), 100000);
  // Bianchi's, as before: no B in the statistics.
  doc["controllers"][0].erase("mac_capacity_bps");
  const auto bianchi = controller_column::statistics.cell(run_scenario(parse_scenario(doc)).controllers.at(0));
  EXPECT_TRUE(bianchi["mac_capacity_bps"].is_null());
  EXPECT_GT(bianchi["classes"][0]["share_bps"].get<double>(), measured / 6);
}

}  // namespace
}  // namespace wmnsim
