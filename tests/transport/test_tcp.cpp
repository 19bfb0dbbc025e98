// TCP sender and receiver over wired links with chosen losses: throughput on a
// clean path, fast retransmit, NewReno against Reno with several losses in one
// window, RTO back-off at exact times, finite transfers, the fixed window.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "scenario/transport_builder.hpp"
#include "transport/tcp_settings.hpp"
#include "tests/transport/tcp_test_bed.hpp"
#include "transport/header_sizes.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;
using testing::bulk_sender;
using testing::finite_sender;
using testing::TcpTestBed;

constexpr std::uint64_t kMss = 1460;

TEST(Tcp, CleanPathReachesTheLinkRate) {
  TcpReceiverConfig r = testing::receiver_for(bulk_sender());
  r.window = MeasurementWindow{2_s, 10_s};
  TcpTestBed bed(bulk_sender(), r);
  bed.scheduler.run_until(10_s);
  // 1460 payload bytes in 1500 on the wire: at most 97.3 % of 10 Mbit/s.
  EXPECT_GE(bed.receiver.goodput_bps(), 0.95 * 10e6);
  EXPECT_LE(bed.receiver.goodput_bps(), 1460.0 / 1500.0 * 10e6);
  EXPECT_EQ(bed.sender.stats().retransmissions, 0u);
  EXPECT_EQ(bed.sender.stats().timeouts, 0u);
  EXPECT_EQ(bed.link_drops.count, 0u);
  // The window grew to the receiver's 64 segments and stays there.
  EXPECT_EQ(bed.sender.cwnd_bytes(), 64 * kMss);
  EXPECT_TRUE(bed.sender.rtt().has_sample());
}

TEST(Tcp, SegmentsAndAcksHaveTheirSizesAndFields) {
  TcpTestBed bed(finite_sender(2 * kMss + 100));
  bed.scheduler.run();
  ASSERT_EQ(bed.pipe.log.size(), 3u);
  EXPECT_EQ(bed.pipe.log[0].size_bytes, kMss + kTcpIpHeaderBytes);
  EXPECT_EQ(bed.pipe.log[2].seq, 2 * kMss);
  EXPECT_EQ(bed.pipe.log[2].payload_bytes, 100u);
  EXPECT_EQ(bed.pipe.log[2].size_bytes, 140u);
  EXPECT_EQ(bed.receiver.stats().acks_sent, 3u);
  EXPECT_EQ(bed.reverse.counters().delivered_bytes, 3 * kTcpIpHeaderBytes);
  EXPECT_EQ(bed.sender.stats().completed_at, bed.scheduler.now());
}

TEST(Tcp, CompletionListenerIsToldOnceWithTheLastByteAtTheCompletion) {
  // The pcap trace's synthetic close hangs on this (runner/run_scenario.cpp): one
  // call, at completed_at, with one past the last byte; none for a bulk transfer.
  TcpTestBed bed(finite_sender(1000));
  bed.pipe.drop_indices = {0};
  std::vector<std::pair<Time, std::uint64_t>> told;
  bed.sender.set_completion_listener([&](std::uint64_t end) { told.emplace_back(bed.scheduler.now(), end); });
  bed.scheduler.run();
  ASSERT_TRUE(bed.sender.stats().completed_at.has_value());
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told, (std::vector<std::pair<Time, std::uint64_t>>{{*bed.sender.stats().completed_at, 1000}}));
  EXPECT_EQ(told[0].first, 1_s + 832_us + 10_ms + 32_us + 10_ms);  // after the resend at the RTO
  TcpTestBed bulk(bulk_sender());
  bool bulk_told = false;
  bulk.sender.set_completion_listener([&](std::uint64_t) { bulk_told = true; });
  bulk.scheduler.run_until(2_s);
  EXPECT_FALSE(bulk_told);
}

TEST(Tcp, InitialWindowFollowsRfc5681OrTheConfiguration) {
  TcpTestBed rfc(bulk_sender());
  rfc.scheduler.run_until(1_ms);
  EXPECT_EQ(rfc.pipe.log.size(), 3u);  // min(4*1460, max(2*1460, 4380)) = 4380 bytes
  auto one = bulk_sender();
  one.initial_window_segments = 1;
  TcpTestBed ns2(one);
  ns2.scheduler.run_until(1_ms);
  EXPECT_EQ(ns2.pipe.log.size(), 1u);
}

TEST(Tcp, SingleLossIsRepairedByFastRetransmitWithoutTimeout) {
  const std::uint64_t total = 200 * kMss;
  TcpTestBed bed(finite_sender(total));
  bed.pipe.drop_indices = {30};
  bed.scheduler.run();
  const TcpSenderStats& s = bed.sender.stats();
  EXPECT_EQ(s.fast_retransmits, 1u);
  EXPECT_EQ(s.retransmissions, 1u);
  EXPECT_EQ(s.timeouts, 0u);
  EXPECT_GE(s.duplicate_acks, 3u);
  EXPECT_TRUE(bed.sender.finished());
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, total);
  EXPECT_EQ(s.bytes_acked, total);
  EXPECT_EQ(bed.pool.live(), 0u);
}

struct ThreeLosses {
  TcpSenderStats stats;
  std::uint64_t delivered;
};

ThreeLosses run_three_losses(TcpVariant variant) {
  const std::uint64_t total = 300 * kMss;
  TcpTestBed bed(finite_sender(total, variant));
  bed.pipe.drop_indices = {40, 42, 44};  // one window: cwnd is about 30 segments then
  bed.scheduler.run();
  EXPECT_TRUE(bed.sender.finished());
  return {bed.sender.stats(), bed.receiver.stats().delivered_bytes};
}

TEST(Tcp, NewRenoRepairsThreeLossesInOneRecovery) {
  const ThreeLosses r = run_three_losses(TcpVariant::newreno);
  EXPECT_EQ(r.stats.fast_retransmits, 1u);
  EXPECT_EQ(r.stats.partial_ack_retransmits, 2u);
  EXPECT_EQ(r.stats.retransmissions, 3u);
  EXPECT_EQ(r.stats.timeouts, 0u);
  EXPECT_EQ(r.delivered, 300 * kMss);
}

TEST(Tcp, RenoLeavesRecoveryEarlyWithThreeLosses) {
  const ThreeLosses r = run_three_losses(TcpVariant::reno);
  EXPECT_EQ(r.stats.partial_ack_retransmits, 0u);
  // The first new ACK ends recovery with two holes left: another fast retransmit
  // or a timeout is needed for them.
  EXPECT_TRUE(r.stats.fast_retransmits >= 2 || r.stats.timeouts >= 1)
      << "fast retransmits " << r.stats.fast_retransmits << ", timeouts " << r.stats.timeouts;
  EXPECT_GE(r.stats.retransmissions, 3u);
  EXPECT_EQ(r.delivered, 300 * kMss);
}

TEST(Tcp, RtoDoublesFromTheInitialOneSecond) {
  // One segment, lost four times: RFC 6298 2.1 (1 s) and 5.5 (doubling).
  TcpTestBed bed(finite_sender(1000));
  bed.pipe.drop_indices = {0, 1, 2, 3};
  bed.scheduler.run();
  EXPECT_EQ(bed.pipe.times_of(0), (std::vector<Time>{0_s, 1_s, 3_s, 7_s, 15_s}));
  EXPECT_EQ(bed.sender.stats().timeouts, 4u);
  EXPECT_EQ(bed.sender.stats().retransmissions, 4u);
  // 1040 bytes: 832 us on the wire, 10 ms; the ACK 32 us and 10 ms.
  EXPECT_EQ(bed.sender.stats().completed_at, 15_s + 832_us + 10_ms + 32_us + 10_ms);
  // The ACK covers a retransmitted segment: no sample, so the back-off stays
  // (Karn's algorithm, RFC 6298 5.7; test_tcp_backoff.cpp).
  EXPECT_EQ(bed.sender.rtt().backoffs(), 4);
}

TEST(Tcp, RtoAfterAnRttSampleIsClampedAndDoubles) {
  // Three segments at t = 0 (IW = 3); the second and its first three
  // retransmissions are lost. The first ACK (RTT 21.232 ms: 1.2 ms + 10 ms there,
  // 32 us + 10 ms back) sets RTO = max(200 ms, R + 4 R/2) = 200 ms and restarts the
  // timer (RFC 6298 5.3); then 400, 800, 1600 ms.
  TcpTestBed bed(finite_sender(3 * kMss));
  int lost = 0;
  bed.pipe.drop_if = [&lost](const Packet& p, std::size_t) { return p.transport.seq == kMss && lost++ < 4; };
  bed.scheduler.run();
  const Time ack = 21'232_us;
  EXPECT_EQ(bed.pipe.times_of(kMss),
            (std::vector<Time>{0_s, ack + 200_ms, ack + 600_ms, ack + 1400_ms, ack + 3000_ms}));
  EXPECT_EQ(bed.sender.rtt().srtt(), ack);
  EXPECT_EQ(bed.sender.stats().timeouts, 4u);
  EXPECT_EQ(bed.sender.stats().fast_retransmits, 0u);  // one duplicate ACK only
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, 3 * kMss);
  EXPECT_TRUE(bed.sender.finished());
}

TEST(Tcp, InitialRtoIsConfigurableAndTheFloorStillClampsIt) {
  // ns-2.27's values, which 003 ran (docs/transport.md): rtxcur_init_ 6 s, minrto_ 1 s.
  auto c = finite_sender(1000);
  c.rto.initial = 6_s;
  c.rto.min = 1_s;
  TcpTestBed bed(c);
  bed.pipe.drop_indices = {0, 1};
  bed.scheduler.run();
  EXPECT_EQ(bed.pipe.times_of(0), (std::vector<Time>{0_s, 6_s, 18_s}));
  // An initial RTO below the floor is raised to it (RFC 6298 2.4 clamps every RTO).
  auto low = finite_sender(1000);
  low.rto.initial = 300_ms;
  low.rto.min = 1_s;
  TcpTestBed clamped(low);
  clamped.pipe.drop_indices = {0};
  clamped.scheduler.run();
  EXPECT_EQ(clamped.pipe.times_of(0), (std::vector<Time>{0_s, 1_s}));
}

TEST(Tcp, RtoStopsDoublingAtItsMaximum) {
  auto c = finite_sender(1000);
  c.rto.max = 4_s;
  TcpTestBed bed(c);
  bed.pipe.drop_indices = {0, 1, 2, 3, 4};
  bed.scheduler.run();
  EXPECT_EQ(bed.pipe.times_of(0), (std::vector<Time>{0_s, 1_s, 3_s, 7_s, 11_s, 15_s}));
}

TEST(Tcp, FiniteTransferDeliversExactlyItsBytesDespiteLosses) {
  const std::uint64_t total = 100'000;  // 68 full segments and one of 720 bytes
  auto c = finite_sender(total);
  auto r = testing::receiver_for(c);
  r.delayed_ack = true;
  TcpTestBed bed(c, r);
  bed.pipe.drop_indices = {5, 17, 18, 40, 68};
  bed.scheduler.run();
  EXPECT_TRUE(bed.sender.finished());
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, total);
  EXPECT_EQ(bed.receiver.rcv_nxt(), total);
  EXPECT_EQ(bed.sender.stats().bytes_acked, total);
  EXPECT_EQ(bed.sender.snd_max(), total);
  std::uint64_t last_end = 0;
  for (const auto& seg : bed.pipe.log) last_end = std::max<std::uint64_t>(last_end, seg.seq + seg.payload_bytes);
  EXPECT_EQ(last_end, total);
  EXPECT_FALSE(bed.sender.retransmission_timer_pending());
  EXPECT_EQ(bed.pool.live(), 0u);  // every packet delivered or dropped, none left
}

TEST(Tcp, StopEndsNewDataButRepairsWhatWasSent) {
  auto c = bulk_sender();
  c.start = 1_s;
  c.stop = 2_s;
  TcpTestBed bed(c);
  bed.pipe.drop_if = [](const Packet& p, std::size_t) { return p.transport.seq == 100 * kMss && !p.transport.retransmitted; };
  bed.scheduler.run_until(10_s);
  EXPECT_EQ(bed.pipe.log.front().at, 1_s);
  for (const auto& seg : bed.pipe.log) {
    if (seg.at >= 2_s) {
      EXPECT_TRUE(seg.retransmitted);
    }
  }
  EXPECT_TRUE(bed.sender.finished());
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, bed.sender.snd_max());
}

TEST(Tcp, FixedWindowKeepsExactlyWSegmentsInFlight) {
  auto c = bulk_sender(TcpVariant::fixed_window);
  c.window_packets = 3;
  c.trace_cwnd = true;
  TcpTestBed bed(c);
  bed.pipe.drop_indices = {20, 50, 51};
  bed.scheduler.run_until(3_s);
  std::uint64_t max_flight = 0;
  for (const auto& seg : bed.pipe.log) max_flight = std::max(max_flight, seg.flight_bytes);
  EXPECT_EQ(max_flight, 3 * kMss);
  // No loss reaction but the retransmissions: the window never moves.
  ASSERT_EQ(bed.sender.cwnd_trace().samples().size(), 1u);
  EXPECT_EQ(bed.sender.cwnd_trace().samples()[0].value, 3.0 * kMss);
  EXPECT_EQ(bed.sender.cwnd_bytes(), 3 * kMss);
  EXPECT_GE(bed.sender.stats().retransmissions, 3u);
  // Clean stretches send 3 segments per round trip: the window, not the link, limits.
  EXPECT_LT(bed.receiver.stats().delivered_bytes, 3 * kMss * (3'000 / 21));
}

TEST(Tcp, TracesRecordCwndAndRttWhenAsked) {
  auto c = finite_sender(50 * kMss);
  c.trace_cwnd = true;
  c.trace_rtt = true;
  TcpTestBed bed(c);
  bed.scheduler.run();
  const auto& cwnd = bed.sender.cwnd_trace().samples();
  ASSERT_GE(cwnd.size(), 2u);
  EXPECT_EQ(cwnd.front().value, 3.0 * kMss);
  EXPECT_TRUE(std::is_sorted(cwnd.begin(), cwnd.end(), [](auto& a, auto& b) { return a.at < b.at; }));
  const auto& rtt = bed.sender.rtt_trace().samples();
  ASSERT_FALSE(rtt.empty());
  EXPECT_NEAR(rtt.front().value, 0.021232, 1e-12);
  TcpTestBed quiet(finite_sender(50 * kMss));
  quiet.scheduler.run();
  EXPECT_TRUE(quiet.sender.cwnd_trace().samples().empty());
}

TEST(Tcp, WrittenDataIsSentAsTheApplicationWritesIt) {
  auto c = bulk_sender();
  c.application = TcpApplication::written;
  TcpTestBed bed(c);
  bed.scheduler.run_until(1_s);
  EXPECT_TRUE(bed.pipe.log.empty());
  bed.sender.write(1000);
  bed.sender.write(2000);
  bed.scheduler.run_until(2_s);
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, 3000u);
  EXPECT_FALSE(bed.sender.finished());  // the application may write more
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

TEST(Tcp, DelayedAcksHalveTheAcksAndKeepTheRate) {
  auto c = testing::bulk_sender();
  auto r = testing::receiver_for(c);
  r.delayed_ack = true;
  r.window = MeasurementWindow{2_s, 6_s};
  testing::TcpTestBed bed(c, r);
  bed.scheduler.run_until(6_s);
  EXPECT_GE(bed.receiver.goodput_bps(), 0.95 * 10e6);
  const double acks_per_segment = static_cast<double>(bed.receiver.stats().acks_sent) /
                                  static_cast<double>(bed.receiver.stats().segments_received);
  EXPECT_NEAR(acks_per_segment, 0.5, 0.01);
}

// The sender alone, with ACKs written by hand.
class SegmentCapture final : public PacketSink {
 public:
  void receive(PacketPtr p) override { seqs.push_back(p->transport.seq / 1460); }
  std::vector<std::uint64_t> seqs;
};

struct ScriptedSender {
  explicit ScriptedSender(TcpVariant variant) : sender(scheduler, pool, out, config(variant)) {}
  static TcpSenderConfig config(TcpVariant variant) {
    auto c = testing::finite_sender(20 * 1460, variant);
    c.initial_window_segments = 10;
    return c;
  }
  void ack(std::uint64_t segments) {
    PacketPtr p = pool.make(scheduler.now());
    p->transport.ack_valid = true;
    p->transport.ack = segments * 1460;
    p->transport.window_bytes = 64 * 1460;
    sender.receive(std::move(p));
  }
  PacketPool pool;
  Scheduler scheduler;
  SegmentCapture out;
  TcpSender sender;
};

TEST(Tcp, NoFastRetransmitFromDuplicatesBelowRecoverAfterATimeout) {
  // RFC 6582 3.2 step 1: after a timeout, go-back-N may resend segments the
  // receiver holds; their duplicate ACKs (ACK <= recover + 1) must not start a
  // recovery. Reno has no such rule.
  for (TcpVariant variant : {TcpVariant::newreno, TcpVariant::reno}) {
    ScriptedSender t(variant);
    t.scheduler.run_until(2_s);  // ten segments at 0, nothing acknowledged: timeout at 1 s
    EXPECT_EQ(t.out.seqs, (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0}));
    EXPECT_EQ(t.sender.stats().timeouts, 1u);
    t.ack(1);  // slow start from cwnd 1: segments 1 and 2 go again
    EXPECT_EQ(t.out.seqs.size(), 13u);
    t.ack(1);
    t.ack(1);
    t.ack(1);
    EXPECT_EQ(t.sender.stats().duplicate_acks, 3u);
    if (variant == TcpVariant::newreno) {
      EXPECT_EQ(t.sender.stats().fast_retransmits, 0u);
      EXPECT_FALSE(t.sender.in_recovery());
    } else {
      EXPECT_EQ(t.sender.stats().fast_retransmits, 1u);
      EXPECT_TRUE(t.sender.in_recovery());
      ASSERT_GT(t.out.seqs.size(), 13u);
      EXPECT_EQ(t.out.seqs[13], 1u);  // the fast retransmission, then go-back-N goes on
    }
  }
}

TEST(Tcp, PartialAcksRetransmitEachHoleAndFullAckEndsRecovery) {
  ScriptedSender t(TcpVariant::newreno);
  t.scheduler.run_until(1_ms);
  ASSERT_EQ(t.out.seqs.size(), 10u);
  // Segments 0, 3 and 6 lost: the receiver acknowledges 0 for the others.
  for (int i = 0; i < 3; ++i) t.ack(0);
  EXPECT_TRUE(t.sender.in_recovery());
  EXPECT_EQ(t.out.seqs.back(), 0u);  // fast retransmit
  // ssthresh = max(FlightSize/2, 2 MSS) = 5 segments; cwnd = ssthresh + 3.
  EXPECT_EQ(t.sender.ssthresh_bytes(), 5u * 1460);
  EXPECT_EQ(t.sender.cwnd_bytes(), 8u * 1460);
  for (int i = 0; i < 4; ++i) t.ack(0);  // inflation: 12 segments, 2 new ones (10, 11)
  EXPECT_EQ(t.sender.cwnd_bytes(), 12u * 1460);
  EXPECT_EQ(t.out.seqs.back(), 11u);
  t.ack(3);  // partial: retransmit 3, stay in recovery
  EXPECT_TRUE(t.sender.in_recovery());
  EXPECT_EQ(t.sender.stats().partial_ack_retransmits, 1u);
  t.ack(6);  // partial: retransmit 6
  EXPECT_EQ(t.sender.stats().partial_ack_retransmits, 2u);
  t.ack(12);  // full: covers recover (the end of segment 9)
  EXPECT_FALSE(t.sender.in_recovery());
  // Option (1) of RFC 6582 3.2 step 3: min(ssthresh, max(FlightSize, MSS) + MSS).
  EXPECT_LE(t.sender.cwnd_bytes(), 5u * 1460);
  EXPECT_EQ(t.sender.stats().fast_retransmits, 1u);
  EXPECT_EQ(t.sender.stats().timeouts, 0u);
}

TEST(Tcp, ConfigFromAScenarioFlow) {
  FlowConfig flow;
  flow.payload_bytes = 1000;
  TcpConfig tcp;
  tcp.variant = TcpVariant::reno;
  tcp.window_packets = 32;
  tcp.min_rto = 1_s;
  tcp.initial_rto = 6_s;
  tcp.delayed_ack = true;
  flow.transport_params = tcp;
  flow.start = 5_s;
  flow.stop = 50_s;
  flow.traffic.type = TrafficType::cbr;
  flow.access_category = AccessCategory::ac_vi;
  flow.ack_access_category = AccessCategory::ac_vo;
  const FlowAddress addr{2, 3, 4};
  const FlowSpec dcf = flow_spec(flow, addr, false, 60_s);
  EXPECT_EQ(dcf.stop, 50_s);
  EXPECT_EQ(flow_spec(flow, addr, false, 20_s).stop, 20_s);  // cut at the end of the run
  const TcpSenderConfig s = tcp_sender_config(flow.params_as<TcpConfig>(), dcf);
  EXPECT_EQ(s.mss, 1000u);
  EXPECT_EQ(s.variant, TcpVariant::reno);
  EXPECT_EQ(s.window_packets, 32u);
  EXPECT_EQ(s.rto.min, 1_s);
  EXPECT_EQ(s.rto.initial, 6_s);
  EXPECT_EQ(s.application, TcpApplication::written);
  EXPECT_EQ(s.start, 5_s);
  EXPECT_EQ(s.stop, 50_s);
  EXPECT_FALSE(s.user_priority.has_value());
  const FlowSpec edca = flow_spec(flow, addr, true, 60_s);
  EXPECT_EQ(tcp_sender_config(tcp, edca).user_priority, user_priority_of(AccessCategory::ac_vi));
  const TcpReceiverConfig r = tcp_receiver_config(tcp, edca, MeasurementWindow{10_s, 60_s});
  EXPECT_TRUE(r.delayed_ack);
  EXPECT_EQ(r.window.begin, 10_s);
  EXPECT_EQ(r.mss, 1000u);
  EXPECT_EQ(r.ack_user_priority, user_priority_of(AccessCategory::ac_vo));
  // ACKs follow the flow's named category unless named themselves ...
  flow.ack_access_category.reset();
  EXPECT_EQ(flow_spec(flow, addr, true, 60_s).ack_user_priority, user_priority_of(AccessCategory::ac_vi));
  // ... and a flow that names none is untagged: the MAC's classifier decides.
  flow.access_category.reset();
  const FlowSpec untagged = flow_spec(flow, addr, true, 60_s);
  EXPECT_FALSE(untagged.user_priority.has_value());
  EXPECT_FALSE(untagged.ack_user_priority.has_value());
  flow.traffic.type = TrafficType::saturated;
  EXPECT_EQ(tcp_sender_config(tcp, flow_spec(flow, addr, false, 60_s)).application, TcpApplication::bulk);
}

TEST(Tcp, WccpConfigFromAScenarioFlow) {
  WccpConfig wccp;
  wccp.beta = 4.0;
  wccp.window_packets = 20;
  wccp.min_rto = 1_s;
  wccp.initial_rto = 6_s;
  wccp.fast_retransmit = false;
  wccp.timeout_restart = WccpTimeoutRestart::srtt;
  FlowSpec flow;
  flow.payload_bytes = 1000;
  flow.traffic.type = TrafficType::cbr;
  flow.traffic.rate_bps = 400e3;
  flow.start = 2_s;
  const WccpSenderConfig c = wccp_sender_config(wccp, flow);
  EXPECT_EQ(c.mss, 1000u);
  EXPECT_EQ(c.window_packets, 20u);
  EXPECT_EQ(c.beta, 4.0);
  EXPECT_FALSE(c.fast_retransmit);
  EXPECT_EQ(c.timeout_restart, WccpTimeoutRestart::srtt);
  EXPECT_EQ(c.rto.min, 1_s);
  EXPECT_EQ(c.rto.initial, 6_s);
  EXPECT_EQ(c.application, TcpApplication::written);
  EXPECT_DOUBLE_EQ(c.desired_rate_pps, 50.0);  // 400 kbit/s of 1000-byte packets
  EXPECT_EQ(c.start, 2_s);
  flow.traffic.type = TrafficType::saturated;
  EXPECT_EQ(wccp_sender_config(wccp, flow).application, TcpApplication::bulk);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
