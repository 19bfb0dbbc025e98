// The wired link direction: serialization then propagation at exact picoseconds,
// back-to-back queueing, drop-tail overflow in packets and in bytes, counters,
// the accounting of every packet, and the departure listeners.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "link/packet_fifo.hpp"
#include "link/queue_discipline.hpp"
#include "link/wired_link.hpp"

namespace wmnsim::link {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

struct Arrival {
  Time at;
  PacketId id;
};

class RecordingSink final : public PacketSink {
 public:
  explicit RecordingSink(const Scheduler& s) : scheduler_(s) {}
  void receive(PacketPtr packet) override { arrivals.push_back({scheduler_.now(), packet->id}); }
  std::vector<Arrival> arrivals;

 private:
  const Scheduler& scheduler_;
};

class RecordingDrops final : public WiredLink::DropSink {
 public:
  void on_drop(PacketPtr packet, DropCause cause, Time now) override {
    ids.push_back(packet->id);
    causes.push_back(cause);
    times.push_back(now);
  }
  std::vector<PacketId> ids;
  std::vector<DropCause> causes;
  std::vector<Time> times;
};

struct LinkBed {
  explicit LinkBed(QueueLimit limit, double rate_bps = 10e6, Time delay = 10_ms)
      : sink(scheduler), link(scheduler, rate_bps, delay, limit, sink, drops) {}
  PacketPtr packet(std::uint32_t bytes) {
    PacketPtr p = pool.make(scheduler.now());
    p->size_bytes = bytes;
    return p;
  }
  PacketPool pool;
  Scheduler scheduler;
  RecordingSink sink;
  RecordingDrops drops;
  WiredLink link;
};

TEST(WiredLink, SerializationTimeIsExact) {
  LinkBed bed({QueueLimit::Unit::packets, 10}, 10e6);
  EXPECT_EQ(bed.link.serialization_time(1500), 1200_us);  // 12000 bits at 10 Mbit/s
  EXPECT_EQ(bed.link.serialization_time(40), 32_us);
  LinkBed slow({QueueLimit::Unit::packets, 10}, 1e6);
  EXPECT_EQ(slow.link.serialization_time(1), 8_us);
  LinkBed odd({QueueLimit::Unit::packets, 10}, 3e6);
  EXPECT_EQ(odd.link.serialization_time(1), Time::ps(2'666'667));  // rounded to the nearest ps
}

TEST(WiredLink, BackToBackPacketsQueueThenPropagate) {
  LinkBed bed({QueueLimit::Unit::packets, 2});
  // Four 1250-byte packets (1 ms each at 10 Mbit/s) at t = 0: one goes on the
  // wire, two wait, the fourth finds the queue full.
  std::vector<PacketId> ids;
  for (int i = 0; i < 4; ++i) {
    PacketPtr p = bed.packet(1250);
    ids.push_back(p->id);
    bed.link.receive(std::move(p));
  }
  EXPECT_EQ(bed.link.queue_packets(), 2u);
  EXPECT_EQ(bed.link.queue_bytes(), 2500);
  EXPECT_EQ(bed.link.in_flight_packets(), 1u);
  ASSERT_EQ(bed.drops.ids.size(), 1u);
  EXPECT_EQ(bed.drops.ids[0], ids[3]);
  EXPECT_EQ(bed.drops.causes[0], DropCause::queue_overflow);
  EXPECT_EQ(bed.drops.times[0], Time::zero());

  bed.scheduler.run();
  ASSERT_EQ(bed.sink.arrivals.size(), 3u);
  EXPECT_EQ(bed.sink.arrivals[0].at, 11_ms);
  EXPECT_EQ(bed.sink.arrivals[1].at, 12_ms);
  EXPECT_EQ(bed.sink.arrivals[2].at, 13_ms);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(bed.sink.arrivals[static_cast<std::size_t>(i)].id, ids[static_cast<std::size_t>(i)]);

  const WiredLinkCounters& c = bed.link.counters();
  EXPECT_EQ(c.received_packets, 4u);
  EXPECT_EQ(c.dropped_packets, 1u);
  EXPECT_EQ(c.dropped_bytes, 1250u);
  EXPECT_EQ(c.transmitted_packets, 3u);
  EXPECT_EQ(c.delivered_packets, 3u);
  EXPECT_EQ(c.delivered_bytes, 3750u);
  EXPECT_EQ(c.peak_queue_packets, 2u);
  EXPECT_EQ(c.busy_time, 3_ms);
  EXPECT_EQ(c.received_packets, c.delivered_packets + c.dropped_packets);
  EXPECT_EQ(bed.pool.live(), 0u);
}

// Records when each departure was told, under a name, into a log shared by several.
class DepartureLog final : public DepartureListener {
 public:
  DepartureLog(const Scheduler& s, char name, std::vector<std::pair<char, Time>>& log)
      : scheduler_(s), name_(name), log_(log) {}
  void on_departure(const Packet& /*departed*/) override { log_.emplace_back(name_, scheduler_.now()); }

 private:
  const Scheduler& scheduler_;
  char name_;
  std::vector<std::pair<char, Time>>& log_;
};

TEST(WiredLink, EveryDepartureListenerIsToldAtTheEndOfSerializationInOrder) {
  LinkBed bed({QueueLimit::Unit::packets, 10});
  std::vector<std::pair<char, Time>> log;
  DepartureLog a(bed.scheduler, 'a', log), b(bed.scheduler, 'b', log);
  bed.link.subscribe_departures(a);
  bed.link.subscribe_departures(b);
  bed.link.receive(bed.packet(1250));  // 1 ms on the wire at 10 Mbit/s
  bed.link.receive(bed.packet(1250));
  bed.scheduler.run_until(1500_us);
  bed.link.unsubscribe_departures(a);  // b keeps hearing
  bed.scheduler.run();
  const std::vector<std::pair<char, Time>> expected{{'a', 1_ms}, {'b', 1_ms}, {'b', 2_ms}};
  EXPECT_EQ(log, expected);
}

TEST(WiredLink, IdleLinkSendsAtOnceAndManyPacketsPropagateTogether) {
  // 100 us per 125-byte packet and 10 ms of delay: about 100 packets on the wire
  // at once, each arriving exactly 10.1 ms after it was offered.
  LinkBed bed({QueueLimit::Unit::packets, 1});
  for (int i = 0; i < 200; ++i) {
    bed.scheduler.schedule_at(Time::us(100) * i, [&bed] { bed.link.receive(bed.packet(125)); });
  }
  bed.scheduler.run_until(5_ms);
  EXPECT_GT(bed.link.in_flight_packets(), 40u);
  bed.scheduler.run();
  ASSERT_EQ(bed.sink.arrivals.size(), 200u);
  for (std::size_t i = 0; i < 200; ++i) {
    EXPECT_EQ(bed.sink.arrivals[i].at, Time::us(100) * static_cast<std::int64_t>(i) + Time::us(10'100));
  }
  EXPECT_TRUE(bed.drops.ids.empty());
  // Each packet arrives at the instant the previous one finishes: the arrival
  // event was scheduled first, so it waits in the queue for zero time.
  EXPECT_LE(bed.link.counters().peak_queue_packets, 1u);
}

TEST(WiredLink, ByteCapacity) {
  LinkBed bed({QueueLimit::Unit::bytes, 3000});
  bed.link.receive(bed.packet(1250));  // on the wire: not counted against the queue
  bed.link.receive(bed.packet(1250));
  bed.link.receive(bed.packet(1250));  // 2500 queued
  bed.link.receive(bed.packet(600));   // 3100 > 3000: dropped
  bed.link.receive(bed.packet(500));   // exactly 3000: fits
  EXPECT_EQ(bed.link.queue_bytes(), 3000);
  ASSERT_EQ(bed.drops.ids.size(), 1u);
  bed.scheduler.run();
  EXPECT_EQ(bed.sink.arrivals.size(), 4u);
  EXPECT_EQ(bed.link.queue_bytes(), 0);
}

TEST(WiredLink, RejectsBadParameters) {
  PacketPool pool;
  Scheduler scheduler;
  RecordingSink sink(scheduler);
  RecordingDrops drops;
  EXPECT_THROW(WiredLink(scheduler, 0.0, 1_ms, {}, sink, drops), std::invalid_argument);
  EXPECT_THROW(WiredLink(scheduler, 1e6, -1_ms, {}, sink, drops), std::invalid_argument);
  EXPECT_THROW(WiredLink(scheduler, 1e6, 1_ms, {QueueLimit::Unit::packets, 0}, sink, drops), std::invalid_argument);
}

TEST(WiredLink, DestroyedWithPacketsInsideCancelsItsEvents) {
  PacketPool pool;
  Scheduler scheduler;
  RecordingSink sink(scheduler);
  RecordingDrops drops;
  {
    WiredLink link(scheduler, 1e6, 1_ms, {}, sink, drops);
    for (int i = 0; i < 3; ++i) {
      PacketPtr p = pool.make(Time::zero());
      p->size_bytes = 100;
      link.receive(std::move(p));
    }
    scheduler.run_until(Time::us(900));  // first packet on the wire, others queued
  }
  scheduler.run();  // no event of the dead link runs
  EXPECT_TRUE(sink.arrivals.empty());
  EXPECT_EQ(pool.live(), 0u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::link

namespace wmnsim::link {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// A shaping discipline for the test: a FIFO whose packets become sendable only at
// or after `release_at` (a token bucket that has no token until then).
class HoldUntil final : public QueueDiscipline {
 public:
  HoldUntil(Time release_at, DropSink& drops) : QueueDiscipline(drops), release_at_(release_at) {}
  std::size_t length_packets() const override { return fifo_.size(); }
  std::int64_t length_bytes() const override { return fifo_.bytes(); }
  Time ready_at(Time now) const override {
    if (empty()) return Time::max();
    return std::max(now, release_at_);
  }
  void set_release(Time at) { release_at_ = at; }

 private:
  EnqueueResult do_enqueue(PacketPtr& packet, Time) override {
    fifo_.push_back(std::move(packet));
    return EnqueueResult::accepted();
  }
  PacketPtr do_dequeue(Time now) override { return now < release_at_ ? nullptr : fifo_.pop_front(); }
  const Packet* do_peek() const override { return fifo_.front(); }

  Time release_at_;
  PacketFifo fifo_;
};

// The wired link takes any queue discipline (link/queue_discipline.hpp), and a
// shaping one that holds its head back is served when it says it is ready, not
// at some unrelated later event.
TEST(WiredLinkQueue, AShapingDisciplineIsServedAtItsReadyTime) {
  LinkBed b(QueueLimit{QueueLimit::Unit::packets, 10}, 8e6, 1_ms);  // 1000 bytes: 1 ms
  b.link.receive(b.packet(1000));  // idle link, empty queue: on the wire at once
  b.link.set_queue(std::make_unique<HoldUntil>(5_ms, b.drops));
  b.link.receive(b.packet(1000));  // waits in the shaper until 5 ms
  b.link.receive(b.packet(1000));
  EXPECT_EQ(b.link.queue_packets(), 2u);
  b.scheduler.run();
  ASSERT_EQ(b.sink.arrivals.size(), 3u);
  EXPECT_EQ(b.sink.arrivals[0].at, 2_ms);  // 1 ms serialization + 1 ms propagation
  EXPECT_EQ(b.sink.arrivals[1].at, 7_ms);  // released at 5 ms
  EXPECT_EQ(b.sink.arrivals[2].at, 8_ms);  // back to back behind it
  EXPECT_TRUE(b.drops.ids.empty());
}

// A shaper sees every packet, also one that reaches an idle link with nothing
// queued: the drop-tail fast path is drop tail's alone.
TEST(WiredLinkQueue, AShaperHoldsTheFirstPacketOnAnIdleLink) {
  LinkBed b(QueueLimit{QueueLimit::Unit::packets, 10}, 8e6, 1_ms);
  b.link.set_queue(std::make_unique<HoldUntil>(3_ms, b.drops));
  b.link.receive(b.packet(1000));
  EXPECT_EQ(b.link.queue_packets(), 1u);
  b.scheduler.run();
  ASSERT_EQ(b.sink.arrivals.size(), 1u);
  EXPECT_EQ(b.sink.arrivals[0].at, 5_ms);  // released at 3 ms, 1 + 1 ms on the way
}

// A shaper whose release no ready_at() announced: it holds its head until told
// (release()), then wakes the link with notify_ready().
class HoldUntilReleased final : public QueueDiscipline {
 public:
  explicit HoldUntilReleased(DropSink& drops) : QueueDiscipline(drops) {}
  std::size_t length_packets() const override { return fifo_.size(); }
  std::int64_t length_bytes() const override { return fifo_.bytes(); }
  Time ready_at(Time now) const override { return empty() || !released_ ? Time::max() : now; }
  void release() {
    released_ = true;
    notify_ready();
  }

 private:
  EnqueueResult do_enqueue(PacketPtr& packet, Time) override {
    fifo_.push_back(std::move(packet));
    return EnqueueResult::accepted();
  }
  PacketPtr do_dequeue(Time) override { return released_ ? fifo_.pop_front() : nullptr; }
  const Packet* do_peek() const override { return fifo_.front(); }

  bool released_ = false;
  PacketFifo fifo_;
};

TEST(WiredLinkQueue, NotifyReadyWakesTheLink) {
  LinkBed b(QueueLimit{QueueLimit::Unit::packets, 10}, 8e6, 1_ms);
  auto owned = std::make_unique<HoldUntilReleased>(b.drops);
  HoldUntilReleased& shaper = *owned;
  b.link.set_queue(std::move(owned));
  b.link.receive(b.packet(1000));
  b.scheduler.schedule_at(4_ms, [&] { shaper.release(); });
  b.scheduler.run();
  ASSERT_EQ(b.sink.arrivals.size(), 1u);
  EXPECT_EQ(b.sink.arrivals[0].at, 6_ms);  // sent at 4 ms, not at some later event
}

// A wake-up is moved earlier when the discipline later names an earlier time.
TEST(WiredLinkQueue, AnEarlierReadyTimeMovesTheWakeUp) {
  LinkBed b(QueueLimit{QueueLimit::Unit::packets, 10}, 8e6, 1_ms);
  auto owned = std::make_unique<HoldUntil>(10_ms, b.drops);
  HoldUntil& shaper = *owned;
  b.link.set_queue(std::move(owned));
  b.link.receive(b.packet(1000));  // wake-up at 10 ms
  b.scheduler.schedule_at(1_ms, [&] {
    shaper.set_release(3_ms);
    b.link.receive(b.packet(1000));  // the link asks again: 3 ms
  });
  b.scheduler.run_until(8_ms);
  EXPECT_EQ(b.scheduler.pending(), 0u);  // the 10 ms wake-up is gone, not doubled
  b.scheduler.run();
  ASSERT_EQ(b.sink.arrivals.size(), 2u);
  EXPECT_EQ(b.sink.arrivals[0].at, 5_ms);
  EXPECT_EQ(b.sink.arrivals[1].at, 6_ms);
}

// A discipline that calls notify_ready() from inside its own dequeue (the dequeue
// unblocked another class): the link sends one packet at a time, loses none.
class NotifyingFifo final : public QueueDiscipline {
 public:
  explicit NotifyingFifo(DropSink& drops) : QueueDiscipline(drops) {}
  std::size_t length_packets() const override { return fifo_.size(); }
  std::int64_t length_bytes() const override { return fifo_.bytes(); }

 private:
  EnqueueResult do_enqueue(PacketPtr& packet, Time) override {
    fifo_.push_back(std::move(packet));
    notify_ready();
    return EnqueueResult::accepted();
  }
  PacketPtr do_dequeue(Time) override {
    PacketPtr p = fifo_.pop_front();
    notify_ready();
    return p;
  }
  const Packet* do_peek() const override { return fifo_.front(); }

  PacketFifo fifo_;
};

TEST(WiredLinkQueue, ANotifyFromInsideTheDisciplineIsHarmless) {
  LinkBed b(QueueLimit{QueueLimit::Unit::packets, 10}, 8e6, 1_ms);
  b.link.set_queue(std::make_unique<NotifyingFifo>(b.drops));
  for (int i = 0; i < 3; ++i) b.link.receive(b.packet(1000));
  EXPECT_EQ(b.link.queue_packets(), 2u);  // one on the wire
  b.scheduler.run();
  ASSERT_EQ(b.sink.arrivals.size(), 3u);
  EXPECT_EQ(b.sink.arrivals[0].at, 2_ms);
  EXPECT_EQ(b.sink.arrivals[1].at, 3_ms);
  EXPECT_EQ(b.sink.arrivals[2].at, 4_ms);
  EXPECT_EQ(b.link.counters().busy_time, 3_ms);
  EXPECT_TRUE(b.drops.ids.empty());
}

// Installing a discipline while a packet serializes leaves that packet alone; the
// queued ones follow it in order. A null discipline is refused.
TEST(WiredLinkQueue, SetQueueWhileSerializing) {
  LinkBed b(QueueLimit{QueueLimit::Unit::packets, 10}, 8e6, 1_ms);
  for (int i = 0; i < 3; ++i) b.link.receive(b.packet(1000));
  b.scheduler.run_until(Time::us(500));
  b.link.set_queue(std::make_unique<NotifyingFifo>(b.drops));
  EXPECT_THROW(b.link.set_queue(nullptr), std::invalid_argument);
  b.scheduler.run();
  ASSERT_EQ(b.sink.arrivals.size(), 3u);
  EXPECT_EQ(b.sink.arrivals[2].at, 4_ms);
  EXPECT_EQ(b.link.counters().busy_time, 3_ms);
}

// Installing a discipline keeps what waits in the old one, in order.
TEST(WiredLinkQueue, SetQueueMovesTheWaitingPacketsInOrder) {
  LinkBed b(QueueLimit{QueueLimit::Unit::packets, 10}, 8e6, 1_ms);
  std::vector<PacketId> sent;
  for (int i = 0; i < 3; ++i) {
    PacketPtr p = b.packet(1000);
    sent.push_back(p->id);
    b.link.receive(std::move(p));
  }
  b.link.set_queue(std::make_unique<HoldUntil>(Time::zero(), b.drops));
  EXPECT_EQ(b.link.queue_packets(), 2u);
  b.scheduler.run();
  ASSERT_EQ(b.sink.arrivals.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(b.sink.arrivals[i].id, sent[i]);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::link
