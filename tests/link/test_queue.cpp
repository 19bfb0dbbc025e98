// The queue-discipline contract (drops reach the sink once, counters, observer) and
// drop-tail in packets and in bytes; the ring-buffer FIFO underneath.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "link/drop_tail_queue.hpp"
#include "link/packet_fifo.hpp"
#include "link/queue_discipline.hpp"

namespace wmnsim::link {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

struct Dropped {
  PacketId id;
  DropCause cause;
  Time at;
};

// Stands in for the MAC: takes every dropped packet and remembers it.
class RecordingSink final : public DropSink {
 public:
  void on_drop(PacketPtr packet, DropCause cause, Time now) override {
    drops.push_back({packet->id, cause, now});
  }
  std::vector<Dropped> drops;
};

struct Sample {
  Time at;
  std::size_t packets;
  std::int64_t bytes;
};

class RecordingObserver final : public QueueObserver {
 public:
  void on_queue_length(Time now, std::size_t packets, std::int64_t bytes) override {
    samples.push_back({now, packets, bytes});
  }
  std::vector<Sample> samples;
};

PacketPtr packet(PacketPool& pool, std::uint32_t bytes) {
  PacketPtr p = pool.make(Time::zero());
  p->size_bytes = bytes;
  return p;
}

TEST(QueueFifo, OrderAndBytesAcrossWrapAround) {
  PacketPool pool;
  PacketFifo fifo;
  std::vector<PacketId> expected;
  PacketId next_out = 1;
  // Interleave pushes and pops so the head wraps around the ring several times.
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < 5; ++i) fifo.push_back(packet(pool, 100 + static_cast<std::uint32_t>(i)));
    for (int i = 0; i < 4; ++i) {
      PacketPtr p = fifo.pop_front();
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(p->id, next_out++);
    }
  }
  EXPECT_EQ(fifo.size(), 50u);
  std::int64_t bytes = 0;
  while (PacketPtr p = fifo.pop_front()) {
    EXPECT_EQ(p->id, next_out++);
    bytes += p->size_bytes;
  }
  EXPECT_EQ(bytes, 10 * (100 + 101 + 102 + 103 + 104));  // the last ten rounds
  EXPECT_TRUE(fifo.empty());
  EXPECT_EQ(fifo.bytes(), 0);
  EXPECT_EQ(fifo.front(), nullptr);
  EXPECT_EQ(fifo.pop_front(), nullptr);
}

TEST(QueueDropTail, PacketCapacity) {
  PacketPool pool;
  RecordingSink sink;
  DropTailQueue q(QueueLimit{QueueLimit::Unit::packets, 3}, sink);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(q.enqueue(packet(pool, 1000), Time::us(i)).is_accepted());
  const EnqueueResult r = q.enqueue(packet(pool, 40), Time::us(10));
  EXPECT_FALSE(r.is_accepted());
  EXPECT_EQ(r.cause(), DropCause::queue_overflow);
  ASSERT_EQ(sink.drops.size(), 1u);
  EXPECT_EQ(sink.drops[0].id, 4u);  // the arriving packet, not a queued one
  EXPECT_EQ(sink.drops[0].at, Time::us(10));
  EXPECT_EQ(q.length_packets(), 3u);
  EXPECT_EQ(q.length_bytes(), 3000);

  // FIFO order out; the freed place takes the next arrival.
  EXPECT_EQ(q.peek()->id, 1u);
  EXPECT_EQ(q.dequeue(Time::us(11))->id, 1u);
  EXPECT_TRUE(q.enqueue(packet(pool, 500), Time::us(12)).is_accepted());
  EXPECT_EQ(q.length_bytes(), 2500);
  EXPECT_EQ(q.dequeue(Time::us(13))->id, 2u);
  EXPECT_EQ(q.dequeue(Time::us(13))->id, 3u);
  EXPECT_EQ(q.dequeue(Time::us(13))->id, 5u);
  EXPECT_EQ(q.dequeue(Time::us(13)), nullptr);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.ready_at(Time::us(13)), Time::max());
}

TEST(QueueDropTail, ByteCapacity) {
  PacketPool pool;
  RecordingSink sink;
  // 004's 256 kB station buffer, scaled down: 4000 bytes.
  DropTailQueue q(QueueLimit{QueueLimit::Unit::bytes, 4000}, sink);
  EXPECT_TRUE(q.enqueue(packet(pool, 1500), Time::zero()).is_accepted());
  EXPECT_TRUE(q.enqueue(packet(pool, 1500), Time::zero()).is_accepted());
  EXPECT_FALSE(q.enqueue(packet(pool, 1500), Time::zero()).is_accepted());  // 4500 > 4000
  EXPECT_TRUE(q.enqueue(packet(pool, 1000), Time::zero()).is_accepted());   // exactly 4000
  EXPECT_FALSE(q.enqueue(packet(pool, 1), Time::zero()).is_accepted());
  EXPECT_EQ(q.length_bytes(), 4000);
  EXPECT_EQ(q.length_packets(), 3u);
  EXPECT_EQ(sink.drops.size(), 2u);
  // A packet larger than the whole buffer never fits.
  DropTailQueue tiny(QueueLimit{QueueLimit::Unit::bytes, 100}, sink);
  EXPECT_FALSE(tiny.enqueue(packet(pool, 101), Time::zero()).is_accepted());
}

// mac.dequeue "ns3": a packet taken for service keeps its place (and its bytes)
// against the capacity until it is released; the queue's length stays what it holds.
TEST(QueueDropTail, HeldPlacesCountAgainstTheCapacity) {
  PacketPool pool;
  RecordingSink sink;
  DropTailQueue q(QueueLimit{QueueLimit::Unit::packets, 2}, sink);
  EXPECT_TRUE(q.enqueue(packet(pool, 1000), Time::zero()).is_accepted());
  EXPECT_TRUE(q.enqueue(packet(pool, 1000), Time::zero()).is_accepted());
  PacketPtr taken = q.dequeue(Time::us(1));
  q.hold_place(*taken);
  EXPECT_EQ(q.held_packets(), 1u);
  EXPECT_EQ(q.length_packets(), 1u);
  EXPECT_FALSE(q.enqueue(packet(pool, 40), Time::us(2)).is_accepted());  // 1 queued + 1 held
  q.release_place(*taken);
  EXPECT_TRUE(q.enqueue(packet(pool, 40), Time::us(3)).is_accepted());
  EXPECT_THROW(q.release_place(*taken), std::logic_error);  // never held twice over

  DropTailQueue bytes(QueueLimit{QueueLimit::Unit::bytes, 3000}, sink);
  EXPECT_TRUE(bytes.enqueue(packet(pool, 1500), Time::zero()).is_accepted());
  PacketPtr big = bytes.dequeue(Time::us(1));
  bytes.hold_place(*big);
  EXPECT_TRUE(bytes.enqueue(packet(pool, 1500), Time::us(2)).is_accepted());   // 1500 + 1500 held
  EXPECT_FALSE(bytes.enqueue(packet(pool, 1), Time::us(3)).is_accepted());
  bytes.release_place(*big);
  EXPECT_TRUE(bytes.enqueue(packet(pool, 1500), Time::us(4)).is_accepted());
}

// The counters are a block allocated at the queue's first packet (issue 43 §3,
// memory per node): until then a queue holds none and reads zeros; asking an empty
// queue for a packet allocates nothing; a packet taken, or one refused, allocates it.
TEST(QueueDropTail, CountersAreAllocatedAtTheFirstPacket) {
  PacketPool pool;
  RecordingSink sink;
  DropTailQueue idle(QueueLimit{}, sink);
  EXPECT_FALSE(idle.holds_counters());
  EXPECT_EQ(idle.counters().enqueued_packets, 0u);
  EXPECT_EQ(idle.counters().dropped_total(), 0u);
  EXPECT_EQ(idle.counters().peak_packets, 0u);
  EXPECT_EQ(idle.dequeue(Time::ms(1)), nullptr);
  EXPECT_EQ(idle.drop_expired(Time::ms(2), Time::ms(1)), 0u);
  EXPECT_FALSE(idle.holds_counters());

  DropTailQueue used(QueueLimit{}, sink);
  used.enqueue(packet(pool, 200), Time::ms(1));
  EXPECT_TRUE(used.holds_counters());
  EXPECT_EQ(used.counters().enqueued_packets, 1u);
  EXPECT_EQ(used.counters().peak_bytes, 200);
  EXPECT_TRUE(used.dequeue(Time::ms(2)) != nullptr);
  EXPECT_EQ(used.counters().dequeued_bytes, 200u);

  // Its first packet refused: the drop is counted in a block of its own.
  DropTailQueue full(QueueLimit{QueueLimit::Unit::bytes, 100}, sink);
  full.enqueue(packet(pool, 200), Time::ms(1));
  EXPECT_TRUE(full.holds_counters());
  EXPECT_EQ(full.counters().dropped(DropCause::queue_overflow), 1u);
  EXPECT_EQ(full.counters().dropped_bytes, 200u);
  EXPECT_EQ(full.counters().enqueued_packets, 0u);
  EXPECT_EQ(sink.drops.size(), 1u);
  // The idle queue still reads zeros (the shared zeros were not written).
  EXPECT_EQ(idle.counters().dropped_total(), 0u);
}

TEST(QueueDropTail, CountersAccountForEveryPacket) {
  PacketPool pool;
  RecordingSink sink;
  DropTailQueue q(QueueLimit{}, sink);  // the default: 50 packets
  EXPECT_EQ(q.limit().capacity, 50);
  std::uint64_t offered = 0, delivered = 0;
  // Bursts of 80 arrivals and 30 departures: the queue fills and overflows.
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 80; ++i, ++offered) q.enqueue(packet(pool, 200), Time::ms(round));
    for (int i = 0; i < 30; ++i) delivered += q.dequeue(Time::ms(round)) ? 1 : 0;
  }
  const QueueCounters& c = q.counters();
  EXPECT_EQ(c.enqueued_packets + c.dropped_total(), offered);
  EXPECT_EQ(c.dropped(DropCause::queue_overflow), sink.drops.size());
  EXPECT_EQ(c.dequeued_packets, delivered);
  EXPECT_EQ(c.enqueued_packets - c.dequeued_packets, q.length_packets());
  EXPECT_EQ(c.enqueued_bytes - c.dequeued_bytes, static_cast<std::uint64_t>(q.length_bytes()));
  EXPECT_EQ(c.dropped_bytes, 200 * sink.drops.size());
  EXPECT_EQ(c.peak_packets, 50u);
  EXPECT_EQ(c.peak_bytes, 50 * 200);
  // Offered = delivered + dropped + still queued.
  EXPECT_EQ(offered, delivered + sink.drops.size() + q.length_packets());
  EXPECT_EQ(pool.live(), q.length_packets());  // the sink and the test released the rest
}

TEST(QueueDropTail, ObserverSeesEveryLengthChange) {
  PacketPool pool;
  RecordingSink sink;
  RecordingObserver obs;
  DropTailQueue q(QueueLimit{QueueLimit::Unit::packets, 2}, sink, &obs);
  q.enqueue(packet(pool, 100), Time::us(1));
  q.enqueue(packet(pool, 300), Time::us(2));
  q.enqueue(packet(pool, 500), Time::us(3));  // dropped: no change, no sample
  q.dequeue(Time::us(4));
  q.dequeue(Time::us(5));
  q.dequeue(Time::us(6));  // empty: no change, no sample
  ASSERT_EQ(obs.samples.size(), 4u);
  EXPECT_EQ(obs.samples[0].at, Time::us(1));
  EXPECT_EQ(obs.samples[0].packets, 1u);
  EXPECT_EQ(obs.samples[1].bytes, 400);
  EXPECT_EQ(obs.samples[2].at, Time::us(4));
  EXPECT_EQ(obs.samples[2].bytes, 300);
  EXPECT_EQ(obs.samples[3].packets, 0u);
}

// Any number of observers, told in the order they subscribed: of each packet
// dequeue() hands out (not of a drop, at enqueue or for lifetime), then of the length.
TEST(QueueDropTail, ObserversHearDeparturesThenLengthsInSubscriptionOrder) {
  PacketPool pool;
  RecordingSink sink;
  struct Log final : QueueObserver {
    Log(std::vector<std::string>& out, std::string name) : out_(out), name_(std::move(name)) {}
    void on_departure(Time now, const Packet& p) override {
      out_.push_back(name_ + " departure " + std::to_string(p.size_bytes) + " at " + std::to_string(now.picoseconds()));
    }
    void on_queue_length(Time now, std::size_t packets, std::int64_t) override {
      out_.push_back(name_ + " length " + std::to_string(packets) + " at " + std::to_string(now.picoseconds()));
    }
    std::vector<std::string>& out_;
    std::string name_;
  };
  std::vector<std::string> told;
  Log a(told, "a");
  Log b(told, "b");
  DropTailQueue q(QueueLimit{QueueLimit::Unit::packets, 1}, sink, &a);
  q.subscribe(b);
  EXPECT_EQ(q.observer_count(), 2u);
  q.enqueue(packet(pool, 100), Time::ps(1));
  q.enqueue(packet(pool, 200), Time::ps(2));  // dropped: neither a departure nor a change
  q.dequeue(Time::ps(3));
  q.unsubscribe(a);
  q.enqueue(packet(pool, 300), Time::ps(4));
  EXPECT_EQ(q.drop_expired(Time::ps(10), Time::ps(1)), 1u);  // a drop, not a departure
  EXPECT_EQ(told, (std::vector<std::string>{"a length 1 at 1", "b length 1 at 1", "a departure 100 at 3",
                                            "b departure 100 at 3", "a length 0 at 3", "b length 0 at 3",
                                            "b length 1 at 4", "b length 0 at 10"}));
}

TEST(QueueDropTail, ObserversCannotChangeWhileTheyAreTold) {
  PacketPool pool;
  RecordingSink sink;
  RecordingObserver other;
  struct Subscriber final : QueueObserver {
    void on_queue_length(Time, std::size_t, std::int64_t) override { queue->subscribe(*other); }
    QueueDiscipline* queue = nullptr;
    QueueObserver* other = nullptr;
  } subscriber;
  DropTailQueue q(QueueLimit{QueueLimit::Unit::packets, 2}, sink, &subscriber);
  subscriber.queue = &q;
  subscriber.other = &other;
  EXPECT_THROW(q.enqueue(packet(pool, 100), Time::zero()), std::logic_error);
  EXPECT_EQ(q.observer_count(), 1u);
}

TEST(QueueDropTail, SteadyStateReusesPacketsAndRing) {
  PacketPool pool(64);
  RecordingSink sink;
  DropTailQueue q(QueueLimit{QueueLimit::Unit::packets, 50}, sink);
  for (int i = 0; i < 100'000; ++i) {
    q.enqueue(packet(pool, 1500), Time::us(i));
    if (i % 2 == 1) {
      q.dequeue(Time::us(i));
      q.dequeue(Time::us(i));
    }
  }
  EXPECT_EQ(pool.capacity(), 64u);  // never more than 50 live at once
}

TEST(QueueDropTail, RejectsAnEmptyCapacity) {
  RecordingSink sink;
  EXPECT_THROW(DropTailQueue(QueueLimit{QueueLimit::Unit::packets, 0}, sink), std::invalid_argument);
}

// A discipline that breaks the contract (claims to accept but leaves the packet)
// is a bug and must be caught, not leak a packet silently.
class BrokenQueue final : public QueueDiscipline {
 public:
  using QueueDiscipline::QueueDiscipline;
  std::size_t length_packets() const override { return 0; }
  std::int64_t length_bytes() const override { return 0; }

 private:
  EnqueueResult do_enqueue(PacketPtr&, Time) override { return EnqueueResult::accepted(); }
  PacketPtr do_dequeue(Time) override { return nullptr; }
  const Packet* do_peek() const override { return nullptr; }
};

TEST(QueueDiscipline, ContractViolationsFailLoudly) {
  PacketPool pool;
  RecordingSink sink;
  BrokenQueue q(sink);
  EXPECT_THROW(q.enqueue(packet(pool, 10), Time::zero()), std::logic_error);
  EXPECT_THROW(q.enqueue(nullptr, Time::zero()), std::logic_error);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::link
