// MAC service delay (Mac::service_delays): head of the queue to ACK or drop, and
// queueing delay (Mac::queueing_delays): arrival in the queue to its head, on
// hand-built timelines (as test_mac_timeline.cpp: co-located radios, exact times).

#include <gtest/gtest.h>

#include "mac/mac.hpp"
#include "mac_world.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;

constexpr std::uint32_t kBytes = 1500;

MacWorld dot11b_world() { return MacWorld(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, MacType::dcf); }

TEST(MacServiceDelay, FromTheHeadOfTheQueueToTheAck) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);  // both queued at 0
  w.send(a, b, kBytes);
  w.run(50_ms);
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes), ack = w.airtime_control(kAckBytes);
  // First: immediate access after DIFS, DATA, SIFS, ACK.
  const Time first = t.difs + data + t.sifs + ack;
  // Second: at the head once the first is acknowledged; then DIFS, the post-backoff
  // draw k, DATA, SIFS, ACK.
  RandomStream draws = w.backoff_stream(a);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  const Time second = t.difs + k * t.slot + data + t.sifs + ack;
  const DelayDistribution& d = w.macs[a]->service_delays();
  ASSERT_EQ(d.count(), 2u);
  const DelayDistribution::Summary s = d.summary();
  EXPECT_DOUBLE_EQ(*s.mean_s, (first + second).to_seconds() / 2);
  EXPECT_DOUBLE_EQ(*s.p50_s, std::min(first, second).to_seconds());  // nearest rank 1 of 2
  EXPECT_DOUBLE_EQ(*s.max_s, std::max(first, second).to_seconds());
  EXPECT_EQ(w.macs[b]->service_delays().count(), 0u);  // ACKs are not data MPDUs
}

TEST(MacServiceDelay, ADropAtTheRetryLimitEndsTheService) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.hide(a, b);  // no ACK ever: 7 attempts, then the drop at the last ACK timeout
  w.build();
  w.send(a, b, kBytes);
  w.run(1_s);
  const auto& sent = w.taps[a]->sent;
  ASSERT_EQ(sent.size(), 7u);
  const Time dropped_at = sent.back().at + w.airtime_data(kBytes) + w.timing().ack_timeout;
  const DelayDistribution& d = w.macs[a]->service_delays();
  ASSERT_EQ(d.count(), 1u);
  EXPECT_DOUBLE_EQ(*d.summary().max_s, dropped_at.to_seconds());
  // Seven attempts, one MPDU: queued once, with no wait (the queue was empty).
  const DelayDistribution& q = w.macs[a]->queueing_delays();
  ASSERT_EQ(q.count(), 1u);
  EXPECT_EQ(*q.summary().max_s, 0.0);
}

TEST(MacQueueingDelay, FromTheArrivalToTheHeadOfTheQueue) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);  // all three queued at 0
  w.send(a, b, kBytes);
  w.send(a, b, kBytes);
  w.run(100_ms);
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes), ack = w.airtime_control(kAckBytes);
  RandomStream draws = w.backoff_stream(a);
  const auto k1 = static_cast<std::int64_t>(draws.uniform_int(32));
  const auto k2 = static_cast<std::int64_t>(draws.uniform_int(32));
  // Services as in FromTheHeadOfTheQueueToTheAck; each frame reaches the head when
  // the one before it is acknowledged.
  const Time first = t.difs + data + t.sifs + ack;
  const Time second = t.difs + k1 * t.slot + data + t.sifs + ack;
  const Time third = t.difs + k2 * t.slot + data + t.sifs + ack;
  const DelayDistribution::Summary q = w.macs[a]->queueing_delays().summary();
  ASSERT_EQ(q.count, 3u);
  EXPECT_DOUBLE_EQ(*q.mean_s, (first + (first + second)).to_seconds() / 3);
  EXPECT_EQ(*q.p50_s, first.to_seconds());  // nearest rank 2 of 3
  EXPECT_EQ(*q.max_s, (first + second).to_seconds());
  // Queueing + service is arrival to ACK: the last ACK ends at first + second + third.
  const DelayDistribution::Summary s = w.macs[a]->service_delays().summary();
  EXPECT_DOUBLE_EQ((*q.mean_s + *s.mean_s) * 3, (first + (first + second) + (first + second + third)).to_seconds());
  EXPECT_EQ(w.macs[b]->queueing_delays().count(), 0u);  // ACKs are not queued
}

TEST(MacQueueingDelay, CountedWhenServiceStartsNotWhenItEnds) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);
  // Mid-DATA: the frame left the queue (after DIFS) but is not acknowledged yet.
  w.run(w.timing().difs + w.airtime_data(kBytes) / 2);
  EXPECT_EQ(w.macs[a]->queueing_delays().count(), 1u);
  EXPECT_EQ(w.macs[a]->service_delays().count(), 0u);
  w.run(50_ms);
  EXPECT_EQ(w.macs[a]->queueing_delays().count(), 1u);
  EXPECT_EQ(w.macs[a]->service_delays().count(), 1u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
