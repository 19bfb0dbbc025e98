// Reliable delivery alone (transport/reliable_sender.hpp), under a stub policy with
// a fixed window of segments and no congestion control: the test plays the network
// and the receiver, records every segment and every policy call at its time, and
// answers with ACKs built by hand. The sequence space, cumulative and duplicate
// ACKs (RFC 5681 2), the RFC 6298 timer (5.1-5.6) with Karn's algorithm and both
// back-off rules, retransmission, timestamps (RFC 7323 RTTM) and the end of a
// transfer, at exact times.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/header_sizes.hpp"
#include "transport/reliable_sender.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

constexpr std::uint32_t kMss = 1000;

struct Segment {
  Time at;
  std::uint64_t seq;
  std::uint32_t payload_bytes;
  std::uint32_t size_bytes;
  bool retransmitted;
  Time ts_val;
};

class Network final : public PacketSink {
 public:
  explicit Network(const Scheduler& s) : scheduler_(s) {}
  void receive(PacketPtr p) override {
    sent.push_back({scheduler_.now(), p->transport.seq, p->transport.payload_bytes, p->size_bytes,
                    p->transport.retransmitted, p->transport.ts_val});
  }
  std::vector<Time> times_of(std::uint64_t seq) const {
    std::vector<Time> out;
    for (const Segment& s : sent) {
      if (s.seq == seq) out.push_back(s.at);
    }
    return out;
  }
  std::vector<Segment> sent;

 private:
  const Scheduler& scheduler_;
};

// Sends new data while it fits in `window` segments past SND.UNA; records each call.
class WindowPolicy final {
 public:
  WindowPolicy(Scheduler& scheduler, PacketPool& pool, PacketSink& network, ReliableSenderConfig config,
               std::uint64_t window)
      : scheduler_(scheduler), window_(window * kMss), core(scheduler, pool, network, *this, config, stats) {}

  void on_open() { log("open"); }
  void transmit() {
    log("transmit");
    if (!core.is_open()) return;
    while (core.snd_nxt() < core.data_end()) {
      const std::uint32_t length = core.segment_length(core.snd_nxt());
      if (core.snd_nxt() + length > core.snd_una() + window_) break;
      core.send_segment(core.snd_nxt(), length);
    }
  }
  void on_ack(const TransportHeader&) { log("ack"); }
  bool on_new_ack(std::uint64_t newly_acked) {
    log("new_ack " + std::to_string(newly_acked));
    return restart_on_new_ack;
  }
  void on_duplicate_ack() { log("duplicate " + std::to_string(core.duplicate_acks())); }
  void on_timeout(Time rto, bool backed_off) {
    log("timeout");
    rto_before.push_back(rto);
    backed_off_at.push_back(backed_off);
  }
  void on_segment(Packet&) {}
  void on_finished() { log("finished"); }

  struct Call {
    Time at;
    std::string what;
    bool operator==(const Call&) const = default;
  };
  std::vector<Call> calls;
  std::vector<Time> rto_before;
  std::vector<bool> backed_off_at;
  bool restart_on_new_ack = true;

 private:
  void log(std::string what) { calls.push_back({scheduler_.now(), std::move(what)}); }
  Scheduler& scheduler_;
  std::uint64_t window_;

 public:
  ReliableSenderStats stats;  // before the core, which counts into it
  ReliableSender<WindowPolicy> core;
};

ReliableSenderConfig finite(std::uint64_t bytes) {
  ReliableSenderConfig c;
  c.address = FlowAddress{0, 1, 2};
  c.mss = kMss;
  c.window_packets = 8;
  c.application = TcpApplication::finite;
  c.finite_bytes = bytes;
  return c;
}

struct Bed {
  explicit Bed(ReliableSenderConfig c, std::uint64_t window = 4)
      : network(scheduler), policy(scheduler, pool, network, std::move(c), window) {}
  // At `at`, an ACK of every byte below `ack`, advertising `window` bytes, with
  // `payload` bytes of data and, if given, the timestamp echo `ts_ecr`.
  void ack_at(Time at, std::uint64_t ack, std::uint32_t window = 8 * kMss, std::uint32_t payload = 0,
              std::optional<Time> ts_ecr = std::nullopt) {
    scheduler.schedule_at(at, [this, ack, window, payload, ts_ecr] {
      PacketPtr p = pool.make(scheduler.now());
      p->transport.ack_valid = true;
      p->transport.ack = ack;
      p->transport.window_bytes = window;
      p->transport.payload_bytes = payload;
      if (ts_ecr) {
        p->transport.timestamps = true;
        p->transport.ts_ecr = *ts_ecr;
      }
      policy.core.receive(p->transport);
    });
  }
  ReliableSender<WindowPolicy>& core() { return policy.core; }

  PacketPool pool;
  Scheduler scheduler;
  Network network;
  WindowPolicy policy;
};

TEST(ReliableSender, SegmentsNumberTheBytesAndTheLastOneIsShort) {
  Bed bed(finite(2500));
  bed.scheduler.run_until(1_ms);
  ASSERT_EQ(bed.network.sent.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(bed.network.sent[i].at, 0_s);
    EXPECT_EQ(bed.network.sent[i].seq, i * kMss);
    EXPECT_FALSE(bed.network.sent[i].retransmitted);
  }
  EXPECT_EQ(bed.network.sent[2].payload_bytes, 500u);
  EXPECT_EQ(bed.network.sent[0].size_bytes, kTcpIpHeaderBytes + kMss);
  EXPECT_EQ(bed.network.sent[2].size_bytes, kTcpIpHeaderBytes + 500);
  EXPECT_EQ(bed.core().snd_una(), 0u);
  EXPECT_EQ(bed.core().snd_nxt(), 2500u);
  EXPECT_EQ(bed.core().snd_max(), 2500u);
  EXPECT_EQ(bed.core().flight_size_bytes(), 2500u);
  EXPECT_TRUE(bed.core().retransmission_timer_pending());  // RFC 6298 5.1
  EXPECT_EQ(bed.core().stats().segments_sent, 3u);
  EXPECT_EQ(bed.core().stats().payload_bytes_sent, 2500u);
}

TEST(ReliableSender, CumulativeAcksAdvanceRestartTheTimerAndEndTheTransfer) {
  Bed bed(finite(2500));
  bed.ack_at(100_ms, 1000);
  bed.ack_at(150_ms, 2500);
  bed.scheduler.run_until(120_ms);
  EXPECT_EQ(bed.core().snd_una(), 1000u);
  EXPECT_EQ(bed.core().stats().bytes_acked, 1000u);
  // The ACK covers the timed first segment: SRTT 100 ms, RTTVAR 50 ms, RTO 300 ms.
  EXPECT_EQ(bed.core().rtt().srtt(), 100_ms);
  EXPECT_EQ(bed.core().rtt().rto(), 300_ms);
  bed.scheduler.run();
  EXPECT_EQ(bed.core().stats().completed_at, 150_ms);
  EXPECT_FALSE(bed.core().retransmission_timer_pending());  // RFC 6298 5.2
  EXPECT_EQ(bed.core().stats().timeouts, 0u);
  EXPECT_EQ(bed.core().stats().acks_received, 2u);
  EXPECT_EQ(bed.policy.calls,
            (std::vector<WindowPolicy::Call>{{0_s, "open"},
                                             {0_s, "transmit"},
                                             {100_ms, "ack"},
                                             {100_ms, "new_ack 1000"},
                                             {100_ms, "transmit"},
                                             {150_ms, "ack"},
                                             {150_ms, "new_ack 1500"},
                                             {150_ms, "finished"},
                                             {150_ms, "transmit"}}));
}

TEST(ReliableSender, TheTimerRestartsAtEachNewAckUnlessThePolicySaysNot) {
  // Four segments at 0; the first ACK (100 ms: RTO 300 ms) restarts the timer, so
  // the oldest outstanding segment is resent at 400 ms, not at 1 s (RFC 6298 5.3).
  Bed restarted(finite(4 * kMss));
  restarted.ack_at(100_ms, 1000);
  restarted.scheduler.run_until(2_s);
  EXPECT_EQ(restarted.network.times_of(1000), (std::vector<Time>{0_s, 400_ms, 1000_ms}));
  // A policy that keeps the timer (RFC 6582's impatient partial ACK): the 1-s
  // timer started at 0 still runs out at 1 s, with the RTO of the sample doubled.
  Bed kept(finite(4 * kMss));
  kept.policy.restart_on_new_ack = false;
  kept.ack_at(100_ms, 1000);
  kept.scheduler.run_until(2_s);
  EXPECT_EQ(kept.network.times_of(1000), (std::vector<Time>{0_s, 1_s, 1600_ms}));
  EXPECT_EQ(kept.policy.rto_before, (std::vector<Time>{300_ms, 600_ms}));
}

TEST(ReliableSender, AnAckOfBytesNeverSentIsIgnored) {
  Bed bed(finite(2500));
  bed.ack_at(100_ms, 2501);
  bed.scheduler.run_until(200_ms);
  EXPECT_EQ(bed.core().stats().acks_received, 1u);
  EXPECT_EQ(bed.core().snd_una(), 0u);
  EXPECT_FALSE(bed.core().rtt().has_sample());
  EXPECT_EQ(bed.policy.calls.size(), 2u);  // open and the first transmit only
}

TEST(ReliableSender, DuplicateAcksAreThoseOfRfc5681) {
  Bed bed(finite(4 * kMss));
  bed.ack_at(10_ms, 0);                  // 1
  bed.ack_at(20_ms, 0, 8 * kMss, 10);    // carries data: not one
  bed.ack_at(30_ms, 0, 4 * kMss);        // the window changed: not one
  bed.ack_at(40_ms, 0, 4 * kMss);        // 2
  bed.ack_at(50_ms, 0, 4 * kMss);        // 3
  bed.ack_at(60_ms, 1000, 4 * kMss);     // new: the count starts over
  bed.ack_at(70_ms, 1000, 4 * kMss);     // 1
  bed.scheduler.run_until(80_ms);
  std::vector<std::string> duplicates;
  for (const WindowPolicy::Call& c : bed.policy.calls) {
    if (c.what.starts_with("duplicate")) duplicates.push_back(c.what);
  }
  EXPECT_EQ(duplicates, (std::vector<std::string>{"duplicate 1", "duplicate 2", "duplicate 3", "duplicate 1"}));
  EXPECT_EQ(bed.core().stats().duplicate_acks, 4u);
  EXPECT_EQ(bed.core().duplicate_acks(), 1u);
  EXPECT_EQ(bed.core().rwnd(), 4u * kMss);
}

TEST(ReliableSender, NothingOutstandingMeansNoDuplicate) {
  Bed bed(finite(1000));
  bed.ack_at(100_ms, 1000);
  bed.ack_at(110_ms, 1000);
  bed.scheduler.run();
  EXPECT_EQ(bed.core().stats().duplicate_acks, 0u);
  EXPECT_EQ(bed.core().stats().completed_at, 100_ms);
}

TEST(ReliableSender, TimeoutsResendTheOldestSegmentAndDoubleTheRto) {
  // RFC 6298 2.1 (1 s before any sample), 5.4-5.6: the same segment at 1, 3, 7 s.
  Bed bed(finite(2 * kMss));
  bed.scheduler.run_until(7_s);
  EXPECT_EQ(bed.network.times_of(0), (std::vector<Time>{0_s, 1_s, 3_s, 7_s}));
  EXPECT_EQ(bed.network.times_of(1000), (std::vector<Time>{0_s}));  // no go-back-N of its own
  EXPECT_EQ(bed.policy.rto_before, (std::vector<Time>{1_s, 2_s, 4_s}));
  EXPECT_EQ(bed.policy.backed_off_at, (std::vector<bool>{true, true, true}));
  EXPECT_EQ(bed.core().rtt().rto(), 8_s);
  EXPECT_EQ(bed.core().rtt().backoffs(), 3);
  EXPECT_EQ(bed.core().stats().timeouts, 3u);
  EXPECT_EQ(bed.core().stats().retransmissions, 3u);
  for (const Segment& s : bed.network.sent) EXPECT_EQ(s.retransmitted, s.at > 0_s);
  // A timeout: the policy, then the resend, then transmit.
  const std::vector<WindowPolicy::Call> first(bed.policy.calls.begin() + 2, bed.policy.calls.begin() + 4);
  EXPECT_EQ(first, (std::vector<WindowPolicy::Call>{{1_s, "timeout"}, {1_s, "transmit"}}));
}

TEST(ReliableSender, BackToBackTimeoutsKeepTheRtoWhenFirstOfBackToBack) {
  // 003 Sec. III-E: only the first timeout since a new ACK doubles the RTO.
  ReliableSenderConfig c = finite(2 * kMss);
  c.backoff = RtoBackoff::first_of_back_to_back;
  Bed bed(c);
  bed.ack_at(5500_ms, 1000);  // covers resent bytes: no sample, the RTO stays 2 s
  bed.scheduler.run_until(9_s);
  EXPECT_EQ(bed.network.times_of(0), (std::vector<Time>{0_s, 1_s, 3_s, 5_s}));
  // The new ACK ends the episode: the next timeout (5.5 + 2 s) doubles again.
  EXPECT_EQ(bed.network.times_of(1000), (std::vector<Time>{0_s, 7500_ms}));
  EXPECT_EQ(bed.policy.backed_off_at, (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(bed.core().rtt().rto(), 4_s);
  EXPECT_EQ(bed.core().rtt().backoffs(), 2);
}

TEST(ReliableSender, KarnKeepsTheBackoffUntilANeverResentSegmentIsAcked) {
  // Window 1: segment 0 at 0, resent at 1 s (RTO 2 s). Its ACK at 1.1 s covers
  // resent bytes: no sample, the backed-off RTO restarts the timer. Segment 1,
  // sent then, is timed: its ACK at 1.2 s gives a 100-ms sample and ends the
  // back-off (RFC 6298 3 and 5.7).
  Bed bed(finite(3 * kMss), 1);
  bed.ack_at(1100_ms, 1000);
  bed.ack_at(1200_ms, 2000);
  bed.scheduler.run_until(1150_ms);
  EXPECT_FALSE(bed.core().rtt().has_sample());
  EXPECT_EQ(bed.core().rtt().rto(), 2_s);
  EXPECT_EQ(bed.network.times_of(1000), (std::vector<Time>{1100_ms}));
  bed.scheduler.run_until(1250_ms);
  EXPECT_EQ(bed.core().rtt().srtt(), 100_ms);
  EXPECT_EQ(bed.core().rtt().backoffs(), 0);
  EXPECT_EQ(bed.core().rtt().rto(), 300_ms);
  // Segment 2 went at 1.2 s; with no ACK it is resent one new RTO later.
  bed.scheduler.run_until(2_s);
  EXPECT_EQ(bed.network.times_of(2000), (std::vector<Time>{1200_ms, 1500_ms}));
}

TEST(ReliableSender, TimestampsTimeEveryAdvancingAckEvenOfResentBytes) {
  ReliableSenderConfig c = finite(2 * kMss);
  c.timestamps = true;
  Bed bed(c, 1);
  // Segment 0 is resent at 1 s; the ACK at 1.25 s echoes that copy's TSval.
  bed.ack_at(1250_ms, 1000, 8 * kMss, 0, 1_s);
  bed.scheduler.run_until(1300_ms);
  ASSERT_EQ(bed.network.sent.size(), 3u);
  EXPECT_EQ(bed.network.sent[0].size_bytes, kTcpIpHeaderBytes + kTcpTimestampOptionBytes + kMss);
  EXPECT_EQ(bed.network.sent[1].ts_val, 1_s);
  EXPECT_EQ(bed.core().rtt().srtt(), 250_ms);  // RFC 7323 RTTM: now - TSecr
  EXPECT_EQ(bed.core().rtt().backoffs(), 0);
}

TEST(ReliableSender, StopWithdrawsUnsentDataAndRepairsWhatWasSent) {
  ReliableSenderConfig c = finite(0);
  c.application = TcpApplication::bulk;
  c.stop = 50_ms;
  Bed bed(c, 2);
  bed.ack_at(100_ms, 2000);
  bed.scheduler.run();
  EXPECT_EQ(bed.network.sent.size(), 2u);
  EXPECT_EQ(bed.core().data_end(), 2000u);
  EXPECT_EQ(bed.core().stats().completed_at, 100_ms);
}

TEST(ReliableSender, WrittenBytesAreOfferedAsTheyCome) {
  ReliableSenderConfig c = finite(0);
  c.application = TcpApplication::written;
  Bed bed(c);
  bed.scheduler.run_until(1_ms);
  EXPECT_TRUE(bed.network.sent.empty());
  bed.core().write(1500);
  ASSERT_EQ(bed.network.sent.size(), 2u);
  EXPECT_EQ(bed.network.sent[1].payload_bytes, 500u);
}

TEST(ReliableSender, SndNxtMovesOnlyWithinTheSequenceSpace) {
  Bed bed(finite(3 * kMss));
  bed.scheduler.run_until(1_ms);
  bed.core().set_snd_nxt(1000);  // a go-back-N
  EXPECT_EQ(bed.core().snd_nxt(), 1000u);
  EXPECT_THROW(bed.core().set_snd_nxt(3001), std::logic_error);
  bed.core().send_segment(1000, kMss);
  EXPECT_EQ(bed.core().snd_nxt(), 2000u);
  EXPECT_EQ(bed.core().stats().retransmissions, 1u);
}

TEST(ReliableSender, BadConfigurationsNameTheProtocol) {
  PacketPool pool;
  Scheduler scheduler;
  Network network(scheduler);
  ReliableSenderConfig c = finite(0);
  c.protocol = "WCCP";
  try {
    WindowPolicy p(scheduler, pool, network, c, 1);
    FAIL() << "a finite transfer of 0 bytes was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "a finite WCCP transfer needs at least one byte");
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
