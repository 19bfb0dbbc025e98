// Saturated senders in the topologies where carrier sense misleads: hidden
// terminals, and paper 001's Fig. 1 (information asymmetry, flow in the middle).
// Each pair of radios is either in range (-60 dB) or out of range altogether.

#include <gtest/gtest.h>

#include <cstdio>

#include "mac_world.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;

constexpr std::uint32_t kBytes = 1500;
constexpr Time kRun = 5_s;

MacWorld dot11b() { return MacWorld(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6); }

double delivered_mbps(const MacWorld& w, std::uint32_t receiver) {
  return static_cast<double>(w.taps[receiver]->delivered.size()) * kBytes * 8.0 / kRun.to_seconds() / 1e6;
}

struct HiddenResult {
  double a_mbps, c_mbps;
  double a_success_ratio;  // acknowledged / attempts
};

HiddenResult hidden_terminals(double data_bps, bool rts) {
  // A -> B <- C, A and C out of each other's range.
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), data_bps, 1e6);
  const auto a = w.add(), b = w.add(), c = w.add();
  w.hide(a, c);
  if (rts) w.params().rts_threshold_bytes = 500;
  w.build();
  w.taps[a]->saturate(b, kBytes);
  w.taps[c]->saturate(b, kBytes);
  w.run(kRun);
  const auto& sa = w.macs[a]->stats();
  const auto& sc = w.macs[c]->stats();
  const double per_frame = kBytes * 8.0 / kRun.to_seconds() / 1e6;
  return {static_cast<double>(sa.tx_success) * per_frame, static_cast<double>(sc.tx_success) * per_frame,
          static_cast<double>(sa.tx_success) / static_cast<double>(sa.data_attempts)};
}

TEST(MacTopologies, HiddenTerminalsLoseFramesWithoutRtsAndRecoverWithIt) {
  for (const double rate : {2e6, 11e6}) {
    const HiddenResult basic = hidden_terminals(rate, false);
    const HiddenResult rts = hidden_terminals(rate, true);
    std::printf("hidden terminals at %2.0f Mbit/s, basic:   A %.3f C %.3f Mbit/s, A success ratio %.3f\n", rate / 1e6,
                basic.a_mbps, basic.c_mbps, basic.a_success_ratio);
    std::printf("hidden terminals at %2.0f Mbit/s, RTS/CTS: A %.3f C %.3f Mbit/s, A success ratio %.3f\n", rate / 1e6,
                rts.a_mbps, rts.c_mbps, rts.a_success_ratio);
    // Without RTS/CTS the hidden sender's backoff runs on during the other's DATA
    // frame, so frames overlap at B unless the windows have grown past the frame
    // (65 slots at 11 Mbit/s, 317 at 2 Mbit/s): many frames are lost, most at 2 Mbit/s.
    EXPECT_LT(basic.a_success_ratio, rate < 5e6 ? 0.4 : 0.6) << rate;
    // With it, the CTS silences the hidden sender: almost every DATA frame gets through.
    EXPECT_GT(rts.a_success_ratio, 0.9) << rate;
    EXPECT_GT(rts.a_mbps + rts.c_mbps, basic.a_mbps + basic.c_mbps) << rate;
    // Both senders get a share: RTS/CTS restores contention, not one winner.
    EXPECT_NEAR(rts.a_mbps / (rts.a_mbps + rts.c_mbps), 0.5, 0.1) << rate;
  }
}

TEST(MacTopologies, InformationAsymmetryStarvesTheDisadvantagedSender) {
  // 001 Fig. 1a: S1 -> R1 and S2 -> R2; S1 and S2 cannot hear each other, R1 hears
  // S2 (so S2's frames collide with S1's at R1), R2 does not hear S1.
  MacWorld w = dot11b();
  const auto s1 = w.add(), r1 = w.add(), s2 = w.add(), r2 = w.add();
  w.hide(s1, s2);
  w.hide(s1, r2);
  w.hide(r1, r2);
  w.build();
  w.taps[s1]->saturate(r1, kBytes);
  w.taps[s2]->saturate(r2, kBytes);
  w.run(kRun);
  const double f1 = delivered_mbps(w, r1), f2 = delivered_mbps(w, r2);
  std::printf("information asymmetry: S1 %.3f Mbit/s, S2 %.3f Mbit/s\n", f1, f2);
  EXPECT_LT(f1, 0.15 * f2);  // S1 collapses ...
  EXPECT_GT(f2, 5.0);        // ... while S2 runs at about the link capacity (6 Mbit/s alone)
}

TEST(MacTopologies, FlowInTheMiddleStarves) {
  // 001 Fig. 1b: S2 senses S1 and S3, which do not sense each other; each
  // receiver hears only its own sender.
  MacWorld w = dot11b();
  const auto s1 = w.add(), r1 = w.add(), s2 = w.add(), r2 = w.add(), s3 = w.add(), r3 = w.add();
  const std::uint32_t all[] = {s1, r1, s2, r2, s3, r3};
  for (auto x : all) {
    for (auto y : all) {
      if (x < y) w.hide(x, y);
    }
  }
  w.set_gain(s1, r1, -60.0);
  w.set_gain(s2, r2, -60.0);
  w.set_gain(s3, r3, -60.0);
  w.set_gain(s1, s2, -60.0);
  w.set_gain(s2, s3, -60.0);
  w.build();
  w.taps[s1]->saturate(r1, kBytes);
  w.taps[s2]->saturate(r2, kBytes);
  w.taps[s3]->saturate(r3, kBytes);
  w.run(kRun);
  const double f1 = delivered_mbps(w, r1), f2 = delivered_mbps(w, r2), f3 = delivered_mbps(w, r3);
  std::printf("flow in the middle: S1 %.3f, S2 %.3f, S3 %.3f Mbit/s\n", f1, f2, f3);
  // S2 defers to either neighbour and counts down only when both are idle: it gets
  // a small fraction of what the outer senders get (about a fifth here).
  EXPECT_LT(f2, 0.25 * std::min(f1, f3));
  EXPECT_GT(f1, 5.0);
  EXPECT_GT(f3, 5.0);
}

TEST(MacTopologies, ChannelBusyTimeCountsTransmitReceiveAndNav) {
  // 003's channel busyness ratio: one saturated link, seen by a third station that
  // hears both ends: busy nearly all the time except the idle DIFS+backoff gaps.
  MacWorld w = dot11b();
  const auto a = w.add(), b = w.add(), c = w.add();
  w.build();
  w.taps[a]->saturate(b, kBytes);
  w.run(kRun);
  const double ratio_c = w.macs[c]->channel_busy_time().to_seconds() / kRun.to_seconds();
  const double ratio_a = w.macs[a]->channel_busy_time().to_seconds() / kRun.to_seconds();
  // Per exchange: DATA 1310 + SIFS 10 + ACK 304 busy, DIFS 50 + on average 15.5
  // slots of 20 us idle: 1624 / (1624 + 360) = 0.8185.
  EXPECT_NEAR(ratio_c, 1624.0 / 1984.0, 0.01);
  // The sender is busy transmitting its DATA and receiving the ACK, not in SIFS.
  EXPECT_NEAR(ratio_a, 1614.0 / 1984.0, 0.01);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
