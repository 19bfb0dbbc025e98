// ns-2's response rules under mac.deferral "ns2" (mac-802_11.cc, as 001 and 003 ran
// it; docs/mac.md), each against the standard's at exact times:
//  - the CTS is decided SIFS after the RTS (check_pktCTRL), not at its end;
//  - no DATA after a CTS if the medium is busy SIFS later (check_pktTx): a new RTS
//    after a backoff from a doubled window, no retry charged;
//  - an errored frame, or a correct one for another station, does not end a CTS or
//    ACK wait: ns-2's send timer does (SIFS + the response + 2 x 2 us).
// Every radio sits at the origin: no propagation delay.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "tests/mac/mac_world.hpp"

namespace wmnsim::mac::testing {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

constexpr std::uint32_t kLong = 1000;  // over the RTS threshold
constexpr std::uint32_t kShort = 100;  // under it

std::optional<Time> first(const NodeTap& tap, FrameKind kind) {
  const auto sent = tap.sent_of(kind);
  return sent.empty() ? std::nullopt : std::optional<Time>(sent.front().at);
}

// A sends an RTS to B; C, hidden from A, starts a DATA frame to D that B hears half
// a SIFS after A's RTS has ended. Radios: A = 0, B = 1, C = 2, D = 3.
struct CtsDecision {
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6};
  Time rts_end;
  explicit CtsDecision(::wmnsim::Deferral deferral) {
    const auto a = w.add(), b = w.add(), c = w.add(), d = w.add();
    w.hide(a, c);
    w.hide(a, d);
    w.hide(b, d);
    w.params().rts_threshold_bytes = 500;
    w.params().deferral = deferral;
    w.build();
    const MacTiming t = w.timing();
    rts_end = t.difs + t.rts_airtime;
    w.send(a, b, kLong);
    w.send_at(rts_end + t.sifs / 2, c, d, kShort);
    w.run(20_ms);
  }
};

TEST(Ns2Responses, TheCtsIsDecidedSifsAfterTheRts) {
  const CtsDecision standard(::wmnsim::Deferral::standard);
  const MacTiming t = standard.w.timing();
  ASSERT_EQ(first(*standard.w.taps[0], FrameKind::rts), t.difs);
  ASSERT_EQ(first(*standard.w.taps[2], FrameKind::data), standard.rts_end + t.sifs / 2);  // C at once
  // 9.3.2.6: the NAV is clear at the RTS's end: B answers, over C's frame.
  EXPECT_EQ(first(*standard.w.taps[1], FrameKind::cts), standard.rts_end + t.sifs);

  const CtsDecision ns2(::wmnsim::Deferral::ns2);
  ASSERT_EQ(first(*ns2.w.taps[2], FrameKind::data), ns2.rts_end + t.sifs / 2);
  // ns-2: SIFS after the RTS, B is receiving C's frame: no CTS; A tries again first.
  const auto a_rts = ns2.w.taps[0]->sent_of(FrameKind::rts);
  ASSERT_GE(a_rts.size(), 2u);
  const auto b_cts = first(*ns2.w.taps[1], FrameKind::cts);
  ASSERT_TRUE(b_cts.has_value());
  EXPECT_GT(*b_cts, a_rts[1].at);  // the first CTS answers the second RTS
  EXPECT_EQ(ns2.w.taps[0]->retries.front(), ns2.rts_end + 2 * kNs2MaxPropagationDelay + t.sifs + t.cts_airtime);
}

// A sends an RTS to B and gets its CTS; E, hidden from A and B, sends a short DATA
// frame to C that ends half a SIFS before the CTS does, so C's ACK, which A hears,
// starts half a SIFS after it: A's medium is busy when its DATA is due. C does not
// hear B. Radios: A = 0, B = 1, C = 2, E = 3.
struct DataAfterCts {
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6};
  Time cts_end;
  explicit DataAfterCts(::wmnsim::Deferral deferral) {
    const auto a = w.add(), b = w.add(), c = w.add(), e = w.add();
    w.hide(a, e);
    w.hide(b, e);
    w.hide(b, c);
    w.params().rts_threshold_bytes = 500;
    w.params().deferral = deferral;
    w.build();
    const MacTiming t = w.timing();
    cts_end = t.difs + t.rts_airtime + t.sifs + t.cts_airtime;
    w.send(a, b, kLong);
    w.send_at(cts_end - t.sifs / 2 - w.airtime_data(kShort), e, c, kShort);
    w.run(20_ms);
  }
};

TEST(Ns2Responses, NoDataAfterTheCtsWhenTheMediumIsBusySifsLater) {
  const DataAfterCts standard(::wmnsim::Deferral::standard);
  const MacTiming t = standard.w.timing();
  const NodeTap& a = *standard.w.taps[0];
  ASSERT_EQ(first(*standard.w.taps[1], FrameKind::cts), standard.cts_end - t.cts_airtime);
  ASSERT_EQ(first(*standard.w.taps[2], FrameKind::ack), standard.cts_end + t.sifs / 2);  // C's ACK to E
  EXPECT_EQ(a.sent.at(1).kind, FrameKind::data);  // 9.3.2.6: DATA SIFS after the CTS
  EXPECT_EQ(a.sent.at(1).at, standard.cts_end + t.sifs);

  const DataAfterCts ns2(::wmnsim::Deferral::ns2);
  const NodeTap& a2 = *ns2.w.taps[0];
  ASSERT_EQ(first(*ns2.w.taps[1], FrameKind::cts), ns2.cts_end - t.cts_airtime);
  ASSERT_EQ(first(*ns2.w.taps[2], FrameKind::ack), ns2.cts_end + t.sifs / 2);
  // ns-2's check_pktTx: A is receiving C's ACK: a new RTS instead of the DATA, after a
  // backoff drawn SIFS after the CTS from a doubled window, with no retry charged.
  ASSERT_GE(a2.sent.size(), 2u);
  EXPECT_EQ(a2.sent.at(1).kind, FrameKind::rts);
  EXPECT_GT(a2.sent.at(1).at, ns2.cts_end + t.sifs);
  const auto redraw = std::find_if(a2.backoffs.begin(), a2.backoffs.end(),
                                   [&](const NodeTap::Backoff& b) { return b.at == ns2.cts_end + t.sifs; });
  ASSERT_NE(redraw, a2.backoffs.end());
  EXPECT_EQ(redraw->cw, 2 * 32);  // 802.11b: CWmin 32 (17.4.4)
  EXPECT_TRUE(a2.retries.empty() || a2.retries.front() > a2.sent.at(1).at);
}

// A sends a DATA frame to B, which never hears it; F sends one to E that ends 5 us
// earlier, so E's ACK to F arrives at A during A's ACK wait, in the response window.
// `a_e_db` sets what A makes of E's ACK under ns-2's reception model (RXThresh
// -64.37 dBm, CSThresh -78.07 dBm): -95 dB (-75 dBm) an errored frame, -80 dB
// (-60 dBm) a correct frame for another station. At E, A's frame (20 dB or more
// weaker, 5 us later) is captured by F's. Radios: A = 0, B = 1, E = 2, F = 3.
struct AckWait {
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, MacType::dcf, 1, MacWorld::ns2_reception()};
  Time a_end, e_ack_start;
  // `f_extra_bytes` lengthens F's frame, and so delays E's ACK.
  AckWait(::wmnsim::Deferral deferral, double a_e_db, std::uint32_t f_extra_bytes = 0) {
    const auto a = w.add(), b = w.add(), e = w.add(), f = w.add();
    w.hide(a, b);
    w.hide(b, e);
    w.hide(b, f);
    w.hide(a, f);
    w.set_gain(a, e, a_e_db);
    w.params().deferral = deferral;
    w.build();
    const MacTiming t = w.timing();
    w.send(f, e, kLong + f_extra_bytes);
    w.send_at(t.difs + 5_us, a, b, kLong);
    a_end = t.difs + 5_us + w.airtime_data(kLong);
    e_ack_start = t.difs + w.airtime_data(kLong + f_extra_bytes) + t.sifs;
    w.run(20_ms);
  }
};

TEST(Ns2Responses, AnErroredFrameOrOneForAnotherStationDoesNotEndTheAckWait) {
  for (const double a_e_db : {-95.0, -80.0}) {
    SCOPED_TRACE(a_e_db);
    const AckWait standard(::wmnsim::Deferral::standard, a_e_db);
    const MacTiming t = standard.w.timing();
    ASSERT_EQ(standard.w.taps[0]->sent.at(0).at, t.difs + 5_us);
    ASSERT_EQ(first(*standard.w.taps[2], FrameKind::ack), standard.a_end + 5_us);  // E's ACK to F
    EXPECT_EQ(standard.w.macs[0]->stats().rx_errors, a_e_db < -90 ? 1u : 0u);
    // 9.3.2.8: the frame that started in the window was not the ACK: failed at its end.
    EXPECT_EQ(standard.w.taps[0]->retries.at(0), standard.a_end + 5_us + t.ack_airtime);

    const AckWait ns2(::wmnsim::Deferral::ns2, a_e_db);
    // ns-2: the send timer decides, SIFS + ACK + 2 x 2 us after A's frame.
    EXPECT_EQ(ns2.w.taps[0]->retries.at(0), ns2.a_end + t.sifs + t.ack_airtime + 2 * kNs2MaxPropagationDelay);
  }
}

TEST(Ns2Responses, AFrameStillBeingReceivedDoesNotExtendTheWait) {
  // F's frame 28 octets longer (about 20 us at 11 Mbit/s): E's ACK, an errored frame
  // at A, starts in A's window and ends after ns-2's send timer.
  const AckWait standard(::wmnsim::Deferral::standard, -95.0, 28);
  const MacTiming t = standard.w.timing();
  const Time timer = standard.a_end + t.sifs + t.ack_airtime + 2 * kNs2MaxPropagationDelay;
  ASSERT_EQ(first(*standard.w.taps[2], FrameKind::ack), standard.e_ack_start);
  ASSERT_GT(standard.e_ack_start + t.ack_airtime, timer);
  // 9.3.2.8: a reception that began in time decides at its end.
  EXPECT_EQ(standard.w.taps[0]->retries.at(0), standard.e_ack_start + t.ack_airtime);
  // ns-2's send_timer() fires whatever is being received.
  const AckWait ns2(::wmnsim::Deferral::ns2, -95.0, 28);
  EXPECT_EQ(ns2.w.taps[0]->retries.at(0), timer);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac::testing
