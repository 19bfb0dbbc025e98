// The WCCP sender alone (003 Sec. III-E, transport/wccp_sender.hpp): the test plays
// the network, records every data packet the sender hands over, and answers with
// ACKs carrying chosen feedback at chosen times. A timeline of permits, the
// start-up rule, Eq. 14 and 15, and 003's timeout rules.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/header_sizes.hpp"
#include "transport/tcp_receiver.hpp"
#include "transport/wccp_sender.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

constexpr std::uint32_t kMss = 1000;

struct Sent {
  Time at;
  std::uint64_t seq;
  bool retransmitted;
  CongestionHeader header;
};

class Network final : public PacketSink {
 public:
  explicit Network(const Scheduler& s) : scheduler_(s) {}
  void receive(PacketPtr p) override {
    EXPECT_TRUE(p->transport.has_congestion);
    EXPECT_EQ(p->size_bytes, kTcpIpHeaderBytes + kCongestionHeaderBytes + p->transport.payload_bytes);
    sent.push_back({scheduler_.now(), p->transport.seq, p->transport.retransmitted, p->transport.congestion()});
  }
  std::vector<Sent> sent;
  std::vector<Time> times() const {
    std::vector<Time> out;
    for (const Sent& s : sent) out.push_back(s.at);
    return out;
  }

 private:
  const Scheduler& scheduler_;
};

struct Bed {
  explicit Bed(WccpSenderConfig c = config()) : network(scheduler), sender(scheduler, pool, network, c) {}
  static WccpSenderConfig config() {
    WccpSenderConfig c;
    c.address = FlowAddress{0, 1, 2};
    c.mss = kMss;
    c.trace_rate = true;
    return c;
  }
  // At `at`, an ACK of everything up to segment `upto` (exclusive), echoing the
  // header of sent packet `echo` with its fb replaced by `fb`.
  void ack_at(Time at, std::uint64_t upto, std::size_t echo, double fb) {
    scheduler.schedule_at(at, [this, upto, echo, fb] {
      ASSERT_LT(echo, network.sent.size());
      PacketPtr p = pool.make(scheduler.now());
      p->transport.ack_valid = true;
      p->transport.ack = upto * kMss;
      p->transport.window_bytes = 64 * kMss;
      CongestionHeader h = network.sent[echo].header;
      h.feedback_pps = fb;
      p->transport.set_congestion(h);
      sender.receive(std::move(p));
    });
  }
  PacketPool pool;
  Scheduler scheduler;
  Network network;
  WccpSender sender;
};

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(WccpSender, StartsWithOnePacketAndTakesItsRateFromTheFirstRtt) {
  Bed bed;
  bed.scheduler.run_until(999_ms);
  // Sec. III-E: the first packet goes at once with r_p = 0, T_c = 0; nothing else
  // until an ACK (or the 1-s initial RTO) gives the bucket a rate.
  ASSERT_EQ(bed.network.sent.size(), 1u);
  EXPECT_EQ(bed.network.sent[0].at, 0_s);
  EXPECT_EQ(bed.network.sent[0].header.rate_pps, 0.0);
  EXPECT_EQ(bed.network.sent[0].header.control_interval, 0_s);
  EXPECT_EQ(bed.network.sent[0].header.feedback_pps, kInf);  // a bulk sender wants all it can get
}

TEST(WccpSender, PermitTimelineFollowsTheRateAndItsFeedback) {
  Bed bed;
  // The first ACK after 100 ms: srtt = 100 ms, so r_p = 10/s; its fb is not used.
  bed.ack_at(100_ms, 1, 0, -1000.0);
  // The ACK of packet 1 at 250 ms carries fb = +10: r_p = 20/s (Eq. 14).
  bed.ack_at(250_ms, 2, 1, 10.0);
  bed.scheduler.run_until(400_ms);
  EXPECT_DOUBLE_EQ(bed.sender.rate_pps(), 20.0);
  // 0: the first packet; 100 ms: the second at once; 200 ms: one permit at 10/s.
  // At 250 ms the bucket holds half a permit; at 20/s the rest takes 25 ms: 275 ms,
  // then every 50 ms.
  EXPECT_EQ(bed.network.times(), (std::vector<Time>{0_ms, 100_ms, 200_ms, 275_ms, 325_ms, 375_ms}));
  // Eq. 15: T_c = max(srtt, beta / r_p): max(0.1, 5/10) = 0.5 s at 10/s; at 20/s,
  // with srtt = 7/8 x 100 + 1/8 x 150 ms = 106.25 ms after the second sample,
  // max(0.10625, 0.25) = 0.25 s.
  EXPECT_EQ(bed.network.sent[1].header.rate_pps, 10.0);
  EXPECT_EQ(bed.network.sent[1].header.control_interval, 500_ms);
  EXPECT_EQ(bed.network.sent[3].header.rate_pps, 20.0);
  EXPECT_EQ(bed.network.sent[3].header.control_interval, 250_ms);
  for (std::size_t i = 1; i < bed.network.sent.size(); ++i) {
    EXPECT_EQ(bed.network.sent[i].seq, i * kMss);
    EXPECT_FALSE(bed.network.sent[i].retransmitted);
  }
  // The rate trace holds each change.
  ASSERT_EQ(bed.sender.rate_trace().samples().size(), 2u);
  EXPECT_EQ(bed.sender.rate_trace().samples()[1].at, 250_ms);
}

TEST(WccpSender, AnAppLimitedSenderAsksForItsDesiredRateOverOneControlInterval) {
  WccpSenderConfig c = Bed::config();
  c.application = TcpApplication::written;
  c.desired_rate_pps = 30.0;
  Bed bed(c);
  bed.sender.write(100 * kMss);
  bed.ack_at(100_ms, 1, 0, 0.0);
  bed.scheduler.run_until(150_ms);
  ASSERT_EQ(bed.network.sent.size(), 2u);
  // r_p = 10, T_c = 0.5 s: fb = (30 - 10) / (10 x 0.5) = 4 per packet, so the five
  // packets of one T_c bring the rate to 30/s if the path allows it.
  EXPECT_DOUBLE_EQ(bed.network.sent[1].header.feedback_pps, 4.0);
}

TEST(WccpSender, FirstTimeoutResetsTheRateAndDoublesTheTimerButBackToBackOnesDoNot) {
  Bed bed;
  bed.ack_at(100_ms, 1, 0, 0.0);  // srtt 100 ms, RTTVAR 50 ms: RTO = 300 ms
  bed.ack_at(250_ms, 2, 1, 10.0);
  // No more ACKs: the timer restarted at 250 ms fires at 250 + RTO.
  bed.scheduler.run_until(2_s);
  const Time rto = bed.sender.rtt().rto();
  std::vector<Sent> retransmissions;
  for (const Sent& s : bed.network.sent) {
    if (s.retransmitted) retransmissions.push_back(s);
  }
  ASSERT_GE(retransmissions.size(), 2u);
  EXPECT_EQ(bed.sender.stats().timeouts, retransmissions.size());
  // The first timeout resends the oldest unacknowledged segment at once, doubles the
  // RTO (RFC 6298: 2 x 318.75 ms after the second sample) and sets r_p = 1/RTO.
  EXPECT_EQ(retransmissions[0].seq, 2 * kMss);
  const Time first = retransmissions[0].at;
  EXPECT_NEAR(retransmissions[0].header.rate_pps, 1.0 / rto.to_seconds(), 1e-9);
  // Back-to-back timeouts: the same segment, one (doubled, not redoubled) RTO apart,
  // r_p unchanged.
  for (std::size_t i = 1; i < retransmissions.size(); ++i) {
    EXPECT_EQ(retransmissions[i].seq, 2 * kMss);
    EXPECT_EQ(retransmissions[i].at - retransmissions[i - 1].at, rto);
    EXPECT_EQ(retransmissions[i].header.rate_pps, retransmissions[0].header.rate_pps);
  }
  EXPECT_EQ(first, 250_ms + rto / 2);
  EXPECT_EQ(bed.sender.rtt().backoffs(), 1);
}

// timeout_restart (ours, off by default): the same script of ACKs under 003's rule
// and under "srtt". One ACK at 100 ms: srtt 100 ms, RTTVAR 50 ms, RTO 300 ms, so the
// first timeout comes at 400 ms and doubles the RTO to 600 ms.
TEST(WccpSender, TimeoutRestartChoosesTheRateAfterTheFirstTimeout) {
  const auto run = [](WccpTimeoutRestart restart) {
    WccpSenderConfig c = Bed::config();
    c.timeout_restart = restart;
    auto bed = std::make_unique<Bed>(c);
    bed->ack_at(100_ms, 1, 0, 0.0);
    bed->scheduler.run_until(1500_ms);
    return bed;
  };
  // 003 Sec. III-E (the default): r_p = 1/RTO = 1/0.6 s; T_c = beta / r_p = 3 s; the
  // next packet is the back-to-back timeout's resend at 1000 ms, r_p unchanged.
  const auto rto = run(WccpTimeoutRestart::rto);
  EXPECT_EQ(rto->sender.rtt().rto(), 600_ms);
  EXPECT_NEAR(rto->sender.rate_pps(), 1.0 / 0.6, 1e-12);
  EXPECT_EQ(rto->network.times(), (std::vector<Time>{0_ms, 100_ms, 200_ms, 300_ms, 400_ms, 1000_ms}));
  EXPECT_TRUE(rto->network.sent[4].retransmitted);
  EXPECT_NEAR(rto->network.sent[4].header.rate_pps, 1.0 / 0.6, 1e-12);
  EXPECT_EQ(rto->network.sent[4].header.control_interval, 3_s);
  EXPECT_EQ(rto->sender.stats().timeouts, 2u);
  // "srtt": the same timeout at 400 ms, the same doubled RTO, but r_p = 1/srtt =
  // 10/s and T_c = max(srtt, 5/10) = 0.5 s: the resend at once, then a permit every
  // 100 ms; the timer, restarted by nothing, fires again at 1000 ms without
  // touching r_p.
  const auto srtt = run(WccpTimeoutRestart::srtt);
  EXPECT_EQ(srtt->sender.rtt().rto(), 600_ms);
  EXPECT_DOUBLE_EQ(srtt->sender.rate_pps(), 10.0);
  EXPECT_TRUE(srtt->network.sent[4].retransmitted);
  EXPECT_EQ(srtt->network.sent[4].at, 400_ms);
  EXPECT_DOUBLE_EQ(srtt->network.sent[4].header.rate_pps, 10.0);
  EXPECT_EQ(srtt->network.sent[4].header.control_interval, 500_ms);
  // A permit every 100 ms from the resend on: new segments 4, 5, ... (the window is
  // open), the back-to-back timeout at 1000 ms resending segment 1 in its slot.
  std::vector<Time> expected{0_ms, 100_ms, 200_ms, 300_ms};
  for (Time t = 400_ms; t <= 1500_ms; t += 100_ms) expected.push_back(t);
  EXPECT_EQ(srtt->network.times(), expected);
  EXPECT_EQ(srtt->network.sent[5].seq, 4 * kMss);
  EXPECT_FALSE(srtt->network.sent[5].retransmitted);
  EXPECT_TRUE(srtt->network.sent[10].retransmitted);
  EXPECT_EQ(srtt->network.sent[10].seq, 1 * kMss);
  EXPECT_DOUBLE_EQ(srtt->network.sent[10].header.rate_pps, 10.0);
  EXPECT_EQ(srtt->sender.stats().timeouts, 2u);
}

// "srtt" after feedback moved r_p away from 1/srtt. ACKs at 100 ms (srtt 100 ms,
// r_p 10/s) and at 150 ms, of packet 1 sent at 100 ms (a 50-ms sample: srtt
// 7/8 x 100 + 1/8 x 50 = 93.75 ms, RTTVAR 3/4 x 50 + 1/4 x 50 = 50 ms, RTO
// 293.75 ms, doubled 587.5 ms by the first timeout); that ACK leaves nothing
// outstanding, so the timer starts again with packet 2, which goes when the half
// permit left at 150 ms has accrued at the new rate.
//  - fb +10: r_p 20/s, above 1/srtt = 10.67/s; packet 2 at 175 ms, the timeout at
//    468.75 ms lowers r_p to 1/srtt (003's rule: 1/0.5875 s);
//  - fb -8: r_p held at the floor 1/RTO = 3.40/s, below 1/srtt; packet 2 at
//    150 + 0.5/3.40 s = 296.875 ms, the timeout at 590.625 ms leaves r_p there (a
//    restart never raises r_p), as does the back-to-back one 587.5 ms later.
TEST(WccpSender, TimeoutRestartSrttIsTheSmallerOfTheRateAndOneOverSrtt) {
  const auto run = [](WccpTimeoutRestart restart, double fb, Time until) {
    WccpSenderConfig c = Bed::config();
    c.timeout_restart = restart;
    auto bed = std::make_unique<Bed>(c);
    bed->ack_at(100_ms, 1, 0, 0.0);
    bed->ack_at(150_ms, 2, 1, fb);
    bed->scheduler.run_until(until);
    return bed;
  };
  const double one_over_srtt = 1.0 / 0.09375;
  const double floor_before = 1.0 / 0.29375;
  {
    SCOPED_TRACE("r_p above 1/srtt");
    const auto srtt = run(WccpTimeoutRestart::srtt, 10.0, 468750_us - 1_ps);
    EXPECT_DOUBLE_EQ(srtt->sender.rate_pps(), 20.0);
    EXPECT_EQ(srtt->network.sent.at(2).at, 175_ms);
    EXPECT_EQ(srtt->sender.stats().timeouts, 0u);
    srtt->scheduler.run_until(468750_us + 1_ps);
    EXPECT_EQ(srtt->sender.stats().timeouts, 1u);
    EXPECT_EQ(srtt->sender.rtt().rto(), 587500_us);
    EXPECT_DOUBLE_EQ(srtt->sender.rate_pps(), one_over_srtt);
    const auto rto = run(WccpTimeoutRestart::rto, 10.0, 468750_us + 1_ps);
    EXPECT_EQ(rto->sender.stats().timeouts, 1u);
    EXPECT_DOUBLE_EQ(rto->sender.rate_pps(), 1.0 / 0.5875);
  }
  {
    SCOPED_TRACE("r_p below 1/srtt");
    const auto srtt = run(WccpTimeoutRestart::srtt, -8.0, 590625_us - 1_ps);
    EXPECT_DOUBLE_EQ(srtt->sender.rate_pps(), floor_before);
    EXPECT_EQ(srtt->network.sent.at(2).at, 296875_us);
    EXPECT_EQ(srtt->sender.stats().timeouts, 0u);
    srtt->scheduler.run_until(590625_us + 1_ps);
    EXPECT_EQ(srtt->sender.stats().timeouts, 1u);
    EXPECT_EQ(srtt->sender.rtt().rto(), 587500_us);
    EXPECT_DOUBLE_EQ(srtt->sender.rate_pps(), floor_before);
    srtt->scheduler.run_until(1500_ms);
    EXPECT_EQ(srtt->sender.stats().timeouts, 2u);
    EXPECT_DOUBLE_EQ(srtt->sender.rate_pps(), floor_before);
  }
}

TEST(WccpSender, FeedbackOfPacketsSentBeforeATimeoutIsIgnored) {
  Bed bed;
  bed.ack_at(100_ms, 1, 0, 0.0);   // RTO 300 ms from 100 ms: a timeout at 400 ms
  bed.scheduler.run_until(900_ms);  // the next would come at 400 + 600 ms
  ASSERT_EQ(bed.sender.stats().timeouts, 1u);
  const double after_timeout = bed.sender.rate_pps();
  EXPECT_NEAR(after_timeout, 1.0 / 0.6, 1e-9);
  // An ACK for packet 1 (sent at 100 ms, before the timeout) with a large fb ...
  bed.ack_at(900_ms, 2, 1, 100.0);
  bed.scheduler.run_until(901_ms);
  EXPECT_EQ(bed.sender.stats().feedback_ignored, 1u);
  EXPECT_EQ(bed.sender.rate_pps(), after_timeout);
  // ... and one for the retransmission, sent at the timeout, counts.
  std::size_t retransmission = 0;
  for (std::size_t i = 0; i < bed.network.sent.size(); ++i) {
    if (bed.network.sent[i].retransmitted) retransmission = i;
  }
  ASSERT_GT(retransmission, 0u);
  EXPECT_EQ(bed.network.sent[retransmission].at, 400_ms);
  bed.ack_at(950_ms, 3, retransmission, 2.0);
  bed.scheduler.run_until(951_ms);
  EXPECT_EQ(bed.sender.stats().feedback_applied, 1u);
  EXPECT_DOUBLE_EQ(bed.sender.rate_pps(), after_timeout + 2.0);
}

TEST(WccpSender, ThirdDuplicateAckResendsAtTheNextPermitBeforeNewData) {
  WccpSenderConfig c = Bed::config();
  c.rto.min = 1_s;  // no timeout in the way
  Bed bed(c);
  bed.ack_at(100_ms, 1, 0, 0.0);  // r_p = 10/s: packets at 100, 200, 300, ... ms
  // Segment 1 is lost: segments 2, 3, 4 arrive and each gives a duplicate ACK of 1.
  bed.ack_at(310_ms, 1, 2, 0.0);
  bed.ack_at(320_ms, 1, 3, 0.0);
  bed.ack_at(330_ms, 1, 3, 0.0);
  bed.scheduler.run_until(450_ms);
  EXPECT_EQ(bed.sender.stats().fast_retransmits, 1u);
  // The permit after 330 ms (at 400 ms) carries the retransmission, not segment 4.
  ASSERT_GE(bed.network.sent.size(), 5u);
  const Sent& at400 = bed.network.sent[4];
  EXPECT_EQ(at400.at, 400_ms);
  EXPECT_EQ(at400.seq, 1 * kMss);
  EXPECT_TRUE(at400.retransmitted);
  // The rate is left alone: WCCP's rate answers to feedback, not to losses.
  EXPECT_DOUBLE_EQ(bed.sender.rate_pps(), 10.0);
}

TEST(WccpSender, RateNeverFallsBelowOnePacketPerRto) {
  Bed bed;
  bed.ack_at(100_ms, 1, 0, 0.0);
  bed.ack_at(150_ms, 1, 1, -1e6);  // a duplicate ACK whose feedback would stop the flow
  bed.scheduler.run_until(151_ms);
  EXPECT_DOUBLE_EQ(bed.sender.rate_pps(), 1.0 / bed.sender.rtt().rto().to_seconds());
  EXPECT_EQ(bed.sender.stats().rate_floor_hits, 1u);
}

TEST(WccpSender, AnAckWithoutAnyNodesFeedbackLeavesTheRate) {
  Bed bed;
  bed.ack_at(100_ms, 1, 0, 0.0);
  bed.ack_at(200_ms, 2, 1, kInf);  // no node on the path lowered fb
  bed.scheduler.run_until(201_ms);
  EXPECT_DOUBLE_EQ(bed.sender.rate_pps(), 10.0);
}

TEST(WccpSender, FiniteTransferCompletes) {
  WccpSenderConfig c = Bed::config();
  c.application = TcpApplication::finite;
  c.finite_bytes = 3 * kMss;
  Bed bed(c);
  bed.ack_at(100_ms, 1, 0, 0.0);
  bed.ack_at(200_ms, 2, 1, 0.0);
  bed.ack_at(300_ms, 3, 2, 0.0);
  bed.scheduler.run();
  EXPECT_TRUE(bed.sender.finished());
  EXPECT_EQ(*bed.sender.stats().completed_at, 300_ms);
  EXPECT_EQ(bed.network.sent.size(), 3u);
}

// 003 Sec. III-E: "a WCCP receiver is similar to a TCP receiver except that when
// acknowledging a packet, it copies the congestion header from the data packet".
TEST(WccpReceiver, AckCarriesTheCongestionHeaderOfTheSegmentItAcknowledges) {
  PacketPool pool;
  Scheduler scheduler;
  struct Acks final : PacketSink {
    void receive(PacketPtr p) override { acks.push_back(std::move(p)); }
    std::vector<PacketPtr> acks;
  } acks;
  TcpReceiverConfig c;
  c.address = FlowAddress{0, 1, 2};
  c.mss = kMss;
  TcpReceiver receiver(scheduler, pool, acks, c);
  const auto segment = [&](std::uint64_t n, double fb) {
    PacketPtr p = pool.make(scheduler.now());
    p->transport.seq = n * kMss;
    p->transport.payload_bytes = kMss;
    CongestionHeader h;
    h.rate_pps = 12.5;
    h.control_interval = 400_ms;
    h.feedback_pps = fb;
    h.sent_at = Time::ms(static_cast<std::int64_t>(n));
    p->transport.set_congestion(h);
    receiver.receive(std::move(p));
  };
  segment(0, -0.25);
  segment(1, 3.0);
  ASSERT_EQ(acks.acks.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const Packet& a = *acks.acks[i];
    ASSERT_TRUE(a.transport.has_congestion);
    EXPECT_EQ(a.size_bytes, kTcpIpHeaderBytes + kCongestionHeaderBytes);
    EXPECT_EQ(a.transport.congestion().rate_pps, 12.5);
    EXPECT_EQ(a.transport.congestion().control_interval, 400_ms);
    EXPECT_EQ(a.transport.congestion().sent_at, Time::ms(static_cast<std::int64_t>(i)));
  }
  EXPECT_EQ(acks.acks[0]->transport.congestion().feedback_pps, -0.25);
  EXPECT_EQ(acks.acks[1]->transport.congestion().feedback_pps, 3.0);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
