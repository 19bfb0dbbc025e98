// mac.dequeue: when the MAC takes its next packet from the queue. By default when it
// wins the medium (ns-3's Txop); with "after_exchange" as soon as the last one is
// done, as ns-2's Mac802_11 pulls from its interface queue, so the queue has a free
// place through the backoff (docs/mac.md).
#include <gtest/gtest.h>

#include "tests/mac/mac_world.hpp"

namespace wmnsim::mac::testing {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

constexpr std::uint32_t kBytes = 1000;

struct QueueAfterFirstExchange {
  std::size_t queued;      // packets left in A's queue just after the first ACK
  std::size_t delivered;   // by the end of the run
};

QueueAfterFirstExchange run(Dequeue rule) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
  w.params().dequeue = rule;
  const auto a = w.add(), b = w.add();
  w.build();
  for (int i = 0; i < 3; ++i) w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  // The first packet goes at DIFS (the medium was idle); its ACK ends SIFS + ACK later.
  const Time first_ack_end = t.difs + w.airtime_data(kBytes) + t.sifs + t.ack_airtime;
  w.run(first_ack_end + 1_us);
  const std::size_t queued = w.macs[a]->queue(AccessCategory::ac_be).length_packets();
  w.run(200_ms);
  return {queued, w.taps[b]->delivered.size()};
}

TEST(MacDequeue, AtAccessKeepsTheNextPacketInTheQueueThroughTheBackoff) {
  const QueueAfterFirstExchange r = run(Dequeue::at_access);
  EXPECT_EQ(r.queued, 2u);  // the backoff after the first exchange has not ended
  EXPECT_EQ(r.delivered, 3u);
}

TEST(MacDequeue, AfterExchangeTakesTheNextPacketAsTheExchangeEnds) {
  const QueueAfterFirstExchange r = run(Dequeue::after_exchange);
  EXPECT_EQ(r.queued, 1u);  // the second packet waits in the MAC, not the queue
  EXPECT_EQ(r.delivered, 3u);
}

TEST(MacDequeue, AfterExchangeHandsAPacketArrivingAtAnIdleMacStraightOver) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
  w.params().dequeue = Dequeue::after_exchange;
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);
  EXPECT_EQ(w.macs[a]->queue(AccessCategory::ac_be).length_packets(), 0u);  // ns-2's Queue::recv, unblocked
  w.run(50_ms);
  EXPECT_EQ(w.taps[b]->delivered.size(), 1u);
}

TEST(MacDequeue, AfterExchangeDropsAStaleHeadBeforeTakingIt) {
  // queue_lifetime_s holds when the packet is taken early, as at access: the third
  // packet has waited longer than the lifetime when the second exchange ends.
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
  w.params().dequeue = Dequeue::after_exchange;
  w.params().queue_lifetime = 10_ms;
  const auto a = w.add(), b = w.add();
  w.build();
  for (int i = 0; i < 3; ++i) w.send(a, b, kBytes);
  w.run(200_ms);
  // The first goes at once, the second is taken as the first exchange ends (about
  // 9.5 ms in); the third has waited over 10 ms when the second one's ends.
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
  ASSERT_EQ(w.taps[a]->drops.size(), 1u);
  EXPECT_EQ(w.taps[a]->drops[0].second, DropCause::lifetime_expired);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac::testing
