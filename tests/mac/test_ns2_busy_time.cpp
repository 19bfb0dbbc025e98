// Mac::ns2_busy_time at exact times: what ns-2's Mac802_11::is_idle() would call
// busy (mac-802_11.cc): tx_state_ from a transmission's start until its send timer
// fires or the response stops it, rx_state_, and the NAV, which ns-2 also sets for
// EIFS after a lost frame (recv_timer) and for EIFS past an ignored one (capture).
// Radios sit at one point: no propagation delay, so every edge is a sent frame's.

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "tests/mac/mac_world.hpp"

namespace wmnsim::mac::testing {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

constexpr std::uint32_t kBytes = 1500;
constexpr Time kNs2Propagation = 2_us;  // ns-2's DSSS_MaxPropagationDelay

using Interval = std::pair<Time, Time>;

Time union_length(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  Time total = Time::zero();
  Time begin = Time::zero(), end = Time::zero();
  bool open = false;
  for (const auto& [b, e] : v) {
    if (open && b <= end) {
      end = std::max(end, e);
      continue;
    }
    if (open) total += end - begin;
    begin = b;
    end = e;
    open = true;
  }
  if (open) total += end - begin;
  return total;
}

Interval on_air(const SentFrame& f) { return {f.at, f.at + f.airtime}; }

MacWorld make_world() {
  return MacWorld(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, MacType::dcf, 1, MacWorld::ns2_reception());
}

TEST(MacNs2Busy, RtsCtsExchangeCountsTheWaitsForCtsAckAndData) {
  // A's timer covers the SIFS before the CTS and before the ACK, B's (the CTS
  // sender's) the SIFS before the DATA. The SIFS before a node's own response is
  // idle in ns-2 as in the standard count.
  MacWorld w = make_world();
  w.params().rts_threshold_bytes = 0;
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);
  w.run(20_ms);
  const MacTiming t = w.timing();
  const auto& sa = w.taps[a]->sent;
  const auto& sb = w.taps[b]->sent;
  ASSERT_EQ(sa.size(), 2u);  // RTS, DATA
  ASSERT_EQ(sb.size(), 2u);  // CTS, ACK
  ASSERT_EQ(sa[0].kind, FrameKind::rts);
  ASSERT_EQ(sb[0].kind, FrameKind::cts);
  const Time rts = sa[0].airtime, cts = sb[0].airtime, data = sa[1].airtime, ack = sb[1].airtime;
  EXPECT_EQ(w.macs[a]->channel_busy_time(), rts + cts + data + ack);
  EXPECT_EQ(w.macs[a]->ns2_busy_time(), rts + t.sifs + cts + data + t.sifs + ack);
  EXPECT_EQ(w.macs[b]->channel_busy_time(), rts + cts + data + ack);
  EXPECT_EQ(w.macs[b]->ns2_busy_time(), rts + cts + t.sifs + data + ack);
}

TEST(MacNs2Busy, LostFrameArmsEifsOnceAndUnansweredDataWaitsNs2sTimeout) {
  // A sends to B. C hears A's frame below RXThresh (lost: EIFS) and nothing
  // error-free afterwards: its own frames go to D, which hears no one. The EIFS
  // counts once, from the lost frame's end, not after each of C's transmissions;
  // each of C's attempts counts until ns-2's ACK timeout (DATA + 2 prop + SIFS +
  // ACK), longer than wmnsim's own (SIFS + slot + PHY-RX-START delay).
  MacWorld w = make_world();
  const auto a = w.add(), b = w.add(), c = w.add(), d = w.add();
  w.set_gain(a, c, -72.5 - 20.0);  // 400 m under the ns-2 preset
  w.hide(b, c);
  w.hide(a, d);
  w.hide(b, d);
  w.hide(c, d);
  w.build();
  w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  w.send_at(t.difs + 100_us, c, d, kBytes);
  w.run(200_ms);
  const auto& sa = w.taps[a]->sent;
  const auto& sc = w.taps[c]->sent;
  ASSERT_EQ(sa.size(), 1u);
  ASSERT_GE(sc.size(), 2u);  // retried
  EXPECT_EQ(w.macs[c]->stats().rx_errors, 1u);
  std::vector<Interval> standard{on_air(sa[0])};
  std::vector<Interval> ns2{{sa[0].at, sa[0].at + sa[0].airtime + t.eifs}};
  for (const auto& f : sc) {
    standard.push_back(on_air(f));
    ns2.push_back({f.at, f.at + f.airtime + kNs2Propagation + t.sifs + t.ack_airtime + kNs2Propagation});
  }
  EXPECT_EQ(w.macs[c]->channel_busy_time(), union_length(standard));
  EXPECT_EQ(w.macs[c]->ns2_busy_time(), union_length(ns2));
  // The first attempt follows the EIFS: counted once, not added to the next ones.
  EXPECT_GE(sc[0].at, sa[0].at + sa[0].airtime + t.eifs);
}

TEST(MacNs2Busy, UnansweredRtsWaitsNs2sCtsTimeout) {
  // B hears no one: each of A's RTS attempts counts until ns-2's check_pktRTS
  // timeout, RTS + 2 prop + SIFS + CTS, however soon wmnsim's own CTS timeout
  // (SIFS + slot + PHY-RX-START delay) gives up.
  MacWorld w = make_world();
  w.params().rts_threshold_bytes = 0;
  const auto a = w.add(), b = w.add();
  w.hide(a, b);
  w.build();
  w.send(a, b, kBytes);
  w.run(500_ms);
  const MacTiming t = w.timing();
  const auto& sa = w.taps[a]->sent;
  ASSERT_GE(sa.size(), 2u);  // retried up to the short retry limit
  std::vector<Interval> standard, ns2;
  for (const auto& f : sa) {
    ASSERT_EQ(f.kind, FrameKind::rts);
    standard.push_back(on_air(f));
    ns2.push_back({f.at, f.at + f.airtime + kNs2Propagation + t.sifs + t.cts_airtime + kNs2Propagation});
  }
  EXPECT_EQ(w.macs[a]->channel_busy_time(), union_length(standard));
  EXPECT_EQ(w.macs[a]->ns2_busy_time(), union_length(ns2));
  EXPECT_GT(t.sifs + t.cts_airtime, t.cts_timeout);  // ns-2 waits longer than wmnsim
}

TEST(MacNs2Busy, CapturedFrameSetsEifsPastItsEnd) {
  // B receives A's frame at -40 dBm; C's frame reaches B at -60 dBm while it does,
  // and is ignored (weaker by more than CPThresh, 10 dB). ns-2's capture() sets
  // the NAV to EIFS past C's frame's end; the standard count sees its energy only.
  MacWorld w = make_world();
  const auto a = w.add(), b = w.add(), c = w.add(), d = w.add();
  w.hide(a, c);
  w.hide(a, d);
  w.hide(b, d);
  w.set_gain(b, c, -80.0);
  w.build();
  w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  // Long enough for C to still be sending when B's ACK reaches it (ns-2 then
  // discards the ACK silently), so that D's ACK finds C's receiver free.
  w.send_at(t.difs + 100_us, c, d, 2000);
  w.run(20_ms);
  const auto& sa = w.taps[a]->sent;
  const auto& sb = w.taps[b]->sent;
  const auto& sc = w.taps[c]->sent;
  ASSERT_EQ(sa.size(), 1u);
  ASSERT_EQ(sb.size(), 1u);  // B's ACK: A's frame survived
  ASSERT_EQ(sc.size(), 1u);
  ASSERT_LT(sc[0].at, sa[0].at + sa[0].airtime);  // C started during A's frame
  EXPECT_EQ(w.macs[b]->stats().rx_errors, 0u);
  const Time standard = union_length({on_air(sa[0]), on_air(sb[0]), on_air(sc[0])});
  const Time ns2 = union_length({on_air(sa[0]), on_air(sb[0]), {sc[0].at, sc[0].at + sc[0].airtime + t.eifs}});
  EXPECT_EQ(w.macs[b]->channel_busy_time(), standard);
  EXPECT_EQ(w.macs[b]->ns2_busy_time(), ns2);
  EXPECT_GT(ns2, standard);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac::testing
