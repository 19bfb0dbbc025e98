// Traffic generators and UDP endpoints: exact CBR times, Poisson rate within
// statistical bounds (fixed seed), on-off duty cycle, the saturated hooks, and
// the sink's delay and goodput over a wired link.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "link/wired_link.hpp"
#include "link/drop_tail_queue.hpp"
#include "transport/header_sizes.hpp"
#include "transport/udp_sink.hpp"
#include "transport/udp_source.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

class TimeLog final : public PacketSink {
 public:
  explicit TimeLog(const Scheduler& s) : scheduler_(s) {}
  void receive(PacketPtr p) override {
    times.push_back(scheduler_.now());
    seqs.push_back(p->transport.seq);
    sizes.push_back(p->size_bytes);
    EXPECT_EQ(p->created, scheduler_.now());
    EXPECT_EQ(p->flow, 3u);
    EXPECT_EQ(p->src, 4u);
    EXPECT_EQ(p->dst, 5u);
  }
  std::vector<Time> times;
  std::vector<std::uint64_t> seqs;
  std::vector<std::uint32_t> sizes;

 private:
  const Scheduler& scheduler_;
};

RandomStream arrivals(std::uint64_t seed = 42) { return RandomStreams(seed).stream("flow", 3, "arrivals"); }

UdpSourceConfig source_config(TrafficType type) {
  UdpSourceConfig c;
  c.address = FlowAddress{3, 4, 5};
  c.payload_bytes = 1000;
  c.traffic.type = type;
  return c;
}

struct SourceBed {
  explicit SourceBed(UdpSourceConfig c, std::uint64_t seed = 42) : log(scheduler), source(scheduler, pool, log, c, arrivals(seed)) {}
  PacketPool pool;
  Scheduler scheduler;
  TimeLog log;
  UdpSource source;
};

TEST(UdpSource, CbrSendsAtExactTimesWithinStartAndStop) {
  auto c = source_config(TrafficType::cbr);
  c.traffic.packet_interval = 10_ms;
  c.start = 1_s;
  c.stop = 1100_ms;
  SourceBed bed(c);
  bed.scheduler.run();
  ASSERT_EQ(bed.log.times.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(bed.log.times[i], 1_s + 10_ms * static_cast<std::int64_t>(i));
    EXPECT_EQ(bed.log.seqs[i], i);
    EXPECT_EQ(bed.log.sizes[i], 1000u + kUdpIpHeaderBytes);
  }
  EXPECT_EQ(bed.source.stats().packets_sent, 10u);
  EXPECT_EQ(bed.source.stats().payload_bytes_sent, 10'000u);
}

TEST(UdpSource, CbrIntervalFromTheRate) {
  auto c = source_config(TrafficType::cbr);
  c.traffic.rate_bps = 80e3;  // 8000 bits per datagram: one every 100 ms
  c.stop = 1_s;
  SourceBed bed(c);
  bed.scheduler.run();
  EXPECT_EQ(bed.source.generator()->interval(), 100_ms);
  ASSERT_EQ(bed.log.times.size(), 10u);
  EXPECT_EQ(bed.log.times.back(), 900_ms);
}

TEST(UdpSource, CbrPhaseDelaysTheFirstPacketByThatFractionOfTheInterval) {
  auto c = source_config(TrafficType::cbr);
  c.traffic.packet_interval = 10_ms;
  c.traffic.phase = 0.25;
  c.start = 1_s;
  c.stop = 1050_ms;
  SourceBed bed(c);
  bed.scheduler.run();
  // 1.0025 s, then every 10 ms: 1.0025 .. 1.0425 (the next, 1.0525, is after stop)
  ASSERT_EQ(bed.log.times.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(bed.log.times[i], 1_s + 2500_us + 10_ms * static_cast<std::int64_t>(i));
  }
}

TEST(UdpSource, CbrJitterDelaysEachPacketByItsOwnUniformDrawFromItsNominalTime) {
  auto c = source_config(TrafficType::cbr);
  c.traffic.packet_interval = 10_ms;
  c.traffic.jitter = 4_ms;
  c.start = 1_s;
  c.stop = 1100_ms;
  SourceBed bed(c);
  bed.scheduler.run();
  // The nominal times are 1.00, 1.01, ... 1.09 s; each packet leaves its own draw of
  // uniform [0, 4 ms) later, the draws taken in order from the flow's arrival stream.
  RandomStream draws = arrivals();
  ASSERT_EQ(bed.log.times.size(), 10u);
  std::vector<Time> offsets;
  for (std::size_t i = 0; i < 10; ++i) {
    const Time nominal = 1_s + 10_ms * static_cast<std::int64_t>(i);
    const Time offset = Time::from_seconds(draws.uniform01() * 0.004);
    EXPECT_EQ(bed.log.times[i], nominal + offset) << i;
    EXPECT_GE(bed.log.times[i], nominal);
    EXPECT_LT(bed.log.times[i], nominal + 4_ms);
    EXPECT_EQ(bed.log.seqs[i], i);
    offsets.push_back(offset);
  }
  // Not one offset for all: a draw per packet (a fixed shift would be a phase).
  EXPECT_NE(offsets.front(), offsets.back());
  // Without a jitter nothing is drawn: the exact times of CbrSendsAtExactTimesWithinStartAndStop.
  c.traffic.jitter = Time::zero();
  SourceBed plain(c);
  plain.scheduler.run();
  for (std::size_t i = 0; i < plain.log.times.size(); ++i) {
    EXPECT_EQ(plain.log.times[i], 1_s + 10_ms * static_cast<std::int64_t>(i));
  }
}

TEST(UdpSource, CbrJitterOnOtherTrafficIsRefused) {
  auto c = source_config(TrafficType::poisson);
  c.traffic.packet_interval = 10_ms;
  c.traffic.jitter = 1_ms;
  EXPECT_THROW(SourceBed bed(c), std::invalid_argument);
}

TEST(UdpSource, PoissonRateAndGapsWithinStatisticalBounds) {
  auto c = source_config(TrafficType::poisson);
  c.traffic.packet_interval = 1_ms;
  c.stop = 20_s;
  SourceBed bed(c);
  bed.scheduler.run();
  // N ~ Poisson(20000): standard deviation 141; 4 sigma.
  const double n = static_cast<double>(bed.log.times.size());
  EXPECT_NEAR(n, 20'000.0, 4 * std::sqrt(20'000.0));
  // Exponential gaps: coefficient of variation 1.
  double sum = 0, sum2 = 0;
  for (std::size_t i = 1; i < bed.log.times.size(); ++i) {
    const double gap = (bed.log.times[i] - bed.log.times[i - 1]).to_seconds();
    sum += gap;
    sum2 += gap * gap;
  }
  const double count = n - 1;
  const double mean = sum / count;
  const double cv = std::sqrt(sum2 / count - mean * mean) / mean;
  EXPECT_NEAR(mean, 1e-3, 4 * 1e-3 / std::sqrt(count));
  EXPECT_NEAR(cv, 1.0, 0.05);
  EXPECT_GT(bed.log.times.front(), Time::zero());  // the first gap is drawn too
}

TEST(UdpSource, PoissonDependsOnlyOnTheSeed) {
  auto c = source_config(TrafficType::poisson);
  c.traffic.packet_interval = 10_ms;
  c.stop = 1_s;
  SourceBed a(c, 1), b(c, 1), other(c, 2);
  a.scheduler.run();
  b.scheduler.run();
  other.scheduler.run();
  EXPECT_EQ(a.log.times, b.log.times);
  EXPECT_NE(a.log.times, other.log.times);
}

TEST(UdpSource, OnOffConstantPeriodsHaveAnExactDutyCycle) {
  auto c = source_config(TrafficType::on_off);
  c.traffic.packet_interval = 20_ms;
  c.traffic.on_mean = 1_s;
  c.traffic.off_mean = 1500_ms;
  c.traffic.periods = PeriodDistribution::constant;
  c.stop = 10_s;
  SourceBed bed(c);
  bed.scheduler.run();
  // On during [0,1), [2.5,3.5), [5,6), [7.5,8.5): 50 datagrams each.
  ASSERT_EQ(bed.log.times.size(), 200u);
  for (std::size_t period = 0; period < 4; ++period) {
    const Time begin = 2500_ms * static_cast<std::int64_t>(period);
    for (std::size_t i = 0; i < 50; ++i) {
      EXPECT_EQ(bed.log.times[period * 50 + i], begin + 20_ms * static_cast<std::int64_t>(i));
    }
  }
  EXPECT_EQ(bed.source.generator()->on_periods(), 4u);
}

TEST(UdpSource, OnOffExponentialPeriodsAverageTheDutyCycle) {
  auto c = source_config(TrafficType::on_off);
  c.traffic.packet_interval = 10_ms;
  c.traffic.on_mean = 500_ms;
  c.traffic.off_mean = 1500_ms;
  c.stop = 400_s;  // about 200 on-off cycles
  SourceBed bed(c);
  bed.scheduler.run();
  // Duty cycle 1/4: about 10000 of the 40000 datagrams a constant source would send.
  // Each cycle's on length has sd 0.5 s: the total on time has sd about 7 s of 100 s.
  const double fraction = static_cast<double>(bed.log.times.size()) / 40'000.0;
  EXPECT_NEAR(fraction, 0.25, 0.25 * 0.25);
  const double on_fraction = bed.source.generator()->on_time().to_seconds() / 400.0;
  EXPECT_NEAR(fraction, on_fraction, 0.01);  // sends while on, at the on rate
}

TEST(UdpSource, SaturatedHooksWorkOnlyWhileActive) {
  auto c = source_config(TrafficType::saturated);
  c.start = 1_s;
  c.stop = 2_s;
  c.initial_backlog = 5;
  SourceBed bed(c);
  EXPECT_EQ(bed.source.pull(Time::zero()), nullptr);  // not started
  bed.scheduler.run_until(1_s);
  ASSERT_EQ(bed.log.times.size(), 5u);  // the initial backlog, at start
  EXPECT_EQ(bed.log.times.front(), 1_s);
  PacketPtr p = bed.source.pull(1_s);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->transport.seq, 5u);
  EXPECT_EQ(p->size_bytes, 1028u);
  EXPECT_EQ(bed.source.push_backlog(3), 3u);
  EXPECT_EQ(bed.log.seqs.back(), 8u);
  bed.scheduler.run_until(2_s);
  EXPECT_EQ(bed.source.pull(2_s), nullptr);  // stopped
  EXPECT_EQ(bed.source.push_backlog(3), 0u);
  EXPECT_EQ(bed.source.stats().packets_sent, 9u);
}

TEST(UdpSource, RejectsTrafficWithoutARate) {
  PacketPool pool;
  Scheduler scheduler;
  TimeLog log(scheduler);
  EXPECT_THROW(UdpSource(scheduler, pool, log, source_config(TrafficType::cbr), arrivals()), std::invalid_argument);
  auto c = source_config(TrafficType::on_off);
  c.traffic.packet_interval = 1_ms;
  EXPECT_THROW(UdpSource(scheduler, pool, log, c, arrivals()), std::invalid_argument);
}

class CountDrops final : public link::WiredLink::DropSink {
 public:
  void on_drop(PacketPtr, DropCause, Time) override { ++count; }
  int count = 0;
};

TEST(UdpSink, DelayAndGoodputOverAWiredLink) {
  PacketPool pool;
  Scheduler scheduler;
  UdpSink sink(scheduler, MeasurementWindow{1_s, 3_s});
  CountDrops drops;
  link::WiredLink link(scheduler, 1e6, 5_ms, {}, sink, drops);
  auto c = source_config(TrafficType::cbr);
  c.traffic.packet_interval = 100_ms;
  c.stop = 4_s;
  UdpSource source(scheduler, pool, link, c, arrivals());
  scheduler.run();
  const UdpSinkStats& s = sink.stats();
  EXPECT_EQ(s.packets, 40u);
  EXPECT_EQ(s.payload_bytes, 40'000u);
  // Received in [1 s, 3 s): the datagrams sent at 0.9 .. 2.9 s arrive 13.224 ms later
  // (1028 bytes at 1 Mbit/s is 8.224 ms, plus 5 ms).
  EXPECT_EQ(s.window_packets, 20u);
  EXPECT_EQ(s.delay.min(), 13'224_us);
  EXPECT_EQ(s.delay.max(), 13'224_us);
  EXPECT_NEAR(s.delay.mean_s(), 0.013224, 1e-12);
  EXPECT_DOUBLE_EQ(sink.goodput_bps(), 20'000.0 * 8 / 2.0);
  EXPECT_EQ(s.reordered_packets, 0u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport

// How a saturated source keeps a MAC queue backlogged: the pattern the node
// wiring can follow (docs/transport.md, "For the MAC wiring").

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

class QueueDrops final : public DropSink {
 public:
  void on_drop(PacketPtr, DropCause, Time) override { ++count; }
  int count = 0;
};

// Stands in for the node: hands the source's datagrams to the interface queue,
// and refills the queue (one event later, outside the queue's own call) whenever
// its length falls below capacity.
class SaturatingNode final : public PacketSink, public link::QueueObserver {
 public:
  SaturatingNode(Scheduler& s, std::size_t queue_capacity) : scheduler(s), capacity(queue_capacity) {}
  void receive(PacketPtr p) override { queue->enqueue(std::move(p), scheduler.now()); }
  void on_queue_length(Time, std::size_t packets, std::int64_t) override {
    if (packets < capacity && !scheduler.is_pending(refill)) {
      refill = scheduler.schedule_in(Time::zero(), [this] {
        source->push_backlog(capacity - queue->length_packets());
      });
    }
  }
  Scheduler& scheduler;
  std::size_t capacity;
  link::QueueDiscipline* queue = nullptr;
  UdpSource* source = nullptr;
  EventId refill;
};

TEST(UdpSource, SaturatedSourceKeepsAQueueFullWithoutOverflow) {
  PacketPool pool;
  Scheduler scheduler;
  QueueDrops drops;
  SaturatingNode node(scheduler, 5);
  link::DropTailQueue queue({link::QueueLimit::Unit::packets, 5}, drops, &node);
  auto c = source_config(TrafficType::saturated);
  c.initial_backlog = 5;
  c.stop = 1_s;
  UdpSource source(scheduler, pool, node, c, arrivals());
  node.queue = &queue;
  node.source = &source;
  // The "MAC" takes one packet every millisecond and checks the queue was full.
  int full_at_dequeue = 0;
  int served = 0;
  for (int i = 1; i <= 500; ++i) {
    scheduler.schedule_at(Time::ms(i) + 1_us, [&] {
      if (queue.length_packets() == 5) ++full_at_dequeue;
      if (queue.dequeue(scheduler.now())) ++served;
    });
  }
  scheduler.run_until(600_ms);
  EXPECT_EQ(served, 500);
  EXPECT_EQ(full_at_dequeue, 500);
  EXPECT_EQ(drops.count, 0);
  EXPECT_EQ(source.stats().packets_sent, 505u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
