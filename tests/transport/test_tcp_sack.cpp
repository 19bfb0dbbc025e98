// The SACK option (RFC 2018) and SACK-based loss recovery (RFC 6675): the blocks
// a receiver reports and their bytes on the air, several losses of one window
// repaired in one round trip where NewReno takes one per hole, the scoreboard
// forgotten on a timeout, the scenario key, and a whole run with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "runner/run_scenario.hpp"
#include "scenario/scenario.hpp"
#include "scenario/transport_builder.hpp"
#include "tests/scenario/test_scenario_util.hpp"
#include "tests/transport/tcp_test_bed.hpp"
#include "transport/header_sizes.hpp"
#include "transport/tcp_receiver.hpp"
#include "transport/tcp_settings.hpp"
#include "results/result_columns.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;
using testing::finite_sender;
using testing::TcpTestBed;
using Blocks = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// ---- Receiver: the blocks of RFC 2018 4 -------------------------------------

constexpr std::uint32_t kSmallMss = 1000;

struct SackAck {
  std::uint64_t ack;
  Blocks blocks;
  std::uint32_t size_bytes;
};

class SackAckLog final : public PacketSink {
 public:
  void receive(PacketPtr p) override {
    Blocks blocks;
    for (std::size_t i = 0; i < p->transport.sack_count; ++i) blocks.push_back(p->transport.sack(i));
    acks.push_back({p->transport.ack, blocks, p->size_bytes});
  }
  std::vector<SackAck> acks;
};

struct SackReceiverBed {
  explicit SackReceiverBed(bool sack, bool timestamps = false) : receiver(scheduler, pool, log, config(sack, timestamps)) {}
  static TcpReceiverConfig config(bool sack, bool timestamps) {
    TcpReceiverConfig c;
    c.address = FlowAddress{7, 1, 2};
    c.mss = kSmallMss;
    c.window_packets = 20;
    c.sack = sack;
    c.timestamps = timestamps;
    return c;
  }
  // Segment n (bytes n*MSS .. (n+1)*MSS) arrives now; returns the ACK it caused.
  const SackAck& segment(std::uint64_t n) {
    PacketPtr p = pool.make(scheduler.now());
    p->transport.seq = n * kSmallMss;
    p->transport.payload_bytes = kSmallMss;
    p->size_bytes = kSmallMss + kTcpIpHeaderBytes;
    receiver.receive(std::move(p));
    return log.acks.back();
  }
  PacketPool pool;
  Scheduler scheduler;
  SackAckLog log;
  TcpReceiver receiver;
};

Blocks segs(std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> in_segments) {
  Blocks out;
  for (const auto& [a, b] : in_segments) out.push_back({a * kSmallMss, b * kSmallMss});
  return out;
}

TEST(TcpSackReceiver, FirstBlockIsTheLatestThenTheMostRecentlyReported) {
  SackReceiverBed bed(true);
  EXPECT_EQ(bed.segment(0).blocks, Blocks{});  // in order: no option
  EXPECT_EQ(bed.log.acks.back().size_bytes, kTcpIpHeaderBytes);
  EXPECT_EQ(bed.segment(2).blocks, segs({{2, 3}}));
  EXPECT_EQ(bed.log.acks.back().size_bytes, kTcpIpHeaderBytes + 12);  // 2 + 8, 2 NOPs
  EXPECT_EQ(bed.segment(4).blocks, segs({{4, 5}, {2, 3}}));
  EXPECT_EQ(bed.segment(6).blocks, segs({{6, 7}, {4, 5}, {2, 3}}));
  EXPECT_EQ(bed.log.acks.back().size_bytes, kTcpIpHeaderBytes + 28);
  EXPECT_EQ(bed.log.acks.back().ack, 1 * kSmallMss);
  // Segment 3 joins blocks 2 and 4: the merged block comes first, 6 after it.
  EXPECT_EQ(bed.segment(3).blocks, segs({{2, 5}, {6, 7}}));
  // A duplicate of held data still leads (the segment that triggered the ACK).
  EXPECT_EQ(bed.segment(6).blocks, segs({{6, 7}, {2, 5}}));
  // Segment 1 fills the first hole: acknowledged cumulatively, block 6 remains.
  const SackAck& filled = bed.segment(1);
  EXPECT_EQ(filled.ack, 5 * kSmallMss);
  EXPECT_EQ(filled.blocks, segs({{6, 7}}));
  EXPECT_EQ(bed.segment(5).blocks, Blocks{});
  EXPECT_EQ(bed.log.acks.back().ack, 7 * kSmallMss);
  EXPECT_EQ(bed.log.acks.back().size_bytes, kTcpIpHeaderBytes);
}

TEST(TcpSackReceiver, AtMostFourBlocksOrThreeBesideTimestamps) {
  for (const bool timestamps : {false, true}) {
    SCOPED_TRACE(timestamps ? "timestamps" : "no timestamps");
    SackReceiverBed bed(true, timestamps);
    for (const std::uint64_t n : {1, 3, 5, 7, 9}) bed.segment(n);  // segment 0 lost: five blocks held
    const SackAck& last = bed.log.acks.back();
    const std::uint32_t ts = timestamps ? kTcpTimestampOptionBytes : 0;
    if (timestamps) {
      EXPECT_EQ(last.blocks, segs({{9, 10}, {7, 8}, {5, 6}}));
      EXPECT_EQ(last.size_bytes, kTcpIpHeaderBytes + ts + 28);  // 40 bytes of options
    } else {
      EXPECT_EQ(last.blocks, segs({{9, 10}, {7, 8}, {5, 6}, {3, 4}}));
      EXPECT_EQ(last.size_bytes, kTcpIpHeaderBytes + 36);
    }
    // Segment 2 merges 1..3, never reported as one block: it leads.
    const SackAck& merged = bed.segment(2);
    EXPECT_EQ(merged.blocks.front(), (std::pair<std::uint64_t, std::uint64_t>{1 * kSmallMss, 4 * kSmallMss}));
    EXPECT_EQ(merged.blocks.size(), timestamps ? 3u : 4u);
    EXPECT_EQ(merged.blocks[1], (std::pair<std::uint64_t, std::uint64_t>{9 * kSmallMss, 10 * kSmallMss}));
  }
}

TEST(TcpSackReceiver, WithoutTheOptionAcksCarryNoBlocks) {
  SackReceiverBed bed(false);
  bed.segment(0);
  bed.segment(2);
  bed.segment(4);
  EXPECT_EQ(bed.log.acks.back().blocks, Blocks{});
  EXPECT_EQ(bed.log.acks.back().size_bytes, kTcpIpHeaderBytes);
  EXPECT_TRUE(bed.receiver.sack_blocks().empty());
}

// ---- Sender: recovery over the wired test bed -------------------------------

constexpr std::uint64_t kMss = 1460;

TcpSenderConfig with_sack(TcpSenderConfig c) {
  c.sack = true;
  return c;
}
TcpReceiverConfig receiver_with_sack(const TcpSenderConfig& s) {
  TcpReceiverConfig r = testing::receiver_for(s);
  r.sack = s.sack;
  r.timestamps = s.timestamps;
  return r;
}

struct HoleRun {
  TcpSenderStats stats;
  std::vector<Time> retransmitted_at;  // in the order sent
  std::vector<std::uint64_t> retransmitted_seq;
  std::uint64_t delivered;
  bool finished;
};

// Three segments of one window lost (as test_tcp.cpp's NewRenoRepairsThreeLosses...).
HoleRun three_holes(bool sack) {
  const std::uint64_t total = 300 * kMss;
  TcpSenderConfig c = finite_sender(total);
  c.sack = sack;
  TcpTestBed bed(c, receiver_with_sack(c));
  bed.pipe.drop_indices = {40, 42, 44};
  bed.scheduler.run();
  HoleRun r{bed.sender.stats(), {}, {}, bed.receiver.stats().delivered_bytes, bed.sender.finished()};
  for (const testing::SegmentRecord& s : bed.pipe.log) {
    if (s.retransmitted) {
      r.retransmitted_at.push_back(s.at);
      r.retransmitted_seq.push_back(s.seq);
    }
  }
  return r;
}

TEST(TcpSack, SeveralLossesOfOneWindowRepairedInOneRoundTrip) {
  // One round trip on the bed is at least 21.2 ms (1500 B at 10 Mbit/s + 10 ms,
  // the ACK 32 us + 10 ms), more with a queue.
  const Time rtt = 21'232_us;
  const HoleRun newreno = three_holes(false);
  const HoleRun sack = three_holes(true);
  for (const HoleRun* r : {&newreno, &sack}) {
    EXPECT_TRUE(r->finished);
    EXPECT_EQ(r->delivered, 300 * kMss);
    EXPECT_EQ(r->stats.timeouts, 0u);
    EXPECT_EQ(r->stats.fast_retransmits, 1u);
    EXPECT_EQ(r->retransmitted_seq, (std::vector<std::uint64_t>{40 * kMss, 42 * kMss, 44 * kMss}));
  }
  // NewReno: one hole per round trip (each partial ACK reveals the next).
  ASSERT_EQ(newreno.retransmitted_at.size(), 3u);
  EXPECT_GE(newreno.retransmitted_at[1] - newreno.retransmitted_at[0], rtt);
  EXPECT_GE(newreno.retransmitted_at[2] - newreno.retransmitted_at[1], rtt);
  EXPECT_EQ(newreno.stats.partial_ack_retransmits, 2u);
  // SACK: the scoreboard shows all three holes; all resent within one round trip
  // of the first (the round trip NewReno waited for its first partial ACK: the
  // runs are the same up to the first retransmission, and the queue makes it
  // about 45 ms), and the transfer ends at least one round trip earlier.
  ASSERT_EQ(sack.retransmitted_at.size(), 3u);
  EXPECT_LT(sack.retransmitted_at[2] - sack.retransmitted_at[0],
            newreno.retransmitted_at[1] - newreno.retransmitted_at[0]);
  EXPECT_LT(sack.retransmitted_at[2], newreno.retransmitted_at[1]);
  EXPECT_EQ(sack.stats.partial_ack_retransmits, 0u);
  EXPECT_EQ(sack.stats.rescue_retransmits, 0u);
  ASSERT_TRUE(sack.stats.completed_at && newreno.stats.completed_at);
  EXPECT_LE(*sack.stats.completed_at + rtt, *newreno.stats.completed_at);
}

TEST(TcpSack, RecoverySetsCwndAndSsthreshToHalfTheFlightAndEndsAtRecoveryPoint) {
  TcpSenderConfig c = with_sack(finite_sender(300 * kMss));
  c.trace_cwnd = true;
  TcpTestBed bed(c, receiver_with_sack(c));
  bed.pipe.drop_indices = {40, 42, 44};
  std::uint64_t flight_at_entry = 0;
  std::uint64_t cwnd_in_recovery = 0, ssthresh_in_recovery = 0, high_data_at_entry = 0;
  bool recovery_seen = false, ended_when_covered = false;
  std::uint64_t una_when_ended = 0;
  bed.pipe.drop_if = [&](const Packet& p, std::size_t) {
    if (bed.sender.in_recovery() && !recovery_seen) {
      recovery_seen = true;  // the retransmission of (4.3): SND.UNA and HighData as on entry
      flight_at_entry = bed.sender.flight_size_bytes();
      cwnd_in_recovery = bed.sender.cwnd_bytes();
      ssthresh_in_recovery = bed.sender.ssthresh_bytes();
      high_data_at_entry = bed.sender.snd_max();
      EXPECT_EQ(p.transport.seq, 40 * kMss);
    }
    if (recovery_seen && !ended_when_covered && !bed.sender.in_recovery()) {
      ended_when_covered = true;
      una_when_ended = bed.sender.snd_una();
    }
    return false;
  };
  bed.scheduler.run();
  ASSERT_TRUE(recovery_seen);
  // (4.2): cwnd = ssthresh = FlightSize / 2.
  EXPECT_GT(flight_at_entry, 10 * kMss);
  EXPECT_EQ(ssthresh_in_recovery, flight_at_entry / 2);
  EXPECT_EQ(cwnd_in_recovery, ssthresh_in_recovery);
  // (A): recovery ended on the first cumulative ACK beyond RecoveryPoint.
  ASSERT_TRUE(ended_when_covered);
  EXPECT_GE(una_when_ended, high_data_at_entry);
  EXPECT_TRUE(bed.sender.finished());
}

TEST(TcpSack, ThePipeReadingHalvesFlightSizeLessTheSackedAndLostSegments) {
  // ns-3's reading (SsthreshBasis::pipe): at the third duplicate ACK segments 41, 43
  // and 45 are SACKed and 40 IsLost (three discontiguous SACKed ranges above it), so
  // the pipe is FlightSize less 4 segments; the RFCs' reading halves FlightSize, less
  // the 2 segments limited transmit sent when it is on (the preset's case: one
  // segment deeper under the pipe).
  for (const bool limited_transmit : {false, true})
  for (const SsthreshBasis basis : {SsthreshBasis::flight_size, SsthreshBasis::pipe}) {
    TcpSenderConfig c = with_sack(finite_sender(300 * kMss));
    c.ssthresh_from = basis;
    c.limited_transmit = limited_transmit;
    TcpTestBed bed(c, receiver_with_sack(c));
    bed.pipe.drop_indices = {40, 42, 44};
    std::uint64_t flight_at_entry = 0, ssthresh_in_recovery = 0, cwnd_in_recovery = 0, limited_at_entry = 0;
    bool recovery_seen = false;
    bed.pipe.drop_if = [&](const Packet&, std::size_t) {
      if (bed.sender.in_recovery() && !recovery_seen) {
        recovery_seen = true;
        limited_at_entry = bed.sender.stats().limited_transmits;
        flight_at_entry = bed.sender.flight_size_bytes();
        ssthresh_in_recovery = bed.sender.ssthresh_bytes();
        cwnd_in_recovery = bed.sender.cwnd_bytes();
      }
      return false;
    };
    bed.scheduler.run();
    ASSERT_TRUE(recovery_seen);
    ASSERT_GT(flight_at_entry, 10 * kMss);
    const std::uint64_t limited = limited_transmit ? 2 * kMss : 0;
    const std::uint64_t expected =
        basis == SsthreshBasis::pipe ? (flight_at_entry - 4 * kMss) / 2 : (flight_at_entry - limited) / 2;
    EXPECT_EQ(ssthresh_in_recovery, expected)
        << (basis == SsthreshBasis::pipe ? "pipe" : "flight_size") << ", limited transmit " << limited_transmit;
    EXPECT_EQ(limited_at_entry, limited_transmit ? 2u : 0u);
    EXPECT_EQ(cwnd_in_recovery, ssthresh_in_recovery);
    EXPECT_TRUE(bed.sender.finished());
  }
}

TEST(TcpSack, SegmentsAboveTheHolesAreNotResentButNewDataGoesOut) {
  // While holes are repaired, NextSeg rule 2 keeps new data flowing: segments
  // beyond the ones sent before recovery go out between the retransmissions.
  TcpSenderConfig c = with_sack(finite_sender(300 * kMss));
  TcpTestBed bed(c, receiver_with_sack(c));
  bed.pipe.drop_indices = {40, 42, 44, 46, 48};
  bed.scheduler.run();
  EXPECT_EQ(bed.sender.stats().retransmissions, 5u);
  EXPECT_EQ(bed.sender.stats().timeouts, 0u);
  EXPECT_EQ(bed.sender.stats().fast_retransmits, 1u);
  EXPECT_EQ(bed.receiver.stats().duplicate_segments, 0u);
  EXPECT_TRUE(bed.sender.finished());
}

TEST(TcpSack, TimeoutForgetsTheScoreboardAndResendsOnlyTheHoles) {
  // Segments 10 and 12 lost, and their fast retransmissions too: only the RTO
  // repairs them. RFC 2018 8 / RFC 6675 5.1: the scoreboard is cleared at the
  // timeout; the SACK blocks of the ACKs that follow mark what not to resend.
  TcpSenderConfig c = with_sack(finite_sender(40 * kMss));
  TcpTestBed bed(c, receiver_with_sack(c));
  int copies10 = 0, copies12 = 0;
  bool sacked_before_timeout = false;
  std::vector<bool> empty_at_timeout_resend;
  bed.pipe.drop_if = [&](const Packet& p, std::size_t) {
    if (bed.sender.stats().timeouts == 0 && !bed.sender.scoreboard().empty()) sacked_before_timeout = true;
    if (bed.sender.stats().timeouts > 0 && empty_at_timeout_resend.empty()) {
      empty_at_timeout_resend.push_back(bed.sender.scoreboard().empty());
    }
    if (p.transport.seq == 10 * kMss) return copies10++ < 2;
    if (p.transport.seq == 12 * kMss) return copies12++ < 2;
    return false;
  };
  bed.scheduler.run();
  EXPECT_TRUE(sacked_before_timeout);
  EXPECT_EQ(bed.sender.stats().timeouts, 1u);
  ASSERT_EQ(empty_at_timeout_resend.size(), 1u);
  EXPECT_TRUE(empty_at_timeout_resend[0]);
  EXPECT_TRUE(bed.sender.finished());
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, 40 * kMss);
  // Resent after the timeout: segment 10, then (its ACK SACKs 11 and 13..) only 12.
  std::vector<std::uint64_t> after_timeout;
  bool timed_out = false;
  Time first_copy_10 = Time::max();
  for (const testing::SegmentRecord& s : bed.pipe.log) {
    if (s.seq == 10 * kMss && s.retransmitted) {
      if (first_copy_10 != Time::max()) timed_out = true;
      first_copy_10 = std::min(first_copy_10, s.at);
    }
    if (timed_out) after_timeout.push_back(s.seq);
  }
  EXPECT_EQ(after_timeout, (std::vector<std::uint64_t>{10 * kMss, 12 * kMss}));
  EXPECT_EQ(bed.receiver.stats().duplicate_segments, 0u);
}

TEST(TcpSack, AckSizesOnTheReverseLink) {
  // One hole: the ACKs of the three segments after it carry one block (12 bytes).
  TcpSenderConfig c = with_sack(finite_sender(6 * kMss));
  c.initial_window_segments = 6;
  TcpTestBed bed(c, receiver_with_sack(c));
  bed.pipe.drop_indices = {2};
  bed.scheduler.run();
  EXPECT_TRUE(bed.sender.finished());
  // 6 ACKs for the first copies (2 lost: 5 ACKs), 1 for the retransmission; 3 of
  // them (segments 3, 4, 5) with one block.
  EXPECT_EQ(bed.receiver.stats().acks_sent, 6u);
  EXPECT_EQ(bed.reverse.counters().delivered_bytes, 6 * kTcpIpHeaderBytes + 3 * 12);
  EXPECT_EQ(bed.sender.stats().fast_retransmits, 1u);
  EXPECT_EQ(bed.sender.stats().timeouts, 0u);
}

TEST(TcpSack, RandomLossesAlwaysCompleteWithFewerRetransmissionsThanNewReno) {
  // 10 % of data segments lost (retransmissions too), 40 loss patterns, with and
  // without timestamps and delayed ACKs: every transfer completes, every packet
  // is returned to the pool, and SACK resends less than NewReno's go-back-N and
  // one-hole-per-round-trip recovery.
  std::uint64_t sack_retransmissions = 0, newreno_retransmissions = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (const bool sack : {false, true}) {
      TcpSenderConfig c = finite_sender(200 * kMss);
      c.sack = sack;
      c.timestamps = seed % 2 == 0;
      TcpReceiverConfig rc = receiver_with_sack(c);
      rc.delayed_ack = seed % 3 == 0;
      TcpTestBed bed(c, rc);
      std::uint64_t state = seed * 0x9e3779b97f4a7c15ull;
      bed.pipe.drop_if = [&state](const Packet&, std::size_t) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;  // Knuth's MMIX LCG
        return (state >> 33) % 100 < 10;
      };
      bed.scheduler.run();
      SCOPED_TRACE("seed " + std::to_string(seed) + (sack ? " sack" : " newreno"));
      EXPECT_TRUE(bed.sender.finished());
      EXPECT_EQ(bed.receiver.stats().delivered_bytes, 200 * kMss);
      EXPECT_EQ(bed.pool.live(), 0u);
      (sack ? sack_retransmissions : newreno_retransmissions) += bed.sender.stats().retransmissions;
    }
  }
  EXPECT_LT(sack_retransmissions, newreno_retransmissions);
}

// ---- The scenario key and a whole run ----------------------------------------

TEST(TcpSack, ScenarioKeyDefaultsOffAndReachesBothEnds) {
  nlohmann::json doc = test::minimal_scenario();
  EXPECT_FALSE(parse_scenario(doc).flows[0].params_as<TcpConfig>().sack);
  doc["flows"][0]["tcp"] = {{"sack", true}};
  const Scenario s = parse_scenario(doc);
  const TcpConfig& tcp = s.flows[0].params_as<TcpConfig>();
  EXPECT_TRUE(tcp.sack);
  const FlowSpec spec = flow_spec(s.flows[0], FlowAddress{0, 0, 2}, false, 10_s);
  EXPECT_TRUE(tcp_sender_config(tcp, spec).sack);
  EXPECT_TRUE(tcp_receiver_config(tcp, spec, {}).sack);
  EXPECT_EQ(tcp_sender_config(tcp, spec).ssthresh_from, SsthreshBasis::flight_size);
  doc["flows"][0]["tcp"] = {{"sack", true}, {"ssthresh_from", "pipe"}};
  const Scenario p = parse_scenario(doc);
  EXPECT_EQ(tcp_sender_config(p.flows[0].params_as<TcpConfig>(), spec).ssthresh_from, SsthreshBasis::pipe);
  doc["flows"][0]["tcp"] = {{"sack", "on"}};
  EXPECT_TRUE(test::has_issue(test::issues_of(doc), "/flows/0/tcp/sack", "true or false"));
}

TEST(TcpSack, WholeScenarioWithSackRunsAndDelivers) {
  // Two uploads sharing the two-hop chain: the relay's interface queue overflows
  // now and then (about 40 drops in 10 s), so SACK recovery runs. It resends about
  // what was lost and never waits for a timeout (NewReno on the same run: 77
  // retransmissions for 41 drops, and a timeout).
  nlohmann::json doc = test::minimal_scenario();
  doc["flows"].push_back({{"id", "f2"}, {"transport", "tcp"}, {"src", "B"}, {"dst", "GW"}});
  for (auto& f : doc["flows"]) f["tcp"] = {{"sack", true}};
  const Results r = run_scenario(parse_scenario(doc));
  ASSERT_EQ(r.flows.size(), 2u);
  std::uint64_t drops = 0, retransmissions = 0;
  for (const auto& f : r.flows) {
    EXPECT_GT(flow_column::goodput_bps.of(f), 100e3) << flow_column::id.of(f);
    EXPECT_GT(flow_column::delivered_packets.of(f), 0u);
    EXPECT_EQ(f["timeouts"].get<std::uint64_t>(), 0u) << flow_column::id.of(f);  // TCP's own statistic
    drops += flow_column::dropped_packets.of(f);
    retransmissions += f["retransmissions"].get<std::uint64_t>();
  }
  EXPECT_GT(drops, 10u);
  EXPECT_LE(retransmissions, drops + 2);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
