// The packet struct and its pool: ids, reuse without allocation, ownership moves,
// clones, and the pool's accounting of live packets.
#include "core/packet.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(PacketPool, MakeGivesFreshIdsAndCreationTime) {
  PacketPool pool(4);
  PacketPtr a = pool.make(Time::us(5));
  PacketPtr b = pool.make(Time::us(7));
  EXPECT_EQ(a->id, 1u);
  EXPECT_EQ(b->id, 2u);
  EXPECT_EQ(a->created, Time::us(5));
  EXPECT_EQ(b->created, Time::us(7));
  EXPECT_EQ(a->ttl, kDefaultTtl);
  EXPECT_EQ(a->flow, kNoFlow);
  EXPECT_FALSE(a->user_priority.has_value());
  EXPECT_EQ(pool.live(), 2u);
  EXPECT_EQ(pool.ids_issued(), 2u);
}

TEST(PacketPool, ReusesStorageAndResetsFields) {
  PacketPool pool(4);
  PacketPtr a = pool.make(Time::zero());
  Packet* const slot = a.get();
  a->size_bytes = 1500;
  a->transport.seq = 99;
  a->hops = 3;
  a.reset();
  EXPECT_EQ(pool.live(), 0u);
  PacketPtr b = pool.make(Time::us(1));
  EXPECT_EQ(b.get(), slot);  // the freed slot comes back first
  EXPECT_EQ(b->id, 2u);      // ids are never reused
  EXPECT_EQ(b->size_bytes, 0u);
  EXPECT_EQ(b->transport.seq, 0u);
  EXPECT_EQ(b->hops, 0);
}

TEST(PacketPool, SteadyStateDoesNotGrow) {
  PacketPool pool(8);
  std::vector<PacketPtr> window;
  // A sliding window of 6 live packets over 10000 packets: one chunk suffices.
  for (int i = 0; i < 10000; ++i) {
    window.push_back(pool.make(Time::us(i)));
    if (window.size() > 6) window.erase(window.begin());
  }
  EXPECT_EQ(pool.capacity(), 8u);
  EXPECT_EQ(pool.live(), 6u);
  EXPECT_EQ(pool.ids_issued(), 10000u);
}

TEST(PacketPool, GrowsByChunksWithStableAddresses) {
  PacketPool pool(2);
  std::vector<PacketPtr> held;
  std::set<const Packet*> addresses;
  for (int i = 0; i < 7; ++i) {
    held.push_back(pool.make(Time::zero()));
    addresses.insert(held.back().get());
  }
  EXPECT_EQ(addresses.size(), 7u);
  EXPECT_EQ(pool.capacity(), 8u);  // four chunks of two
  EXPECT_EQ(pool.live(), 7u);
  // The first packets still live where they were made.
  EXPECT_EQ(held[0]->id, 1u);
  held.clear();
  EXPECT_EQ(pool.live(), 0u);
  EXPECT_EQ(pool.capacity(), 8u);
}

TEST(PacketPool, OwnershipIsUniqueAndMoves) {
  static_assert(!std::is_copy_constructible_v<PacketPtr>);
  static_assert(std::is_nothrow_move_constructible_v<PacketPtr>);
  PacketPool pool;
  PacketPtr a = pool.make(Time::zero());
  const Packet* raw = a.get();
  PacketPtr b = std::move(a);
  EXPECT_EQ(a, nullptr);
  EXPECT_EQ(b.get(), raw);
  EXPECT_EQ(pool.live(), 1u);
  b = nullptr;
  EXPECT_EQ(pool.live(), 0u);
}

TEST(PacketPool, CloneIsTheSameLogicalPacketInItsOwnStorage) {
  PacketPool pool;
  PacketPtr original = pool.make(Time::us(3));
  original->size_bytes = 1040;
  original->src = 1;
  original->dst = 4;
  original->flow = 2;
  original->transport.payload_bytes = 1000;
  PacketPtr copy = pool.clone(*original);
  EXPECT_NE(copy.get(), original.get());
  EXPECT_EQ(copy->id, original->id);
  EXPECT_EQ(copy->size_bytes, 1040u);
  EXPECT_EQ(copy->created, Time::us(3));
  EXPECT_EQ(copy->transport.payload_bytes, 1000u);
  EXPECT_EQ(pool.live(), 2u);
  EXPECT_EQ(pool.ids_issued(), 1u);  // clone issues no id
  original.reset();
  EXPECT_EQ(copy->flow, 2u);  // unaffected by the original's return
}

TEST(Packet, SizeAccountingOfATcpSegment) {
  PacketPool pool;
  PacketPtr p = pool.make(Time::zero());
  // The transport decides the size: IP header + its own header + payload.
  p->transport.payload_bytes = 1460;
  p->size_bytes = kIpv4HeaderBytes + 20 + p->transport.payload_bytes;
  EXPECT_EQ(p->size_bytes, 1500u);
}

TEST(Packet, PureAck) {
  TransportHeader h;
  EXPECT_FALSE(h.is_pure_ack());  // no ACK flag
  h.ack_valid = true;
  EXPECT_TRUE(h.is_pure_ack());
  h.syn = true;
  EXPECT_FALSE(h.is_pure_ack());  // SYN-ACK is not a pure ACK
  h.syn = false;
  h.payload_bytes = 1;
  EXPECT_FALSE(h.is_pure_ack());  // piggybacked data
}

TEST(Packet, SackBlocksAndCongestionHeaderNeverShareAPacket) {
  // One options union holds either: mixing them is refused, not silently corrupted.
  TransportHeader sack;
  sack.ack = 1000;
  sack.add_sack(2000, 3000);
  EXPECT_THROW(sack.set_congestion(CongestionHeader{}), std::logic_error);
  TransportHeader wccp;
  CongestionHeader c;
  c.rate_pps = 25.0;
  wccp.set_congestion(c);
  EXPECT_THROW(wccp.add_sack(2000, 3000), std::logic_error);
  EXPECT_EQ(wccp.congestion().rate_pps, 25.0);
}

TEST(Packet, DropCauseNames) {
  EXPECT_EQ(to_string(DropCause::queue_overflow), "queue_overflow");
  EXPECT_EQ(to_string(DropCause::retry_limit), "retry_limit");
  EXPECT_EQ(to_string(DropCause::ttl_expired), "ttl_expired");
  EXPECT_EQ(to_string(DropCause::lifetime_expired), "lifetime_expired");
  EXPECT_EQ(to_string(DropCause::false_duplicate), "false_duplicate");
  EXPECT_EQ(to_string(static_cast<DropCause>(kDropCauseCount - 1)), "false_duplicate");
}

TEST(PacketPoolDeathTest, DestroyingAPoolWithLivePacketsAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        auto* pool = new PacketPool;
        PacketPtr p = pool->make(Time::zero());
        delete pool;  // aborts: p would return into freed storage
      },
      "live packets");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
