// The retransmission timer after timeouts (RFC 6298 5.5-5.7 and Karn's
// algorithm, Sec. 3): the backed-off RTO is kept until an ACK for a segment that
// was never retransmitted gives a valid RTT sample. Collapsing it on any new ACK
// (wmnsim before issue 14) left a flow whose RTT had grown past the RTO timing
// out for ever: every ACK after a timeout covers resent bytes (no sample), the
// RTO falls back to the stale SRTT's, and the next timeout abandons the sample
// of the new data before its ACK can come back.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/transport/tcp_test_bed.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;
using testing::bulk_sender;
using testing::finite_sender;
using testing::TcpTestBed;

constexpr std::uint64_t kMss = 1460;

TEST(TcpBackoff, AnAckOfResentBytesKeepsTheBackedOffRto) {
  // One segment, lost four times: sent at 0, 1, 3, 7 and 15 s. The ACK of the
  // fifth copy covers a retransmitted segment: no sample, so the RTO stays at
  // 1 s * 2^4 (ns-2's newack resets t_backoff_ only with a sample; Linux's
  // tcp_ack_no_tstamp likewise).
  TcpTestBed bed(finite_sender(1000));
  bed.pipe.drop_indices = {0, 1, 2, 3};
  bed.scheduler.run();
  EXPECT_EQ(bed.pipe.times_of(0), (std::vector<Time>{0_s, 1_s, 3_s, 7_s, 15_s}));
  EXPECT_FALSE(bed.sender.rtt().has_sample());
  EXPECT_EQ(bed.sender.rtt().backoffs(), 4);
  EXPECT_EQ(bed.sender.rtt().rto(), 16_s);
}

TEST(TcpBackoff, BackedOffRtoRestartsTheTimerAfterANewAckOfResentBytes) {
  // IW = 3 segments at t = 0; segment 1 is lost twice. The first ACK (RTT
  // 21.232 ms) sets RTO = 200 ms; segments 3 and 4 follow and, with 2, bring
  // three duplicate ACKs: the fast retransmission of 1 is lost too, and segment 5
  // (sent in recovery) as well. The timeout at ack + 200 ms doubles the RTO to
  // 400 ms and resends 1, whose ACK covers everything up to 5 but resent bytes:
  // no sample. That ACK restarts the timer with 400 ms (RFC 6298 5.3 with the
  // backed-off RTO; before issue 14 it fell back to 200 ms) and resends 5, which
  // is lost again: its next copy goes out 400 ms later.
  TcpTestBed bed(finite_sender(6 * kMss));
  int lost1 = 0;
  int lost5 = 0;
  bed.pipe.drop_if = [&](const Packet& p, std::size_t) {
    if (p.transport.seq == kMss && lost1 < 2) return ++lost1, true;
    if (p.transport.seq == 5 * kMss && lost5 < 2) return ++lost5, true;
    return false;
  };
  bed.scheduler.run();
  const Time ack = 21'232_us;
  const std::vector<Time> seg1 = bed.pipe.times_of(kMss);
  ASSERT_EQ(seg1.size(), 3u);
  EXPECT_EQ(seg1[2], ack + 200_ms);
  const std::vector<Time> seg5 = bed.pipe.times_of(5 * kMss);
  ASSERT_EQ(seg5.size(), 3u);
  EXPECT_LT(seg5[0], seg1[2]);  // in fast recovery
  EXPECT_EQ(seg5[2] - seg5[1], 400_ms);
  EXPECT_EQ(bed.sender.stats().fast_retransmits, 1u);
  EXPECT_EQ(bed.sender.stats().timeouts, 2u);
  EXPECT_EQ(bed.sender.rtt().backoffs(), 2);  // no sample after the first
  EXPECT_TRUE(bed.sender.finished());
}

struct DelayStep {
  std::uint64_t timeouts_total = 0;
  std::uint64_t timeouts_before_step = 0;
  std::uint64_t timeouts_first_20s = 0;  // after the step
  std::uint64_t timeouts_last_30s = 0;
  std::uint64_t samples_after_step = 0;
  Time srtt;
  Time rto;
  double goodput_last_30s_bps = 0.0;
};

// A bulk flow (window 16) with a 21 ms RTT; at 10 s the forward path starts
// holding every data segment 1 s longer (as when a multi-hop flow's queue builds
// up behind other flows): the RTO from the old SRTT (the 200 ms floor) is five
// times too short.
DelayStep run_delay_step(bool timestamps = false) {
  auto c = bulk_sender();
  c.window_packets = 16;
  c.timestamps = timestamps;
  c.trace_rtt = true;
  auto r = testing::receiver_for(c);
  r.timestamps = timestamps;
  r.window = MeasurementWindow{40_s, 70_s};
  TcpTestBed bed(c, r);
  bed.pipe.extra_delay = [](Time now) { return now >= 10_s ? 1_s : Time::zero(); };
  DelayStep out;
  bed.scheduler.run_until(10_s);
  out.timeouts_before_step = bed.sender.stats().timeouts;
  bed.scheduler.run_until(30_s);
  out.timeouts_first_20s = bed.sender.stats().timeouts - out.timeouts_before_step;
  bed.scheduler.run_until(40_s);
  const std::uint64_t at40 = bed.sender.stats().timeouts;
  bed.scheduler.run_until(70_s);
  out.timeouts_last_30s = bed.sender.stats().timeouts - at40;
  for (const TimeSample& s : bed.sender.rtt_trace().samples()) {
    if (s.at > 10_s) ++out.samples_after_step;
  }
  out.srtt = bed.sender.rtt().srtt();
  out.rto = bed.sender.rtt().rto();
  out.goodput_last_30s_bps = bed.receiver.goodput_bps();
  out.timeouts_total = bed.sender.stats().timeouts;
  return out;
}

TEST(TcpBackoff, RttGrowingPastTheRtoEndsInAValidSampleNotInEndlessTimeouts) {
  const DelayStep d = run_delay_step();
  EXPECT_EQ(d.timeouts_before_step, 0u);
  // The step costs spurious timeouts until the RTO has doubled past the new RTT
  // (200 ms -> 400 -> 800 -> 1600 ms): a handful, not one per RTT.
  EXPECT_GE(d.timeouts_first_20s, 1u);
  EXPECT_LE(d.timeouts_first_20s, 6u);
  // Then new data is timed and its ACK arrives before the backed-off RTO: valid
  // samples, an SRTT at the new RTT and no more timeouts.
  EXPECT_GT(d.samples_after_step, 10u);
  EXPECT_GT(d.srtt, 1_s);
  EXPECT_LT(d.srtt, 1100_ms);
  EXPECT_GT(d.rto, d.srtt);
  EXPECT_EQ(d.timeouts_last_30s, 0u);
  // The window-limited rate at the new RTT: 16 segments per 1.02 s is 183 kbit/s.
  EXPECT_GT(d.goodput_last_30s_bps, 0.9 * 16 * kMss * 8 / 1.03);
}

TEST(TcpBackoff, TimestampsTimeTheDelayedOriginalsAtOnce) {
  // RFC 7323 RTTM: the ACKs of the held-back originals echo their TSvals, so the
  // first of them is a valid sample of the new RTT, resent segments or not.
  const DelayStep d = run_delay_step(true);
  EXPECT_EQ(d.timeouts_before_step, 0u);
  EXPECT_LE(d.timeouts_first_20s, 2u);
  EXPECT_EQ(d.timeouts_last_30s, 0u);
  EXPECT_GT(d.srtt, 1_s);
  EXPECT_LT(d.srtt, 1100_ms);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
