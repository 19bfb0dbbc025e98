// B measured in a one-hop run (runner/one_hop_capacity.hpp, 001 App. A.2) against
// Bianchi's one-station figure (the capacity model's default B): equal where the
// model's assumptions hold (one station, data frames only), lower where TCP's ACKs
// share the air.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "analysis/capacity_report.hpp"
#include "results/result_columns.hpp"
#include "runner/one_hop_capacity.hpp"
#include "runner/run_scenario.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

nlohmann::json parking_lot() {
  return read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/jamshaid/chain_1mbps.json");
}

// The parking lot as shipped (TCP) and with every flow UDP instead.
struct TcpAndUdp {
  Scenario tcp;
  Scenario udp;
};

TcpAndUdp parking_lot_tcp_and_udp() {
  nlohmann::json doc = parking_lot();
  Scenario tcp = parse_scenario(doc);
  for (auto& f : doc["flows"]) {
    f["transport"] = "udp";
    f.erase("tcp");
  }
  return {std::move(tcp), parse_scenario(doc)};
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
  const auto [tcp, udp] = parking_lot_tcp_and_udp();
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

TEST(OneHopCapacity, TheTwoReadingsOfBDifferForTcpByItsAcksAndAgreeForUdp) {
  const auto [tcp, udp] = parking_lot_tcp_and_udp();
  // The data reading is the one-hop run's goodput, as a run of its scenario reports it.
  const OneHopThroughput t = measure_one_hop(tcp, Registries{});
  const Results run = run_scenario(parse_scenario(one_hop_scenario(tcp)));
  EXPECT_EQ(t.b(MeasuredBCounts::data), flow_column::goodput_bps.of(run.flows.at(0)));
  EXPECT_EQ(measure_mac_capacity_bps(tcp), t.b(MeasuredBCounts::data));
  EXPECT_EQ(measure_mac_capacity_bps(tcp, MeasuredBCounts::data_and_tcp_acks), t.b(MeasuredBCounts::data_and_tcp_acks));
  // TCP: the ACKs' bytes on top, 40 bytes per ACK: between one per two 1000-byte
  // segments (delayed ACKs) and one per segment.
  const double acks = t.b(MeasuredBCounts::data_and_tcp_acks) - t.b(MeasuredBCounts::data);
  EXPECT_GT(acks, 0.02 * t.b(MeasuredBCounts::data) * 0.95);
  EXPECT_LT(acks, 0.04 * t.b(MeasuredBCounts::data) * 1.05);
  // UDP: no ACKs, one figure.
  const OneHopThroughput u = measure_one_hop(udp, Registries{});
  EXPECT_EQ(u.tcp_ack_bps, 0.0);
  EXPECT_EQ(u.b(MeasuredBCounts::data_and_tcp_acks), u.b(MeasuredBCounts::data));
  EXPECT_GT(u.b(MeasuredBCounts::data), 0.0);
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
  EXPECT_EQ(stats["measured_b_counts"], "data");
  // The other reading: the ACKs' bytes counted, a larger B and share.
  doc["controllers"][0]["measured_b_counts"] = "data_and_tcp_acks";
  const double with_acks = measure_mac_capacity_bps(s, MeasuredBCounts::data_and_tcp_acks);
  ASSERT_GT(with_acks, measured);
  const auto acks = controller_column::statistics.cell(run_scenario(parse_scenario(doc)).controllers.at(0));
  EXPECT_EQ(acks["mac_capacity_bps"].get<double>(), with_acks);
  EXPECT_EQ(acks["measured_b_counts"], "data_and_tcp_acks");
  EXPECT_DOUBLE_EQ(acks["classes"][0]["share_bps"].get<double>(), with_acks / 6);
  doc["controllers"][0].erase("measured_b_counts");
  doc["controllers"][0].erase("mac_capacity");
  doc["controllers"][0]["mac_capacity_bps"] = 600000;
  doc["controllers"][0]["share_mode"] = "offline";
  const auto given = controller_column::statistics.cell(run_scenario(parse_scenario(doc)).controllers.at(0));
  EXPECT_DOUBLE_EQ(given["classes"][2]["share_bps"].get<double>(), 100000);
  // Bianchi's, as before: no B in the statistics.
  doc["controllers"][0].erase("mac_capacity_bps");
  const auto bianchi = controller_column::statistics.cell(run_scenario(parse_scenario(doc)).controllers.at(0));
  EXPECT_TRUE(bianchi["mac_capacity_bps"].is_null());
  EXPECT_FALSE(bianchi.contains("measured_b_counts"));
  EXPECT_GT(bianchi["classes"][0]["share_bps"].get<double>(), measured / 6);
}

TEST(OneHopCapacity, WithAutoRatesTheControllerMeasuresEachLinkRate) {
  // At 10 dBm under sinr the chain's links run at 11 or 2 Mbit/s ("auto"): the
  // controller's measured B is one one-hop run per rate, each link its rate's
  // (not the nearest link's for every link), so its shares are the model's with
  // those runs' figures.
  nlohmann::json doc = parking_lot();
  doc["phy"]["data_rate_bps"] = "auto";
  doc["phy"]["reception"] = {{"model", "sinr"}};
  doc["phy"]["tx_power_dbm"] = 10;
  doc["simulation"]["duration_s"] = 3;
  doc["simulation"]["warmup_s"] = 1;
  doc["controllers"][0]["mac_capacity"] = "measured";
  doc["controllers"][0]["share_mode"] = "offline";
  const Scenario s = parse_scenario(doc);
  const auto b_at = [&s](std::optional<double> rate) {
    return measure_one_hop(s, Registries{}, rate).b(MeasuredBCounts::data);
  };
  ASSERT_LT(b_at(2e6), 0.5 * b_at(11e6));
  CapacityReportOptions o;
  o.capacity.measured_mac_capacity_bps = b_at;
  const auto model = capacity_report(s, o);
  ASSERT_EQ(model["b"]["source"], "measured_per_link");
  const auto stats = controller_column::statistics.cell(run_scenario(s).controllers.at(0));
  EXPECT_EQ(stats["mac_capacity_bps"].get<double>(), b_at(11e6));  // the fastest rate's, as the report shows
  ASSERT_EQ(stats["classes"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(stats["classes"][i]["share_bps"].get<double>(),
                     model["flows"][i]["collision_domain_bps"].get<double>());
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
