// mac.dequeue: when the MAC takes its next packet from the queue. By default when it
// wins the medium (ns-3's Txop); with "after_exchange" as soon as the last one is
// done, as ns-2's Mac802_11 pulls from its interface queue, so the queue has a free
// place through the backoff; with "ns3" when it wins the medium, but the frame keeps
// its place in the queue's capacity until its service ends, as ns-3's WifiMacQueue
// keeps an MPDU until it is acknowledged or dropped (docs/mac.md).
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "link/drop_tail_queue.hpp"
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

// A's queue holds two packets. Two are queued at 0; the first is taken at DIFS. A
// third arrives while the first is on the air, a fourth just after its ACK.
struct Arrivals {
  std::vector<std::pair<Time, DropCause>> drops;
  std::size_t delivered;
};
Arrivals arrivals(Dequeue rule) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
  w.params().dequeue = rule;
  w.params().queue = link::QueueLimit{link::QueueLimit::Unit::packets, 2};
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);
  w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  const Time first_ack_end = t.difs + w.airtime_data(kBytes) + t.sifs + t.ack_airtime;
  w.send_at(t.difs + 1_us, a, b, kBytes);
  w.send_at(first_ack_end + 1_us, a, b, kBytes);
  w.run(200_ms);
  return {w.taps[a]->drops, w.taps[b]->delivered.size()};
}

TEST(MacDequeue, Ns3KeepsTheFrameInServiceInTheQueuesCapacityUntilItsAck) {
  MacWorld probe(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
  const MacTiming t = probe.timing();
  const Time first_ack_end = t.difs + probe.airtime_data(kBytes) + t.sifs + t.ack_airtime;
  // at_access: the first packet left the queue at DIFS, so the third finds room;
  // the fourth finds the second and third still queued (the backoff runs).
  const Arrivals at_access = arrivals(Dequeue::at_access);
  ASSERT_EQ(at_access.drops.size(), 1u);
  EXPECT_EQ(at_access.drops[0], std::make_pair(first_ack_end + 1_us, DropCause::queue_overflow));
  EXPECT_EQ(at_access.delivered, 3u);
  // ns3: the first still holds its place, so the third is refused; its ACK frees the
  // place for the fourth.
  const Arrivals ns3 = arrivals(Dequeue::ns3);
  ASSERT_EQ(ns3.drops.size(), 1u);
  EXPECT_EQ(ns3.drops[0], std::make_pair(t.difs + 1_us, DropCause::queue_overflow));
  EXPECT_EQ(ns3.delivered, 3u);
}

// A saturated source (refilled at every MacUser::on_queue_space) into a queue of
// three: under ns3 the room is given back when the frame is done, so the queue
// holds two packets while one is in service, and the refill follows each ACK.
TEST(MacDequeue, Ns3GivesTheRoomBackWhenTheFrameIsDone) {
  for (const Dequeue rule : {Dequeue::at_access, Dequeue::ns3}) {
    MacWorld w(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
    w.params().dequeue = rule;
    w.params().queue = link::QueueLimit{link::QueueLimit::Unit::packets, 3};
    const auto a = w.add(), b = w.add();
    w.build();
    w.taps[a]->saturate(b, kBytes, 3);
    const MacTiming t = w.timing();
    const Time on_air = t.difs + 1_us;  // the first frame being sent
    const Time first_ack_end = t.difs + w.airtime_data(kBytes) + t.sifs + t.ack_airtime;
    w.run(on_air);
    const std::size_t during = w.macs[a]->queue(AccessCategory::ac_be).length_packets();
    const int refills_during = w.taps[a]->refills;
    w.run(first_ack_end + 1_us);
    const std::size_t after = w.macs[a]->queue(AccessCategory::ac_be).length_packets();
    if (rule == Dequeue::at_access) {
      EXPECT_EQ(during, 3u);  // refilled when the first was taken
      EXPECT_EQ(refills_during, 1);
    } else {
      EXPECT_EQ(during, 2u);  // the first holds the third place
      EXPECT_EQ(refills_during, 0);
      EXPECT_EQ(w.taps[a]->refills, 1);  // at its ACK
    }
    EXPECT_EQ(after, 3u);
    w.run(500_ms);
    EXPECT_TRUE(w.taps[a]->drops.empty()) << "a saturated source never overflows its queue";
  }
}

TEST(MacDequeue, Ns3GivesTheRoomBackAtTheRetryLimit) {
  // B never answers: the first packet holds the queue's only place until its retry
  // limit drops it. A packet arriving before that is refused, one arriving after it
  // accepted. The first pass finds when the drop comes; the second sends then.
  Time freed;
  for (const bool probe : {true, false}) {
    MacWorld w(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
    w.params().dequeue = Dequeue::ns3;
    w.params().queue = link::QueueLimit{link::QueueLimit::Unit::packets, 1};
    const auto a = w.add(), b = w.add();
    w.hide(a, b);
    w.build();
    w.send(a, b, kBytes);
    w.send_at(1_ms, a, b, kBytes);  // refused: the first holds the only place
    if (!probe) w.send_at(freed + 1_us, a, b, kBytes);
    w.run(probe ? 3_s : freed + 2_us);
    const auto& drops = w.taps[a]->drops;
    ASSERT_EQ(drops.size(), 2u);
    EXPECT_EQ(drops[0], std::make_pair(1_ms, DropCause::queue_overflow));
    EXPECT_EQ(drops[1].second, DropCause::retry_limit);
    if (probe) {
      freed = drops[1].first;
      continue;
    }
    EXPECT_EQ(drops[1].first, freed);
    EXPECT_EQ(w.macs[a]->queue(AccessCategory::ac_be).length_packets(), 1u);  // accepted
  }
}

// Under ns3 every end of a frame's service gives the room back once: a saturated
// source (one packet, a queue of one) is refilled once per frame given up, whether its
// retry limit or its lifetime (either rule that reaches a frame in service) ends it,
// and its refill always finds the place free. B never answers.
TEST(MacDequeue, Ns3RefillsASaturatedSourceOnceAtEachEndOfService) {
  struct Case {
    std::optional<QueueLifetimeRule> lifetime;
    DropCause cause;
  };
  for (const Case c : {Case{std::nullopt, DropCause::retry_limit}, Case{QueueLifetimeRule::ns3, DropCause::lifetime_expired},
                       Case{QueueLifetimeRule::standard, DropCause::lifetime_expired}}) {
    MacWorld w(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
    w.params().dequeue = Dequeue::ns3;
    w.params().queue = link::QueueLimit{link::QueueLimit::Unit::packets, 1};
    if (c.lifetime) {
      w.params().queue_lifetime = 5_ms;
      w.params().queue_lifetime_rule = *c.lifetime;
    }
    const auto a = w.add(), b = w.add();
    w.hide(a, b);
    w.build();
    w.taps[a]->saturate(b, kBytes, 1);
    w.run(1_s);
    const auto& drops = w.taps[a]->drops;
    ASSERT_GE(drops.size(), 3u);
    for (const auto& d : drops) EXPECT_EQ(d.second, c.cause);  // never queue_overflow
    EXPECT_EQ(static_cast<std::size_t>(w.taps[a]->refills), drops.size());
    const auto& q = dynamic_cast<const link::DropTailQueue&>(w.macs[a]->queue(AccessCategory::ac_be));
    EXPECT_EQ(q.held_packets() + q.length_packets(), 1u);  // the one packet, held or queued
  }
}

TEST(MacDequeue, Ns3MovesTheHeldPlaceToAQueueInstalledDuringTheFrame) {
  // A controller's set_queue while the frame is on the air: the new queue (one place)
  // counts the frame in service, so an arrival is refused until its ACK.
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 1e6, 1e6);
  w.params().dequeue = Dequeue::ns3;
  const auto a = w.add(), b = w.add();
  w.build();
  const MacTiming t = w.timing();
  const Time first_ack_end = t.difs + w.airtime_data(kBytes) + t.sifs + t.ack_airtime;
  w.send(a, b, kBytes);
  w.sim.scheduler().schedule_at(t.difs + 1_us, [&] {
    w.macs[a]->set_queue(AccessCategory::ac_be,
                         std::make_unique<link::DropTailQueue>(link::QueueLimit{link::QueueLimit::Unit::packets, 1}, *w.taps[a]));
  });
  w.send_at(t.difs + 2_us, a, b, kBytes);
  w.send_at(first_ack_end + 1_us, a, b, kBytes);
  w.run(200_ms);
  ASSERT_EQ(w.taps[a]->drops.size(), 1u);
  EXPECT_EQ(w.taps[a]->drops[0], std::make_pair(t.difs + 2_us, DropCause::queue_overflow));
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac::testing
