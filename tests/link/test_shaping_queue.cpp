// Fair queueing (deficit round robin), the exact token bucket, and the two shapers
// of 001 Fig. 2: ordering, fairness between backlogged classes, exact token times,
// drops with their cause, classification by flow and by subscriber, and the owner
// told when a new rate moves a release earlier.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "core/packet.hpp"
#include "link/deficit_round_robin.hpp"
#include "link/fair_queue.hpp"
#include "link/packet_classifier.hpp"
#include "link/shaping_queue.hpp"
#include "link/token_bucket.hpp"

namespace wmnsim::link {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

class RecordingSink final : public DropSink {
 public:
  void on_drop(PacketPtr packet, DropCause cause, Time /*now*/) override {
    drops.push_back({packet->id, cause});
  }
  std::vector<std::pair<PacketId, DropCause>> drops;
};

class CountingListener final : public QueueReadyListener {
 public:
  void on_queue_ready(QueueDiscipline& /*queue*/) override { ++calls; }
  int calls = 0;
};

PacketPtr packet(PacketPool& pool, std::uint32_t flow, std::uint32_t bytes = 1000) {
  PacketPtr p = pool.make(Time::zero());
  p->flow = flow;
  p->size_bytes = bytes;
  return p;
}

constexpr QueueLimit kPackets100{QueueLimit::Unit::packets, 100};

// ---- token bucket -------------------------------------------------------------------

TEST(TokenBucket, ExactReleaseTimes) {
  // 8 kbit/s = 1 byte per ms; a full 1000-byte bucket.
  TokenBucket b(8000, 1000, Time::zero());
  EXPECT_EQ(b.ready_at(Time::zero(), 1000), Time::zero());
  b.take(Time::zero(), 1000);
  // 500 bytes take 500 ms, to the picosecond.
  EXPECT_EQ(b.ready_at(Time::zero(), 500), Time::ms(500));
  EXPECT_EQ(b.ready_at(Time::ms(200), 500), Time::ms(500));
  EXPECT_EQ(b.ready_at(Time::ms(500), 500), Time::ms(500));
  // A rate that does not divide evenly: 3 bit/s for one byte = 8/3 s, rounded up
  // to the picosecond the tokens are complete.
  TokenBucket odd(3, 1, Time::zero());
  odd.take(Time::zero(), 1);
  EXPECT_EQ(odd.ready_at(Time::zero(), 1), Time::ps(2'666'666'666'667));
  EXPECT_EQ(odd.ready_at(Time::ps(2'666'666'666'666), 1), Time::ps(2'666'666'666'667));
}

TEST(TokenBucket, FillsToItsDepthAndKeepsTokensAcrossARateChange) {
  TokenBucket b(8000, 1000, Time::zero());
  b.take(Time::zero(), 1000);
  EXPECT_DOUBLE_EQ(b.tokens_bytes(Time::s(100)), 1000.0);  // capped at the depth
  EXPECT_DOUBLE_EQ(b.tokens_bytes(Time::ms(250)), 250.0);
  b.set_rate(Time::ms(250), 16000);  // 2 bytes per ms from now
  EXPECT_DOUBLE_EQ(b.tokens_bytes(Time::ms(250)), 250.0);
  EXPECT_EQ(b.ready_at(Time::ms(250), 1000), Time::ms(625));
  b.set_rate(Time::ms(300), 0);
  EXPECT_EQ(b.ready_at(Time::ms(300), 1000), Time::max());
}

TEST(TokenBucket, APacketLargerThanTheBucketGoesWhenFullAndLeavesDebt) {
  TokenBucket b(8000, 500, Time::zero());
  EXPECT_EQ(b.ready_at(Time::zero(), 1500), Time::zero());  // full bucket: goes
  b.take(Time::zero(), 1500);                                // 1000 bytes of debt
  EXPECT_EQ(b.ready_at(Time::zero(), 1500), Time::ms(1500));  // debt + a full bucket
  EXPECT_THROW(TokenBucket(8000, 0, Time::zero()), std::invalid_argument);
  EXPECT_THROW(TokenBucket(-1, 10, Time::zero()), std::invalid_argument);
}

// ---- deficit round robin and fq ------------------------------------------------------

TEST(FairQueue, BackloggedClassesShareByBytesNotPackets) {
  PacketPool pool;
  RecordingSink sink;
  FairQueueParams params;
  params.per_class_packets = 100;
  params.quantum_bytes = 1500;
  FairQueue q(kPackets100, params, PacketClassifier(), sink);
  // Flow 0 sends 1500-byte packets, flow 1 500-byte ones, both backlogged.
  for (int i = 0; i < 30; ++i) {
    q.enqueue(packet(pool, 0, 1500), Time::zero());
    q.enqueue(packet(pool, 1, 500), Time::zero());
  }
  std::map<std::uint32_t, std::int64_t> bytes;
  for (int i = 0; i < 40; ++i) {
    ASSERT_EQ(q.peek(), q.peek());
    const Packet* head = q.peek();
    PacketPtr p = q.dequeue(Time::zero());
    ASSERT_EQ(p.get(), head);  // peek() names what dequeue() returns
    bytes[p->flow] += p->size_bytes;
  }
  // Each round: 1500 bytes of each flow (one packet of flow 0, three of flow 1).
  EXPECT_EQ(bytes[0], 10 * 1500);
  EXPECT_EQ(bytes[1], 30 * 500);
}

TEST(FairQueue, RoundRobinOrderAndPerClassOverflow) {
  PacketPool pool;
  RecordingSink sink;
  FairQueue q(kPackets100, FairQueueParams{}, PacketClassifier(), sink);  // 5 per class
  for (int i = 0; i < 6; ++i) {
    const EnqueueResult r = q.enqueue(packet(pool, 7), Time::zero());
    EXPECT_EQ(r.is_accepted(), i < 5);
    if (!r.is_accepted()) {
      EXPECT_EQ(r.cause(), DropCause::queue_overflow);
    }
  }
  q.enqueue(packet(pool, 3), Time::zero());
  ASSERT_EQ(sink.drops.size(), 1u);
  EXPECT_EQ(q.class_length(7), 5u);
  // Class 7 came first: its turn, then class 3's, alternating while both have packets.
  std::vector<std::uint32_t> flows;
  while (PacketPtr p = q.dequeue(Time::zero())) flows.push_back(p->flow);
  EXPECT_EQ(flows, (std::vector<std::uint32_t>{7, 3, 7, 7, 7, 7}));
}

TEST(FairQueue, WholeQueueCapacityAlsoBounds) {
  PacketPool pool;
  RecordingSink sink;
  FairQueue q(QueueLimit{QueueLimit::Unit::packets, 3}, FairQueueParams{}, PacketClassifier(), sink);
  for (std::uint32_t f = 0; f < 4; ++f) q.enqueue(packet(pool, f), Time::zero());
  EXPECT_EQ(q.length_packets(), 3u);
  ASSERT_EQ(sink.drops.size(), 1u);
  EXPECT_EQ(sink.drops[0].second, DropCause::queue_overflow);
}

TEST(PacketClassifier, BySubscriberGroupsAFlowsDataAndAcksWithTheNodesOtherFlows) {
  // Flows 0 and 1 belong to subscriber node 4, flow 2 to node 9.
  const PacketClassifier by_sub(ClassifyBy::subscriber, {4, 4, 9});
  PacketPool pool;
  EXPECT_EQ(by_sub.class_of(*packet(pool, 0)), 4u);
  EXPECT_EQ(by_sub.class_of(*packet(pool, 1)), 4u);
  EXPECT_EQ(by_sub.class_of(*packet(pool, 2)), 9u);
  EXPECT_EQ(by_sub.class_of(*packet(pool, kNoFlow)), kControlClass);
  EXPECT_THROW(by_sub.class_of(*packet(pool, 3)), std::logic_error);
  EXPECT_EQ(PacketClassifier().class_of(*packet(pool, 1)), 1u);

  RecordingSink sink;
  FairQueue q(kPackets100, FairQueueParams{}, by_sub, sink);
  for (int i = 0; i < 4; ++i) q.enqueue(packet(pool, 0), Time::zero());
  for (int i = 0; i < 4; ++i) q.enqueue(packet(pool, 1), Time::zero());  // shares node 4's 5 places
  EXPECT_EQ(q.class_length(4), 5u);
  EXPECT_EQ(sink.drops.size(), 3u);
}

// ---- aggregate shaper ------------------------------------------------------------------

TEST(AggregateShaper, HoldsTheHeadUntilItsTokensAndIgnoresControlTraffic) {
  PacketPool pool;
  RecordingSink sink;
  TokenBucketParams params;
  params.rate_bps = 8000;  // 1 byte per ms
  params.burst_bytes = 1000;
  AggregateShaper q(kPackets100, params, PacketClassifier(), sink);
  q.enqueue(packet(pool, 0, 1000), Time::zero());
  q.enqueue(packet(pool, 1, 1000), Time::zero());
  EXPECT_EQ(q.ready_at(Time::zero()), Time::zero());
  EXPECT_NE(q.dequeue(Time::zero()), nullptr);  // the full bucket's packet
  EXPECT_EQ(q.ready_at(Time::zero()), Time::s(1));
  EXPECT_EQ(q.dequeue(Time::ms(999)), nullptr);  // not before its tokens: non-work-conserving
  EXPECT_EQ(q.length_packets(), 1u);
  // Control traffic is not shaped and goes first.
  q.enqueue(packet(pool, kNoFlow, 60), Time::ms(999));
  EXPECT_EQ(q.ready_at(Time::ms(999)), Time::ms(999));
  EXPECT_EQ(q.dequeue(Time::ms(999))->flow, kNoFlow);
  EXPECT_EQ(q.dequeue(Time::s(1))->flow, 1u);
  EXPECT_EQ(q.ready_at(Time::s(1)), Time::max());
}

TEST(AggregateShaper, LongRunRateIsTheBucketRate) {
  PacketPool pool;
  RecordingSink sink;
  TokenBucketParams params;
  params.rate_bps = 100000;
  params.burst_bytes = 1250;  // one packet
  params.inner = TokenBucketParams::Inner::fq;
  params.fq.per_class_packets = 50;
  AggregateShaper q(kPackets100, params, PacketClassifier(), sink);
  for (int i = 0; i < 40; ++i) q.enqueue(packet(pool, static_cast<std::uint32_t>(i % 2), 1250), Time::zero());
  // Serve as a greedy owner would: at every ready_at.
  Time t = Time::zero();
  std::map<std::uint32_t, int> served;
  for (int i = 0; i < 40; ++i) {
    t = q.ready_at(t);
    PacketPtr p = q.dequeue(t);
    ASSERT_NE(p, nullptr);
    ++served[p->flow];
  }
  // One full bucket at once, then 39 packets of 10 kbit at 100 kbit/s: 3.9 s.
  EXPECT_EQ(t, Time::ms(3900));
  EXPECT_EQ(served[0], 20);
  EXPECT_EQ(served[1], 20);
}

TEST(AggregateShaper, ANewRateTellsTheOwnerAndMovesTheRelease) {
  PacketPool pool;
  RecordingSink sink;
  CountingListener owner;
  TokenBucketParams params;
  params.rate_bps = 8000;
  params.burst_bytes = 1000;
  AggregateShaper q(kPackets100, params, PacketClassifier(), sink);
  q.set_ready_listener(&owner);
  q.enqueue(packet(pool, 0, 1000), Time::zero());
  q.enqueue(packet(pool, 0, 1000), Time::zero());
  q.dequeue(Time::zero());
  EXPECT_EQ(q.ready_at(Time::ms(100)), Time::s(1));
  q.set_rate(Time::ms(100), 80000);  // 10 bytes per ms: 900 bytes missing -> 90 ms
  EXPECT_EQ(owner.calls, 1);
  EXPECT_EQ(q.ready_at(Time::ms(100)), Time::ms(190));
}

// ---- per-class shaper -------------------------------------------------------------------

TEST(PerClassShaper, EachClassAtItsOwnRate) {
  PacketPool pool;
  RecordingSink sink;
  PerClassTokenBucketParams params;
  params.rate_bps = 8000;  // 1 byte per ms
  params.burst_bytes = 1000;
  params.classes.per_class_packets = 20;
  PerClassShaper q(kPackets100, params, PacketClassifier(), sink);
  q.set_class_rate(Time::zero(), 1, 16000);  // flow 1: twice as fast
  for (int i = 0; i < 10; ++i) {
    q.enqueue(packet(pool, 0, 1000), Time::zero());
    q.enqueue(packet(pool, 1, 1000), Time::zero());
  }
  std::map<std::uint32_t, std::vector<Time>> sent;
  Time t = Time::zero();
  while (q.length_packets() > 0 && t < Time::s(5)) {
    t = q.ready_at(t);
    PacketPtr p = q.dequeue(t);
    ASSERT_NE(p, nullptr);
    sent[p->flow].push_back(t);
  }
  // Both start with a full bucket; flow 0 then sends one per second, flow 1 one per
  // half second, exactly.
  ASSERT_GE(sent[0].size(), 5u);
  ASSERT_GE(sent[1].size(), 9u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(sent[0][i], Time::s(static_cast<std::int64_t>(i)));
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(sent[1][i], Time::ms(500 * static_cast<std::int64_t>(i)));
}

TEST(PerClassShaper, ReadyClassesTakeTurnsAndOverflowIsPerClass) {
  PacketPool pool;
  RecordingSink sink;
  PerClassTokenBucketParams params;
  params.rate_bps = 1e9;  // never the constraint here
  params.burst_bytes = 100000;
  PerClassShaper q(kPackets100, params, PacketClassifier(), sink);  // 5 per class
  for (int i = 0; i < 6; ++i) q.enqueue(packet(pool, 2), Time::zero());
  for (int i = 0; i < 2; ++i) q.enqueue(packet(pool, 5), Time::zero());
  ASSERT_EQ(sink.drops.size(), 1u);
  EXPECT_EQ(sink.drops[0].second, DropCause::queue_overflow);
  std::vector<std::uint32_t> flows;
  while (PacketPtr p = q.dequeue(Time::zero())) flows.push_back(p->flow);
  EXPECT_EQ(flows, (std::vector<std::uint32_t>{2, 5, 2, 5, 2, 2, 2}));
}

TEST(PerClassShaper, DefaultRateChangesSparesClassesWithTheirOwn) {
  PacketPool pool;
  RecordingSink sink;
  CountingListener owner;
  PerClassTokenBucketParams params;
  params.rate_bps = 8000;
  params.burst_bytes = 1000;
  PerClassShaper q(kPackets100, params, PacketClassifier(), sink);
  q.set_ready_listener(&owner);
  q.set_class_rate(Time::zero(), 1, 16000);
  q.enqueue(packet(pool, 0, 1000), Time::zero());
  q.enqueue(packet(pool, 1, 1000), Time::zero());
  q.set_default_rate(Time::zero(), 80000);
  EXPECT_EQ(q.bucket(0)->rate_bps(), 80000);
  EXPECT_EQ(q.bucket(1)->rate_bps(), 16000);
  EXPECT_EQ(owner.calls, 2);
  EXPECT_EQ(q.bucket(7), nullptr);
}

// ---- source pacer ------------------------------------------------------------------------

PacketPtr queued(PacketPool& pool, std::uint32_t flow, Time at, std::uint32_t bytes = 1000) {
  PacketPtr p = packet(pool, flow, bytes);
  p->queued_at = at;  // as Mac::enqueue stamps it
  return p;
}

TEST(SourcePacer, PacedPacketsJoinTheFifoAtTheirTokenTimeAmongRelayedOnes) {
  PacketPool pool;
  RecordingSink sink;
  // Flow 0 is the node's own, paced at 1 byte per ms with a 1-byte bucket; flow 9
  // is relayed and not paced.
  SourcePacer q(QueueLimit{QueueLimit::Unit::packets, 10}, 1, 5, PacketClassifier(), sink);
  q.set_class_rate(Time::zero(), 0, 8000);
  q.enqueue(queued(pool, 0, Time::zero()), Time::zero());  // the bucket's byte: joins at once
  q.enqueue(queued(pool, 0, Time::zero()), Time::zero());  // due at 1 s (999 debt + 1)
  q.enqueue(queued(pool, 9, Time::ms(500)), Time::ms(500));
  EXPECT_EQ(q.paced_length(0), 1u);
  q.enqueue(queued(pool, 9, Time::ms(1500)), Time::ms(1500));  // after the paced one's time
  EXPECT_EQ(q.paced_length(0), 0u);
  std::vector<std::pair<std::uint32_t, Time>> out;
  while (PacketPtr p = q.dequeue(Time::ms(1500))) out.push_back({p->flow, p->queued_at});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].first, 0u);
  EXPECT_EQ(out[1].first, 9u);  // arrived at 0.5 s, before the paced packet's 1 s
  EXPECT_EQ(out[2].first, 0u);
  EXPECT_EQ(out[3].first, 9u);
}

TEST(SourcePacer, AnEmptyFifoWaitsExactlyForTheNextPacedPacket) {
  PacketPool pool;
  RecordingSink sink;
  SourcePacer q(QueueLimit{QueueLimit::Unit::packets, 10}, 1000, 5, PacketClassifier(), sink);
  q.set_class_rate(Time::zero(), 0, 8000);
  q.enqueue(queued(pool, 0, Time::zero()), Time::zero());
  q.enqueue(queued(pool, 0, Time::zero()), Time::zero());
  EXPECT_NE(q.dequeue(Time::zero()), nullptr);
  EXPECT_EQ(q.ready_at(Time::zero()), Time::s(1));
  EXPECT_EQ(q.dequeue(Time::ms(999)), nullptr);
  EXPECT_NE(q.dequeue(Time::s(1)), nullptr);
  EXPECT_EQ(q.ready_at(Time::s(1)), Time::max());
}

TEST(SourcePacer, OverflowOfThePacerAndOfTheFifo) {
  PacketPool pool;
  RecordingSink sink;
  SourcePacer q(QueueLimit{QueueLimit::Unit::packets, 1}, 1, 2, PacketClassifier(), sink);
  q.set_class_rate(Time::zero(), 0, 8000);
  q.enqueue(queued(pool, 9, Time::zero()), Time::zero());  // fills the FIFO
  q.enqueue(queued(pool, 0, Time::zero()), Time::zero());  // due now, FIFO full: dropped
  ASSERT_EQ(sink.drops.size(), 1u);
  q.enqueue(queued(pool, 0, Time::zero()), Time::zero());
  q.enqueue(queued(pool, 0, Time::zero()), Time::zero());
  q.enqueue(queued(pool, 0, Time::zero()), Time::zero());  // the pacer holds 2
  ASSERT_EQ(sink.drops.size(), 2u);
  EXPECT_EQ(sink.drops[1].second, DropCause::queue_overflow);
  EXPECT_EQ(q.length_packets(), 3u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::link
