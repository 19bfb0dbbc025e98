// DCF and EDCA on hand-built timelines: every expected timestamp is computed
// from the standard's rules (IFS, airtimes, Duration fields) and the backoff
// draws replayed from an identical random stream. Radios are co-located (zero
// propagation delay) unless a test says otherwise, so times are exact.

#include <gtest/gtest.h>

#include "link/mesh_buffer.hpp"
#include "mac/mac.hpp"
#include "mac_world.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;

constexpr std::uint32_t kBytes = 1500;

MacWorld dot11b_world(MacType type = MacType::dcf) {
  return MacWorld(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, type);
}

TEST(MacTimeline, BasicAccessDataAckAndPostBackoff) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);
  w.send(a, b, kBytes);
  w.run(50_ms);

  const MacTiming t = w.timing();
  EXPECT_EQ(t.difs, 50_us);
  EXPECT_EQ(t.eifs, 364_us);  // 000 Table 3
  const Time data = w.airtime_data(kBytes);
  const Time ack = w.airtime_control(kAckBytes);
  EXPECT_EQ(ack, 304_us);

  const auto& sa = w.taps[a]->sent;
  const auto& sb = w.taps[b]->sent;
  ASSERT_EQ(sa.size(), 2u);
  ASSERT_EQ(sb.size(), 2u);
  // Immediate access: the medium has been idle since 0, so DIFS and go (9.3.4.2).
  EXPECT_EQ(sa[0].at, t.difs);
  EXPECT_EQ(sa[0].kind, FrameKind::data);
  EXPECT_FALSE(sa[0].retry);
  EXPECT_EQ(sb[0].kind, FrameKind::ack);
  EXPECT_EQ(sb[0].at, t.difs + data + t.sifs);
  // Post-backoff after the ACK: DIFS plus the first draw from A's backoff stream.
  RandomStream draws = w.backoff_stream(a);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  const Time ack_end = sb[0].at + ack;
  EXPECT_EQ(sa[1].at, ack_end + t.difs + k * t.slot);
  EXPECT_EQ(sa[1].sequence, (sa[0].sequence + 1) & 0x0fff);
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
  EXPECT_EQ(w.taps[b]->delivered[0].first, t.difs + data);
  EXPECT_EQ(w.macs[a]->stats().tx_success, 2u);
  EXPECT_EQ(w.macs[a]->stats().data_attempts, 2u);
  EXPECT_EQ(w.macs[b]->stats().acks_sent, 2u);
  EXPECT_EQ(w.pool.live(), 0u);  // both packets delivered and released
}

TEST(MacTimeline, RetryLimitDoublesTheWindowAndDrops) {
  // B does not hear A at all: no ACK ever. Short retry limit 7 = 7 attempts.
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.hide(a, b);
  w.build();
  w.send(a, b, kBytes);
  w.run(1_s);

  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const auto& sa = w.taps[a]->sent;
  ASSERT_EQ(sa.size(), 7u);
  RandomStream draws = w.backoff_stream(a);
  Time expected = t.difs;
  int cw = 32;
  for (std::size_t i = 0; i < sa.size(); ++i) {
    EXPECT_EQ(sa[i].at, expected) << "attempt " << i;
    EXPECT_EQ(sa[i].retry, i > 0);
    EXPECT_EQ(sa[i].sequence, sa[0].sequence);
    if (i + 1 == sa.size()) break;
    cw = next_cw(cw, 1024);  // 64, 128, ..., 1024, 1024
    const auto k = static_cast<std::int64_t>(draws.uniform_int(static_cast<std::uint64_t>(cw)));
    // ACK timeout after the frame, then AIFS (= DIFS) of idle medium, then the backoff.
    expected = sa[i].at + data + t.ack_timeout + t.difs + k * t.slot;
  }
  ASSERT_EQ(w.taps[a]->drops.size(), 1u);
  EXPECT_EQ(w.taps[a]->drops[0].second, DropCause::retry_limit);
  EXPECT_EQ(w.taps[a]->drops[0].first, sa.back().at + data + t.ack_timeout);
  EXPECT_EQ(w.macs[a]->stats().drops_retry_limit, 1u);
  EXPECT_EQ(w.macs[a]->stats().failed_attempts, 7u);
  EXPECT_EQ(w.macs[a]->stats().data_retries, 6u);
  EXPECT_EQ(w.macs[a]->current_cw(AccessCategory::ac_be), 32);  // reset after the drop
}

TEST(MacTimeline, ConfigurableRetryLimitAppliesAtRunTime) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.hide(a, b);
  w.build();
  w.macs[a]->set_retry_limits(3, 2);
  w.send(a, b, kBytes);
  w.run(1_s);
  EXPECT_EQ(w.taps[a]->sent.size(), 3u);
  EXPECT_EQ(w.taps[a]->drops.size(), 1u);
}

TEST(MacTimeline, RtsCtsExchangeAndLongRetryLimit) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.params().rts_threshold_bytes = 500;
  w.build();
  w.send(a, b, kBytes);
  w.run(50_ms);

  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const auto& sa = w.taps[a]->sent;
  const auto& sb = w.taps[b]->sent;
  ASSERT_EQ(sa.size(), 2u);
  ASSERT_EQ(sb.size(), 2u);
  EXPECT_EQ(sa[0].kind, FrameKind::rts);
  EXPECT_EQ(sa[0].at, t.difs);
  EXPECT_EQ(sb[0].kind, FrameKind::cts);
  EXPECT_EQ(sb[0].at, t.difs + t.rts_airtime + t.sifs);
  EXPECT_EQ(sa[1].kind, FrameKind::data);
  EXPECT_EQ(sa[1].at, sb[0].at + t.cts_airtime + t.sifs);
  EXPECT_EQ(sb[1].kind, FrameKind::ack);
  EXPECT_EQ(sb[1].at, sa[1].at + data + t.sifs);
  EXPECT_EQ(w.taps[b]->delivered.size(), 1u);
}

TEST(MacTimeline, RtsToAnAbsentReceiverUsesTheShortLimit) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.hide(a, b);
  w.params().rts_threshold_bytes = 500;
  w.build();
  w.send(a, b, kBytes);
  w.run(1_s);
  EXPECT_EQ(w.taps[a]->sent_of(FrameKind::rts).size(), 7u);
  EXPECT_TRUE(w.taps[a]->sent_of(FrameKind::data).empty());
  EXPECT_EQ(w.taps[a]->drops.size(), 1u);
}

TEST(MacTimeline, NavFromDataDefersAThirdStationThatCannotHearTheAck) {
  // A -> B; C hears A (and so reads the Duration field) but not B, so it never
  // sees the ACK: only its NAV keeps it quiet until the ACK ends.
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), c = w.add(), d = w.add();
  w.hide(b, c);
  w.hide(a, d);
  w.hide(b, d);
  w.build();
  w.send(a, b, kBytes);
  const Time data = w.airtime_data(kBytes);
  const MacTiming t = w.timing();
  // C's frame arrives during A's transmission: busy medium, so it backs off.
  w.send_at(t.difs + 100_us, c, d, kBytes);
  w.run(50_ms);

  const auto& sc = w.taps[c]->sent;
  ASSERT_GE(sc.size(), 1u);
  const Time nav_end = t.difs + data + duration_field(t.sifs + t.ack_airtime);
  RandomStream draws = w.backoff_stream(c);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  EXPECT_EQ(sc[0].at, nav_end + t.difs + k * t.slot);
  EXPECT_EQ(w.macs[c]->nav_end(), nav_end);
  EXPECT_EQ(w.taps[b]->delivered.size(), 1u);
  EXPECT_EQ(w.taps[d]->delivered.size(), 1u);
}

TEST(MacTimeline, RtsSetsTheNavOfStationsThatHearOnlyTheRts) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), c = w.add(), d = w.add();
  w.hide(b, c);
  w.hide(a, d);
  w.hide(b, d);
  w.params().rts_threshold_bytes = 500;
  w.build();
  w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  w.send_at(t.difs + 100_us, c, d, kBytes);  // during A's RTS (352 us at 1 Mbit/s)
  w.run(50_ms);
  // NAV from the RTS: CTS + DATA + ACK + 3 SIFS after the RTS ends (8.3.1.2).
  const Time rts_end = t.difs + t.rts_airtime;
  const Time nav_end = rts_end + rts_duration(data, t.cts_airtime, t.ack_airtime, t.sifs);
  RandomStream draws = w.backoff_stream(c);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  const auto& sc = w.taps[c]->sent;
  ASSERT_GE(sc.size(), 1u);
  EXPECT_EQ(sc[0].kind, FrameKind::rts);
  // C hears A's DATA too, whose Duration (SIFS + ACK) ends at the same time.
  EXPECT_EQ(sc[0].at, nav_end + t.difs + k * t.slot);
}

TEST(MacTimeline, EifsAfterAnErroredFrame) {
  // C locks on A's frame but cannot decode it (SNR about 3 dB at 11 Mbit/s), and
  // does not hear B's ACK: it defers EIFS, not DIFS, after A's frame.
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), c = w.add(), d = w.add();
  w.set_gain(a, c, -110.5);  // 20 dBm - 110.5 dB = -90.5 dBm, 3 dB above the noise
  w.hide(b, c);
  w.hide(a, d);
  w.hide(b, d);
  w.build();
  w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  w.send_at(t.difs + 100_us, c, d, kBytes);
  w.run(50_ms);
  EXPECT_EQ(w.macs[c]->stats().rx_errors, 1u);
  RandomStream draws = w.backoff_stream(c);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  const auto& sc = w.taps[c]->sent;
  ASSERT_GE(sc.size(), 1u);
  EXPECT_EQ(sc[0].at, t.difs + data + t.eifs + k * t.slot);
}

TEST(MacTimeline, DuplicateIsAcknowledgedButNotDelivered) {
  // A jammer J, hidden from B, hits A while B's ACK arrives: A retransmits with
  // the Retry bit, B acknowledges again and delivers the packet once.
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), j = w.add();
  w.hide(b, j);
  w.set_gain(a, j, -40.0);  // 20 dB above the ACK: even 1 Mbit/s DSSS cannot survive it
  w.build();
  w.macs[j]->radio().set_listener(nullptr);  // J is a bare radio
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const Time ack_start = t.difs + data + t.sifs;
  const phy::Mcs* one = phy::find_mcs(phy::PhyFamily::Dsss, 1'000'000);
  const phy::PhyFrame jam{100, one, phy::airtime(phy::profile_80211b(), *one, 100), nullptr};
  w.sim.scheduler().schedule_at(ack_start + 50_us, [&] { w.medium.radio(j).transmit(jam); });
  w.send(a, b, kBytes);
  w.run(50_ms);

  const auto data_frames = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data_frames.size(), 2u);
  EXPECT_FALSE(data_frames[0].retry);
  EXPECT_TRUE(data_frames[1].retry);
  EXPECT_EQ(data_frames[0].sequence, data_frames[1].sequence);
  EXPECT_EQ(w.taps[b]->sent_of(FrameKind::ack).size(), 2u);
  EXPECT_EQ(w.taps[b]->delivered.size(), 1u);
  EXPECT_EQ(w.macs[b]->stats().rx_duplicates, 1u);
  EXPECT_EQ(w.macs[a]->stats().tx_success, 1u);
  EXPECT_EQ(w.pool.live(), 0u);
}

TEST(MacTimeline, ANewFrameTakenForADuplicateAfterTheSequenceWrapsIsDroppedWithARecord) {
  // A's single 12-bit counter (802.11-2012 9.3.2.11) goes round once between two
  // frames to B: 4,095 frames to C come between them. The second frame's first
  // attempt is jammed at B, so it arrives with the Retry bit and the number of the
  // last frame B had from A. B acknowledges and discards it (9.3.2.10), as a real
  // receiver would, and A releases its copy on that ACK: B's MAC records the loss.
  MacWorld w = dot11b_world();
  const testing::WrapRadios r = testing::build_wrap_world(w);
  const auto a = r.a, b = r.b;
  constexpr std::uint32_t kSmall = 100;
  w.send(a, b, kSmall);
  w.run(5_ms);
  testing::wrap_counter(w, r);
  const auto before = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(before.size(), 4096u);
  ASSERT_EQ(before.front().sequence, 0);
  ASSERT_EQ(before.back().sequence, 4095);
  ASSERT_EQ(w.taps[b]->delivered.size(), 1u);

  const Time start = testing::jam_first_attempt(w, r, w.airtime_data(kSmall));
  w.send(a, b, kSmall);
  w.run(start + 50_ms);

  std::vector<testing::SentFrame> to_b;
  for (const auto& f : w.taps[a]->sent_of(FrameKind::data)) {
    if (f.receiver == b && f.at >= start) to_b.push_back(f);
  }
  ASSERT_GE(to_b.size(), 2u);
  EXPECT_FALSE(to_b.front().retry);
  EXPECT_TRUE(to_b.back().retry);
  EXPECT_EQ(to_b.back().sequence, 0);  // the wrapped counter: the number of B's last frame from A
  EXPECT_EQ(w.macs[a]->stats().tx_success, 4097u);
  EXPECT_EQ(w.taps[b]->delivered.size(), 1u);  // not handed up
  EXPECT_EQ(w.macs[b]->stats().rx_duplicates, 1u);
  ASSERT_EQ(w.taps[b]->drops.size(), 1u);
  EXPECT_EQ(w.taps[b]->drops[0].second, DropCause::false_duplicate);
  EXPECT_EQ(w.taps[b]->drops[0].first, to_b.back().at + to_b.back().airtime);  // at the frame's end
  EXPECT_TRUE(w.taps[a]->drops.empty());
  EXPECT_EQ(w.pool.live(), 0u);
}

// 802.11-2012 9.3.2.11: a QoS STA keeps a counter per <Address 1, TID> for
// individually addressed QoS data, one counter for the rest; a non-QoS STA one.
std::vector<std::uint16_t> data_sequences(MacType type) {
  MacWorld w = dot11b_world(type);
  const auto a = w.add(), b = w.add(), c = w.add();
  w.build();
  const std::vector<std::pair<std::uint32_t, AccessCategory>> sends{
      {b, AccessCategory::ac_be}, {c, AccessCategory::ac_be}, {b, AccessCategory::ac_be}, {c, AccessCategory::ac_be},
      {kBroadcastRadio, AccessCategory::ac_be}, {b, AccessCategory::ac_be}, {b, AccessCategory::ac_vi}};
  for (const auto& [to, ac] : sends) {
    w.send(a, to, kBytes, ac);
    w.run(w.sim.now() + 20_ms);
  }
  std::vector<std::uint16_t> out;
  for (const auto& f : w.taps[a]->sent) {
    if (f.kind == FrameKind::data || f.kind == FrameKind::qos_data) out.push_back(f.sequence);
  }
  return out;
}

TEST(MacTimeline, QosDataIsNumberedPerReceiverAndCategory) {
  EXPECT_EQ(data_sequences(MacType::dcf), (std::vector<std::uint16_t>{0, 1, 2, 3, 4, 5, 6}));
  // To B: 0, 1, 2 (best effort), 0 (video); to C: 0, 1; the broadcast from the
  // shared counter.
  EXPECT_EQ(data_sequences(MacType::edca), (std::vector<std::uint16_t>{0, 0, 1, 1, 0, 2, 0}));
}

TEST(MacTimeline, BroadcastGoesOnceWithoutAck) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), c = w.add();
  w.build();
  w.send(a, kBroadcastRadio, 200);
  w.run(50_ms);
  const MacTiming t = w.timing();
  const auto& sa = w.taps[a]->sent;
  ASSERT_EQ(sa.size(), 1u);
  EXPECT_EQ(sa[0].at, t.difs);
  EXPECT_EQ(sa[0].airtime, w.airtime_control(mpdu_bytes(FrameKind::data, 200)));  // at the basic rate
  EXPECT_TRUE(w.taps[b]->sent.empty());
  EXPECT_EQ(w.taps[b]->delivered.size(), 1u);
  EXPECT_EQ(w.taps[c]->delivered.size(), 1u);
  EXPECT_EQ(w.macs[a]->stats().broadcasts, 1u);
}

TEST(MacTimeline, TxopBurstsFramesSifsApart) {
  // EDCA AC_VI with a TXOP of 3 frames (002 counts TXOPs in frames): 3 DATA-ACK
  // exchanges SIFS apart, then a backoff before the fourth.
  MacWorld w = dot11b_world(MacType::edca);
  const auto a = w.add(), b = w.add();
  w.params().access_categories[index_of(AccessCategory::ac_vi)].txop = TxopLimit{Time::zero(), 3};
  w.build();
  for (int i = 0; i < 4; ++i) w.send(a, b, kBytes, AccessCategory::ac_vi);
  w.run(50_ms);

  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const auto frames = w.taps[a]->sent_of(FrameKind::qos_data);
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[0].at, t.aifs(2));
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(frames[i].at, frames[i - 1].at + data + t.sifs + t.ack_airtime + t.sifs) << i;
  }
  RandomStream draws = w.backoff_stream(a);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(16));  // AC_VI: CWmin = 32/2
  EXPECT_EQ(frames[3].at, frames[2].at + data + t.sifs + t.ack_airtime + t.aifs(2) + k * t.slot);
  EXPECT_EQ(w.macs[a]->stats().txop_continuations, 2u);
  EXPECT_EQ(w.macs[a]->stats().txops, 2u);
}

TEST(MacTimeline, TxopLimitInTimeFitsWholeExchanges) {
  MacWorld w = dot11b_world(MacType::edca);
  const auto a = w.add(), b = w.add();
  const MacTiming t = w.timing();
  const Time exchange = w.airtime_data(kBytes) + t.sifs + t.ack_airtime + t.sifs;
  // Room for the first exchange and one more, not two more.
  w.params().access_categories[index_of(AccessCategory::ac_vo)].txop = TxopLimit{2 * exchange + exchange / 2, 0};
  w.build();
  for (int i = 0; i < 4; ++i) w.send(a, b, kBytes, AccessCategory::ac_vo);
  w.run(50_ms);
  EXPECT_EQ(w.macs[a]->stats().txop_continuations, 2u);  // frame 2 in TXOP 1, frame 4 in TXOP 2
  const auto frames = w.taps[a]->sent_of(FrameKind::qos_data);
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[1].at, frames[0].at + exchange);
  EXPECT_GT(frames[2].at, frames[1].at + exchange);  // a new backoff
  EXPECT_EQ(frames[3].at, frames[2].at + exchange);
}

TEST(MacTimeline, TxopContinuationSendsTheFrameItChecked) {
  // An LSCC mesh buffer (link/mesh_buffer.hpp) as A's AC_BE queue holds, in arrival
  // order, a long packet X for C, blocked, then two short ones for B. The TXOP has
  // room for the first short exchange and one more short one. At the end of the
  // first exchange the next short one fits and is taken (9.19.2.2); the block on C
  // ends during the SIFS after it, which puts X (the earliest arrival) first, but
  // the frame sent is the one checked. X, which would not fit, goes after a new
  // backoff.
  MacWorld w = dot11b_world(MacType::edca);
  const auto a = w.add(), b = w.add(), c = w.add();
  const MacTiming t = w.timing();
  constexpr std::uint32_t kShort = 100;
  const Time short_exchange = w.airtime_data(kShort) + t.sifs + t.ack_airtime + t.sifs;
  w.params().access_categories[index_of(AccessCategory::ac_be)].txop = TxopLimit{2 * short_exchange + 50_us, 0};
  w.build();
  link::MeshBufferParams bp;
  bp.capacity_bytes = 100000;
  bp.link_selective = true;
  auto buffer = std::make_unique<link::MeshBuffer>(
      bp, [](const Packet&) { return link::MeshBuffer::kLocal; }, *w.taps[a]);
  link::MeshBuffer* q = buffer.get();
  w.macs[a]->set_queue(AccessCategory::ac_be, std::move(buffer));
  const Time first = t.aifs(3);  // AC_BE's AIFSN, the medium idle since 0
  const Time first_ack_end = first + w.airtime_data(kShort) + t.sifs + t.ack_airtime;
  q->block(c, first_ack_end + t.sifs / 2, Time::zero());
  w.send(a, c, kBytes);
  w.send(a, b, kShort);
  w.send(a, b, kShort);
  w.run(50_ms);

  const auto frames = w.taps[a]->sent_of(FrameKind::qos_data);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].at, first);
  EXPECT_EQ(frames[0].receiver, b);
  EXPECT_EQ(frames[1].at, first_ack_end + t.sifs);  // the TXOP continued...
  EXPECT_EQ(frames[1].receiver, b);                  // ...with the frame checked
  EXPECT_EQ(frames[2].receiver, c);                  // X, after a new backoff
  EXPECT_GT(frames[2].at, frames[1].at + short_exchange);
  EXPECT_EQ(w.macs[a]->stats().txop_continuations, 1u);
  EXPECT_EQ(w.taps[c]->delivered.size(), 1u);
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
}

TEST(MacTimeline, InternalCollisionGoesToTheHigherCategory) {
  // BE and VO with the same AIFSN and a window of 1 slot (backoff always 0):
  // both counters reach zero together; VO transmits, BE backs off as after a
  // collision (retry count and window) and goes after VO's exchange.
  MacWorld w = dot11b_world(MacType::edca);
  const auto a = w.add(), b = w.add();
  w.params().access_categories[index_of(AccessCategory::ac_be)] = EdcaParams{2, 1, 1, {}};
  w.params().access_categories[index_of(AccessCategory::ac_vo)] = EdcaParams{2, 1, 1, {}};
  w.build();
  w.send(a, b, kBytes, AccessCategory::ac_be);
  w.send(a, b, kBytes, AccessCategory::ac_vo);
  w.run(50_ms);
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const auto frames = w.taps[a]->sent_of(FrameKind::qos_data);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].ac, AccessCategory::ac_vo);
  EXPECT_EQ(frames[0].at, t.aifs(2));
  EXPECT_EQ(frames[1].ac, AccessCategory::ac_be);
  EXPECT_TRUE(frames[1].retry == false);  // the internal collision sent nothing
  EXPECT_EQ(frames[1].at, frames[0].at + data + t.sifs + t.ack_airtime + t.aifs(2));
  EXPECT_EQ(w.macs[a]->stats().internal_collisions, 1u);
  EXPECT_EQ(w.macs[a]->stats().failed_attempts, 0u);
}

TEST(MacTimeline, InternalCollisionOfAnRtsProtectedFrameChargesTheShortCount) {
  // 9.19.2.3 with 9.3.4.4: BE's frame would have opened with an RTS, so its internal
  // collision is a failed RTS, charged to the short count under every reading of
  // mac.retry_counts. A long limit of one attempt would give it up at once.
  for (const RetryCounts reading : {RetryCounts::reset_on_cts, RetryCounts::per_mpdu, RetryCounts::ns3}) {
    MacWorld w = dot11b_world(MacType::edca);
    const auto a = w.add(), b = w.add();
    w.params().access_categories[index_of(AccessCategory::ac_be)] = EdcaParams{2, 1, 1, {}};
    w.params().access_categories[index_of(AccessCategory::ac_vo)] = EdcaParams{2, 1, 1, {}};
    w.params().rts_threshold_bytes = 0;
    w.params().short_retry_limit = 7;
    w.params().long_retry_limit = 1;
    w.params().retry_counts = reading;
    w.build();
    w.send(a, b, kBytes, AccessCategory::ac_be);
    w.send(a, b, kBytes, AccessCategory::ac_vo);
    w.run(50_ms);
    EXPECT_EQ(w.macs[a]->stats().internal_collisions, 1u) << static_cast<int>(reading);
    EXPECT_TRUE(w.taps[a]->drops.empty()) << static_cast<int>(reading);
    EXPECT_EQ(w.taps[b]->delivered.size(), 2u) << static_cast<int>(reading);
  }
}

TEST(MacTimeline, RuntimeCwMinChangeTakesEffectAtTheNextDraw) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  w.macs[a]->set_cw_min(AccessCategory::ac_be, 128);  // 000's counter-starvation policy: 32 -> 128
  EXPECT_EQ(w.macs[a]->params(AccessCategory::ac_be).cw_min, 128);
  w.send(a, b, kBytes);
  w.send(a, b, kBytes);
  w.run(50_ms);
  const MacTiming t = w.timing();
  const auto& sa = w.taps[a]->sent;
  ASSERT_EQ(sa.size(), 2u);
  RandomStream draws = w.backoff_stream(a);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(128));
  EXPECT_EQ(sa[1].at, sa[0].at + w.airtime_data(kBytes) + t.sifs + t.ack_airtime + t.difs + k * t.slot);
  EXPECT_THROW(w.macs[a]->set_params(AccessCategory::ac_be, EdcaParams{2, 64, 32, {}}), std::invalid_argument);
}

TEST(MacTimeline, ShorterAifsWhoseCountEndedAlreadyAccessesAtTheNextSlotBoundary) {
  // A controller lowering AIFSN (7 -> 2) while a backoff counts on an idle medium,
  // at a time when the count under the new AIFS would have ended: the frame goes at
  // the first slot boundary from then on the new count's grid (it used to throw:
  // an access scheduled in the past).
  MacWorld w = dot11b_world(MacType::edca);
  const auto a = w.add(), b = w.add();
  w.params().access_categories[index_of(AccessCategory::ac_be)] = EdcaParams{7, 3, 3, {}};
  w.build();
  w.send(a, b, kBytes, AccessCategory::ac_be);
  w.send(a, b, kBytes, AccessCategory::ac_be);
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const Time first = t.aifs(7);  // immediate access on an idle medium
  const Time idle = first + data + t.sifs + t.ack_airtime;  // the ACK's end: post-backoff from here
  RandomStream draws = w.backoff_stream(a);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(3));
  const Time change = idle + t.aifs(2) + 3 * t.slot + Time::us(1);  // past the new count's end (k <= 3)
  w.run(change);
  ASSERT_EQ(w.taps[a]->sent_of(FrameKind::qos_data).size(), 1u);
  w.macs[a]->set_params(AccessCategory::ac_be, EdcaParams{2, 3, 3, {}});
  w.run(change + 10_ms);
  const auto frames = w.taps[a]->sent_of(FrameKind::qos_data);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].at, first);
  const Time ended = idle + t.aifs(2) + k * t.slot;  // when the new count reached zero
  EXPECT_LT(ended, change);
  const std::int64_t late = (change - ended + t.slot - Time::ps(1)) / t.slot;
  EXPECT_EQ(frames[1].at, ended + late * t.slot);
  EXPECT_EQ(frames[1].at, idle + t.aifs(2) + 4 * t.slot);  // the same, by hand: the boundary after 3 slots + 1 us
}

TEST(MacTimeline, RuntimeCwMinChangeMovesAWindowAtItsResetValue) {
  // A controller acting before any failure (002's ACK category at CWmin 4, its
  // CWmin/2) means the new CWmin for the very first backoff, lower or higher.
  MacWorld w = dot11b_world();
  const auto a = w.add();
  w.add();
  w.build();
  Mac& mac = *w.macs[a];
  EXPECT_EQ(mac.current_cw(AccessCategory::ac_be), 32);
  mac.set_cw_min(AccessCategory::ac_be, 4);
  EXPECT_EQ(mac.current_cw(AccessCategory::ac_be), 4);
  mac.set_cw_min(AccessCategory::ac_be, 128);
  EXPECT_EQ(mac.current_cw(AccessCategory::ac_be), 128);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
