// The TCP options a scenario can switch on: the initial window, limited transmit
// (RFC 3042) and timestamps (RFC 7323), from the scenario keys to the wire.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "scenario/scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"
#include "scenario/transport_builder.hpp"
#include "transport/tcp_settings.hpp"
#include "tests/transport/tcp_test_bed.hpp"
#include "transport/header_sizes.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;
using testing::bulk_sender;
using testing::finite_sender;
using testing::TcpTestBed;

constexpr std::uint64_t kMss = 1460;

TEST(TcpOptions, ScenarioKeysAndTheirDefaults) {
  nlohmann::json doc = test::minimal_scenario();
  const Scenario defaults = parse_scenario(doc);
  EXPECT_EQ(defaults.flows[0].params_as<TcpConfig>().initial_window_segments, 0);  // RFC 5681 3.1
  EXPECT_FALSE(defaults.flows[0].params_as<TcpConfig>().limited_transmit);
  EXPECT_FALSE(defaults.flows[0].params_as<TcpConfig>().timestamps);

  doc["flows"][0]["tcp"] = {{"initial_window_segments", 1}, {"limited_transmit", true}, {"timestamps", true}};
  const Scenario s = parse_scenario(doc);
  EXPECT_EQ(s.flows[0].params_as<TcpConfig>().initial_window_segments, 1);
  EXPECT_TRUE(s.flows[0].params_as<TcpConfig>().limited_transmit);
  EXPECT_TRUE(s.flows[0].params_as<TcpConfig>().timestamps);
  const FlowSpec spec = flow_spec(s.flows[0], FlowAddress{0, 0, 2}, false, 10_s);
  const TcpSenderConfig c = tcp_sender_config(s.flows[0].params_as<TcpConfig>(), spec);
  EXPECT_EQ(c.initial_window_segments, 1u);
  EXPECT_TRUE(c.limited_transmit);
  EXPECT_TRUE(c.timestamps);
  EXPECT_TRUE(tcp_receiver_config(s.flows[0].params_as<TcpConfig>(), spec, {}).timestamps);
}

TEST(TcpOptions, BadValuesNameTheirPath) {
  nlohmann::json doc = test::minimal_scenario();
  doc["flows"][0]["tcp"] = {{"initial_window_segments", 0}, {"limited_transmit", "yes"}, {"timestamps", 1}};
  const auto issues = test::issues_of(doc);
  EXPECT_TRUE(test::has_issue(issues, "/flows/0/tcp/initial_window_segments", "1..100000"));
  EXPECT_TRUE(test::has_issue(issues, "/flows/0/tcp/limited_transmit", "true or false"));
  EXPECT_TRUE(test::has_issue(issues, "/flows/0/tcp/timestamps", "true or false"));
}

TEST(TcpOptions, InitialWindowOfOneAndTen) {
  for (const std::uint32_t iw : {1u, 10u}) {
    auto c = bulk_sender();
    c.initial_window_segments = iw;
    TcpTestBed bed(c);
    bed.scheduler.run_until(1_ms);  // before the first ACK (RTT about 21 ms)
    EXPECT_EQ(bed.pipe.log.size(), iw);
  }
}

struct LimitedTransmitRun {
  TcpSenderStats stats;
  std::uint64_t ssthresh;
  bool finished;
};

// IW 4 and the first two segments lost: segments 2 and 3 bring only two
// duplicate ACKs, one short of fast retransmit.
LimitedTransmitRun two_losses_in_a_small_window(bool limited_transmit) {
  auto c = finite_sender(20 * kMss);
  c.initial_window_segments = 4;
  c.limited_transmit = limited_transmit;
  TcpTestBed bed(c);
  bed.pipe.drop_indices = {0, 1};
  bed.scheduler.run();
  return {bed.sender.stats(), bed.sender.ssthresh_bytes(), bed.sender.finished()};
}

TEST(TcpOptions, LimitedTransmitTurnsATimeoutIntoAFastRetransmit) {
  const LimitedTransmitRun without = two_losses_in_a_small_window(false);
  EXPECT_EQ(without.stats.timeouts, 1u);
  EXPECT_EQ(without.stats.fast_retransmits, 0u);
  EXPECT_EQ(without.stats.limited_transmits, 0u);
  EXPECT_TRUE(without.finished);

  // RFC 3042: segments 4 and 5 go out on the two duplicate ACKs (FlightSize 6 <=
  // cwnd 4 + 2); segment 4's ACK is the third duplicate.
  const LimitedTransmitRun with = two_losses_in_a_small_window(true);
  EXPECT_EQ(with.stats.limited_transmits, 2u);
  EXPECT_EQ(with.stats.fast_retransmits, 1u);
  EXPECT_EQ(with.stats.timeouts, 0u);
  // RFC 5681 3.2 step 2: ssthresh from FlightSize without the two limited-transmit
  // segments, max(4 MSS / 2, 2 MSS) = 2 MSS (with them it would be 3 MSS).
  EXPECT_EQ(with.ssthresh, 2 * kMss);
  EXPECT_TRUE(with.finished);
}

TEST(TcpOptions, TimestampsAddTwelveBytesAndTimeEveryAck) {
  auto c = finite_sender(10 * kMss);
  c.timestamps = true;
  c.trace_rtt = true;
  auto r = testing::receiver_for(c);
  r.timestamps = true;
  TcpTestBed bed(c, r);
  bed.scheduler.run();
  ASSERT_EQ(bed.pipe.log.size(), 10u);
  EXPECT_EQ(bed.pipe.log[0].size_bytes, kMss + kTcpIpHeaderBytes + 12);
  EXPECT_EQ(bed.reverse.counters().delivered_bytes, 10 * (kTcpIpHeaderBytes + 12));
  // RTTM: one sample per ACK that advanced SND.UNA (one per segment here), not
  // one per round trip.
  EXPECT_EQ(bed.sender.rtt_trace().samples().size(), 10u);
  // The first: 1512 bytes at 10 Mbit/s (1209.6 us) + 10 ms, 52 bytes (41.6 us) + 10 ms.
  EXPECT_DOUBLE_EQ(bed.sender.rtt_trace().samples()[0].value, (21'251'200_ns).to_seconds());
}

TEST(TcpOptions, TimestampsTimeARetransmittedSegment) {
  // The segment of RtoDoublesFromTheInitialOneSecond, lost four times: the ACK
  // of the fifth copy echoes that copy's TSval (sent at 15 s), so it is a valid
  // sample despite the retransmissions, and it ends the back-off (RFC 6298 3, 5.7).
  auto c = finite_sender(1000);
  c.timestamps = true;
  auto r = testing::receiver_for(c);
  r.timestamps = true;
  TcpTestBed bed(c, r);
  bed.pipe.drop_indices = {0, 1, 2, 3};
  bed.scheduler.run();
  EXPECT_EQ(bed.pipe.times_of(0), (std::vector<Time>{0_s, 1_s, 3_s, 7_s, 15_s}));
  ASSERT_TRUE(bed.sender.rtt().has_sample());
  // 1052 bytes (841.6 us) + 10 ms there, 52 bytes (41.6 us) + 10 ms back.
  EXPECT_EQ(bed.sender.rtt().srtt(), 20'883'200_ns);
  EXPECT_EQ(bed.sender.rtt().backoffs(), 0);
  EXPECT_EQ(bed.sender.rtt().rto(), 200_ms);
}

TEST(TcpOptions, TimestampEchoedAfterAHoleIsTheFillingSegments) {
  // RFC 7323 4.3: segment 1 lost once. The duplicate ACKs echo segment 0's TSval
  // (the last one in order); the ACK of the retransmission echoes the
  // retransmission's, so the sample is one RTT, not the time since the loss.
  auto c = finite_sender(6 * kMss);
  c.timestamps = true;
  c.trace_rtt = true;
  auto r = testing::receiver_for(c);
  r.timestamps = true;
  TcpTestBed bed(c, r);
  bed.pipe.drop_indices = {1};
  bed.scheduler.run();
  EXPECT_EQ(bed.sender.stats().retransmissions, 1u);
  EXPECT_TRUE(bed.sender.finished());
  for (const TimeSample& s : bed.sender.rtt_trace().samples()) {
    EXPECT_LT(s.value, 0.05) << "sample at " << s.at.to_seconds() << " s";  // one RTT is about 21 ms
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
