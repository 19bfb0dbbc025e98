// The MAC queue lifetime (MacParams::queue_lifetime, docs/mac.md): a packet that
// waited longer than the lifetime is dropped, with cause lifetime_expired, when
// the MAC would take it: at a channel access or at the decision to continue a
// TXOP. Times are exact (co-located radios, backoff replayed from the stream).

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

TEST(MacQueueLifetime, APacketOlderThanTheLifetimeIsDroppedAtTheAccessThatWouldTakeIt) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  // The second packet reaches the head at exactly its lifetime: not older than
  // it, so it goes (ns-3's rule: expired when now > queued + lifetime).
  Time t2;
  {
    MacWorld probe = dot11b_world();
    const auto pa = probe.add();
    (void)probe.add();
    t2 = second_access(probe, pa);
  }
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
  Time t2;
  {
    MacWorld probe = dot11b_world();
    const auto pa = probe.add();
    (void)probe.add();
    t2 = second_access(probe, pa);
  }
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

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
