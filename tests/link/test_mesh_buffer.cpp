// 004's mesh buffer (link/mesh_buffer.hpp): the 80/20 forward/local split with
// drops in the right part, TCC's total block, LSCC's per-next-hop virtual FIFOs
// (arrival order while nothing is blocked, blocked colours skipped), the 50 % limit
// on blocked local packets, exact release times, the owner told when a block is
// lifted early, and the bytes held per previous hop (look-ahead).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/packet.hpp"
#include "link/mesh_buffer.hpp"

namespace wmnsim::link {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

class RecordingSink final : public DropSink {
 public:
  void on_drop(PacketPtr packet, DropCause cause, Time /*now*/) override { drops.push_back({packet->id, cause}); }
  std::vector<std::pair<PacketId, DropCause>> drops;
};

class CountingListener final : public QueueReadyListener {
 public:
  void on_queue_ready(QueueDiscipline& /*queue*/) override { ++calls; }
  int calls = 0;
};

constexpr std::uint32_t kB = 20, kC = 30;  // next hops (radios)
constexpr std::uint32_t kFromD = 40, kFromE = 50;

// hops == 0: local; otherwise forwarded from the radio in `flow` (the test's own
// previous-hop function reads it there).
PacketPtr packet(PacketPool& pool, std::uint32_t next_hop, std::uint32_t from, std::uint32_t bytes = 1000) {
  PacketPtr p = pool.make(Time::zero());
  p->size_bytes = bytes;
  p->next_hop_radio = next_hop;
  p->hops = from == MeshBuffer::kLocal ? 0 : 1;
  p->flow = from;
  return p;
}

MeshBuffer::PreviousHop from_flow() {
  return [](const Packet& p) { return p.hops == 0 ? MeshBuffer::kLocal : p.flow; };
}

MeshBufferParams params(bool link_selective, std::int64_t capacity = 10000) {
  MeshBufferParams p;
  p.capacity_bytes = capacity;
  p.link_selective = link_selective;
  return p;
}

TEST(MeshBuffer, ForwardAndLocalPartsAreSeparate) {
  PacketPool pool;
  RecordingSink sink;
  MeshBuffer q(params(false), from_flow(), sink);
  EXPECT_EQ(q.forward_capacity(), 8000);
  EXPECT_EQ(q.local_capacity(), 2000);
  // Two local packets fill the local 20 %; the third is dropped though 8000 bytes are free.
  for (int i = 0; i < 3; ++i) q.enqueue(packet(pool, kB, MeshBuffer::kLocal), Time::zero());
  EXPECT_EQ(q.local_bytes(), 2000);
  ASSERT_EQ(sink.drops.size(), 1u);
  EXPECT_EQ(sink.drops[0].second, DropCause::queue_overflow);
  // Forwarded packets still fit up to 8000 bytes.
  for (int i = 0; i < 9; ++i) q.enqueue(packet(pool, kB, kFromD), Time::zero());
  EXPECT_EQ(q.forward_bytes(), 8000);
  EXPECT_EQ(sink.drops.size(), 2u);
  EXPECT_EQ(q.length_bytes(), 10000);
  EXPECT_EQ(q.bytes_from(kFromD), 8000);
  EXPECT_EQ(q.counters().dropped(DropCause::queue_overflow), 2u);
}

TEST(MeshBuffer, RefusesBadParameters) {
  RecordingSink sink;
  EXPECT_THROW(MeshBuffer(params(false, 0), from_flow(), sink), std::invalid_argument);
  MeshBufferParams p = params(false);
  p.forward_share = 1.0;
  EXPECT_THROW(MeshBuffer(p, from_flow(), sink), std::invalid_argument);
  EXPECT_THROW(MeshBuffer(params(false), nullptr, sink), std::invalid_argument);
  p = params(true);
  p.blocked_local_limit = 1.01;
  EXPECT_THROW(MeshBuffer(p, from_flow(), sink), std::invalid_argument);
  p.blocked_local_limit = 0.0;
  EXPECT_THROW(MeshBuffer(p, from_flow(), sink), std::invalid_argument);
}

TEST(MeshBuffer, TotalBlockStopsEverythingUntilTheLastBlockEnds) {
  PacketPool pool;
  RecordingSink sink;
  MeshBuffer q(params(false), from_flow(), sink);
  q.enqueue(packet(pool, kB, kFromD), Time::zero());
  q.enqueue(packet(pool, kC, kFromD), Time::zero());
  // TCC: a notification from C blocks the packets to B too (Sec. 3.2, waste of bandwidth).
  q.block(kC, Time::ms(100), Time::zero());
  q.block(kB, Time::ms(60), Time::zero());
  EXPECT_TRUE(q.blocked(kB, Time::ms(70)));
  EXPECT_EQ(q.ready_at(Time::zero()), Time::ms(100));
  EXPECT_EQ(q.dequeue(Time::ms(99)), nullptr);
  EXPECT_EQ(q.length_packets(), 2u);
  PacketPtr p = q.dequeue(Time::ms(100));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->next_hop_radio, kB);  // arrival order
}

TEST(MeshBuffer, LiftingABlockEarlyWakesTheOwner) {
  PacketPool pool;
  RecordingSink sink;
  CountingListener owner;
  MeshBuffer q(params(false), from_flow(), sink);
  q.set_ready_listener(&owner);
  q.enqueue(packet(pool, kB, kFromD), Time::zero());
  q.block(kB, Time::ms(100), Time::zero());
  EXPECT_EQ(owner.calls, 0);  // blocking releases nothing
  q.block(kB, Time::ms(10), Time::ms(10));  // timer 0
  EXPECT_EQ(owner.calls, 1);
  EXPECT_EQ(q.ready_at(Time::ms(10)), Time::ms(10));
  // Lifting a block over an empty buffer releases nothing either.
  MeshBuffer empty(params(false), from_flow(), sink);
  empty.set_ready_listener(&owner);
  empty.block(kB, Time::ms(100), Time::zero());
  empty.block(kB, Time::zero(), Time::ms(1));
  EXPECT_EQ(owner.calls, 1);
}

TEST(MeshBuffer, AnEarlierReleaseStillInTheFutureIsAnnounced) {
  PacketPool pool;
  RecordingSink sink;
  CountingListener owner;
  // TCC: blocked by C until 100 ms and by B until 60 ms; C lifts its block at 20 ms.
  MeshBuffer q(params(false), from_flow(), sink);
  q.set_ready_listener(&owner);
  q.enqueue(packet(pool, kB, kFromD), Time::zero());
  q.block(kC, Time::ms(100), Time::zero());
  q.block(kB, Time::ms(60), Time::zero());
  EXPECT_EQ(owner.calls, 0);
  q.block(kC, Time::ms(20), Time::ms(20));
  EXPECT_EQ(owner.calls, 1);  // the owner dated 100 ms; it is 60 ms now
  EXPECT_EQ(q.ready_at(Time::ms(20)), Time::ms(60));
  // LSCC: only B's packets, blocked until 100 ms; a packet for C, blocked until
  // 30 ms, moves the release to 30 ms.
  MeshBuffer l(params(true), from_flow(), sink);
  l.set_ready_listener(&owner);
  l.block(kB, Time::ms(100), Time::zero());
  l.block(kC, Time::ms(30), Time::zero());
  l.enqueue(packet(pool, kB, kFromD), Time::zero());
  EXPECT_EQ(owner.calls, 1);
  EXPECT_EQ(l.ready_at(Time::zero()), Time::ms(100));
  l.enqueue(packet(pool, kC, kFromD), Time::ms(10));
  EXPECT_EQ(owner.calls, 2);
  EXPECT_EQ(l.ready_at(Time::ms(10)), Time::ms(30));
}

TEST(MeshBuffer, VirtualFifosSkipOnlyTheBlockedColour) {
  PacketPool pool;
  RecordingSink sink;
  MeshBuffer q(params(true), from_flow(), sink);
  std::vector<PacketId> order;
  for (const std::uint32_t to : {kB, kC, kB, kC}) {
    PacketPtr p = packet(pool, to, kFromD);
    order.push_back(p->id);
    q.enqueue(std::move(p), Time::zero());
  }
  // Nothing blocked: arrival order across colours (Sec. 3.3).
  EXPECT_EQ(q.peek_at(Time::zero())->id, order[0]);
  // B blocked: C's packets pass B's.
  q.block(kB, Time::ms(50), Time::zero());
  EXPECT_FALSE(q.blocked(kC, Time::zero()));
  EXPECT_EQ(q.dequeue(Time::ms(1))->id, order[1]);
  EXPECT_EQ(q.dequeue(Time::ms(2))->id, order[3]);
  // Only B's left: held until its block ends, then in their order.
  EXPECT_EQ(q.dequeue(Time::ms(3)), nullptr);
  EXPECT_EQ(q.ready_at(Time::ms(3)), Time::ms(50));
  EXPECT_EQ(q.dequeue(Time::ms(50))->id, order[0]);
  EXPECT_EQ(q.dequeue(Time::ms(50))->id, order[2]);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.ready_at(Time::ms(50)), Time::max());
}

TEST(MeshBuffer, BlockedLocalPacketsUseAtMostHalfTheLocalPart) {
  PacketPool pool;
  RecordingSink sink;
  // 20,000 bytes: a local part of 4000, of which 2000 for blocked local packets.
  MeshBuffer q(params(true, 20000), from_flow(), sink);
  q.block(kB, Time::s(1), Time::zero());
  for (int i = 0; i < 3; ++i) q.enqueue(packet(pool, kB, MeshBuffer::kLocal), Time::zero());
  EXPECT_EQ(q.local_bytes(), 2000);
  EXPECT_EQ(sink.drops.size(), 1u);
  // Local packets to an open colour use the rest of the local part.
  for (int i = 0; i < 2; ++i) q.enqueue(packet(pool, kC, MeshBuffer::kLocal), Time::zero());
  EXPECT_EQ(q.local_bytes(), 4000);
  EXPECT_EQ(sink.drops.size(), 1u);
  // Forwarded packets for the blocked colour are not limited below the forward part.
  for (int i = 0; i < 16; ++i) q.enqueue(packet(pool, kB, kFromE), Time::zero());
  EXPECT_EQ(q.forward_bytes(), 16000);
  EXPECT_EQ(sink.drops.size(), 1u);
  // Once the block is over, a local packet for B is no longer a blocked one.
  q.dequeue(Time::s(1));  // the first local packet to B
  q.enqueue(packet(pool, kB, MeshBuffer::kLocal), Time::s(1));
  EXPECT_EQ(sink.drops.size(), 1u);
}

TEST(MeshBuffer, ABlockedLocalLimitOfOneLetsBlockedPacketsFillTheLocalPart) {
  // 004 Fig. 3's local buffer blocking, the remedy off: blocked local packets take
  // the whole local part and a packet to an open colour finds no room.
  PacketPool pool;
  RecordingSink sink;
  MeshBufferParams p = params(true, 20000);  // a local part of 4000
  p.blocked_local_limit = 1.0;
  MeshBuffer q(p, from_flow(), sink);
  q.block(kB, Time::s(1), Time::zero());
  for (int i = 0; i < 5; ++i) q.enqueue(packet(pool, kB, MeshBuffer::kLocal), Time::zero());
  EXPECT_EQ(q.local_bytes(), 4000);
  EXPECT_EQ(sink.drops.size(), 1u);
  q.enqueue(packet(pool, kC, MeshBuffer::kLocal), Time::zero());
  EXPECT_EQ(sink.drops.size(), 2u);
  EXPECT_EQ(q.local_bytes(), 4000);
}

TEST(MeshBuffer, BytesForBlockersCountTheBlockedColoursWhileTheBlockStands) {
  PacketPool pool;
  RecordingSink sink;
  MeshBuffer q(params(true), from_flow(), sink);
  q.enqueue(packet(pool, kB, kFromD, 1500), Time::zero());
  q.enqueue(packet(pool, kB, MeshBuffer::kLocal, 300), Time::zero());
  q.enqueue(packet(pool, kC, kFromE, 700), Time::zero());
  EXPECT_EQ(q.bytes_for_blockers(Time::zero(), false), 0);
  q.block(kB, Time::ms(50), Time::zero());
  EXPECT_EQ(q.bytes_for_blockers(Time::ms(1), false), 1800);
  EXPECT_EQ(q.bytes_for_blockers(Time::ms(1), true), 1500);
  // C's packet leaves; B's stay counted until the block ends.
  q.dequeue(Time::ms(1));
  EXPECT_EQ(q.bytes_for_blockers(Time::ms(2), false), 1800);
  EXPECT_EQ(q.bytes_for_blockers(Time::ms(50), false), 0);
  // Packets that left stop counting: C blocked after its packet went, B after both of its.
  q.block(kC, Time::ms(100), Time::ms(50));
  EXPECT_EQ(q.bytes_for_blockers(Time::ms(51), false), 0);
  q.dequeue(Time::ms(51));
  q.dequeue(Time::ms(51));
  EXPECT_TRUE(q.empty());
  q.block(kB, Time::ms(100), Time::ms(51));
  EXPECT_EQ(q.bytes_for_blockers(Time::ms(52), false), 0);
  // Without link selection there is one FIFO for every next hop: nothing to tell apart.
  MeshBuffer tcc(params(false), from_flow(), sink);
  tcc.enqueue(packet(pool, kB, kFromD), Time::zero());
  tcc.block(kB, Time::ms(50), Time::zero());
  EXPECT_EQ(tcc.bytes_for_blockers(Time::ms(1), false), 0);
}

TEST(MeshBuffer, HoldersCountTheBytesOfEachPreviousHop) {
  PacketPool pool;
  RecordingSink sink;
  MeshBuffer q(params(true), from_flow(), sink);
  q.enqueue(packet(pool, kB, kFromD, 1500), Time::zero());
  q.enqueue(packet(pool, kC, kFromE, 500), Time::zero());
  q.enqueue(packet(pool, kC, kFromD, 700), Time::zero());
  q.enqueue(packet(pool, kC, MeshBuffer::kLocal, 300), Time::zero());
  EXPECT_EQ(q.bytes_from(kFromD), 2200);
  EXPECT_EQ(q.bytes_from(kFromE), 500);
  q.dequeue(Time::zero());  // D's 1500
  const auto h = q.holders();
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(q.bytes_from(kFromD), 700);
  EXPECT_EQ(q.local_bytes(), 300);
  EXPECT_EQ(q.forward_bytes(), 1200);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::link
