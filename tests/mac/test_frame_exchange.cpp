// FrameExchange alone, against a stub medium: the stub radio records what the
// station transmits and when, ends each transmission after its airtime, and the
// test delivers the peer's frames (CTS, ACK, DATA, RTS) at scripted microseconds.
// Channel access is the real one (the exchange's SIFS gaps and waits are part of
// its medium state); the stub MAC grants the access as Mac does. 802.11b: slot
// 20 us, SIFS 10 us, DIFS 50 us, control frames at 1 Mbit/s (ACK and CTS 304 us,
// RTS 352 us), DATA at 11 Mbit/s, ACKTimeout = SIFS + slot + 192 us = 222 us.

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/block_pool.hpp"
#include "core/simulation.hpp"
#include "link/drop_tail_queue.hpp"
#include "mac/frame_exchange.hpp"
#include "phy/airtime.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

constexpr std::uint32_t kMe = 0, kPeer = 1, kOther = 2;
constexpr std::uint32_t kBytes = 1000;
constexpr std::uint64_t kBackoffKey = 11;

struct Sent {
  Time at;
  FrameKind kind;
  std::uint32_t receiver;
  Time duration_field;
  bool retry;
  Time airtime;
};

class Station : public ChannelAccess::Owner, public RadioPort, public DropSink, public MacUser {
 public:
  explicit Station(FrameExchangeConfig config = dcf_config(), EdcaParams params = EdcaParams{2, 32, 1024, {}})
      : draws(kBackoffKey), replay(kBackoffKey) {
    functions.emplace_back(AccessCategory::ac_be, params, std::make_unique<link::DropTailQueue>(link::QueueLimit{}, *this));
    access = std::make_unique<ChannelAccess>(sim.scheduler(), kNoContext, kMe, timing, config.deferral,
                                             ImmediateAccess::standard, std::span<AccessFunction>(functions), meter,
                                             *this, draws.uniform_part(), false, false);
    exchange = std::make_unique<FrameExchange>(
        FrameExchangeParts{context, kNoContext, kMe, *this, *access, meter, std::span<AccessFunction>(functions), *this},
        config);
    exchange->set_user(this);
  }
  ~Station() override {
    exchange.reset();
    access.reset();
  }

  static FrameExchangeConfig dcf_config() {
    return FrameExchangeConfig{};
  }

  // ---- ChannelAccess::Owner: the grant, as Mac does it ----
  bool exchange_active() const override { return exchange->active(); }
  bool delivering_reception() const override { return exchange->delivering(); }
  void on_access_time(Time now) override {
    AccessFunction& f = functions[0];
    if (f.contending() && f.access_at == now) {
      f.end_contention();
      if (f.has_frame_ready(now)) exchange->start_txop(0);
    }
    access->reschedule_timer();
  }

  // ---- RadioPort: the stub medium ----
  bool transmitting() const override { return tx_; }
  void transmit(const phy::PhyFrame& frame) override {
    if (tx_) throw std::logic_error("stub radio: overlapping transmissions");
    tx_ = true;
    const auto& f = static_cast<const Frame&>(*frame.payload);
    sent.push_back({sim.now(), f.kind, f.receiver.radio(), f.duration, f.retry, frame.duration});
    access->set_transmitting(true);  // Mac::on_tx_start
    access->refresh();
    sim.scheduler().schedule_in(frame.duration, [this] {
      tx_ = false;
      access->set_transmitting(false);  // Mac::on_tx_end
      exchange->on_tx_end();
    });
  }
  bool receiving() const override { return rx_start_.has_value(); }
  Time reception_start() const override { return *rx_start_; }

  // ---- DropSink, MacUser ----
  void on_drop(PacketPtr, DropCause cause, Time now) override { drops.push_back({now, cause}); }
  void on_mac_receive(PacketPtr packet, std::uint32_t from) override {
    delivered.push_back({sim.now(), from});
    (void)packet;
  }

  // ---- the test's script ----
  void at(Time t, std::function<void()> action) { sim.scheduler().schedule_at(t, std::move(action)); }
  // A packet for `to` in the queue, and the function asks for access (as Mac::enqueue).
  void enqueue_at(Time t, std::uint32_t to = kPeer, int count = 1) {
    at(t, [this, to, count] {
      AccessFunction& f = functions[0];
      const bool idle = !f.contending() && !f.has_frame() && !exchange->in_exchange(f);
      for (int i = 0; i < count; ++i) {
        PacketPtr p = pool.make(sim.now());
        p->size_bytes = kBytes;
        p->next_hop_radio = to;
        p->queued_at = sim.now();
        f.queue->enqueue(std::move(p), sim.now());
      }
      if (idle) access->request_access(f, sim.now());
    });
  }
  // A frame from the peer reaches the station over [start, start + airtime).
  Time receive(Time start, FrameKind kind, std::uint32_t from, std::uint32_t to, Time duration_field = Time::zero(),
               const phy::Mcs& rate = phy::kDsssMcs[0]) {
    auto frame = std::make_shared<Frame>();
    frame->kind = kind;
    frame->transmitter = MacAddress(from);
    frame->receiver = MacAddress(to);
    frame->duration = duration_field;
    if (is_data(kind)) {
      frame->packet = pool.make(start);
      frame->packet->size_bytes = kBytes;
    }
    const std::uint32_t bytes = frame->size_bytes();
    const phy::PhyFrame pf{bytes, &rate, phy::airtime(profile, rate, bytes), frame};
    at(start, [this, start] {
      rx_start_ = start;
      access->set_phy_busy(true);
    });
    at(start + pf.duration, [this, pf, start] {
      rx_start_.reset();
      exchange->on_rx_end(pf, phy::RxOutcome::success,
                          phy::RxInfo{phy::PowerMw(1e-6), std::numeric_limits<double>::infinity(), start});
      access->set_phy_busy(false);
    });
    return start + pf.duration;
  }
  Time data_airtime() const { return phy::airtime(profile, phy::kDsssMcs[3], mpdu_bytes(FrameKind::data, kBytes)); }
  int next_draw() { return static_cast<int>(replay.uniform_int(static_cast<std::uint64_t>(functions[0].cw))); }

  Simulation sim{1};
  const phy::PhyProfile profile = phy::profile_80211b();
  const MacTiming timing = mac_timing(profile, phy::kDsssMcs[0]);
  PacketPool pool;
  BlockPool frame_pool;
  const MacContext context{sim.scheduler(), profile, timing, pool, frame_pool,
                           [](std::uint32_t, std::uint32_t) { return &phy::kDsssMcs[3]; }};
  MacStats stats() const { return exchange->stats(); }
  BusyTimeMeter meter{false};
  RandomStream draws, replay;
  std::vector<AccessFunction> functions;
  std::unique_ptr<ChannelAccess> access;
  std::unique_ptr<FrameExchange> exchange;
  std::vector<Sent> sent;
  std::vector<std::pair<Time, DropCause>> drops;
  std::vector<std::pair<Time, std::uint32_t>> delivered;

 private:
  bool tx_ = false;
  std::optional<Time> rx_start_;
};

TEST(FrameExchange, TimingIsThe80211bOne) {
  Station s;
  EXPECT_EQ(s.timing.ack_airtime, 304_us);
  EXPECT_EQ(s.timing.cts_airtime, 304_us);
  EXPECT_EQ(s.timing.rts_airtime, 352_us);
  EXPECT_EQ(s.timing.ack_timeout, 222_us);
}

TEST(FrameExchange, DataThenAckAfterSifs) {
  Station s;
  s.enqueue_at(0_us);
  const Time data_end = 50_us + s.data_airtime();
  const Time ack_end = s.receive(data_end + 10_us, FrameKind::ack, kPeer, kMe);
  s.sim.run_until(ack_end + 1_us);
  ASSERT_EQ(s.sent.size(), 1u);
  EXPECT_EQ(s.sent[0].at, 50_us);  // DIFS on an idle medium (9.3.4.2)
  EXPECT_EQ(s.sent[0].kind, FrameKind::data);
  EXPECT_EQ(s.sent[0].duration_field, 314_us);  // SIFS + ACK (8.2.5)
  EXPECT_FALSE(s.sent[0].retry);
  EXPECT_EQ(s.stats().tx_success, 1u);
  EXPECT_EQ(s.exchange->service_delays().count(), 1u);
  ASSERT_TRUE(s.exchange->service_delays().mean_s().has_value());
  EXPECT_DOUBLE_EQ(*s.exchange->service_delays().mean_s(), ack_end.to_seconds());  // queued at 0
  EXPECT_FALSE(s.exchange->active());
  // Post-backoff (9.3.4.3): drawn at the ACK's end, with CW back at CWmin.
  EXPECT_EQ(s.functions[0].phase(), AccessPhase::backoff);
  EXPECT_EQ(s.functions[0].backoff_slots, s.next_draw());
  EXPECT_EQ(s.functions[0].cw, 32);
}

TEST(FrameExchange, RtsCtsDataAckEachSifsApart) {
  FrameExchangeConfig c = Station::dcf_config();
  c.rts_threshold = 0;
  Station s(c);
  s.enqueue_at(0_us);
  const Time rts_end = 50_us + 352_us;
  const Time cts_end = s.receive(rts_end + 10_us, FrameKind::cts, kPeer, kMe);
  const Time data_at = cts_end + 10_us;
  const Time data_end = data_at + s.data_airtime();
  const Time ack_end = s.receive(data_end + 10_us, FrameKind::ack, kPeer, kMe);
  s.sim.run_until(ack_end + 1_us);
  ASSERT_EQ(s.sent.size(), 2u);
  EXPECT_EQ(s.sent[0].at, 50_us);
  EXPECT_EQ(s.sent[0].kind, FrameKind::rts);
  // RTS: CTS + DATA + ACK + 3 SIFS, rounded up to whole microseconds (8.3.1.2).
  EXPECT_EQ(s.sent[0].duration_field, rts_duration(s.data_airtime(), 304_us, 304_us, 10_us));
  EXPECT_EQ(s.sent[1].at, data_at);
  EXPECT_EQ(s.sent[1].kind, FrameKind::data);
  EXPECT_EQ(s.stats().rts_attempts, 1u);
  EXPECT_EQ(s.stats().tx_success, 1u);
}

TEST(FrameExchange, AckTimeoutDoublesCwAndRetriesWithTheRetryBit) {
  Station s;
  s.enqueue_at(0_us);
  const Time data_end = 50_us + s.data_airtime();
  const Time failed_at = data_end + 222_us;  // ACKTimeout, no reception under way
  s.at(failed_at, [&s] { EXPECT_EQ(s.stats().failed_attempts, 0u); });
  s.at(failed_at + 1_ps, [&s] {
    EXPECT_EQ(s.stats().failed_attempts, 1u);
    EXPECT_EQ(s.functions[0].cw, 64);
    EXPECT_EQ(s.functions[0].short_retries, 1);
  });
  const int n = static_cast<int>(s.replay.uniform_int(64));  // the first draw, at CW 64
  s.sim.run_until(failed_at + 50_us + n * 20_us + 1_us);
  ASSERT_EQ(s.sent.size(), 2u);
  // The backoff counts after DIFS from the timeout, when the medium became idle.
  EXPECT_EQ(s.sent[1].at, failed_at + 50_us + n * 20_us);
  EXPECT_TRUE(s.sent[1].retry);
}

TEST(FrameExchange, ResponseStartedInTimeDecidesAtItsEnd) {
  // 9.3.2.8: a reception that starts before the ACKTimeout is awaited to its end.
  Station s;
  s.enqueue_at(0_us);
  const Time data_end = 50_us + s.data_airtime();
  const Time ack_end = s.receive(data_end + 200_us, FrameKind::ack, kPeer, kMe);  // late but in time
  s.sim.run_until(ack_end + 1_us);
  EXPECT_EQ(s.stats().failed_attempts, 0u);
  EXPECT_EQ(s.stats().tx_success, 1u);
}

TEST(FrameExchange, RetryLimitDropsTheFrameAndResetsCw) {
  FrameExchangeConfig c = Station::dcf_config();
  c.short_retry_limit = 2;
  Station s(c);
  s.enqueue_at(0_us);
  s.sim.run_until(100_ms);
  ASSERT_EQ(s.sent.size(), 2u);
  ASSERT_EQ(s.drops.size(), 1u);
  EXPECT_EQ(s.drops[0].first, s.sent[1].at + s.data_airtime() + 222_us);
  EXPECT_EQ(s.drops[0].second, DropCause::retry_limit);
  EXPECT_EQ(s.stats().drops_retry_limit, 1u);
  EXPECT_EQ(s.stats().failed_attempts, 2u);
  EXPECT_EQ(s.functions[0].cw, 32);
  EXPECT_EQ(s.functions[0].short_retries, 0);
}

TEST(FrameExchange, TxopContinuesSifsAfterTheAck) {
  // 9.19.2.2: a TXOP of two frames: the second DATA SIFS after the first's ACK.
  Station s(Station::dcf_config(), EdcaParams{2, 32, 1024, TxopLimit{Time::zero(), 2}});
  s.enqueue_at(0_us, kPeer, 2);
  const Time data_end = 50_us + s.data_airtime();
  const Time ack_end = s.receive(data_end + 10_us, FrameKind::ack, kPeer, kMe);
  const Time data2_end = ack_end + 10_us + s.data_airtime();
  const Time ack2_end = s.receive(data2_end + 10_us, FrameKind::ack, kPeer, kMe);
  s.sim.run_until(ack2_end + 1_us);
  ASSERT_EQ(s.sent.size(), 2u);
  EXPECT_EQ(s.sent[1].at, ack_end + 10_us);
  EXPECT_EQ(s.stats().txops, 1u);
  EXPECT_EQ(s.stats().txop_continuations, 1u);
  EXPECT_EQ(s.stats().tx_success, 2u);
}

TEST(FrameExchange, DataForMeIsAcknowledgedAfterSifsAndDelivered) {
  Station s;
  const Time data_end = s.receive(1_ms, FrameKind::data, kPeer, kMe, 314_us, phy::kDsssMcs[3]);
  s.sim.run_until(5_ms);
  ASSERT_EQ(s.sent.size(), 1u);
  EXPECT_EQ(s.sent[0].at, data_end + 10_us);
  EXPECT_EQ(s.sent[0].kind, FrameKind::ack);
  EXPECT_EQ(s.sent[0].receiver, kPeer);
  EXPECT_EQ(s.sent[0].duration_field, Time::zero());
  ASSERT_EQ(s.delivered.size(), 1u);
  EXPECT_EQ(s.delivered[0], (std::pair<Time, std::uint32_t>{data_end, kPeer}));
  EXPECT_EQ(s.stats().acks_sent, 1u);
}

TEST(FrameExchange, RtsIsAnsweredByCtsOnlyWhileTheNavIsClear) {
  Station s;
  const Time rts_duration_field = 1500_us;
  const Time rts_end = s.receive(1_ms, FrameKind::rts, kPeer, kMe, rts_duration_field);
  s.sim.run_until(4_ms);
  ASSERT_EQ(s.sent.size(), 1u);
  EXPECT_EQ(s.sent[0].at, rts_end + 10_us);
  EXPECT_EQ(s.sent[0].kind, FrameKind::cts);
  EXPECT_EQ(s.sent[0].duration_field, rts_duration_field - 10_us - 304_us);  // 8.3.1.3
  // A frame for someone else sets the NAV (9.3.2.4); an RTS inside it is not answered (9.3.2.6).
  const Time other_end = s.receive(5_ms, FrameKind::data, kPeer, kOther, 2000_us, phy::kDsssMcs[3]);
  s.receive(other_end + 100_us, FrameKind::rts, kPeer, kMe, rts_duration_field);
  s.at(other_end + 1_us, [&s, other_end] { EXPECT_EQ(s.access->nav_end(), other_end + 2000_us); });
  s.sim.run_until(10_ms);
  EXPECT_EQ(s.sent.size(), 1u);
  EXPECT_EQ(s.stats().cts_sent, 1u);
}

// ---- the refusal counters (MacStats rts_refused, cts_refused_busy, data_refused_after_cts) ----

FrameExchangeConfig with_deferral(Deferral deferral, bool rts = false) {
  FrameExchangeConfig c = Station::dcf_config();
  c.deferral = deferral;
  if (rts) c.rts_threshold = 0;
  return c;
}

// A DATA frame for another station sets the NAV until 2 ms after its end; an RTS for
// the station arrives 100 us after that end, inside the NAV. The standard refuses it
// at its end (9.3.2.6, rts_refused); ns-2 accepts it there (recvRTS checks only its
// tx_state_) and refuses the CTS SIFS later, the NAV still set (check_pktCTRL,
// cts_refused_busy).
TEST(FrameExchange, AnRtsUnderTheNavIsRefusedAtItsEndOrUnderNs2SifsLater) {
  for (const Deferral deferral : {Deferral::standard, Deferral::ns2}) {
    SCOPED_TRACE(deferral == Deferral::ns2 ? "ns2" : "standard");
    Station s(with_deferral(deferral));
    const Time other_end = s.receive(1_ms, FrameKind::data, kPeer, kOther, 2000_us, phy::kDsssMcs[3]);
    const Time rts_end = s.receive(other_end + 100_us, FrameKind::rts, kPeer, kMe, 1500_us);
    const bool ns2 = deferral == Deferral::ns2;
    s.sim.run_until(rts_end - 1_ps);
    EXPECT_EQ(s.stats().rts_refused, 0u);
    s.sim.run_until(rts_end + 1_ps);
    EXPECT_EQ(s.stats().rts_refused, ns2 ? 0u : 1u);
    s.sim.run_until(rts_end + 10_us - 1_ps);
    EXPECT_EQ(s.stats().cts_refused_busy, 0u);
    s.sim.run_until(rts_end + 10_us + 1_ps);
    EXPECT_EQ(s.stats().cts_refused_busy, ns2 ? 1u : 0u);
    s.sim.run_until(4_ms);
    EXPECT_TRUE(s.sent.empty());
    EXPECT_EQ(s.stats().cts_sent, 0u);
    EXPECT_EQ(s.stats().data_refused_after_cts, 0u);
  }
}

// The station answers an RTS (Duration 1500 us) with a CTS and waits for the DATA;
// ns-2's send timer runs until the DATA the CTS announces would have ended. A second
// RTS, from another station, arrives just after the CTS. The standard answers it (the
// NAV is clear and no exchange of the station's own is under way); ns-2 refuses it at
// its end, its tx_state_ busy (rts_refused).
TEST(FrameExchange, UnderNs2AnRtsDuringTheWaitForTheDataIsRefused) {
  for (const Deferral deferral : {Deferral::standard, Deferral::ns2}) {
    SCOPED_TRACE(deferral == Deferral::ns2 ? "ns2" : "standard");
    Station s(with_deferral(deferral));
    const Time rts_end = s.receive(1_ms, FrameKind::rts, kPeer, kMe, 1500_us);
    const Time cts_end = rts_end + 10_us + 304_us;
    const Time rts2_end = s.receive(cts_end + 1_us, FrameKind::rts, kOther, kMe, 1500_us);
    ASSERT_LT(rts2_end, cts_end + 1500_us - 10_us - 304_us);  // inside the announced wait
    const bool ns2 = deferral == Deferral::ns2;
    s.sim.run_until(rts2_end - 1_ps);
    EXPECT_EQ(s.stats().rts_refused, 0u);
    EXPECT_EQ(s.stats().cts_sent, 1u);
    s.sim.run_until(rts2_end + 1_ps);
    EXPECT_EQ(s.stats().rts_refused, ns2 ? 1u : 0u);
    s.sim.run_until(rts2_end + 10_us + 1_ps);
    EXPECT_EQ(s.stats().cts_sent, ns2 ? 1u : 2u);
    EXPECT_EQ(s.stats().cts_refused_busy, 0u);
  }
}

// The station sends an RTS and gets its CTS; another station's frame starts 5 us
// after the CTS ends, so the medium is busy when the DATA is due SIFS after the CTS.
// The standard sends the DATA (9.3.2.6); ns-2 does not (check_pktTx:
// data_refused_after_cts) and sends a new RTS after a backoff.
TEST(FrameExchange, UnderNs2NoDataWhenTheMediumIsBusySifsAfterTheCts) {
  for (const Deferral deferral : {Deferral::standard, Deferral::ns2}) {
    SCOPED_TRACE(deferral == Deferral::ns2 ? "ns2" : "standard");
    Station s(with_deferral(deferral, true));
    s.enqueue_at(0_us);
    const Time rts_end = 50_us + 352_us;
    const Time cts_end = s.receive(rts_end + 10_us, FrameKind::cts, kPeer, kMe);
    s.receive(cts_end + 5_us, FrameKind::data, kOther, kPeer, 314_us, phy::kDsssMcs[3]);
    const bool ns2 = deferral == Deferral::ns2;
    s.sim.run_until(cts_end + 10_us - 1_ps);
    EXPECT_EQ(s.stats().data_refused_after_cts, 0u);
    s.sim.run_until(cts_end + 10_us + 1_ps);
    EXPECT_EQ(s.stats().data_refused_after_cts, ns2 ? 1u : 0u);
    ASSERT_EQ(s.sent.size(), ns2 ? 1u : 2u);
    if (!ns2) {
      EXPECT_EQ(s.sent[1].kind, FrameKind::data);
    }
    EXPECT_EQ(s.stats().rts_refused, 0u);
    EXPECT_EQ(s.stats().cts_refused_busy, 0u);
    s.sim.run_until(cts_end + 1_ms);  // the other frame's reception ends (its packet back in the pool)
  }
}

// A TXOP limit under deferral "ns2" is refused at load (scenario_radio.cpp, and the
// edca_txop controller in scenario_controllers.cpp); one reaching the MAC anyway is
// an internal error, not a TXOP half emulated.
TEST(FrameExchange, UnderNs2ATxopLimitFailsLoudly) {
  Station s(with_deferral(Deferral::ns2), EdcaParams{2, 32, 1024, TxopLimit{Time::zero(), 2}});
  s.enqueue_at(0_us, kPeer, 2);
  const Time data_end = 50_us + s.data_airtime();
  const Time ack_end = s.receive(data_end + 10_us, FrameKind::ack, kPeer, kMe);
  EXPECT_THROW(s.sim.run_until(ack_end + 1_us), std::logic_error);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
