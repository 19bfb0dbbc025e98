// A queue discipline that wakes its MAC (QueueDiscipline::notify_ready, docs/mac.md
// "Queues"): a head the discipline releases at T gets the medium as a frame
// enqueued at T into an idle access function does (9.3.4.2: at once if the medium
// has been idle for AIFS, else AIFS after it turns idle, plus a backoff if it was
// busy), not at some unrelated later event; without the notification it waits.
// Times are exact (co-located radios, backoff draws replayed from the stream).

#include <gtest/gtest.h>

#include <memory>

#include "link/drop_tail_queue.hpp"
#include "mac/mac.hpp"
#include "mac_world.hpp"
#include "release_queue.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;
using testing::ReleaseQueue;

constexpr std::uint32_t kBytes = 1500;

MacWorld dot11b_world(MacType type = MacType::dcf) {
  return MacWorld(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, type);
}

// Installs a ReleaseQueue for AC_BE (DCF's only category) at a.
ReleaseQueue& install(MacWorld& w, std::uint32_t a, AccessCategory ac = AccessCategory::ac_be) {
  auto q = std::make_unique<ReleaseQueue>(*w.taps[a]);
  ReleaseQueue& ref = *q;
  w.macs[a]->set_queue(ac, std::move(q));
  return ref;
}

TEST(MacQueueReady, AReleaseOnAnIdleMediumGoesAsAnEnqueueAtThatInstant) {
  const Time release = 5_ms;
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  ReleaseQueue& q = install(w, a);
  w.send(a, b, kBytes);  // held from the start
  w.sim.scheduler().schedule_at(release, [&] { q.release(); });
  w.run(50_ms);

  // The reference: the same packet enqueued at `release` into a drop-tail queue.
  MacWorld ref = dot11b_world();
  const auto ra = ref.add(), rb = ref.add();
  ref.build();
  ref.send_at(release, ra, rb, kBytes);
  ref.run(50_ms);

  const auto data = w.taps[a]->sent_of(FrameKind::data);
  const auto ref_data = ref.taps[ra]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 1u);
  ASSERT_EQ(ref_data.size(), 1u);
  EXPECT_EQ(data[0].at, ref_data[0].at);
  // The medium had been idle for DIFS: it goes at once (9.3.4.2).
  EXPECT_EQ(data[0].at, release);
  EXPECT_EQ(w.taps[b]->delivered.size(), 1u);
}

TEST(MacQueueReady, AReleaseJustAfterTheMediumTurnsIdleWaitsForDifsOnly) {
  // c's exchange with b ends at t_idle; a's head is released SIFS later: a sends
  // DIFS after t_idle, without a backoff (the medium was idle at the release).
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), c = w.add();
  w.build();
  ReleaseQueue& q = install(w, a);
  const MacTiming t = w.timing();
  const Time c_starts = 2_ms;
  const Time t_idle = c_starts + w.airtime_data(kBytes) + t.sifs + t.ack_airtime;
  w.send(a, b, kBytes);
  w.send_at(c_starts, c, b, kBytes);
  w.sim.scheduler().schedule_at(t_idle + t.sifs, [&] { q.release(); });
  w.run(50_ms);

  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0].at, t_idle + t.difs);
}

TEST(MacQueueReady, AReleaseOnABusyMediumBacksOffAfterIt) {
  // Released during c's frame: a draws a backoff (9.3.4.2) and counts it down
  // from DIFS after the end of c's exchange (the NAV covers b's ACK).
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), c = w.add();
  w.build();
  ReleaseQueue& q = install(w, a);
  const MacTiming t = w.timing();
  const Time c_starts = 2_ms;
  const Time t_idle = c_starts + w.airtime_data(kBytes) + t.sifs + t.ack_airtime;
  w.send(a, b, kBytes);
  w.send_at(c_starts, c, b, kBytes);
  w.sim.scheduler().schedule_at(c_starts + 100_us, [&] { q.release(); });
  w.run(50_ms);

  RandomStream draws = w.backoff_stream(a);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));  // a's first draw
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0].at, t_idle + t.difs + k * t.slot);
}

TEST(MacQueueReady, WithoutTheNotificationTheFrameWaitsForAnUnrelatedEvent) {
  const Time release = 5_ms, later = 20_ms;
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  ReleaseQueue& q = install(w, a);
  w.send(a, b, kBytes);
  w.sim.scheduler().schedule_at(release, [&] { q.release(/*notify=*/false); });
  w.run(later - 1_ms);
  EXPECT_TRUE(w.taps[a]->sent_of(FrameKind::data).empty());  // nothing woke the MAC
  // The next enqueue finds the held head released and both go.
  w.send_at(later, a, b, kBytes);
  w.run(100_ms);
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[0].at, later);
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
}

TEST(MacQueueReady, AReleaseAnnouncedByReadyAtNeedsNoNotification) {
  // The ready_at() path: a shaper that can date its release is served at that
  // time by the MAC's own timer.
  const Time release = 7_ms;
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  ReleaseQueue& q = install(w, a);
  q.release_at(release);
  w.send(a, b, kBytes);
  w.run(50_ms);
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0].at, release);
}

TEST(MacQueueReady, AHeadHeldAtTheEndOfAPostBackoffIsServedOnRelease) {
  // Two packets: the first goes, then the discipline blocks; the post-backoff
  // ends with the head held, the function falls idle, and the release at T sends
  // the second at T (the medium has long been idle).
  const Time release = 30_ms;
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  ReleaseQueue& q = install(w, a);
  q.release(/*notify=*/false);
  w.send(a, b, kBytes);
  w.send(a, b, kBytes);
  // Blocked once the first packet has been taken (it is on the air at DIFS).
  const MacTiming t = w.timing();
  w.sim.scheduler().schedule_at(t.difs + 1_us, [&] { q.block(); });
  w.sim.scheduler().schedule_at(release, [&] { q.release(); });
  w.run(100_ms);
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[0].at, t.difs);
  EXPECT_EQ(data[1].at, release);
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
}

TEST(MacQueueReady, EdcaReleaseUsesTheCategorysAifs) {
  // Under EDCA the released AC_VI head goes AIFS[AC_VI] after the medium turns
  // idle (AIFSN 2 by default; set to 5 here to tell it apart from DIFS).
  MacWorld w = dot11b_world(MacType::edca);
  const auto a = w.add(), b = w.add(), c = w.add();
  w.params().access_categories[index_of(AccessCategory::ac_vi)].aifsn = 5;
  w.build();
  ReleaseQueue& q = install(w, a, AccessCategory::ac_vi);
  const MacTiming t = w.timing();
  const Time c_starts = 2_ms;
  // c sends AC_BE QoS data; its exchange ends at t_idle.
  const Time t_idle = c_starts + w.airtime_data(kBytes) + t.sifs + t.ack_airtime;
  w.send(a, b, kBytes, AccessCategory::ac_vi);
  w.send_at(c_starts, c, b, kBytes);
  w.sim.scheduler().schedule_at(t_idle + t.sifs, [&] { q.release(); });
  w.run(50_ms);
  const auto data = w.taps[a]->sent_of(FrameKind::qos_data);
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0].ac, AccessCategory::ac_vi);
  EXPECT_EQ(data[0].at, t_idle + t.aifs(5));
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
