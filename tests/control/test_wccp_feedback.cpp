// WCCP's per-node arithmetic (003 Sec. III-C to III-E, control/wccp_feedback.hpp)
// against numbers worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "control/wccp_feedback.hpp"

namespace wmnsim::control {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

CongestionHeader header(double rate_pps, Time tc, double fb = WccpFeedback::kNoFeedback) {
  CongestionHeader h;
  h.rate_pps = rate_pps;
  h.control_interval = tc;
  h.feedback_pps = fb;
  return h;
}

WccpFeedbackParams params() {
  WccpFeedbackParams p;
  p.initial_control_interval = 1_s;
  return p;
}

TEST(WccpFeedback, StartsWithItsInitialIntervalAndNoFeedback) {
  WccpFeedback f(params());
  EXPECT_EQ(f.control_interval(), 1_s);
  // Before any interval ended there is nothing to hand out.
  EXPECT_EQ(f.feedback(header(10, 500_ms), 1000, 1), 0.0);
  // A packet without a rate (a sender's first) gets none at all.
  EXPECT_EQ(f.feedback(header(0, 0_s), 1000, 1), WccpFeedback::kNoFeedback);
}

// Fig. 1(b) at node 5: flows 1 (ends here) and 3 (starts here) seen once, flow 2
// (passes) twice, so S = r1 + r3 + 2 r2 and J = 4 (Sec. III-C/D).
TEST(WccpFeedback, CountsForwardedPacketsTwiceInTrafficAndFlows) {
  WccpFeedback f(params());
  // In one 1-s interval each flow sends 10 packets of 1000 bytes at r_p = 10/s.
  for (int k = 0; k < 10; ++k) {
    f.observe(header(10, 500_ms), 1000, 1);  // flow 1, delivered
    f.observe(header(10, 500_ms), 1000, 1);  // flow 3, originated
    f.observe(header(10, 500_ms), 1000, 2);  // flow 2, forwarded
  }
  const WccpInterval& r = f.end_interval(0.46, 1_s);
  EXPECT_DOUBLE_EQ(r.traffic_bytes, 40000.0);  // S = 10k + 10k + 2 x 10k
  EXPECT_DOUBLE_EQ(r.flows, 4.0);              // Eq. 7: J = sum 1/(r_p T) = 40 x 1/10
  EXPECT_DOUBLE_EQ(r.observations, 40.0);      // K
  // Eq. 5: Delta S = (0.92 - 0.46) / 0.46 x 40000 = 40000: r_b reaches th_b once S doubles.
  EXPECT_NEAR(r.delta_bytes, 40000.0, 1e-9);
  EXPECT_NEAR(r.increase_bytes, 40000.0, 1e-9);  // no shuffling: 40000 >= 0.1 x 80000
  EXPECT_DOUBLE_EQ(r.decrease_bytes, 0.0);
  // Eq. 8: C_p = Delta S / (T J) = 40000 / (1 x 4) = 10000 bytes/s per flow.
  EXPECT_NEAR(r.increase_per_flow_bps, 10000.0, 1e-9);
  // Eq. 17: every sender uses 0.5 s, so the average control interval is 0.5 s.
  EXPECT_EQ(r.next_length, 500_ms);
  EXPECT_EQ(f.control_interval(), 500_ms);
}

TEST(WccpFeedback, PerPacketFeedbackSumsToEachFlowsShareAndStopsAtTheBudget) {
  WccpFeedback f(params());
  for (int k = 0; k < 10; ++k) {
    f.observe(header(10, 1_s), 1000, 1);
    f.observe(header(10, 1_s), 1000, 2);
  }
  // S = 30000, J = 3, r_b = 0.46: Delta S = 30000, C_p = 10000 bytes/s.
  const WccpInterval& r = f.end_interval(0.46, 1_s);
  ASSERT_NEAR(r.increase_per_flow_bps, 10000.0, 1e-9);
  ASSERT_EQ(f.control_interval(), 1_s);
  // Eq. 9: pf = C_p / (r_p T) = 10000 / 10 = 1000 bytes/s = 1 packet/s per
  // 1000-byte packet: ten packets of a flow raise its rate by 10 packets/s.
  EXPECT_NEAR(f.feedback(header(10, 1_s), 1000, 1), 1.0, 1e-12);
  // The budget is Delta S / T = 30000 bytes/s; a forwarded packet spends twice.
  double spent = 1000.0;
  int forwarded = 0;
  while (spent + 2000.0 <= 30000.0 + 1e-6) {
    EXPECT_NEAR(f.feedback(header(10, 1_s), 1000, 2), 1.0, 1e-12);
    spent += 2000.0;
    ++forwarded;
  }
  EXPECT_EQ(forwarded, 14);  // 1000 + 14 x 2000 = 29000; 1000 bytes/s left
  // The last 1000 bytes/s of budget cover half a forwarded packet's share ...
  EXPECT_NEAR(f.feedback(header(10, 1_s), 1000, 2), 0.5, 1e-9);
  // ... and then the local feedback is zero until the next interval (Sec. III-D).
  EXPECT_EQ(f.feedback(header(10, 1_s), 1000, 1), 0.0);
}

TEST(WccpFeedback, DecreaseLawIsProportionalToTheFlowsPackets) {
  WccpFeedback f(params());
  // 40 packets at r_p = 40/s (one flow, originated) in 1 s; r_b = 1.0 > th_b.
  for (int k = 0; k < 40; ++k) f.observe(header(40, 1_s), 1000, 1);
  const WccpInterval& r = f.end_interval(1.0, 1_s);
  // Eq. 5: Delta S = (0.92 - 1) / 1 x 40000 = -3200; |Delta S| < 0.1 x 36800 =
  // 3680, so Eq. 13 shuffles: Delta S- = -3680, Delta S+ = 480.
  EXPECT_NEAR(r.delta_bytes, -3200.0, 1e-9);
  EXPECT_NEAR(r.decrease_bytes, -3680.0, 1e-9);
  EXPECT_NEAR(r.increase_bytes, 480.0, 1e-9);
  // Eq. 12: C_n = Delta S- / K = -92 bytes; Eq. 8: C_p = 480 / 1 = 480 bytes/s.
  EXPECT_NEAR(r.decrease_constant, -92.0, 1e-9);
  EXPECT_NEAR(r.increase_per_flow_bps, 480.0, 1e-9);
  // Per packet: pf+ = 480 / (40 x 1) = 12 bytes/s, pf- = -92 / 1 = -92 bytes/s:
  // -80 bytes/s, -0.08 packet/s for a 1000-byte packet; 40 packets: -3.2 packets/s,
  // the 3200 bytes/s Delta S asks for.
  EXPECT_NEAR(f.feedback(header(40, 1_s), 1000, 1), -0.08, 1e-12);
}

TEST(WccpFeedback, ShufflesAlsoWhenTheIncreaseIsSmall) {
  WccpFeedback f(params());
  for (int k = 0; k < 10; ++k) f.observe(header(10, 1_s), 1000, 1);
  // r_b = 0.9: Delta S = 0.02/0.9 x 10000 = 222.2; alpha (S + Delta S) = 1022.2.
  const WccpInterval& r = f.end_interval(0.9, 1_s);
  const double ds = 0.02 / 0.9 * 10000.0;
  EXPECT_NEAR(r.delta_bytes, ds, 1e-9);
  EXPECT_NEAR(r.increase_bytes, 0.1 * (10000.0 + ds), 1e-9);
  EXPECT_NEAR(r.decrease_bytes, ds - 0.1 * (10000.0 + ds), 1e-9);
  EXPECT_NEAR(r.increase_bytes + r.decrease_bytes, r.delta_bytes, 1e-9);
}

TEST(WccpFeedback, FastFlowsGiveToSlowOnesUnderShuffling) {
  WccpFeedback f(params());
  // Two flows through the node, 30/s and 10/s, at the threshold: Delta S = 0.
  for (int k = 0; k < 30; ++k) f.observe(header(30, 1_s), 1000, 1);
  for (int k = 0; k < 10; ++k) f.observe(header(10, 1_s), 1000, 1);
  const WccpInterval& r = f.end_interval(0.92, 1_s);
  EXPECT_DOUBLE_EQ(r.delta_bytes, 0.0);
  // Exactly at th_b the strict inequalities of Eq. 13 do not hold: nothing moves.
  EXPECT_DOUBLE_EQ(r.increase_bytes, 0.0);
  EXPECT_DOUBLE_EQ(r.decrease_bytes, 0.0);

  for (int k = 0; k < 30; ++k) f.observe(header(30, 1_s), 1000, 1);
  for (int k = 0; k < 10; ++k) f.observe(header(10, 1_s), 1000, 1);
  f.end_interval(0.91, 1_s);  // just below: Delta S > 0, shuffled
  double fast = 0.0, slow = 0.0;
  for (int k = 0; k < 30; ++k) fast += f.feedback(header(30, 1_s), 1000, 1);
  for (int k = 0; k < 10; ++k) slow += f.feedback(header(10, 1_s), 1000, 1);
  // The slow flow gains, the fast one loses: AIMD moves them towards each other.
  EXPECT_GT(slow, 0.0);
  EXPECT_LT(fast, 0.0);
  EXPECT_GT(slow, fast);
}

TEST(WccpFeedback, AveragesControlIntervalsByPacketRate) {
  WccpFeedback f(params());
  // Eq. 17: flow A, T_c = 0.2 s at 50/s (10 packets in the interval); flow B,
  // T_c = 1 s at 5/s (1 packet). sum T/r = 10 x 0.2/50 + 1 x 1/5 = 0.24;
  // sum 1/r = 10/50 + 1/5 = 0.4: T_c,new = 0.6 s, the mean of 0.2 and 1.
  for (int k = 0; k < 10; ++k) f.observe(header(50, 200_ms), 1000, 1);
  f.observe(header(5, 1_s), 1000, 1);
  EXPECT_EQ(f.end_interval(0.5, 200_ms).next_length, 600_ms);
}

TEST(WccpFeedback, QuietIntervalsGiveNoFeedbackAndKeepTheInterval) {
  WccpFeedback f(params());
  const WccpInterval& r = f.end_interval(0.0, 1_s);
  EXPECT_DOUBLE_EQ(r.delta_bytes, 0.0);
  EXPECT_EQ(r.next_length, 1_s);
  // First packets only (r_p = 0): they count in S, but give no rate to allocate by.
  f.observe(header(0, 0_s), 1000, 1);
  const WccpInterval& q = f.end_interval(0.3, 1_s);
  EXPECT_DOUBLE_EQ(q.traffic_bytes, 1000.0);
  EXPECT_DOUBLE_EQ(q.delta_bytes, 0.0);
  EXPECT_EQ(f.feedback(header(10, 1_s), 1000, 1), 0.0);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::control
