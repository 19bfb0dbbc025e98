// A connection that opens and closes on the wire (`"handshake": true`; RFC 9293
// 3.5-3.6, RFC 6298 5.7; transport/reliable_sender.hpp), at exact times over the
// test bed's 10 Mbit/s, 10 ms links: a 40-byte segment takes 32 us to serialize,
// so a control segment's round trip is 20.064 ms.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/transport/tcp_test_bed.hpp"
#include "transport/wccp_sender.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;
using testing::bulk_sender;
using testing::finite_sender;
using testing::SegmentRecord;
using testing::TcpTestBed;
using Connection = ReliableSender<TcpSender>::Connection;

constexpr Time kControlRtt = 20'064_us;  // 2 x (10 ms + 40 bytes at 10 Mbit/s)

TcpSenderConfig with_handshake(TcpSenderConfig c) {
  c.handshake = true;
  return c;
}

std::vector<SegmentRecord> control_segments(const std::vector<SegmentRecord>& log) {
  std::vector<SegmentRecord> out;
  for (const SegmentRecord& r : log) {
    if (r.payload_bytes == 0) out.push_back(r);
  }
  return out;
}

TEST(TcpHandshake, OpensWithSynSynAckAckBeforeTheDataAndClosesWithFinFinAckAck) {
  TcpTestBed bed(with_handshake(finite_sender(3000)));
  bed.scheduler.run();
  const std::vector<SegmentRecord> control = control_segments(bed.pipe.log);
  ASSERT_EQ(control.size(), 4u);
  // The SYN at the start, then, one control round trip later, the ACK of the
  // SYN-ACK with the first data beside it.
  EXPECT_TRUE(control[0].syn);
  EXPECT_EQ(control[0].at, 0_s);
  EXPECT_EQ(control[0].size_bytes, 40u);
  EXPECT_FALSE(control[1].syn || control[1].fin);
  EXPECT_EQ(control[1].at, kControlRtt);
  EXPECT_EQ(control[1].ack, 0u);
  ASSERT_GT(bed.pipe.log.size(), 2u);
  EXPECT_EQ(bed.pipe.log[1].at, kControlRtt);  // nothing before it
  EXPECT_EQ(bed.pipe.log[2].at, kControlRtt);  // the first data segment
  EXPECT_EQ(bed.pipe.log[2].seq, 0u);
  EXPECT_EQ(bed.sender.stats().established_at, kControlRtt);
  // The SYN was sent once: its round trip is the first RTT sample (RFC 6298 2.2).
  ASSERT_TRUE(bed.sender.rtt().has_sample());
  // The FIN when every byte is acknowledged, at data_end; the last ACK a control
  // round trip later acknowledges the receiver's FIN (ACK number 1).
  const Time completed = *bed.sender.stats().completed_at;
  EXPECT_TRUE(control[2].fin);
  EXPECT_EQ(control[2].seq, 3000u);
  EXPECT_EQ(control[2].at, completed);
  EXPECT_FALSE(control[3].syn || control[3].fin);
  EXPECT_EQ(control[3].seq, 3001u);
  EXPECT_EQ(control[3].ack, 1u);
  EXPECT_EQ(control[3].at, completed + kControlRtt);
  EXPECT_EQ(bed.sender.stats().closed_at, completed + kControlRtt);
  EXPECT_EQ(bed.sender.connection(), Connection::closed);
  EXPECT_EQ(bed.receiver.stats().control_segments_sent, 2u);  // the SYN-ACK and the FIN-ACK
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, 3000u);
  EXPECT_EQ(bed.sender.stats().syn_retransmissions, 0u);
  EXPECT_EQ(bed.sender.stats().fin_retransmissions, 0u);
}

TEST(TcpHandshake, WithoutItTheConnectionStartsEstablishedAndSendsOnlyData) {
  TcpTestBed bed(finite_sender(3000));
  bed.scheduler.run();
  EXPECT_TRUE(control_segments(bed.pipe.log).empty());
  EXPECT_EQ(bed.pipe.log.front().at, 0_s);
  EXPECT_EQ(bed.pipe.log.front().payload_bytes, 1460u);
  EXPECT_EQ(bed.sender.connection(), Connection::none);
  EXPECT_EQ(bed.receiver.stats().control_segments_sent, 0u);
  EXPECT_FALSE(bed.sender.stats().established_at);
}

TEST(TcpHandshake, ALostSynIsSentAgainAfterTheInitialRtoAndDataStartsWithAThreeSecondRto) {
  TcpTestBed bed(with_handshake(finite_sender(3000)));
  int dropped = 0;
  bed.pipe.drop_if = [&](const Packet& p, std::size_t) { return p.transport.syn && dropped++ == 0; };
  // Just after the SYN-ACK of the second SYN (sent at the initial RTO, 1 s):
  // RFC 6298 5.7's 3 s, no sample (Karn), no back-off left.
  bed.scheduler.run_until(1_s + kControlRtt);
  EXPECT_EQ(bed.sender.stats().syn_retransmissions, 1u);
  EXPECT_EQ(bed.sender.stats().established_at, 1_s + kControlRtt);
  EXPECT_FALSE(bed.sender.rtt().has_sample());
  EXPECT_EQ(bed.sender.rtt().rto(), 3_s);
  EXPECT_EQ(bed.sender.rtt().backoffs(), 0);
  bed.scheduler.run();
  const std::vector<SegmentRecord> control = control_segments(bed.pipe.log);
  ASSERT_GE(control.size(), 2u);
  EXPECT_TRUE(control[0].syn && control[0].dropped);
  EXPECT_TRUE(control[1].syn && !control[1].dropped);
  EXPECT_EQ(control[1].at, 1_s);
  EXPECT_EQ(bed.sender.connection(), Connection::closed);
}

TEST(TcpHandshake, SynTimeoutsBackOffAndAnInitialRtoOfThreeSecondsOrMoreIsKept) {
  TcpSenderConfig c = with_handshake(finite_sender(3000));
  c.rto.initial = 6_s;  // ns-2.27's rtxcur_init_
  TcpTestBed bed(c);
  int dropped = 0;
  bed.pipe.drop_if = [&](const Packet& p, std::size_t) { return p.transport.syn && dropped++ < 2; };
  bed.scheduler.run_until(18_s + kControlRtt);
  // SYNs at 0, 6 s and 6 + 12 s (RFC 6298 5.5); data starts with the 6-s RTO.
  std::vector<Time> syns;
  for (const SegmentRecord& r : bed.pipe.log) {
    if (r.syn) syns.push_back(r.at);
  }
  EXPECT_EQ(syns, (std::vector<Time>{0_s, 6_s, 18_s}));
  EXPECT_EQ(bed.sender.stats().syn_retransmissions, 2u);
  EXPECT_EQ(bed.sender.rtt().rto(), 6_s);
}

TEST(TcpHandshake, ALostFinIsSentAgainAfterTheRto) {
  TcpTestBed bed(with_handshake(finite_sender(1000)));
  int dropped = 0;
  bed.pipe.drop_if = [&](const Packet& p, std::size_t) { return p.transport.fin && dropped++ == 0; };
  bed.scheduler.run();
  std::vector<Time> fins;
  for (const SegmentRecord& r : bed.pipe.log) {
    if (r.fin) fins.push_back(r.at);
  }
  ASSERT_EQ(fins.size(), 2u);
  const Time completed = *bed.sender.stats().completed_at;
  EXPECT_EQ(fins[0], completed);
  EXPECT_EQ(fins[1], completed + bed.sender.rtt().rto() / 2);  // the RTO then, backed off since
  EXPECT_EQ(bed.sender.stats().fin_retransmissions, 1u);
  EXPECT_EQ(bed.sender.stats().closed_at, fins[1] + kControlRtt);
  EXPECT_EQ(bed.receiver.stats().control_segments_sent, 2u);  // the FIN-ACK only once: the first FIN was lost
}

TEST(TcpHandshake, StoppedBeforeTheSynAckItClosesWithoutAFin) {
  TcpSenderConfig c = with_handshake(bulk_sender());
  c.stop = 500_ms;
  TcpTestBed bed(c);
  bed.pipe.drop_if = [](const Packet& p, std::size_t) { return p.transport.syn; };
  bed.scheduler.run();
  ASSERT_EQ(bed.pipe.log.size(), 1u);  // the SYN only: its timer ends with the connection
  EXPECT_FALSE(bed.sender.retransmission_timer_pending());
  EXPECT_EQ(bed.sender.connection(), Connection::closed);
  EXPECT_FALSE(bed.sender.stats().established_at);
  EXPECT_EQ(bed.sender.stats().completed_at, 500_ms);
}

TEST(TcpHandshake, AfterALostSynTheInitialWindowIsOneSegment) {
  // RFC 5681 3.1: a lost SYN or SYN-ACK (a resent SYN tells either) makes the
  // initial window one segment; a SYN answered at once keeps RFC 5681's three.
  TcpTestBed once(with_handshake(finite_sender(10 * 1460)));
  once.scheduler.run_until(kControlRtt);
  EXPECT_EQ(once.sender.cwnd_bytes(), 3u * 1460u);
  EXPECT_EQ(once.pipe.log.size(), 2u + 3u);  // SYN, ACK, three segments
  TcpTestBed lost(with_handshake(finite_sender(10 * 1460)));
  int dropped = 0;
  lost.pipe.drop_if = [&](const Packet& p, std::size_t) { return p.transport.syn && dropped++ == 0; };
  lost.scheduler.run_until(1_s + kControlRtt);
  EXPECT_EQ(lost.sender.cwnd_bytes(), 1460u);
  EXPECT_EQ(lost.pipe.log.size(), 3u + 1u);  // SYN twice, ACK, one segment
}

TEST(TcpHandshake, ASecondSynAckIsAcknowledgedAgain) {
  // The first SYN is held 1.01 s on the way: the sender resends it at 1 s (the pipe
  // keeps them in order: the receiver gets one at 1 s and one at 1.01 s), the
  // receiver answers both, and the second SYN-ACK, arriving once established, gets
  // an ACK of its own (RFC 9293 3.10.7.4).
  TcpTestBed bed(with_handshake(finite_sender(1000)));
  bed.pipe.extra_delay = [](Time now) { return now == 0_s ? 1010_ms : 0_s; };
  bed.scheduler.run();
  EXPECT_EQ(bed.sender.stats().syn_retransmissions, 1u);
  EXPECT_EQ(bed.receiver.stats().control_segments_sent, 3u);  // two SYN-ACKs, one FIN-ACK
  int acks_of_syn_ack = 0;
  for (const SegmentRecord& r : bed.pipe.log) acks_of_syn_ack += !r.syn && !r.fin && r.payload_bytes == 0 && r.ack == 0;
  EXPECT_EQ(acks_of_syn_ack, 2);
  EXPECT_EQ(bed.receiver.stats().delivered_bytes, 1000u);
  EXPECT_EQ(bed.sender.connection(), Connection::closed);
}

TEST(TcpHandshake, TheSenderIsNotOpenBeforeTheSynAck) {
  TcpTestBed bed(with_handshake(bulk_sender()));
  bed.scheduler.run_until(kControlRtt - 1_ps);
  EXPECT_FALSE(bed.sender.is_open());
  EXPECT_EQ(bed.sender.connection(), Connection::syn_sent);
  bed.scheduler.run_until(kControlRtt);
  EXPECT_TRUE(bed.sender.is_open());
}

// A WCCP sender opens the same way: the SYN (no congestion header: it carries no
// data), then at the SYN-ACK the ACK and the first data packet with its header.
class CaptureSink final : public PacketSink {
 public:
  void receive(PacketPtr p) override { sent.push_back(*p); }
  std::vector<Packet> sent;
};

TEST(TcpHandshake, AWccpSenderOpensWithTheHandshakeToo) {
  PacketPool pool;
  Scheduler scheduler;
  CaptureSink network;
  WccpSenderConfig c;
  c.address = FlowAddress{0, 1, 2};
  c.mss = 1000;
  c.handshake = true;
  WccpSender sender(scheduler, pool, network, c);
  scheduler.run_until(500_ms);
  ASSERT_EQ(network.sent.size(), 1u);
  EXPECT_TRUE(network.sent[0].transport.syn);
  EXPECT_FALSE(network.sent[0].transport.has_congestion);
  EXPECT_EQ(network.sent[0].size_bytes, 40u);
  scheduler.schedule_at(600_ms, [&] {
    PacketPtr p = pool.make(scheduler.now());
    p->transport.syn = true;
    p->transport.ack_valid = true;
    p->transport.window_bytes = 64 * 1000;
    sender.receive(std::move(p));
  });
  scheduler.run_until(600_ms);
  ASSERT_GE(network.sent.size(), 3u);
  EXPECT_EQ(network.sent[1].transport.payload_bytes, 0u);  // the ACK of the SYN-ACK
  EXPECT_FALSE(network.sent[1].transport.syn);
  EXPECT_EQ(network.sent[2].transport.payload_bytes, 1000u);
  EXPECT_TRUE(network.sent[2].transport.has_congestion);
  EXPECT_EQ(sender.stats().established_at, 600_ms);
}

TEST(TcpHandshake, DataWrittenBeforeTheSynAckWaitsForIt) {
  TcpSenderConfig c = with_handshake(bulk_sender());
  c.application = TcpApplication::written;
  TcpTestBed bed(c);
  bed.scheduler.run_until(1_us);
  bed.sender.write(2000);
  bed.scheduler.run_until(kControlRtt - 1_ps);
  ASSERT_EQ(bed.pipe.log.size(), 1u);  // the SYN
  bed.scheduler.run_until(kControlRtt);
  ASSERT_EQ(bed.pipe.log.size(), 4u);  // the ACK of the SYN-ACK, then both segments
  EXPECT_EQ(bed.pipe.log[2].seq, 0u);
  EXPECT_EQ(bed.pipe.log[3].seq, 1460u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
