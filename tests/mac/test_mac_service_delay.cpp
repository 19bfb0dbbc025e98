// MAC service delay (Mac::service_delays): head of the queue to ACK or drop, on
// hand-built timelines (as test_mac_timeline.cpp: co-located radios, exact times).

#include <gtest/gtest.h>

#include "mac/mac.hpp"
#include "mac_world.hpp"

namespace wmnsim::mac {
namespace {
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
}

}  // namespace
}  // namespace wmnsim::mac
