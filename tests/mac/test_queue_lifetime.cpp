// The MAC queue lifetime (MacParams::queue_lifetime, docs/mac.md): a packet that
// waited longer than the lifetime is dropped, with cause lifetime_expired, when
// the MAC would take it: at a channel access or at the decision to continue a
// TXOP. Times are exact (co-located radios, backoff replayed from the stream).

#include <algorithm>

#include <gtest/gtest.h>

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

// Three packets queued at 0 under DCF: the first goes at DIFS, the second at the
// end of the post-backoff. Returns that access time, the third's being later.
Time second_access(MacWorld& w, std::uint32_t a) {
  const MacTiming t = w.timing();
  RandomStream draws = w.backoff_stream(a);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  return t.difs + w.airtime_data(kBytes) + t.sifs + t.ack_airtime + t.difs + k * t.slot;
}

// The same in a world of its own (the caller's world is not built yet).
Time second_access_alone() {
  MacWorld probe = dot11b_world();
  const auto a = probe.add();
  (void)probe.add();
  return second_access(probe, a);
}

TEST(MacQueueLifetime, APacketOlderThanTheLifetimeIsDroppedAtTheAccessThatWouldTakeIt) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  // The second packet reaches the head at exactly its lifetime: not older than
  // it, so it goes (ns-3's rule: expired when now > queued + lifetime).
  const Time t2 = second_access_alone();
  w.params().queue_lifetime = t2;
  w.build();
  for (int i = 0; i < 3; ++i) w.send(a, b, kBytes);
  w.run(100_ms);

  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[0].at, w.timing().difs);
  EXPECT_EQ(data[1].at, t2);
  // The third reached the head at the next access, after a second post-backoff.
  const MacTiming t = w.timing();
  RandomStream draws = w.backoff_stream(a);
  (void)draws.uniform_int(32);
  const auto k2 = static_cast<std::int64_t>(draws.uniform_int(32));
  const Time t3 = t2 + w.airtime_data(kBytes) + t.sifs + t.ack_airtime + t.difs + k2 * t.slot;
  ASSERT_EQ(w.taps[a]->drops.size(), 1u);
  EXPECT_EQ(w.taps[a]->drops[0].first, t3);
  EXPECT_EQ(w.taps[a]->drops[0].second, DropCause::lifetime_expired);
  EXPECT_EQ(w.macs[a]->queue(AccessCategory::ac_be).counters().dropped(DropCause::lifetime_expired), 1u);
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
  EXPECT_EQ(w.macs[a]->stats().data_attempts, 2u);
  EXPECT_EQ(w.pool.live(), 0u);  // the dropped packet went back to its pool
}

TEST(MacQueueLifetime, EveryExpiredHeadGoesAtOnceAndTheMacFallsIdle) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  const Time t2 = second_access_alone();
  w.params().queue_lifetime = t2 - Time::ps(1);  // one picosecond too short for the second
  w.build();
  for (int i = 0; i < 3; ++i) w.send(a, b, kBytes);
  // A packet queued later is young: it goes DIFS after it arrives (idle medium).
  w.send_at(t2 + 1_ms, a, b, kBytes);
  w.run(100_ms);

  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[0].at, w.timing().difs);
  ASSERT_EQ(w.taps[a]->drops.size(), 2u);
  for (const auto& [at, cause] : w.taps[a]->drops) {
    EXPECT_EQ(at, t2);
    EXPECT_EQ(cause, DropCause::lifetime_expired);
  }
  EXPECT_EQ(data[1].at, t2 + 1_ms);  // no backoff was pending: the medium was idle for DIFS
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
}

TEST(MacQueueLifetime, NoLifetimeKeepsEveryPacket) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  for (int i = 0; i < 20; ++i) w.send(a, b, kBytes);
  w.run(500_ms);
  EXPECT_TRUE(w.taps[a]->drops.empty());
  EXPECT_EQ(w.taps[b]->delivered.size(), 20u);
}

TEST(MacQueueLifetime, TxopContinuationChecksTheNextFrame) {
  // EDCA AC_VI, a TXOP of 3 frames, 4 packets queued at 0: the second frame is
  // taken at the end of the first exchange (SIFS before it goes), the third would
  // be at the end of the second. A lifetime that expires in between drops the
  // third and the fourth there, and the TXOP ends.
  MacWorld w = dot11b_world(MacType::edca);
  const auto a = w.add(), b = w.add();
  w.params().access_categories[index_of(AccessCategory::ac_vi)].txop = TxopLimit{Time::zero(), 3};
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const Time first = t.aifs(2);
  const Time second = first + data + t.sifs + t.ack_airtime + t.sifs;
  const Time third_taken = second + data + t.sifs + t.ack_airtime;  // the ACK's end
  w.params().queue_lifetime = third_taken - Time::ps(1);
  w.build();
  for (int i = 0; i < 4; ++i) w.send(a, b, kBytes, AccessCategory::ac_vi);
  w.run(50_ms);

  const auto frames = w.taps[a]->sent_of(FrameKind::qos_data);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].at, first);
  EXPECT_EQ(frames[1].at, second);
  ASSERT_EQ(w.taps[a]->drops.size(), 2u);
  for (const auto& [at, cause] : w.taps[a]->drops) {
    EXPECT_EQ(at, third_taken);
    EXPECT_EQ(cause, DropCause::lifetime_expired);
  }
  EXPECT_EQ(w.macs[a]->stats().txop_continuations, 1u);
}

// mac.queue_lifetime_rule: A sends to a B that never answers, so every attempt fails
// and each retry follows ACKTimeout, DIFS and a backoff from the doubled window. The
// lifetime runs out between the frame's second and third attempts.

// The attempt times of frames retried with these windows, from one DIFS at 0.
std::vector<Time> attempt_times(MacWorld& w, std::uint32_t a, const std::vector<int>& windows) {
  const MacTiming t = w.timing();
  RandomStream draws = w.backoff_stream(a);
  std::vector<Time> at{t.difs};
  for (const int cw : windows) {
    const auto k = static_cast<std::int64_t>(draws.uniform_int(static_cast<std::uint64_t>(cw)));
    at.push_back(at.back() + w.airtime_data(kBytes) + t.ack_timeout + t.difs + k * t.slot);
  }
  return at;
}

// Two radios, A and B, that do not hear each other.
void make_unanswered(MacWorld& w, QueueLifetimeRule mode, std::uint32_t& a, std::uint32_t& b) {
  w.params().queue_lifetime_rule = mode;
  a = w.add();
  b = w.add();
  w.hide(a, b);
}

TEST(QueueLifetimeRule, WhenTakenLetsAFrameTakenRunItsRetriesPastTheLifetime) {
  std::uint32_t a = 0, b = 0;
  MacWorld w = dot11b_world();
  make_unanswered(w, QueueLifetimeRule::when_taken, a, b);
  const auto at = attempt_times(w, a, {64, 128, 256, 512, 1024, 1024});
  w.params().queue_lifetime = at[2] - Time::ps(1);
  w.build();
  w.send(a, b, kBytes);
  w.run(2_s);
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 7u);  // every attempt of the short retry limit
  for (std::size_t i = 0; i < data.size(); ++i) EXPECT_EQ(data[i].at, at[i]) << "attempt " << i;
  ASSERT_EQ(w.taps[a]->drops.size(), 1u);
  EXPECT_EQ(w.taps[a]->drops[0].second, DropCause::retry_limit);
  EXPECT_EQ(w.macs[a]->stats().drops_lifetime_in_service, 0u);
}

TEST(QueueLifetimeRule, Ns3DropsTheExpiredFrameAtItsNextAccessWhichServesTheNextPacket) {
  std::uint32_t a = 0, b = 0;
  MacWorld w = dot11b_world();
  make_unanswered(w, QueueLifetimeRule::ns3, a, b);
  // Frame 1: two attempts (windows 64, then 128 after its second failure). Frame 2,
  // queued after frame 1's second attempt and young at the third access, takes that
  // access with the backoff frame 1 drew; the window stays 128 (no reset), so frame
  // 2's first failure widens it to 256. Frame 2 is retried until its own lifetime
  // passes: dropped at that access, which then has no frame and draws again.
  const auto at = attempt_times(w, a, {64, 128, 256, 512, 1024, 1024, 1024, 1024});
  const Time lifetime = at[2] - Time::ps(1);
  const Time queued2 = at[1] + 1_ms;
  w.params().queue_lifetime = lifetime;
  w.build();
  w.send(a, b, kBytes);
  w.send_at(queued2, a, b, kBytes);
  w.run(3_s);
  std::size_t last = 3;  // frame 2's last attempt: the access after it finds frame 2 expired
  while (last + 1 < at.size() && at[last + 1] - queued2 <= lifetime) ++last;
  ASSERT_LT(last + 1, 9u) << "frame 2 expires before its retry limit";
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), last + 1);
  for (std::size_t i = 0; i < data.size(); ++i) EXPECT_EQ(data[i].at, at[i]) << "attempt " << i;
  EXPECT_TRUE(data[1].retry);
  EXPECT_FALSE(data[2].retry);  // a new frame: its Retry bit clear, its own number
  EXPECT_NE(data[2].sequence, data[1].sequence);
  EXPECT_TRUE(data[3].retry);
  ASSERT_EQ(w.taps[a]->drops.size(), 2u);
  EXPECT_EQ(w.taps[a]->drops[0], std::make_pair(at[2], DropCause::lifetime_expired));
  EXPECT_EQ(w.taps[a]->drops[1], std::make_pair(at[last + 1], DropCause::lifetime_expired));
  EXPECT_EQ(w.macs[a]->stats().drops_lifetime_in_service, 2u);
  // The queue itself dropped nothing: both frames had left it.
  EXPECT_EQ(w.macs[a]->queue(AccessCategory::ac_be).counters().dropped(DropCause::lifetime_expired), 0u);
  // No backoff at the first drop (its access served frame 2); one at the second, from
  // the window frame 2's last failure left.
  const auto& backoffs = w.taps[a]->backoffs;
  for (const auto& bo : backoffs) EXPECT_NE(bo.at, at[2]);
  ASSERT_FALSE(backoffs.empty());
  EXPECT_EQ(backoffs.back().at, at[last + 1]);
  EXPECT_EQ(backoffs.back().cw, std::min(1024, 128 << (last - 1)));
  EXPECT_EQ(w.pool.live(), 0u);
}

TEST(QueueLifetimeRule, Ns3LosesAnAccessLeftWithNoFrameToANewBackoffFromTheSameWindow) {
  std::uint32_t a = 0, b = 0;
  MacWorld w = dot11b_world();
  make_unanswered(w, QueueLifetimeRule::ns3, a, b);
  const auto at = attempt_times(w, a, {64, 128});
  w.params().queue_lifetime = at[2] - Time::ps(1);
  w.build();
  w.send(a, b, kBytes);
  // A packet arriving just after the lost access waits for the backoff drawn there.
  w.send_at(at[2] + 1_us, a, b, kBytes);
  w.run(2_s);
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_GE(data.size(), 3u);
  EXPECT_EQ(data[0].at, at[0]);
  EXPECT_EQ(data[1].at, at[1]);
  const auto& backoffs = w.taps[a]->backoffs;
  ASSERT_GE(backoffs.size(), 3u);
  EXPECT_EQ(backoffs[2].at, at[2]);
  EXPECT_EQ(backoffs[2].cw, 128);  // the window of the last failure, not reset
  // The stream's next draw, from that window.
  RandomStream draws = w.backoff_stream(a);
  (void)draws.uniform_int(64);
  (void)draws.uniform_int(128);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(128));
  EXPECT_EQ(backoffs[2].slots, k);
  ASSERT_GT(k, 0) << "the stream's draw makes the wait visible";
  EXPECT_EQ(data[2].at, at[2] + k * w.timing().slot);
  EXPECT_FALSE(data[2].retry);
  EXPECT_EQ(w.taps[a]->drops.at(0), std::make_pair(at[2], DropCause::lifetime_expired));
}

TEST(QueueLifetimeRule, Ns3UnderEdcaFallsIdleAfterALostAccess) {
  // ns-3's QosTxop draws no backoff after an access that sent nothing
  // (GenerateBackoffOnNoTx off): the function falls idle, and a packet arriving after
  // the lost access goes by the immediate-access rule (the medium idle for AIFS).
  // The first run finds when the frame in service expires; the second adds the packet.
  Time lost;
  for (const bool with_packet : {false, true}) {
    std::uint32_t a = 0, b = 0;
    MacWorld w = dot11b_world(MacType::edca);
    make_unanswered(w, QueueLifetimeRule::ns3, a, b);
    w.params().queue_lifetime = 5_ms;
    w.build();
    w.send(a, b, kBytes);
    if (with_packet) w.send_at(lost + 1_us, a, b, kBytes);
    w.run(2_s);
    const auto& drops = w.taps[a]->drops;
    ASSERT_FALSE(drops.empty());
    EXPECT_EQ(drops[0].second, DropCause::lifetime_expired);
    if (!with_packet) {
      lost = drops[0].first;
      ASSERT_EQ(w.macs[a]->stats().drops_lifetime_in_service, 1u);
      ASSERT_EQ(drops.size(), 1u);
      continue;
    }
    EXPECT_EQ(drops[0].first, lost);
    for (const auto& bo : w.taps[a]->backoffs) EXPECT_NE(bo.at, lost);  // none drawn at the lost access
    const auto data = w.taps[a]->sent_of(FrameKind::qos_data);
    const auto after = std::find_if(data.begin(), data.end(), [&](const auto& d) { return d.at > lost; });
    ASSERT_NE(after, data.end());
    EXPECT_EQ(after->at, lost + 1_us);
    EXPECT_FALSE(after->retry);
  }
}

TEST(QueueLifetimeRule, WhenTakenFallsIdleWhereNs3DrawsAfterAnAccessWithNothingLeft) {
  // Only queued packets expire (no frame in service): under when_taken the function
  // falls idle and a later packet goes as it arrives (the medium idle for DIFS); under ns3 the lost access draws
  // a backoff first, from CW min, which that packet waits for if it comes in time.
  for (const QueueLifetimeRule mode : {QueueLifetimeRule::when_taken, QueueLifetimeRule::ns3}) {
    MacWorld w = dot11b_world();
    w.params().queue_lifetime_rule = mode;
    const auto a = w.add(), b = w.add();
    const Time t2 = second_access_alone();
    w.params().queue_lifetime = t2 - Time::ps(1);
    w.build();
    for (int i = 0; i < 3; ++i) w.send(a, b, kBytes);
    w.send_at(t2 + 1_us, a, b, kBytes);
    w.run(100_ms);
    const auto data = w.taps[a]->sent_of(FrameKind::data);
    ASSERT_EQ(data.size(), 2u);
    const auto& backoffs = w.taps[a]->backoffs;
    ASSERT_GE(backoffs.size(), 2u);
    if (mode == QueueLifetimeRule::when_taken) {
      // The medium has been idle for DIFS: it goes as it arrives (9.3.4.2).
      EXPECT_EQ(data[1].at, t2 + 1_us);
      EXPECT_GT(backoffs[1].at, data[1].at);  // its own post-backoff: none at t2
    } else {
      EXPECT_EQ(backoffs[1].at, t2);
      EXPECT_EQ(backoffs[1].cw, 32);
      ASSERT_GT(backoffs[1].slots, 0) << "the stream's draw makes the wait visible";
      EXPECT_EQ(data[1].at, t2 + backoffs[1].slots * w.timing().slot);
    }
  }
}

TEST(QueueLifetimeRule, StandardCountsFromTheFirstAttemptWhereNs3CountsFromTheQueue) {
  // A lifetime of exactly the time from the first attempt to the third access: under
  // ns3 the frame (queued at 0, first sent at DIFS) has outlived it at the third
  // access; under standard its timer, started at the first attempt, has not (expired
  // means strictly older), so the third attempt goes and the fourth access drops it.
  for (const QueueLifetimeRule mode : {QueueLifetimeRule::ns3, QueueLifetimeRule::standard}) {
    std::uint32_t a = 0, b = 0;
    MacWorld w = dot11b_world();
    make_unanswered(w, mode, a, b);
    const auto at = attempt_times(w, a, {64, 128, 256});
    ASSERT_EQ(at[0], w.timing().difs);
    w.params().queue_lifetime = at[2] - at[0];
    w.build();
    w.send(a, b, kBytes);
    w.run(2_s);
    const auto data = w.taps[a]->sent_of(FrameKind::data);
    const std::size_t attempts = mode == QueueLifetimeRule::ns3 ? 2 : 3;
    ASSERT_EQ(data.size(), attempts);
    for (std::size_t i = 0; i < data.size(); ++i) EXPECT_EQ(data[i].at, at[i]) << "attempt " << i;
    ASSERT_EQ(w.taps[a]->drops.size(), 1u);
    EXPECT_EQ(w.taps[a]->drops[0], std::make_pair(at[attempts], DropCause::lifetime_expired));
    EXPECT_EQ(w.macs[a]->stats().drops_lifetime_in_service, 1u);
    EXPECT_EQ(w.pool.live(), 0u);
  }
}

TEST(QueueLifetimeRule, StandardLetsAQueuedPacketWaitPastTheLifetime) {
  // The packets that the queue lifetime drops under when_taken (waiting longer than
  // it at the head) all go under standard: no timer runs before a first attempt.
  MacWorld w = dot11b_world();
  w.params().queue_lifetime_rule = QueueLifetimeRule::standard;
  const auto a = w.add(), b = w.add();
  w.params().queue_lifetime = second_access_alone() - Time::ps(1);
  w.build();
  for (int i = 0; i < 3; ++i) w.send(a, b, kBytes);
  w.run(100_ms);
  EXPECT_TRUE(w.taps[a]->drops.empty());
  EXPECT_EQ(w.taps[a]->sent_of(FrameKind::data).size(), 3u);
  EXPECT_EQ(w.taps[b]->delivered.size(), 3u);
}

TEST(QueueLifetimeRule, StandardServesTheNextPacketAtTheAccessAndFallsIdleWithNone) {
  // Frame 1 (queued at 0) expires by the third access; frame 2, queued after frame 1's
  // second attempt, takes that access with the backoff frame 1 drew and the window
  // frame 1's failures left (128: its first failure widens it to 256), its own timer
  // starting there. When frame 2's timer runs out the access has no frame: no backoff
  // is drawn there (the function falls idle).
  std::uint32_t a = 0, b = 0;
  MacWorld w = dot11b_world();
  make_unanswered(w, QueueLifetimeRule::standard, a, b);
  const auto at = attempt_times(w, a, {64, 128, 256, 512, 1024, 1024, 1024});
  const Time lifetime = at[2] - at[0] - Time::ps(1);
  w.params().queue_lifetime = lifetime;
  w.build();
  w.send(a, b, kBytes);
  w.send_at(at[1] + 1_ms, a, b, kBytes);
  w.run(3_s);
  std::size_t last = 2;  // frame 2's last attempt: the access after it finds its timer out
  while (last + 1 < at.size() && at[last + 1] - at[2] <= lifetime) ++last;
  ASSERT_LT(last + 1, at.size()) << "frame 2 expires before its retry limit";
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), last + 1);
  for (std::size_t i = 0; i < data.size(); ++i) EXPECT_EQ(data[i].at, at[i]) << "attempt " << i;
  EXPECT_FALSE(data[2].retry);  // a new frame
  ASSERT_EQ(w.taps[a]->drops.size(), 2u);
  EXPECT_EQ(w.taps[a]->drops[0], std::make_pair(at[2], DropCause::lifetime_expired));
  EXPECT_EQ(w.taps[a]->drops[1], std::make_pair(at[last + 1], DropCause::lifetime_expired));
  for (const auto& bo : w.taps[a]->backoffs) {
    EXPECT_NE(bo.at, at[2]);         // the access served frame 2
    EXPECT_NE(bo.at, at[last + 1]);  // the access with no frame drew nothing
  }
  EXPECT_EQ(w.pool.live(), 0u);
}

TEST(QueueLifetimeRule, StandardStartsTheTimerAtTheFirstRts) {
  // With RTS/CTS the first attempt is the RTS: B never answers, so no DATA goes, and
  // a timer started at the first DATA would never run; the frame would reach its
  // retry limit (7 RTS frames, tens of milliseconds of backoff) instead.
  std::uint32_t a = 0, b = 0;
  MacWorld w = dot11b_world();
  make_unanswered(w, QueueLifetimeRule::standard, a, b);
  w.params().rts_threshold_bytes = 0;
  const Time lifetime = 5_ms;
  w.params().queue_lifetime = lifetime;
  w.build();
  w.send(a, b, kBytes);
  w.run(2_s);
  const auto rts = w.taps[a]->sent_of(FrameKind::rts);
  ASSERT_FALSE(rts.empty());
  EXPECT_LT(rts.size(), 7u);
  EXPECT_EQ(rts[0].at, w.timing().difs);
  EXPECT_TRUE(w.taps[a]->sent_of(FrameKind::data).empty());
  ASSERT_EQ(w.taps[a]->drops.size(), 1u);
  EXPECT_EQ(w.taps[a]->drops[0].second, DropCause::lifetime_expired);
  // Every RTS went within the lifetime of the first; the drop is at the first access beyond it.
  EXPECT_LE(rts.back().at - rts[0].at, lifetime);
  EXPECT_GT(w.taps[a]->drops[0].first - rts[0].at, lifetime);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
