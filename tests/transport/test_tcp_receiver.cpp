// The TCP receiver alone, fed segments at chosen times: delayed-ACK timing,
// immediate ACKs for out-of-order data and gap fills, reassembly, duplicates.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/header_sizes.hpp"
#include "transport/tcp_receiver.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

constexpr std::uint32_t kMss = 1000;

struct AckRecord {
  Time at;
  std::uint64_t ack;
};

class AckLog final : public PacketSink {
 public:
  explicit AckLog(const Scheduler& s) : scheduler_(s) {}
  void receive(PacketPtr p) override {
    EXPECT_TRUE(p->transport.is_pure_ack());
    EXPECT_EQ(p->size_bytes, kTcpIpHeaderBytes);
    EXPECT_EQ(p->src, 2u);  // receiver -> sender
    EXPECT_EQ(p->dst, 1u);
    EXPECT_EQ(p->flow, 7u);
    EXPECT_EQ(p->transport.window_bytes, 10u * kMss);
    acks.push_back({scheduler_.now(), p->transport.ack});
  }
  std::vector<AckRecord> acks;

 private:
  const Scheduler& scheduler_;
};

struct ReceiverBed {
  explicit ReceiverBed(bool delayed, Time timeout = 200_ms) : log(scheduler), receiver(scheduler, pool, log, config(delayed, timeout)) {}
  static TcpReceiverConfig config(bool delayed, Time timeout) {
    TcpReceiverConfig c;
    c.address = FlowAddress{7, 1, 2};
    c.mss = kMss;
    c.window_packets = 10;
    c.delayed_ack = delayed;
    c.delayed_ack_timeout = timeout;
    c.window = MeasurementWindow{0_s, 10_s};
    return c;
  }
  // Segment number n (bytes n*MSS .. (n+1)*MSS) arrives at `at`.
  void segment_at(Time at, std::uint64_t n, std::uint32_t bytes = kMss) {
    scheduler.schedule_at(at, [this, n, bytes] {
      PacketPtr p = pool.make(scheduler.now());
      p->transport.seq = n * kMss;
      p->transport.payload_bytes = bytes;
      p->size_bytes = bytes + kTcpIpHeaderBytes;
      receiver.receive(std::move(p));
    });
  }
  PacketPool pool;
  Scheduler scheduler;
  AckLog log;
  TcpReceiver receiver;
};

bool operator==(const AckRecord& a, const AckRecord& b) { return a.at == b.at && a.ack == b.ack; }
void PrintTo(const AckRecord& a, std::ostream* os) { *os << "{" << a.at.to_string() << ", " << a.ack << "}"; }

TEST(TcpReceiver, AcksEverySegmentAtOnceWithoutDelayedAcks) {
  ReceiverBed bed(false);
  bed.segment_at(1_ms, 0);
  bed.segment_at(2_ms, 1);
  bed.scheduler.run();
  EXPECT_EQ(bed.log.acks, (std::vector<AckRecord>{{1_ms, 1 * kMss}, {2_ms, 2 * kMss}}));
}

TEST(TcpReceiver, DelayedAckTiming) {
  ReceiverBed bed(true);
  bed.segment_at(0_ms, 0);    // alone: acknowledged 200 ms later
  bed.segment_at(300_ms, 1);  // first of a pair: waits
  bed.segment_at(350_ms, 2);  // second: both acknowledged at once, timer cancelled
  bed.segment_at(400_ms, 4);  // out of order: duplicate ACK at once
  bed.segment_at(450_ms, 3);  // fills the gap: ACK at once, up to the end of 4
  bed.segment_at(460_ms, 5);  // in order again: delayed
  bed.segment_at(470_ms, 1);  // duplicate: ACK at once (and the pending one goes with it)
  bed.scheduler.run();
  EXPECT_EQ(bed.log.acks, (std::vector<AckRecord>{{200_ms, 1 * kMss},
                                                   {350_ms, 3 * kMss},
                                                   {400_ms, 3 * kMss},
                                                   {450_ms, 5 * kMss},
                                                   {470_ms, 6 * kMss}}));
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, 6u * kMss);
  EXPECT_EQ(bed.receiver.stats().out_of_order_segments, 1u);
  EXPECT_EQ(bed.receiver.stats().duplicate_segments, 1u);
  EXPECT_FALSE(bed.receiver.delayed_ack_pending());
}

TEST(TcpReceiver, DelayedAckTimeoutIsConfigurable) {
  ReceiverBed bed(true, 100_ms);  // ns-2's DelAck interval
  bed.segment_at(5_ms, 0);
  bed.scheduler.run();
  EXPECT_EQ(bed.log.acks, (std::vector<AckRecord>{{105_ms, kMss}}));
}

TEST(TcpReceiver, ReassemblesOverlappingAndDisjointRanges) {
  ReceiverBed bed(false);
  bed.segment_at(1_ms, 5);
  bed.segment_at(2_ms, 2);
  bed.segment_at(3_ms, 3);
  bed.segment_at(4_ms, 7);
  bed.segment_at(5_ms, 0);
  bed.segment_at(6_ms, 1, 2 * kMss);  // covers 1 and 2 (2 already held)
  bed.segment_at(7_ms, 4);
  bed.segment_at(8_ms, 6);
  bed.scheduler.run();
  std::vector<std::uint64_t> acks;
  for (const auto& a : bed.log.acks) acks.push_back(a.ack / kMss);
  EXPECT_EQ(acks, (std::vector<std::uint64_t>{0, 0, 0, 0, 1, 4, 6, 8}));
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, 8u * kMss);
  EXPECT_DOUBLE_EQ(bed.receiver.goodput_bps(), 8.0 * kMss * 8 / 10.0);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
