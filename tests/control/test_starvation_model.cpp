// The Markov model of paper 000 Sec. 5 (control/starvation_model.hpp).

#include "control/starvation_model.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace wmnsim::control {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

StarvationModelResult solve_with(int cw_min_b, bool rts, int window = 3) {
  StarvationModelParams p;
  p.cw_min_b = cw_min_b;
  p.rts_cts = rts;
  p.window_a = p.window_b = window;
  return solve_starvation_model(p);
}

double sum(const std::array<double, kChannelStates>& p) { return std::accumulate(p.begin(), p.end(), 0.0); }

TEST(StarvationModelChain, RowsSumToOneAndProbabilitiesToOne) {
  for (bool rts : {false, true}) {
    const auto r = solve_with(32, rts);
    EXPECT_LT(r.max_row_sum_error, 1e-13);
    EXPECT_NEAR(sum(r.p), 1.0, 1e-12);
    EXPECT_LT(r.residual, 1e-12);
    EXPECT_GT(r.iterations, 0);
    for (double v : r.p) EXPECT_GE(v, 0.0);
  }
}

TEST(StarvationModelChain, StateCounts) {
  // Feasible: C(W_a + 3, 3) placements of flow A's packets in (Q1, Q2, Q5, Q6), W_b + 1
  // of flow B's in (Q3, Q4), RL^2 stage pairs: 20 * 4 * 49 for W = 3, RL = 7.
  const auto r = solve_with(32, false);
  EXPECT_EQ(r.feasible_states, 3920);
  EXPECT_EQ(r.bound_h, 7 * 7 * 3 * 3 * 3 * 6);  // Eq. (2): 7938
  EXPECT_LE(r.feasible_states, r.bound_h);
  // Reachable: a stage above 0 needs a collision since the last success, hence a
  // non-empty queue at A (resp. GW): sum over the 80 queue configurations of
  // (Q1 > 0 ? 7 : 1) (Qg > 0 ? 7 : 1) = 1964 states. Four configurations with Q1 = Q2
  // = 0 (e.g. all of flow a's packets as ACKs at B, Q6 = 3) can only be entered by a
  // GW success or from a state with Qg = 0, so GW's stage is 0 there: 4 x 6 fewer.
  std::int64_t simple = 0;
  for (int q1 = 0; q1 <= 3; ++q1)
    for (int q2 = 0; q1 + q2 <= 3; ++q2)
      for (int q5 = 0; q1 + q2 + q5 <= 3; ++q5)
        for (int q3 = 0; q3 <= 3; ++q3) {
          const int qg = q5 + (3 - q3);
          simple += (q1 > 0 ? 7 : 1) * (qg > 0 ? 7 : 1);
        }
  EXPECT_EQ(simple, 1964);
  EXPECT_EQ(r.reachable_states, simple - 4 * 6);
  EXPECT_EQ(solve_with(32, false, 1).feasible_states, 4 * 2 * 49);
}

TEST(StarvationModelChain, FlowConservation) {
  // In steady state every packet of flow A crosses links 1, 2 and its ACK links 5, 6;
  // flow B's cross 3 and 4: the channel-state probabilities must agree.
  for (bool rts : {false, true}) {
    const auto r = solve_with(64, rts);
    EXPECT_NEAR(r.p[kLink1], r.p[kLink2], 1e-10);
    EXPECT_NEAR(r.p[kLink1], r.p[kLink5], 1e-10);
    EXPECT_NEAR(r.p[kLink1], r.p[kLink6], 1e-10);
    EXPECT_NEAR(r.p[kLink3], r.p[kLink4], 1e-10);
  }
}

TEST(StarvationModelChain, DurationsFromTable3) {
  // 802.11b long preamble, data 11 Mbit/s, control 2 Mbit/s, SIFS 10, DIFS 50, slot 20.
  // 1500-byte IP packet: 1536-byte MPDU, 192 + ceil(12288 / 11) = 1310 us; MAC ACK at
  // 2 Mbit/s: 192 + 56 = 248 us; a 40-byte TCP ACK: 76-byte MPDU, 192 + 56 = 248 us.
  const auto r = solve_with(32, false);
  EXPECT_NEAR(r.duration_s[kLink1], (1310 + 10 + 248 + 50) * 1e-6, 1e-12);
  EXPECT_NEAR(r.duration_s[kLink4], (248 + 10 + 248 + 50) * 1e-6, 1e-12);
  EXPECT_NEAR(r.duration_s[kIdle], 20e-6, 1e-15);
  EXPECT_EQ(r.first_packet_slots_a, 66);  // 1310 / 20 = 65.5
  EXPECT_EQ(r.first_packet_slots_g, 13);  // 248 / 20 = 12.4
  // RTS at 2 Mbit/s: 192 + 80 = 272 us; CTS 248 us.
  const auto on = solve_with(32, true);
  EXPECT_EQ(on.first_packet_slots_a, 14);
  EXPECT_EQ(on.first_packet_slots_g, 14);
  EXPECT_NEAR(on.duration_s[kLink1], (272 + 10 + 248 + 10 + 1310 + 10 + 248 + 50) * 1e-6, 1e-12);
  // Collision with RTS/CTS: both RTS, the later one starting mid-way (1.5 x 272) or in
  // the same mini-slot (272), then EIFS 364: between 636 and 772 us.
  EXPECT_GT(on.duration_s[kCollision], (272 + 364) * 1e-6);
  EXPECT_LT(on.duration_s[kCollision], (408 + 364) * 1e-6 + 1e-12);
}

TEST(StarvationModelChain, SmallestWindows) {
  // One packet per flow, RTS on (the same first packet for A and GW): both flows
  // move, and Jain's index of two rates lies in [1/2, 1].
  StarvationModelParams p;
  p.window_a = p.window_b = 1;
  p.rts_cts = true;
  const auto r = solve_starvation_model(p);
  EXPECT_GT(r.lambda_a_pps, 0);
  EXPECT_GT(r.lambda_b_pps, 0);
  EXPECT_GE(r.jain_index, 0.5);
  EXPECT_LE(r.jain_index, 1.0);
}

TEST(StarvationModelChain, RetryLimitOneHasNoBackoffState) {
  // RL = 1: the only stage is 0, a collision leaves the state as it was, and every
  // queue configuration is reachable: 20 x 4 states for W = 3.
  StarvationModelParams p;
  p.retry_limit = 1;
  const auto r = solve_starvation_model(p);
  EXPECT_EQ(r.feasible_states, 80);
  EXPECT_EQ(r.reachable_states, 80);
  EXPECT_GT(r.p[kCollision], 0);
  EXPECT_NEAR(sum(r.p), 1.0, 1e-12);
}

TEST(StarvationModelChain, SymmetricAccessOfTheHiddenPair) {
  // A and GW differ only in their queues when they use the same CWmin and the same
  // first packet (RTS on). Giving GW a larger CWmin than A must then favour flow a,
  // and the reverse must favour flow b, relative to the symmetric setting.
  const auto with = [](int a, int g) {
    StarvationModelParams p;
    p.rts_cts = true;
    p.cw_min_a = a;
    p.cw_min_g = g;
    return solve_starvation_model(p).share_a;
  };
  const double same = with(32, 32);
  EXPECT_GT(with(32, 128), same);
  EXPECT_LT(with(128, 32), same);
}

TEST(StarvationModelChain, SmallerPacketsMorePacketsPerSecond) {
  // Fig. 32's 500-byte payload: shorter exchanges, more packets per second.
  StarvationModelParams p;
  const auto big = solve_starvation_model(p);
  p.payload_bytes = 500;
  const auto small = solve_starvation_model(p);
  EXPECT_GT(small.lambda_a_pps + small.lambda_b_pps, big.lambda_a_pps + big.lambda_b_pps);
  EXPECT_NEAR(small.lambda_a_bps, small.lambda_a_pps * 4000, 1e-9);
  EXPECT_LT(small.first_packet_slots_a, big.first_packet_slots_a);
}

TEST(StarvationModelSweep, Figure27And28Trends) {
  // Window 3, CWmin_a = CWmin_g = 32, CWmin_B swept as in Fig. 27.
  const std::vector<int> cws{16, 32, 64, 128, 256, 512};
  for (bool rts : {false, true}) {
    std::printf("RTS/CTS %s\n%8s %12s %12s %8s %8s %14s %6s\n", rts ? "on" : "off", "CWmin_B", "lambda_a/s",
                "lambda_b/s", "share", "Jain", "P(Q1=0,Qg=0)", "iter");
    double prev_share = -1, prev_empty = -1, prev_total = 1e300;
    for (int cw : cws) {
      const auto r = solve_with(cw, rts);
      std::printf("%8d %12.2f %12.2f %8.3f %8.3f %14.4f %6d\n", cw, r.lambda_a_pps, r.lambda_b_pps, r.share_a,
                  r.jain_index, r.p_q1_and_qg_empty, r.iterations);
      // Fig. 27: the two-hop flow's share grows with B's CWmin.
      EXPECT_GT(r.share_a, prev_share) << "CWmin_B " << cw;
      // Fig. 28: queues at A and GW empty together more and more often.
      EXPECT_GT(r.p_q1_and_qg_empty, prev_empty) << "CWmin_B " << cw;
      // Sec. 5.6: removing starvation costs total throughput (flow A uses two hops).
      EXPECT_LT(r.lambda_a_pps + r.lambda_b_pps, prev_total) << "CWmin_B " << cw;
      prev_share = r.share_a;
      prev_empty = r.p_q1_and_qg_empty;
      prev_total = r.lambda_a_pps + r.lambda_b_pps;
      // Starvation at the default CWmin_B = 32; near fair from 128 on. The share stays
      // below 1/2 even for a huge CWmin_B: B then holds every packet and serves its
      // non-empty queues equally, and flow A needs two of B's services per packet
      // (data on link 2, its ACK on link 6) against one for flow B.
      if (cw == 32) {
        EXPECT_LT(r.share_a, 0.25);
      }
      if (cw >= 128) {
        EXPECT_GT(r.jain_index, 0.9);
        EXPECT_GT(r.share_a, 0.35);
        EXPECT_LT(r.share_a, 0.5);
      }
    }
  }
}

TEST(StarvationModelParams, BadValuesThrow) {
  const auto bad = [](auto mutate) {
    StarvationModelParams p;
    mutate(p);
    EXPECT_THROW(solve_starvation_model(p), std::invalid_argument);
  };
  bad([](StarvationModelParams& p) { p.window_a = 0; });
  bad([](StarvationModelParams& p) { p.window_b = -1; });
  bad([](StarvationModelParams& p) { p.cw_min_b = 48; });
  bad([](StarvationModelParams& p) { p.cw_min_a = 1; });
  bad([](StarvationModelParams& p) { p.cw_min_g = 2048; });
  bad([](StarvationModelParams& p) { p.retry_limit = 0; });
  bad([](StarvationModelParams& p) { p.payload_bytes = 0; });
  bad([](StarvationModelParams& p) { p.data_rate_bps = 54e6; });
  bad([](StarvationModelParams& p) { p.window_a = p.window_b = 200; });  // too many states
  StarvationModelParams p;
  p.window_a = 300;
  try {
    solve_starvation_model(p);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("window_a"), std::string::npos) << e.what();
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::control
