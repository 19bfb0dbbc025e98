// What the reception model's decisions mean for the MAC's deferral: a frame that
// is locked onto and lost is followed by EIFS, one whose preamble is not detected
// by DIFS (802.11-2012 9.3.2.3.7; ns-2 Mac802_11::recv_timer).

#include <gtest/gtest.h>

#include <cmath>

#include "tests/mac/mac_world.hpp"

namespace wmnsim::mac::testing {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

constexpr std::uint32_t kBytes = 1500;

// A sends to B; C hears A's frame only (at `a_to_c_dbm`), not B's ACK, and gets a
// packet for D (hidden from A and B) while A's frame is on the air. Returns when
// C's first frame starts, less A's frame end, less C's backoff: EIFS, DIFS, or
// under ns-2's deferral EIFS + DIFS.
struct Deferral {
  Time after_frame;
  std::uint64_t rx_errors;
};

// When C's first frame started, less the end of the frame(s) it deferred to (queued
// at 0, so ending at DIFS + their airtime), less its first backoff, replayed from an
// identical stream; and C's reception errors.
Deferral deferral_of(MacWorld& w, std::uint32_t c) {
  const MacTiming t = w.timing();
  RandomStream draws = w.backoff_stream(c);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  const auto& sc = w.taps[c]->sent;
  EXPECT_GE(sc.size(), 1u);
  if (sc.empty()) return {Time::zero(), 0};
  return {sc[0].at - (t.difs + w.airtime_data(kBytes)) - k * t.slot, w.macs[c]->stats().rx_errors};
}

Deferral deferral_at_c(const phy::ReceptionConfig& rc, double a_to_c_dbm,
                       ::wmnsim::Deferral rule = ::wmnsim::Deferral::standard) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, MacType::dcf, 1, rc);
  w.params().deferral = rule;
  const auto a = w.add(), b = w.add(), c = w.add(), d = w.add();
  w.set_gain(a, c, a_to_c_dbm - 20.0);  // radios transmit at 20 dBm
  w.hide(b, c);
  w.hide(a, d);
  w.hide(b, d);
  w.build();
  w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  w.send_at(t.difs + 100_us, c, d, kBytes);
  w.run(50_ms);
  return deferral_of(w, c);
}

TEST(MacReception, Ns2FrameBelowRxThreshButAboveCsThreshIsFollowedByEifs) {
  // ns-2 locks onto it (WirelessPhy::sendUp marks it in error), and recv_timer sets
  // the NAV to EIFS; wmnsim's MAC defers EIFS after the errored reception. The
  // threshold model only senses such a frame: no error, DIFS.
  phy::ReceptionConfig rc = MacWorld::ns2_reception();
  const MacTiming t = mac_timing(phy::profile_80211b(phy::Preamble::Long), *phy::find_mcs(phy::PhyFamily::Dsss, 1'000'000));
  const Deferral ns2 = deferral_at_c(rc, -72.5);  // 400 m under the ns-2 preset
  EXPECT_EQ(ns2.rx_errors, 1u);
  EXPECT_EQ(ns2.after_frame, t.eifs);
  rc.kind = phy::ReceptionKind::threshold;
  const Deferral threshold = deferral_at_c(rc, -72.5);
  EXPECT_EQ(threshold.rx_errors, 0u);
  EXPECT_EQ(threshold.after_frame, t.difs);
}

TEST(MacReception, Ns2DeferralKeepsEifsInTheNavThenDifs) {
  // deferral "ns2": ns-2's recv_timer sets the NAV to EIFS at the lost frame's end,
  // and the backoff resumes after DIFS once the NAV ends: EIFS + DIFS in all.
  phy::ReceptionConfig rc = MacWorld::ns2_reception();
  const MacTiming t = mac_timing(phy::profile_80211b(phy::Preamble::Long), *phy::find_mcs(phy::PhyFamily::Dsss, 1'000'000));
  const Deferral ns2 = deferral_at_c(rc, -72.5, ::wmnsim::Deferral::ns2);
  EXPECT_EQ(ns2.rx_errors, 1u);
  EXPECT_EQ(ns2.after_frame, t.eifs + t.difs);
}

TEST(MacReception, UndetectedPreambleIsFollowedByDifsNotEifs) {
  // sinr: A's frame reaches C 3 dB above the noise, far too weak for 11 Mbit/s.
  // Detected (no SNR condition), it is locked onto and lost: EIFS. With a 4 dB
  // preamble-detection threshold it is energy only: no error, DIFS.
  phy::ReceptionConfig rc = MacWorld::reception();
  rc.cca_threshold = phy::PowerDbm(-92.0);  // the energy keeps the medium busy either way
  const MacTiming t = mac_timing(phy::profile_80211b(phy::Preamble::Long), *phy::find_mcs(phy::PhyFamily::Dsss, 1'000'000));
  const Deferral detected = deferral_at_c(rc, -90.5);
  EXPECT_EQ(detected.rx_errors, 1u);
  EXPECT_EQ(detected.after_frame, t.eifs);
  rc.preamble_detection_snr = phy::Db(4.0);
  const Deferral undetected = deferral_at_c(rc, -90.5);
  EXPECT_EQ(undetected.rx_errors, 0u);
  EXPECT_EQ(undetected.after_frame, t.difs);
}

// A sends to B and E to F at the same instant; C hears both frames at the same
// power (-40 dBm), nothing else, and gets a packet for D while they are on the
// air. Returns what deferral_at_c returns.
Deferral deferral_after_two_frames(const phy::ReceptionConfig& rc) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, MacType::dcf, 1, rc);
  const auto a = w.add(), b = w.add(), c = w.add(), d = w.add(), e = w.add(), f = w.add();
  for (const auto& [x, y] : {std::pair{a, e}, {a, f}, {b, e}, {b, f}, {b, c}, {c, f}, {d, a}, {d, b}, {d, e}, {d, f}}) {
    w.hide(x, y);
  }
  w.build();
  w.send(a, b, kBytes);
  w.send(e, f, kBytes);
  const MacTiming t = w.timing();
  w.send_at(t.difs + 100_us, c, d, kBytes);
  w.run(50_ms);
  EXPECT_EQ(w.taps[a]->sent.at(0).at, w.taps[e]->sent.at(0).at);  // both at DIFS
  return deferral_of(w, c);
}

TEST(MacReception, TwoFramesStartingTogetherAreFollowedByEifsAtArrivalAndDifsOverAWindow) {
  // Judged at arrival, C locks onto the first frame (53 dB over the noise) and loses
  // it to the second: an error, EIFS (802.11-2012 9.3.2.3.7). Judged at the end of
  // ns-3's 4-us window, each has 0 dB against the other, below the 4-dB threshold:
  // neither is detected, no error, DIFS.
  const MacTiming t = mac_timing(phy::profile_80211b(phy::Preamble::Long), *phy::find_mcs(phy::PhyFamily::Dsss, 1'000'000));
  phy::ReceptionConfig rc = MacWorld::reception();
  rc.preamble_detection_snr = phy::Db(4.0);
  const Deferral arrival = deferral_after_two_frames(rc);
  EXPECT_EQ(arrival.rx_errors, 1u);
  EXPECT_EQ(arrival.after_frame, t.eifs);
  rc.preamble_detection = phy::PreambleDetection::window;
  const Deferral window = deferral_after_two_frames(rc);
  EXPECT_EQ(window.rx_errors, 0u);
  EXPECT_EQ(window.after_frame, t.difs);
}

// A sends to B while C, whose frame A cannot help receiving under ns-2's reception
// (it locks on during its own transmission), sends to D at the same instant. C's
// frame is `extra_bytes` longer, so it ends after A's. Only a reception that begins
// after A's frame can be the ACK (802.11-2012 9.3.2.8: a PHY-RXSTART within the
// ACKTimeout); C's frame, lost at A, must not fail A's exchange, and B's ACK, which
// starts a SIFS after A's frame, is received once C's frame has ended.
// Radios: A = 0, B = 1, C = 2, D = 3. Both frames are queued at 0.
struct Overlap {
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6, MacType::dcf, 1, MacWorld::ns2_reception()};
  explicit Overlap(std::uint32_t extra_bytes) {
    const auto a = w.add(), b = w.add(), c = w.add(), d = w.add();
    w.hide(b, c);
    w.hide(a, d);
    w.hide(b, d);
    w.build();
    w.send(a, b, kBytes);
    w.send(c, d, kBytes + extra_bytes);
  }
  MacStats a_stats() const { return w.macs[0]->stats(); }
};

TEST(MacReception, FrameThatBeganDuringOurOwnDoesNotFailTheAwaitedAck) {
  // C's frame ends 8 us after A's (one byte at 1 Mbit/s), before B's ACK starts.
  Overlap o(1);
  o.w.run(20_ms);
  EXPECT_EQ(o.w.taps[0]->sent.at(0).at, o.w.taps[2]->sent.at(0).at);  // both went at DIFS
  EXPECT_EQ(o.a_stats().rx_errors, 1u);  // C's frame, lost at A
  EXPECT_EQ(o.a_stats().tx_success, 1u);
  EXPECT_EQ(o.a_stats().failed_attempts, 0u);
}

// A radio that only overhears (E: both frames collide there, and the ACKs are not
// for it) holds no traffic records, the MAC's counters included
// (frame_exchange.hpp, TrafficRecords; issue 43 §3), yet counts the frame it locked
// onto and lost; the radios that send or are sent to hold them.
TEST(MacReception, OverhearingRadioHoldsNoTrafficRecordsButCountsItsErrors) {
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6, MacType::dcf, 1, MacWorld::ns2_reception()};
  const auto a = w.add(), b = w.add(), c = w.add(), d = w.add(), e = w.add();
  w.hide(b, c);
  w.hide(a, d);
  w.hide(b, d);
  w.build();
  w.send(a, b, kBytes);
  w.send(c, d, kBytes + 1);
  w.run(50_ms);
  EXPECT_GE(w.macs[e]->stats().rx_errors, 1u);
  EXPECT_FALSE(w.macs[e]->holds_traffic_records());
  EXPECT_EQ(w.macs[e]->stats().tx_success, 0u);
  for (const auto sent_or_addressed : {a, b, c, d}) EXPECT_TRUE(w.macs[sent_or_addressed]->holds_traffic_records());
  EXPECT_EQ(w.macs[a]->stats().tx_success + w.macs[c]->stats().tx_success, 2u);
}

TEST(MacReception, FrameThatBeganDuringOurOwnAndCoversTheAckFailsAtTheTimeout) {
  // C's frame lasts 800 us past A's: B's ACK arrives while A is still locked on it.
  // No reception began in the window, so the ACK timeout decides, not C's frame end.
  Overlap o(100);
  const MacTiming t = o.w.timing();
  const Time a_end = t.difs + o.w.airtime_data(kBytes);
  o.w.run(a_end + t.ack_timeout - 1_us);
  EXPECT_EQ(o.a_stats().failed_attempts, 0u);
  o.w.run(a_end + t.ack_timeout + 1_us);  // C's frame ends only 800 us after A's
  EXPECT_EQ(o.a_stats().failed_attempts, 1u);
  EXPECT_EQ(o.a_stats().tx_success, 0u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac::testing
