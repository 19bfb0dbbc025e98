// The flow sampler and the results ask flows only through transport::FlowEndpoint:
// a transport the runner has never heard of (a test-only fake with a sending-rate
// series, as WCCP's rate-based sender will have) gets its series and statistics
// into the results without any edit to the runner.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/packet_ledger.hpp"
#include "results/results.hpp"
#include "core/simulation.hpp"
#include "runner/flow_sampler.hpp"
#include "runner/network.hpp"
#include "runner/result_rows.hpp"
#include "transport/flow_endpoint.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

// Sends at a rate that steps up by 1000 bit/s every interval and delivers 125
// bytes per second; offers its rate as the series "fake_rate" once it has one.
class FakeRateFlow final : public transport::FlowEndpoint {
 public:
  static constexpr transport::FlowSeriesKind kSeries[] = {{"fake_rate", "bit/s"}};

  explicit FakeRateFlow(const Scheduler& scheduler) : scheduler_(scheduler) {}

  std::uint64_t packets_sent() const override { return 0; }
  std::uint64_t payload_bytes_delivered() const override {
    return static_cast<std::uint64_t>(scheduler_.now().to_seconds() * 125.0);
  }
  double goodput_bps() const override { return 1000.0; }
  std::vector<transport::FlowStatistic> statistics() const override { return {{"rate_changes", std::uint64_t{3}}}; }
  std::span<const transport::FlowSeriesKind> series() const override { return kSeries; }
  std::optional<double> sample(std::string_view kind) const override {
    const double t = scheduler_.now().to_seconds();
    if (kind != "fake_rate" || t < 1.5) return std::nullopt;  // no rate before 1.5 s
    return 1000.0 * t;
  }

 private:
  const Scheduler& scheduler_;
};

struct Sampled {
  Simulation sim{1};
  PacketLedger ledger{0, 2, Time::zero(), Time::max()};
  FakeRateFlow fake{sim.scheduler()};
  FakeRateFlow other{sim.scheduler()};

  Results run(const std::vector<std::string>& kinds) {
    FlowSampler::Sources sources;
    sources.flows = {{"fake", &fake}, {"other", &other}};
    sources.ledger = &ledger;
    sources.known_series = transport::series_kinds(transport::builtin_transports());
    FlowSampler sampler(sim.scheduler(), std::move(sources), 1_s, kinds);
    sampler.start();
    sim.run_until(Time::from_seconds(4.5));
    Results out;
    sampler.write(out);
    return out;
  }
};

TEST(FlowEndpointSampling, AFakeTransportsSeriesIsRecordedWithItsUnit) {
  Sampled s;
  const Results r = s.run({"flow_goodput", "fake_rate"});
  ASSERT_TRUE(r.timeseries.contains("fake_rate"));
  const TimeSeries& rate = r.timeseries.at("fake_rate");
  EXPECT_EQ(rate.unit, "bit/s");
  EXPECT_EQ(rate.interval, 1_s);
  // Samples at 1, 2, 3, 4 s; none at 1 s (no value yet); both flows at each instant.
  ASSERT_EQ(rate.samples.size(), 6u);
  const std::array<double, 3> times{2.0, 3.0, 4.0};
  for (std::size_t i = 0; i < rate.samples.size(); ++i) {
    EXPECT_EQ(rate.samples[i].time_s, times[i / 2]);
    EXPECT_EQ(rate.samples[i].id, i % 2 == 0 ? "fake" : "other");
    EXPECT_EQ(rate.samples[i].value, 1000.0 * times[i / 2]);
  }
  // Goodput comes from payload_bytes_delivered, per interval: 125 bytes/s.
  const TimeSeries& goodput = r.timeseries.at("flow_goodput");
  ASSERT_EQ(goodput.samples.size(), 8u);
  for (const auto& sample : goodput.samples) EXPECT_EQ(sample.value, 1000.0);
}

TEST(FlowEndpointSampling, AKindNoFlowOffersIsWrittenEmptyIfATransportKnowsIt) {
  Sampled s;
  // tcp_cwnd: a TCP series, but no flow here is TCP; queue_length: the MAC
  // sampler's, not a flow's; fake_rate not requested.
  const Results r = s.run({"tcp_cwnd", "queue_length"});
  ASSERT_TRUE(r.timeseries.contains("tcp_cwnd"));
  EXPECT_EQ(r.timeseries.at("tcp_cwnd").unit, "segments");
  EXPECT_TRUE(r.timeseries.at("tcp_cwnd").samples.empty());
  EXPECT_FALSE(r.timeseries.contains("queue_length"));
  EXPECT_FALSE(r.timeseries.contains("fake_rate"));
  EXPECT_FALSE(r.timeseries.contains("flow_goodput"));
}

TEST(FlowEndpointSampling, NothingRequestedSchedulesNothing) {
  Sampled s;
  const Results r = s.run({"queue_length"});
  EXPECT_TRUE(r.timeseries.empty());
  EXPECT_EQ(s.sim.scheduler().executed(), 0u);
}

TEST(FlowEndpointSampling, PerNodeLossNeedsALedger) {
  Simulation sim(1);
  EXPECT_THROW(FlowSampler(sim.scheduler(), FlowSampler::Sources{}, 1_s, {"weighted_intra_mesh_loss"}),
               std::logic_error);
}

// Reports the statistics it is given.
class StatisticsFlow final : public transport::FlowEndpoint {
 public:
  explicit StatisticsFlow(std::vector<transport::FlowStatistic> statistics) : statistics_(std::move(statistics)) {}
  std::uint64_t packets_sent() const override { return 0; }
  std::uint64_t payload_bytes_delivered() const override { return 0; }
  double goodput_bps() const override { return 0.0; }
  std::vector<transport::FlowStatistic> statistics() const override { return statistics_; }

 private:
  std::vector<transport::FlowStatistic> statistics_;
};

TEST(FlowEndpointResults, StatisticsOfDifferentTransportsShareTheRowsKeys) {
  const StatisticsFlow tcp_like({{"retransmissions", std::uint64_t{4}}, {"timeouts", std::uint64_t{1}}});
  const StatisticsFlow rate_based({{"rate_changes", std::uint64_t{3}}, {"mean_rate_bps", 1.5e5}});
  std::vector<nlohmann::ordered_json> rows(2);
  rows[0]["id"] = "a";
  put_flow_statistics(tcp_like, rows[0]);
  rows[0]["route"] = "a>b";
  rows[1]["id"] = "b";
  put_flow_statistics(rate_based, rows[1]);
  rows[1]["route"] = "b>a";
  same_keys(rows);
  EXPECT_EQ(rows[0].dump(),
            R"({"id":"a","retransmissions":4,"timeouts":1,"route":"a>b","rate_changes":null,"mean_rate_bps":null})");
  EXPECT_EQ(rows[1].dump(),
            R"({"id":"b","retransmissions":null,"timeouts":null,"route":"b>a","rate_changes":3,"mean_rate_bps":150000.0})");
}

TEST(FlowEndpointResults, AStatisticMayNotReplaceAColumn) {
  const StatisticsFlow clash({{"goodput_bps", 1.0}});
  nlohmann::ordered_json row;
  row["goodput_bps"] = 2.0;
  EXPECT_THROW(put_flow_statistics(clash, row), std::logic_error);
  // Nor one of the columns written after the statistics.
  const StatisticsFlow late({{"route", 1.0}});
  nlohmann::ordered_json head;
  head["goodput_bps"] = 2.0;
  put_flow_statistics(late, head);
  nlohmann::ordered_json tail;
  tail["dropped_packets"] = 0;
  tail["route"] = nlohmann::ordered_json::array();
  EXPECT_THROW(append_columns(head, tail), std::logic_error);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
