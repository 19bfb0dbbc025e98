// The medium and the radios: reach, hidden terminals, carrier sense timing,
// interference, capture, channels, half duplex.

#include "phy/medium.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <tuple>
#include <random>
#include <array>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "phy/error_model.hpp"

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

struct Event {
  enum Kind { cca_busy, cca_idle, tx_start, tx_end, rx_start, rx_end } kind;
  Time at;
  RxOutcome outcome = RxOutcome::success;
  double min_sinr_db = 0;
};

class Recorder : public PhyListener {
 public:
  explicit Recorder(Scheduler& s) : s_(s) {}
  void on_cca_busy() override { events.push_back({Event::cca_busy, s_.now()}); }
  void on_cca_idle() override { events.push_back({Event::cca_idle, s_.now()}); }
  void on_tx_start(const PhyFrame&) override { events.push_back({Event::tx_start, s_.now()}); }
  void on_tx_end() override { events.push_back({Event::tx_end, s_.now()}); }
  void on_rx_start(const PhyFrame&) override { events.push_back({Event::rx_start, s_.now()}); }
  void on_rx_end(const PhyFrame&, RxOutcome o, const RxInfo& info) override {
    events.push_back({Event::rx_end, s_.now(), o, info.min_sinr_db()});
  }
  bool wants_min_sinr() const override { return want_min_sinr; }
  bool want_min_sinr = true;
  int count(Event::Kind k) const {
    int n = 0;
    for (const auto& e : events) n += e.kind == k;
    return n;
  }
  int outcomes(RxOutcome o) const {
    int n = 0;
    for (const auto& e : events) n += e.kind == Event::rx_end && e.outcome == o;
    return n;
  }
  std::vector<Event> events;

 private:
  Scheduler& s_;
};

// A small world: radios on a line (or anywhere), one recorder each.
struct World {
  explicit World(ReceptionConfig rc, PhyProfile profile = profile_80211a()) : sim(1), medium(sim, rc), profile_(profile) {}
  RadioId add(double x, int channel = 36, double tx_dbm = 20.0, double y = 0.0) {
    const auto id = medium.add_radio(RadioSpec{static_cast<ContextId>(medium.radio_count()), Point{x, y, 0}, channel,
                                               PowerDbm(tx_dbm), profile_},
                                     sim.random().stream("node", medium.radio_count(), "rx_error"));
    recorders.push_back(std::make_unique<Recorder>(sim.scheduler()));
    medium.radio(id).set_listener(recorders.back().get());
    return id;
  }
  void connect_log_distance() {
    const LogDistance model{};  // 004 Eq. (1): K = -140.046 dB, gamma 4, d0 1000 m
    medium.connect([model](RadioId, RadioId, double d) { return model.gain(d); });
  }
  PhyFrame frame(double rate_bps, std::uint32_t bytes) const {
    const Mcs* mcs = find_mcs(profile_.family, static_cast<std::int64_t>(rate_bps));
    return PhyFrame{bytes, mcs, airtime(profile_, *mcs, bytes), nullptr};
  }
  void send_at(Time t, RadioId from, const PhyFrame& f) {
    const PhyFrame* kept = &frames.emplace_back(f);  // events capture a pointer, not the frame
    sim.scheduler().schedule_at(t, [this, from, kept] { medium.radio(from).transmit(*kept); });
  }
  Recorder& rec(RadioId r) { return *recorders[r]; }

  Simulation sim;
  Medium medium;
  PhyProfile profile_;
  std::vector<std::unique_ptr<Recorder>> recorders;
  std::deque<PhyFrame> frames;
};

ReceptionConfig sinr_config() {
  ReceptionConfig rc;
  rc.kind = ReceptionKind::sinr;
  rc.noise = PowerDbm(-93.5);
  rc.sensitivity = PowerDbm(-93.5);
  rc.cca_threshold = PowerDbm(-62.0);
  return rc;
}

TEST(PhyMedium, SignalTimelineIsExact) {
  World w(sinr_config());
  const RadioId a = w.add(0), b = w.add(60);  // 60 m: 200 ns of propagation
  w.connect_log_distance();
  const PhyFrame f = w.frame(6e6, 100);
  w.send_at(1_ms, a, f);
  w.sim.run_until(10_ms);
  const Time delay = Time::ps(std::llround(60.0 / kSpeedOfLight * 1e12));
  ASSERT_EQ(w.rec(b).events.size(), 4u);
  EXPECT_EQ(w.rec(b).events[0].kind, Event::rx_start);
  EXPECT_EQ(w.rec(b).events[0].at, 1_ms + delay);
  EXPECT_EQ(w.rec(b).events[1].kind, Event::cca_busy);
  EXPECT_EQ(w.rec(b).events[1].at, 1_ms + delay);
  EXPECT_EQ(w.rec(b).events[2].kind, Event::rx_end);
  EXPECT_EQ(w.rec(b).events[2].at, 1_ms + delay + f.duration);
  EXPECT_EQ(w.rec(b).events[2].outcome, RxOutcome::success);
  EXPECT_EQ(w.rec(b).events[3].kind, Event::cca_idle);
  EXPECT_EQ(w.rec(b).events[3].at, 1_ms + delay + f.duration);
  ASSERT_EQ(w.rec(a).events.size(), 2u);
  EXPECT_EQ(w.rec(a).events[0].kind, Event::tx_start);
  EXPECT_EQ(w.rec(a).events[1].kind, Event::tx_end);
  EXPECT_EQ(w.rec(a).events[1].at, 1_ms + f.duration);
  // Nothing interfered: the worst SINR is the SNR.
  EXPECT_NEAR(w.rec(b).events[2].min_sinr_db, w.medium.power_dbm(a, *w.medium.link(a, b)).dbm() - (-93.5), 1e-9);
}

// Radios added together keep their ids in the order given whatever order they are
// built in (issue 43 §2: built along space, so that neighbours lie near in memory),
// and the network they make behaves as if added one by one.
TEST(PhyMedium, RadiosBuiltInAnotherOrderKeepTheirIdsAndBehaviour) {
  World one(sinr_config());
  const RadioId a = one.add(0), b = one.add(60);
  one.connect_log_distance();
  World together(sinr_config());
  const std::vector<RadioSpec> specs{
      RadioSpec{0, Point{0, 0, 0}, 36, PowerDbm(20.0), together.profile_},
      RadioSpec{1, Point{60, 0, 0}, 36, PowerDbm(20.0), together.profile_}};
  const std::vector<RandomStream> streams{together.sim.random().stream("node", 0, "rx_error"),
                                          together.sim.random().stream("node", 1, "rx_error")};
  const std::vector<std::uint32_t> built_backwards{1, 0};
  together.medium.add_radios(specs, streams, built_backwards);
  ASSERT_EQ(together.medium.radio_count(), 2u);
  for (RadioId r = 0; r < 2; ++r) {
    EXPECT_EQ(together.medium.radio(r).id(), r);
    EXPECT_EQ(together.medium.spec(r).position.x_m, specs[r].position.x_m);
    together.recorders.push_back(std::make_unique<Recorder>(together.sim.scheduler()));
    together.medium.radio(r).set_listener(together.recorders.back().get());
  }
  together.connect_log_distance();
  for (World* w : {&one, &together}) {
    w->send_at(1_ms, a, w->frame(6e6, 100));
    w->sim.run_until(10_ms);
  }
  ASSERT_EQ(together.rec(b).events.size(), one.rec(b).events.size());
  for (std::size_t i = 0; i < one.rec(b).events.size(); ++i) {
    EXPECT_EQ(together.rec(b).events[i].kind, one.rec(b).events[i].kind);
    EXPECT_EQ(together.rec(b).events[i].at, one.rec(b).events[i].at);
  }
  // The build order must name each radio once.
  World bad(sinr_config());
  const std::vector<std::uint32_t> twice{0, 0};
  EXPECT_THROW(bad.medium.add_radios(specs, streams, twice), std::invalid_argument);
}

TEST(PhyMedium, LogDistanceLinksAreSymmetricAndCutOffBelowTheNoise) {
  World w(sinr_config());
  const RadioId a = w.add(0), b = w.add(150), c = w.add(300), far = w.add(600);
  w.connect_log_distance();
  ASSERT_NE(w.medium.link(a, b), nullptr);
  EXPECT_DOUBLE_EQ(w.medium.power_dbm(a, *w.medium.link(a, b)).dbm(), w.medium.power_dbm(b, *w.medium.link(b, a)).dbm());
  // 004 Eq. (1) at 150 m: 20 - 140.046 - 40 log10(0.15) = -87.09 dBm.
  EXPECT_NEAR(w.medium.power_dbm(a, *w.medium.link(a, b)).dbm(), 20 - 140.046 - 40 * std::log10(0.15), 1e-9);
  EXPECT_TRUE(w.medium.link(a, b)->reach.decodable);
  EXPECT_EQ(w.medium.link(a, b)->radio, &w.medium.radio(b));  // delivery reads the radio from the link
  // The power in dBm is that of the link as it is stored, not of another radio's.
  EXPECT_THROW(w.medium.power_dbm(b, *w.medium.link(a, b)), std::logic_error);
  // 300 m: -99.2 dBm, below the noise floor (not decodable) but above the
  // delivery cutoff of noise - 10 dB, so it still interferes.
  ASSERT_NE(w.medium.link(a, c), nullptr);
  EXPECT_FALSE(w.medium.link(a, c)->reach.decodable);
  // 600 m: -111.2 dBm, below the cutoff: not delivered at all.
  EXPECT_EQ(w.medium.link(a, far), nullptr);
}

// The hidden-terminal geometry of 000: A -> B <- GW with A and GW unable to
// decode or sense each other.
void expect_hidden(World& w, RadioId a, RadioId b, RadioId gw) {
  w.send_at(1_ms, a, w.frame(w.profile_.family == PhyFamily::Ofdm ? 6e6 : 2e6, 500));
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::success), 1);
  EXPECT_EQ(w.rec(gw).count(Event::rx_start), 0);
  EXPECT_EQ(w.rec(gw).count(Event::cca_busy), 0);
  (void)a;
}

TEST(PhyMedium, HiddenTerminalGeometryUnderSinrModel) {
  World w(sinr_config());
  const RadioId a = w.add(0), b = w.add(150), gw = w.add(300);
  w.connect_log_distance();
  expect_hidden(w, a, b, gw);
}

TEST(PhyMedium, HiddenTerminalGeometryUnderRangeModel) {
  ReceptionConfig rc;
  rc.kind = ReceptionKind::range;
  World w(rc, profile_80211b());
  const RadioId a = w.add(0), b = w.add(200), gw = w.add(400);  // the flagship scenario's geometry
  w.medium.connect_by_range(RangeModel{250, 300}, 300);
  expect_hidden(w, a, b, gw);
}

TEST(PhyMedium, RangeModelSensedButNotDecodable) {
  ReceptionConfig rc;
  rc.kind = ReceptionKind::range;
  World w(rc, profile_80211b());
  const RadioId a = w.add(0), b = w.add(400);  // 003: 250 m reception, 550 m carrier sense
  w.medium.connect_by_range(RangeModel{250, 550}, 550);
  w.send_at(1_ms, a, w.frame(2e6, 500));
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.rec(b).count(Event::rx_start), 0);
  EXPECT_EQ(w.rec(b).count(Event::cca_busy), 1);
  EXPECT_EQ(w.rec(b).count(Event::cca_idle), 1);
}

TEST(PhyMedium, HiddenSendersCollideAtTheReceiverUnderRangeModel) {
  ReceptionConfig rc;
  rc.kind = ReceptionKind::range;
  World w(rc, profile_80211b());
  const RadioId a = w.add(0), b = w.add(200), c = w.add(400);
  w.medium.connect_by_range(RangeModel{250, 300}, 300);
  const PhyFrame f = w.frame(11e6, 1500);
  w.send_at(1_ms, a, f);
  w.send_at(1_ms + 100_us, c, f);  // C cannot sense A: it transmits into A's frame
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::error), 1);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::success), 0);
  EXPECT_EQ(w.rec(b).count(Event::rx_start), 1);  // busy with A's frame: C's is never locked onto
}

TEST(PhyMedium, ChannelsAreIsolated) {
  World w(sinr_config());
  const RadioId a = w.add(0, 36), b = w.add(10, 40), c = w.add(20, 36);
  w.connect_log_distance();
  EXPECT_EQ(w.medium.link(a, b), nullptr);
  EXPECT_NE(w.medium.link(a, c), nullptr);
  w.send_at(1_ms, a, w.frame(6e6, 200));
  w.send_at(1_ms, b, w.frame(6e6, 200));  // same time, other channel: no interference at c
  w.sim.run_until(10_ms);
  EXPECT_TRUE(w.rec(b).events.size() == 2u);  // only its own tx start/end
  EXPECT_EQ(w.rec(c).outcomes(RxOutcome::success), 1);
}

// Two simultaneous senders: the receiver locks onto the first and the second
// lowers its SINR. The frame survives exactly when that SINR stays above what the
// MCS needs (with a margin that makes the error draw all but certain).
TEST(PhyMedium, InterferenceTurnsSuccessIntoLossBelowTheMcsThreshold) {
  const auto run = [](double interferer_dbm_at_rx) {
    World w(sinr_config());
    const RadioId a = w.add(0), b = w.add(50), c = w.add(50, 36, 20.0, 50);  // c 50 m from b
    const LogDistance model{};
    const double want_gain = interferer_dbm_at_rx - 20.0;
    w.medium.connect([&](RadioId x, RadioId y, double d) {
      const bool bc = (x == b && y == c) || (x == c && y == b);
      return bc ? Db(want_gain) : model.gain(d);
    });
    const PhyFrame f = w.frame(24e6, 1500);
    int ok = 0, lost = 0;
    for (int i = 0; i < 20; ++i) {
      const Time t = Time::ms(1 + 2 * i);
      w.send_at(t, a, f);
      w.send_at(t + 1_us, c, f);  // starts 1 us later: b is already locked onto a
    }
    w.sim.run_until(100_ms);
    ok = w.rec(b).outcomes(RxOutcome::success);
    lost = w.rec(b).outcomes(RxOutcome::error);
    return std::pair{ok, lost};
  };
  // Signal at b from a (50 m): 20 - 140.046 - 40 log10(0.05) = -68.0 dBm.
  const double signal = 20 - 140.046 - 40 * std::log10(0.05);
  // 24 Mbit/s (16-QAM 1/2) needs about 14.2 dB for 1 % PER at 1500 B.
  const Mcs& mcs = *find_mcs(PhyFamily::Ofdm, 24'000'000);
  const auto per_at = [&](double sinr_db) { return frame_error_rate(mcs, Db(sinr_db).linear(), 1500 * 8); };
  const double good = 18.0, bad = 10.0;
  ASSERT_LT(per_at(good), 1e-4);
  ASSERT_GT(per_at(bad), 1 - 1e-4);
  EXPECT_EQ(run(signal - good), (std::pair{20, 0}));
  EXPECT_EQ(run(signal - bad), (std::pair{0, 20}));
}

TEST(PhyMedium, InterferenceIsTrackedPiecewiseOverTheFrame) {
  // An interferer that overlaps only part of the frame lowers the SINR of that
  // part only: min SINR over the frame equals S / (N + I) during the overlap.
  World w(sinr_config());
  const RadioId a = w.add(0), b = w.add(50), c = w.add(50, 36, 20.0, 120);
  w.connect_log_distance();
  const PhyFrame f = w.frame(6e6, 1500);  // about 2 ms
  const PhyFrame blip = w.frame(54e6, 20);
  w.send_at(1_ms, a, f);
  w.send_at(1_ms + 500_us, c, blip);
  w.sim.run_until(10_ms);
  const auto s = w.medium.link(a, b)->power, i = w.medium.link(c, b)->power;
  const double expected = 10 * std::log10(s.mw() / (PowerDbm(-93.5).to_mw().mw() + i.mw()));
  ASSERT_EQ(w.rec(b).outcomes(RxOutcome::success), 1);  // a short, weak blip does not kill it
  for (const auto& e : w.rec(b).events) {
    if (e.kind == Event::rx_end) {
      EXPECT_NEAR(e.min_sinr_db, expected, 1e-9);
    }
  }
}

TEST(PhyMedium, ThresholdModelCaptureNeedsTheCaptureMargin) {
  // ns-2: the locked frame survives an overlapping one only if it is stronger by
  // the capture threshold (10 dB); otherwise both are lost.
  const auto run = [](double interferer_gain_db) {
    ReceptionConfig rc;
    rc.kind = ReceptionKind::threshold;
    rc.noise = PowerDbm(-100);
    rc.sensitivity = PowerDbm(-80);     // RXThresh
    rc.cca_threshold = PowerDbm(-90);   // CSThresh
    rc.capture_threshold = Db(10);
    World w(rc, profile_80211b());
    const RadioId a = w.add(0), b = w.add(1), c = w.add(2);
    w.medium.connect([&](RadioId x, RadioId y, double) {
      const bool bc = (x == b && y == c) || (x == c && y == b);
      return Db(bc ? interferer_gain_db : -90.0);  // a->b: -70 dBm
    });
    const PhyFrame f = w.frame(2e6, 500);
    w.send_at(1_ms, a, f);
    w.send_at(1_ms + 50_us, c, f);
    w.sim.run_until(10_ms);
    return w.rec(b).outcomes(RxOutcome::success);
  };
  EXPECT_EQ(run(-101.0), 1);  // interferer at -81 dBm: 11 dB weaker, captured
  EXPECT_EQ(run(-95.0), 0);   // -75 dBm: only 5 dB weaker, both lost
}

TEST(PhyMedium, SinrFrameCaptureLetsAStrongerLaterFrameTakeOver) {
  auto run = [](bool capture) {
    ReceptionConfig rc = sinr_config();
    rc.frame_capture = capture;
    rc.capture_threshold = Db(10);
    World w(rc);
    const RadioId a = w.add(0), b = w.add(100), c = w.add(110);  // c is 10 m from b: much stronger
    w.connect_log_distance();
    w.send_at(1_ms, a, w.frame(6e6, 1000));
    w.send_at(1_ms + 300_us, c, w.frame(6e6, 200));
    w.sim.run_until(10_ms);
    return std::pair{w.rec(b).outcomes(RxOutcome::success), w.rec(b).outcomes(RxOutcome::error)};
  };
  EXPECT_EQ(run(false), (std::pair{0, 1}));  // stays on a's frame, which is lost
  EXPECT_EQ(run(true), (std::pair{1, 1}));   // a's is lost, c's is received
}

TEST(PhyMedium, TransmittingAbortsAReceptionAndIgnoresPreambles) {
  World w(sinr_config());
  const RadioId a = w.add(0), b = w.add(50);
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 1000));
  w.send_at(1_ms + 100_us, b, w.frame(6e6, 100));  // b's MAC transmits anyway
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::aborted), 1);
  EXPECT_EQ(w.rec(a).count(Event::rx_start), 0);  // a was transmitting when b's preamble arrived
  EXPECT_EQ(w.medium.radio(b).stats().rx_aborted, 1u);
}

TEST(PhyMedium, CcaBusyOnEnergyAboveThresholdWithoutLocking) {
  // A frame locked first keeps the radio; a second strong signal adds energy, and
  // the medium stays busy until the last one ends.
  World w(sinr_config());
  const RadioId a = w.add(0), b = w.add(10), c = w.add(15);
  w.connect_log_distance();
  const PhyFrame f1 = w.frame(6e6, 100), f2 = w.frame(6e6, 1000);
  w.send_at(1_ms, a, f1);
  w.send_at(1_ms + 20_us, c, f2);
  w.sim.run_until(10_ms);
  const auto& ev = w.rec(b).events;
  int busy = w.rec(b).count(Event::cca_busy), idle = w.rec(b).count(Event::cca_idle);
  EXPECT_EQ(busy, 1);
  EXPECT_EQ(idle, 1);
  const Time delay_c = Time::ps(std::llround(5.0 / kSpeedOfLight * 1e12));
  EXPECT_EQ(ev.back().kind, Event::cca_idle);
  EXPECT_EQ(ev.back().at, 1_ms + 20_us + delay_c + f2.duration);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

// A MAC-like listener that transmits from inside a reception callback.
class Reentrant : public PhyListener {
 public:
  Reentrant(Radio& r, PhyFrame f, RxOutcome on) : radio(r), frame(f), trigger(on) {}
  void on_rx_end(const PhyFrame&, RxOutcome o, const RxInfo&) override {
    if (o == trigger) radio.transmit(frame);
  }
  Radio& radio;
  PhyFrame frame;
  RxOutcome trigger;
};

TEST(PhyMedium, ListenerTransmittingDuringCaptureDoesNotAlsoReceive) {
  ReceptionConfig rc = sinr_config();
  rc.frame_capture = true;
  World w(rc);
  const RadioId a = w.add(0), b = w.add(100), c = w.add(110);
  w.connect_log_distance();
  Reentrant mac(w.medium.radio(b), w.frame(6e6, 100), RxOutcome::error);
  w.medium.radio(b).set_listener(&mac);
  w.send_at(1_ms, a, w.frame(6e6, 1000));
  w.send_at(1_ms + 300_us, c, w.frame(6e6, 200));  // captures b, whose MAC then transmits
  bool both = false;
  w.sim.scheduler().schedule_at(1_ms + 310_us, [&] {
    both = w.medium.radio(b).transmitting() && w.medium.radio(b).receiving();
  });
  w.sim.run_until(10_ms);
  EXPECT_FALSE(both);
  EXPECT_EQ(w.medium.radio(b).stats().rx_success, 0u);
  EXPECT_EQ(w.medium.radio(b).stats().frames_sent, 1u);
}

TEST(PhyMedium, SecondTransmissionFromAnAbortedReceptionFailsLoudly) {
  World w(sinr_config());
  const RadioId a = w.add(0), b = w.add(50);
  w.connect_log_distance();
  Reentrant mac(w.medium.radio(b), w.frame(6e6, 100), RxOutcome::aborted);
  w.medium.radio(b).set_listener(&mac);
  w.send_at(1_ms, a, w.frame(6e6, 1000));
  w.send_at(1_ms + 100_us, b, w.frame(6e6, 100));  // aborts the reception; the MAC then transmits again
  EXPECT_THROW(w.sim.run_until(10_ms), std::logic_error);
}

TEST(PhyMedium, AbortedReceptionReleasesTheMediumAtOnce) {
  // A weak frame (below the energy threshold) keeps the medium busy only while it
  // is locked onto; transmitting aborts it, and the busy time ends right there.
  World w(sinr_config());
  const RadioId a = w.add(0), b = w.add(100);  // -80 dBm: decodable, below -62 dBm
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 1000));
  w.send_at(1_ms + 100_us, b, w.frame(6e6, 100));
  w.sim.run_until(10_ms);
  const Time delay = Time::ps(std::llround(100.0 / kSpeedOfLight * 1e12));
  EXPECT_EQ(w.medium.radio(b).stats().busy_time, 100_us - delay);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy

// ---- the ns2 reception model (ns-2 WirelessPhy::sendUp + Mac802_11::recv) ----------
// ns-2's defaults: 0.2818 W (24.5 dBm), two-ray ground at 914 MHz with 1.5 m
// antennas, RXThresh -64.37 dBm (250 m), CSThresh -78.07 dBm (550 m), CPThresh 10 dB.
// Received powers: 200 m -60.50 dBm, 300 m -67.54, 400 m -72.54, 600 m -79.58.
namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

ReceptionConfig ns2_config() {
  ReceptionConfig rc;
  rc.kind = ReceptionKind::ns2;
  rc.noise = PowerDbm(-101.0);
  rc.sensitivity = PowerDbm(10.0 * std::log10(3.652e-10 * 1e3));
  rc.cca_threshold = PowerDbm(10.0 * std::log10(1.559e-11 * 1e3));
  rc.capture_threshold = Db(10.0);
  return rc;
}

struct Ns2World : World {
  Ns2World() : World(ns2_config(), profile_80211b()) {}
  RadioId at(double x, double y = 0.0) { return add(x, 36, 24.5, y); }
  void connect_two_ray() {
    TwoRayGround m;
    m.frequency_hz = 914e6;
    medium.connect([m](RadioId, RadioId, double d) { return m.gain(d); });
  }
  Time delay(double d) const { return Time::ps(std::llround(d / kSpeedOfLight * 1e12)); }
};

TEST(PhyNs2, PresetPowersGiveThe250And550MetreRanges) {
  Ns2World w;
  const RadioId b = w.at(0), n = w.at(249), rx_edge = w.at(-251), cs = w.at(0, 549), out = w.at(0, -551);
  w.connect_two_ray();
  EXPECT_TRUE(w.medium.link(n, b)->reach.decodable);
  EXPECT_FALSE(w.medium.link(rx_edge, b)->reach.decodable);  // sensed, locked, lost
  EXPECT_TRUE(w.medium.link(rx_edge, b)->reach.sensed);
  ASSERT_NE(w.medium.link(cs, b), nullptr);
  EXPECT_TRUE(w.medium.link(cs, b)->reach.sensed);
  EXPECT_EQ(w.medium.link(out, b), nullptr);  // below CSThresh: ns-2 drops it in sendUp
}

TEST(PhyNs2, LocksOntoAFrameTooWeakToDecodeAndLosesIt) {
  Ns2World w;
  const RadioId b = w.at(0), a = w.at(400), far = w.at(-600);
  w.connect_two_ray();
  const PhyFrame f = w.frame(2e6, 1000);
  w.send_at(1_ms, a, f);
  w.sim.run_until(20_ms);
  const Time start = 1_ms + w.delay(400);
  const auto& ev = w.rec(b).events;
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[0].kind, Event::rx_start);
  EXPECT_EQ(ev[0].at, start);
  EXPECT_EQ(ev[1].kind, Event::cca_busy);
  EXPECT_EQ(ev[2].kind, Event::rx_end);
  EXPECT_EQ(ev[2].at, start + f.duration);
  EXPECT_EQ(ev[2].outcome, RxOutcome::error);  // the MAC defers EIFS (ns-2: set_nav(EIFS))
  EXPECT_EQ(ev[3].kind, Event::cca_idle);
  EXPECT_EQ(ev[3].at, start + f.duration);
  // 600 m from a (1000 m from b): below CSThresh, nothing arrives.
  EXPECT_TRUE(w.rec(far).events.empty());
}

TEST(PhyNs2, ALaterStrongerFrameNeverTakesTheRadioOver) {
  // b locks onto a weak frame (400 m); a frame 12 dB stronger (200 m) arrives later:
  // the locked one is not stronger by CPThresh, so both are lost, and the
  // reception lasts to the later end. (The threshold model would have received
  // the strong frame: it never locked onto the weak one.)
  Ns2World w;
  const RadioId b = w.at(0), weak = w.at(400), strong = w.at(-200);
  w.connect_two_ray();
  const PhyFrame lng = w.frame(2e6, 1000), shrt = w.frame(2e6, 100);
  w.send_at(1_ms, weak, lng);
  w.send_at(1_ms + 500_us, strong, shrt);
  w.sim.run_until(20_ms);
  EXPECT_EQ(w.rec(b).count(Event::rx_start), 1);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::success), 0);
  ASSERT_EQ(w.rec(b).outcomes(RxOutcome::error), 1);
  for (const auto& e : w.rec(b).events) {
    if (e.kind == Event::rx_end) {
      EXPECT_EQ(e.at, 1_ms + w.delay(400) + lng.duration);
    }
  }
}

TEST(PhyNs2, CaptureWhenTheLockedFrameIsStrongerByCpThresh) {
  // b locks onto the 200 m frame; the 400 m one (12 dB weaker) arrives later and
  // ends later: it is ignored (Mac802_11::capture), the first frame is received.
  Ns2World w;
  const RadioId b = w.at(0), strong = w.at(-200), weak = w.at(400);
  w.connect_two_ray();
  const PhyFrame f1 = w.frame(2e6, 500), f2 = w.frame(2e6, 1000);
  w.send_at(1_ms, strong, f1);
  w.send_at(1_ms + 300_us, weak, f2);
  w.sim.run_until(20_ms);
  EXPECT_EQ(w.rec(b).count(Event::rx_start), 1);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::error), 0);
  ASSERT_EQ(w.rec(b).outcomes(RxOutcome::success), 1);
  const auto& ev = w.rec(b).events;
  for (const auto& e : ev) {
    if (e.kind == Event::rx_end) {
      EXPECT_EQ(e.at, 1_ms + w.delay(200) + f1.duration);
    }
  }
  // Sensed until the ignored frame ends.
  EXPECT_EQ(ev.back().kind, Event::cca_idle);
  EXPECT_EQ(ev.back().at, 1_ms + 300_us + w.delay(400) + f2.duration);
}

TEST(PhyNs2, CollisionDestroysBothAndTheReceptionLastsToTheLongerFrame) {
  // b locks onto the 200 m frame; a frame from 300 m, only 7 dB weaker, arrives
  // and lasts longer: both are lost (Mac802_11::collision), and b stays locked
  // until the longer one ends, so a third frame in between is not locked onto.
  Ns2World w;
  const RadioId b = w.at(0), s = w.at(-200), i = w.at(300), t = w.at(0, 200);
  w.connect_two_ray();
  const PhyFrame f1 = w.frame(2e6, 200), f2 = w.frame(2e6, 1000), f3 = w.frame(2e6, 50);
  w.send_at(1_ms, s, f1);
  w.send_at(1_ms + 300_us, i, f2);
  const Time i_end = 1_ms + 300_us + w.delay(300) + f2.duration;
  ASSERT_LT(1_ms + f1.duration + w.delay(200), 2_ms);
  ASSERT_LT(2_ms + f3.duration, i_end);
  w.send_at(2_ms, t, f3);  // after s's frame ended, before i's ends
  w.sim.run_until(20_ms);
  EXPECT_EQ(w.rec(b).count(Event::rx_start), 1);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::success), 0);
  ASSERT_EQ(w.rec(b).outcomes(RxOutcome::error), 1);
  for (const auto& e : w.rec(b).events) {
    if (e.kind == Event::rx_end) {
      EXPECT_EQ(e.at, i_end);
    }
  }
}

TEST(PhyNs2, TransmittingMarksTheReceptionLostAndIsSilentOnlyIfStillTransmitting) {
  // ns-2 (Mac802_11::transmit, recv_timer): a radio that transmits during a
  // reception keeps it to its end, lost; if it ends while the radio still
  // transmits it is discarded silently (no EIFS), otherwise it is an error (EIFS).
  const auto run = [](std::uint32_t own_bytes) {
    Ns2World w;
    const RadioId b = w.at(0), a = w.at(200);
    w.connect_two_ray();
    w.send_at(1_ms, a, w.frame(2e6, 500));
    w.send_at(1_ms + 100_us, b, w.frame(2e6, own_bytes));
    w.sim.run_until(20_ms);
    return std::pair{w.rec(b).outcomes(RxOutcome::error), w.rec(b).outcomes(RxOutcome::aborted)};
  };
  EXPECT_EQ(run(50), (std::pair{1, 0}));    // b's frame ends first: error, EIFS follows
  EXPECT_EQ(run(1000), (std::pair{0, 1}));  // b still transmits at its end: silent
}

TEST(PhyNs2, AFrameArrivingDuringATransmissionIsLockedOntoAndLost) {
  Ns2World w;
  const RadioId b = w.at(0), a = w.at(200);
  w.connect_two_ray();
  const PhyFrame own = w.frame(2e6, 50), theirs = w.frame(2e6, 500);
  w.send_at(1_ms, b, own);
  w.send_at(1_ms + 50_us, a, theirs);  // arrives while b transmits, outlasts it
  w.sim.run_until(20_ms);
  EXPECT_EQ(w.rec(b).count(Event::rx_start), 1);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::error), 1);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::success), 0);
}

// ---- preamble detection SNR and the signal floor (sinr model) ------------------------

TEST(PhyMedium, PreambleBelowTheDetectionSnrIsNeitherLockedNorAnError) {
  // b hears a at 150 m: 004 Eq. (1) gives -87.09 dBm, an SNR of 6.4 dB over -93.5 dBm.
  const auto run = [](double threshold_db) {
    ReceptionConfig rc = sinr_config();
    rc.cca_threshold = PowerDbm(-90.0);  // the energy alone makes the medium busy
    rc.preamble_detection_snr = Db(threshold_db);
    World w(rc);
    const RadioId a = w.add(0), b = w.add(150);
    w.connect_log_distance();
    w.send_at(1_ms, a, w.frame(54e6, 1000));  // far too fast for 6.4 dB: lost if locked onto
    w.sim.run_until(10_ms);
    return std::tuple{w.rec(b).count(Event::rx_start), w.medium.radio(b).stats().rx_error,
                      w.rec(b).count(Event::cca_busy)};
  };
  EXPECT_EQ(run(4.0), (std::tuple{1, 1u, 1}));  // detected: locked, lost, EIFS follows
  EXPECT_EQ(run(8.0), (std::tuple{0, 0u, 1}));  // not detected: energy only, DIFS follows
}

// ---- the SINR the DSSS error models read (sinr model) ---------------------------------

// 400 frames of 100 bytes from a to b at one SNR over -93.5 dBm of noise, nothing
// else on the air: b's successes, and the worst SINR b's MAC was told of (the same
// for every frame). `wants_min_sinr` false is how a MAC runs unless it logs at debug
// level: the radio then decides most frames from bounds (Radio::decide_reception).
std::pair<int, double> frames_received(const PhyProfile& profile, int channel, double rate_bps, double gain,
                                       double snr_db, bool wants_min_sinr = true) {
  ReceptionConfig rc = sinr_config();
  rc.sensitivity = PowerDbm(-110.0);  // every preamble is locked onto: the error model decides
  rc.dsss_sinr_gain = gain;
  World w(rc, profile);
  const RadioId a = w.add(0, channel), b = w.add(100, channel);
  w.rec(b).want_min_sinr = wants_min_sinr;
  w.medium.connect([snr_db](RadioId, RadioId, double) { return Db(-93.5 + snr_db - 20.0); });  // 20 dBm sent
  for (int i = 0; i < 400; ++i) w.send_at(Time::ms(1 + 3 * i), a, w.frame(rate_bps, 100));
  w.sim.run_until(Time::s(2));
  EXPECT_EQ(w.rec(b).count(Event::rx_end), 400);
  double worst_db = std::numeric_limits<double>::quiet_NaN();
  for (const Event& e : w.rec(b).events) {
    if (e.kind == Event::rx_end) worst_db = e.min_sinr_db;
  }
  return {w.rec(b).outcomes(RxOutcome::success), worst_db};
}

TEST(PhyMedium, TheNs3ProcessingGainReadsADsssFramesSinrOverTwentyTwoMegahertz) {
  // An SNR of -5.4 dB at 1 Mbit/s (DBPSK, PLCP header and PSDU): the chip-rate reading
  // (Eb/N0 = 11 SINR) loses every 100-byte frame, ns-3's (Eb/N0 = 22 SINR: the SINR
  // doubled) about half, and a SINR read four times over would lose almost none, so
  // the count pins the factor. Both ways a radio decides: from the chunks (the MAC
  // wants the worst SINR) and from bounds first (it does not).
  const PhyProfile b = profile_80211b();
  const Mcs& dbpsk = *find_mcs(PhyFamily::Dsss, 1'000'000);
  const Time decoded = airtime(b, dbpsk, 100) - plcp_format(b, dbpsk).preamble;  // header and PSDU, both DBPSK
  const double snr_db = -5.4, snr = std::pow(10.0, snr_db / 10.0);
  const double p_chip = chunk_success_probability(dbpsk, snr, decoded);
  const double p_ns3 = chunk_success_probability(dbpsk, 2.0 * snr, decoded);
  ASSERT_LT(p_chip, 1e-6);
  ASSERT_GT(p_ns3, 0.3);
  ASSERT_LT(p_ns3, 0.7);
  ASSERT_GT(chunk_success_probability(dbpsk, 4.0 * snr, decoded), 0.99);
  for (const bool wants_min_sinr : {true, false}) {
    SCOPED_TRACE(wants_min_sinr ? "decided from the chunks" : "decided from bounds first");
    const auto [chip, chip_sinr] = frames_received(b, 1, 1e6, 1.0, snr_db, wants_min_sinr);
    const auto [ns3, ns3_sinr] = frames_received(b, 1, 1e6, 2.0, snr_db, wants_min_sinr);
    EXPECT_EQ(chip, 0);
    const double sd = std::sqrt(400.0 * p_ns3 * (1.0 - p_ns3));  // about 10 frames
    EXPECT_NEAR(ns3, 400.0 * p_ns3, 4.0 * sd);
    if (wants_min_sinr) {
      // The MAC is told the SINR on the air, whichever way the error model reads it.
      EXPECT_NEAR(chip_sinr, snr_db, 1e-9);
      EXPECT_EQ(ns3_sinr, chip_sinr);
    }
  }
}

TEST(PhyMedium, TheNs3ProcessingGainLeavesOfdmFramesAlone) {
  // 6 Mbit/s OFDM where about half the frames are lost: the same draws give the
  // same outcomes, both ways a radio decides.
  for (const bool wants_min_sinr : {true, false}) {
    const auto chip = frames_received(profile_80211a(), 36, 6e6, 1.0, 2.7, wants_min_sinr);
    const auto ns3 = frames_received(profile_80211a(), 36, 6e6, 2.0, 2.7, wants_min_sinr);
    EXPECT_EQ(ns3.first, chip.first);
    EXPECT_GT(chip.first, 100);  // the error model decides: a doubled SINR would keep them all
    EXPECT_LT(chip.first, 300);
  }
}

TEST(PhyMedium, PreambleDetectionCountsTheSignalsAlreadyOnTheAir) {
  // a's 6.4 dB preamble against a 4 dB threshold, with an interferer c already on
  // the air (too weak to be locked onto: sensitivity -89 dBm).
  const auto locked = [](double c_to_b_m) {
    ReceptionConfig rc = sinr_config();
    rc.sensitivity = PowerDbm(-89.0);
    rc.preamble_detection_snr = Db(4.0);
    World w(rc);
    const RadioId a = w.add(0), b = w.add(150), c = w.add(150 + c_to_b_m);
    w.connect_log_distance();
    w.send_at(1_ms, c, w.frame(6e6, 1000));
    w.send_at(1_ms + 100_us, a, w.frame(6e6, 100));
    w.sim.run_until(10_ms);
    return w.rec(b).count(Event::rx_start);
  };
  EXPECT_EQ(locked(267), 1);  // c at -97.1 dBm: SINR 4.8 dB, detected
  EXPECT_EQ(locked(178), 0);  // c at -90.1 dBm: SINR 1.3 dB, not detected
}

// ---- preamble detection over a window (ns-3 3.44's rule) -----------------------------

Time propagation(double metres) { return Time::ps(std::llround(metres / kSpeedOfLight * 1e12)); }

ReceptionConfig window_config(double snr_db = 4.0) {
  ReceptionConfig rc = sinr_config();
  rc.preamble_detection_snr = Db(snr_db);
  rc.preamble_detection = PreambleDetection::window;
  return rc;
}

TEST(PhyMedium, WindowDetectionLocksAtTheWindowsEndOntoAFrameThatBeganAtItsArrival) {
  // b hears a at 60 m (-71.2 dBm: below the -62 dBm energy threshold, so only the
  // lock makes the medium busy). The lock, and the busy medium, come at the end of
  // the window; the frame still ends, and is decided, at its own end.
  for (const Time window : {4_us, 2_us}) {
    ReceptionConfig rc = window_config();
    rc.preamble_detection_window = window;
    World w(rc);
    const RadioId a = w.add(0), b = w.add(60);
    w.connect_log_distance();
    const PhyFrame f = w.frame(6e6, 100);
    w.send_at(1_ms, a, f);
    w.sim.run_until(10_ms);
    const Time arrival = 1_ms + propagation(60);
    const auto& e = w.rec(b).events;
    ASSERT_EQ(e.size(), 4u) << window.to_string();
    EXPECT_EQ(e[0].kind, Event::rx_start);
    EXPECT_EQ(e[0].at, arrival + window);
    EXPECT_EQ(e[1].kind, Event::cca_busy);
    EXPECT_EQ(e[1].at, arrival + window);
    EXPECT_EQ(e[2].kind, Event::rx_end);
    EXPECT_EQ(e[2].at, arrival + f.duration);
    EXPECT_EQ(e[2].outcome, RxOutcome::success);
    EXPECT_EQ(e[3].kind, Event::cca_idle);
  }
}

TEST(PhyMedium, TwoEqualFramesStartingTogetherAreBothUndetectedUnderTheWindow) {
  // a and c, 50 m either side of b, send at the same instant: equal powers at b.
  // At arrival, the first to arrive is judged alone (25.5 dB over the noise),
  // locked onto, and lost to the second: an error (EIFS follows at a MAC). Over a
  // window both are judged against each other (0 dB < 4 dB): neither is locked
  // onto, no error, energy only.
  const auto run = [](ReceptionConfig rc) {
    rc.cca_threshold = PowerDbm(-80.0);  // -68 dBm each: the energy keeps b busy
    World w(rc);
    const RadioId a = w.add(0), b = w.add(50), c = w.add(100);
    w.connect_log_distance();
    w.send_at(1_ms, a, w.frame(6e6, 100));
    w.send_at(1_ms, c, w.frame(6e6, 100));
    w.sim.run_until(10_ms);
    return std::tuple{w.rec(b).count(Event::rx_start), w.medium.radio(b).stats().rx_error,
                      w.rec(b).count(Event::cca_busy)};
  };
  ReceptionConfig arrival = sinr_config();
  arrival.preamble_detection_snr = Db(4.0);
  EXPECT_EQ(run(arrival), (std::tuple{1, 1u, 1}));
  EXPECT_EQ(run(window_config()), (std::tuple{0, 0u, 1}));
}

TEST(PhyMedium, AStrongerPreambleArrivingInTheWindowIsTheOneLockedOnto) {
  // b at 0 hears a (100 m, -80 dBm) and then c (30 m, -59.1 dBm), sent 2 us later.
  // No SINR condition, so a alone would be detected either way. At arrival b locks
  // onto a, which c destroys; over a window a's end finds c stronger and drops a,
  // and c, judged at its own window's end, is received.
  const auto run = [](const ReceptionConfig& rc) {
    World w(rc);
    const RadioId b = w.add(0), a = w.add(100), c = w.add(-30);
    w.connect_log_distance();
    const PhyFrame f = w.frame(6e6, 100);
    w.send_at(1_ms, a, f);
    w.send_at(1_ms + 2_us, c, f);
    w.sim.run_until(10_ms);
    std::vector<Event> rx;
    for (const Event& e : w.rec(b).events) {
      if (e.kind == Event::rx_start || e.kind == Event::rx_end) rx.push_back(e);
    }
    return std::pair{rx, f.duration};
  };
  const auto [at_arrival, duration] = run(sinr_config());
  ASSERT_EQ(at_arrival.size(), 2u);
  EXPECT_EQ(at_arrival[0].at, 1_ms + propagation(100));
  EXPECT_EQ(at_arrival[1].outcome, RxOutcome::error);
  const auto [over_window, same] = run(window_config(-std::numeric_limits<double>::infinity()));
  const Time c_arrival = 1_ms + 2_us + propagation(30);
  ASSERT_EQ(over_window.size(), 2u);
  EXPECT_EQ(over_window[0].at, c_arrival + 4_us);
  EXPECT_EQ(over_window[1].at, c_arrival + same);
  EXPECT_EQ(over_window[1].outcome, RxOutcome::success);
}

TEST(PhyMedium, TransmittingDuringTheWindowEndsTheDetection) {
  // Half duplex: b starts sending 2 us after a's frame reaches it. At arrival b had
  // locked onto a and aborts; over a window nothing was locked onto yet.
  const auto run = [](const ReceptionConfig& rc) {
    World w(rc);
    const RadioId a = w.add(0), b = w.add(50);
    w.connect_log_distance();
    w.send_at(1_ms, a, w.frame(6e6, 100));
    w.send_at(1_ms + propagation(50) + 2_us, b, w.frame(6e6, 100));
    w.sim.run_until(10_ms);
    return std::pair{w.rec(b).count(Event::rx_start), w.medium.radio(b).stats().rx_aborted};
  };
  ReceptionConfig arrival = sinr_config();
  arrival.preamble_detection_snr = Db(4.0);
  EXPECT_EQ(run(arrival), (std::pair{1, std::uint64_t{1}}));
  EXPECT_EQ(run(window_config()), (std::pair{0, std::uint64_t{0}}));
}

TEST(PhyMedium, AFrameEndingPastTheLastInstantIsRefusedByItsSendersOwnLinks) {
  // transmit refuses a frame that would end after Time::max() at one of its
  // receivers (std::logic_error). It compares with the longest delay of any link
  // first and only then with the sender's own. a's longest link is faint (c at
  // 350 m: below the sensitivity, 217 m, above the floor, 386 m: an interval, not a
  // delivery); b's longest (c, 250 m) is shorter than a's. Each may send at its own
  // last instant (the frame ends at Time::max() at c), not a picosecond later.
  const auto send_near_the_end = [](bool from_a, Time past_last) {
    World w(sinr_config());
    const RadioId a = w.add(0), b = w.add(100), c = w.add(350);
    w.connect_log_distance();
    const Link* faint = w.medium.link(a, c);
    if (faint == nullptr) {  // (a lambda returning a count: no ASSERT here)
      ADD_FAILURE() << "no link from a to c";
      return 0;
    }
    EXPECT_TRUE(!faint->reach.decodable && w.medium.link(a, b)->reach.decodable);
    const auto longest = [&](RadioId r) {
      Time t;
      for (const Link& l : w.medium.neighbours(r)) t = std::max(t, l.delay);
      return t;
    };
    EXPECT_EQ(longest(a), faint->delay);
    EXPECT_LT(longest(b), longest(a));
    const RadioId from = from_a ? a : b;
    const PhyFrame f = w.frame(6e6, 100);
    w.send_at(Time::max() - f.duration - longest(from) + past_last, from, f);
    w.sim.scheduler().run();
    return w.rec(from_a ? b : a).count(Event::rx_end);  // the frame's decodable receiver
  };
  EXPECT_EQ(send_near_the_end(true, Time()), 1);
  EXPECT_THROW(send_near_the_end(true, Time::ps(1)), std::logic_error);
  EXPECT_EQ(send_near_the_end(false, Time()), 1);
  EXPECT_THROW(send_near_the_end(false, Time::ps(1)), std::logic_error);
}

TEST(PhyMedium, SignalsBelowTheFloorAreNeitherSensedNorInterference) {
  // c's signal at b is -99.2 dBm (300 m): above the default floor (-103.5 dBm), below
  // one at -95 dBm. It lowers the SINR of a's frame at b only while it arrives.
  const auto run = [](double floor_dbm) {
    ReceptionConfig rc = sinr_config();
    rc.cca_threshold = PowerDbm(-100.0);
    rc.signal_floor = PowerDbm(floor_dbm);
    World w(rc);
    const RadioId a = w.add(0), b = w.add(100), c = w.add(400);
    w.connect_log_distance();
    w.send_at(1_ms, c, w.frame(6e6, 1000));
    w.send_at(1_ms + 100_us, a, w.frame(6e6, 100));
    w.sim.run_until(10_ms);
    double min_sinr = 0;
    for (const auto& e : w.rec(b).events) {
      if (e.kind == Event::rx_end) min_sinr = e.min_sinr_db;
    }
    // Busy from c's signal alone, before a's frame arrives?
    const bool sensed = !w.rec(b).events.empty() && w.rec(b).events[0].kind == Event::cca_busy &&
                        w.rec(b).events[0].at < 1_ms + 100_us;
    return std::pair{sensed, min_sinr};
  };
  const auto [sensed_low, sinr_low] = run(-103.5);
  const auto [sensed_high, sinr_high] = run(-95.0);
  EXPECT_TRUE(sensed_low);
  EXPECT_FALSE(sensed_high);
  const double snr = 20 - 140.046 - 40 * std::log10(0.1) + 93.5;  // a at b over the noise
  EXPECT_NEAR(sinr_high, snr, 1e-9);  // c's energy is not there at all
  EXPECT_LT(sinr_low, snr - 0.5);  // 12.4 dB against 13.5
}

// Runs the same sends under faint_signal_events false and true and returns every
// radio's listener events, and the events the scheduler ran.
std::pair<std::vector<std::vector<Event>>, std::uint64_t> run_faint(
    ReceptionConfig rc, bool events, const std::vector<std::pair<double, double>>& positions,
    const std::vector<std::tuple<Time, RadioId, double, std::uint32_t>>& sends, bool want_min_sinr = true) {
  rc.faint_signal_events = events;
  World w(rc);
  for (const auto& [x, y] : positions) w.rec(w.add(x, 36, 20.0, y)).want_min_sinr = want_min_sinr;
  w.connect_log_distance();
  for (const auto& [t, from, rate, bytes] : sends) w.send_at(t, from, w.frame(rate, bytes));
  w.sim.run_until(1_s);
  std::vector<std::vector<Event>> all;
  for (RadioId r = 0; r < w.medium.radio_count(); ++r) all.push_back(w.rec(r).events);
  return {all, w.sim.scheduler().executed()};
}

void expect_same_events(const std::vector<std::vector<Event>>& a, const std::vector<std::vector<Event>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t r = 0; r < a.size(); ++r) {
    ASSERT_EQ(a[r].size(), b[r].size()) << "radio " << r;
    for (std::size_t i = 0; i < a[r].size(); ++i) {
      EXPECT_EQ(a[r][i].kind, b[r][i].kind) << "radio " << r << " event " << i;
      EXPECT_EQ(a[r][i].at, b[r][i].at) << "radio " << r << " event " << i;
      EXPECT_EQ(a[r][i].outcome, b[r][i].outcome) << "radio " << r << " event " << i;
      // The energy is summed in another order: equal to rounding. NaN: not wanted.
      if (!std::isnan(a[r][i].min_sinr_db) && !std::isnan(b[r][i].min_sinr_db)) {
        EXPECT_NEAR(a[r][i].min_sinr_db, b[r][i].min_sinr_db, 1e-9) << "radio " << r << " event " << i;
      }
    }
  }
}

TEST(PhyMedium, FaintSignalsAsIntervalsGiveTheEventsOutcomes) {
  // Radios scattered over 700 m (004's propagation: the sensitivity, at the noise,
  // is reached at 217 m, the floor at 386 m): most pairs hear each other only
  // faintly. Random frames at random times, many overlapping.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> where(0.0, 700.0);
  std::uniform_int_distribution<int> offset_us(0, 800), bytes(20, 1500), rate(0, 2);
  std::vector<std::pair<double, double>> positions;
  for (int i = 0; i < 30; ++i) positions.emplace_back(where(rng), where(rng) * 0.3);
  std::vector<std::tuple<Time, RadioId, double, std::uint32_t>> sends;
  for (int i = 0; i < 600; ++i) {
    // Each radio sends every 3 ms at most (a frame lasts up to 2.1 ms), the 30 at random offsets.
    sends.emplace_back(Time::us(3000 * (i / 30) + offset_us(rng)), static_cast<RadioId>(i % 30),
                       std::array{6e6, 24e6, 54e6}[rate(rng)], static_cast<std::uint32_t>(bytes(rng)));
  }
  // The default; a CCA threshold low enough (-90 dBm) that faint signals tip it;
  // frame capture; a preamble detection SNR of 4 dB (both count faint energy).
  // And the same SNR judged over ns-3's window.
  for (int variant = 0; variant < 5; ++variant) {
    ReceptionConfig rc = sinr_config();
    if (variant == 1) rc.cca_threshold = PowerDbm(-90.0);
    if (variant == 2) rc.frame_capture = true;
    if (variant == 3) rc.preamble_detection_snr = Db(4.0);
    if (variant == 4) rc = window_config();
    const auto [events, events_events] = run_faint(rc, true, positions, sends);
    // A listener that does not want the worst SINR lets the radio decide from
    // bounds without the chunks (Radio::decide_reception): the same outcomes.
    for (const bool want_min_sinr : {true, false}) {
      const auto [intervals, intervals_events] = run_faint(rc, false, positions, sends, want_min_sinr);
      expect_same_events(intervals, events);
      // Faint starts and ends are no events, except near the CCA threshold.
      EXPECT_LT(intervals_events, events_events) << variant;
    }
    int receptions = 0, lost = 0;
    for (const auto& r : events) {
      for (const Event& e : r) {
        receptions += e.kind == Event::rx_end;
        lost += e.kind == Event::rx_end && e.outcome == RxOutcome::error;
      }
    }
    EXPECT_GT(receptions, 500) << variant;  // fewer with the preamble condition
    EXPECT_GT(lost, 100) << variant;  // overlaps at every SINR
  }
}

TEST(PhyMedium, FaintSignalsTipTheEnergyDetectionAtTheirExactTimes) {
  // Neither signal reaches the sensitivity (-80 dBm here), so neither is locked
  // onto; a alone (-90.3 dBm at b, 181 m away) stays under the CCA threshold of
  // -90 dBm, and c's (-99.1 dBm, 300 m) on top of it crosses it: the medium at b
  // is busy exactly while both are on the air, as when every start and end is an
  // event. No other signal arrives at b: only faint ones move its energy.
  ReceptionConfig rc = sinr_config();
  rc.sensitivity = PowerDbm(-80.0);
  rc.cca_threshold = PowerDbm(-90.0);
  const std::vector<std::pair<double, double>> positions{{0.0, 0.0}, {181.0, 0.0}, {181.0 + 300.0, 0.0}};
  const std::vector<std::tuple<Time, RadioId, double, std::uint32_t>> sends{
      {1_ms, 0, 6e6, 1000}, {1_ms + 300_us, 2, 54e6, 500}, {1_ms + 100_us, 2, 54e6, 20}};
  const auto [intervals, n_intervals] = run_faint(rc, false, positions, sends);
  const auto [events, n_events] = run_faint(rc, true, positions, sends);
  expect_same_events(intervals, events);
  const std::vector<Event>& b = intervals[1];
  const Time c_delay = Time::ps(std::llround(300.0 / kSpeedOfLight * 1e12));
  const PhyFrame blip = World(rc).frame(54e6, 20), longer = World(rc).frame(54e6, 500);
  // c's two frames on top of a's, and nothing else.
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].kind, Event::cca_busy);
  EXPECT_EQ(b[0].at, 1_ms + 100_us + c_delay);
  EXPECT_EQ(b[1].kind, Event::cca_idle);
  EXPECT_EQ(b[1].at, 1_ms + 100_us + c_delay + blip.duration);
  EXPECT_EQ(b[2].kind, Event::cca_busy);
  EXPECT_EQ(b[2].at, 1_ms + 300_us + c_delay);
  EXPECT_EQ(b[3].kind, Event::cca_idle);
  EXPECT_EQ(b[3].at, 1_ms + 300_us + c_delay + longer.duration);
  // Near the threshold the radio looks again only where the assessment changes: at
  // most as many events as delivering every start and end would take.
  EXPECT_LE(n_intervals, n_events);
}

TEST(PhyMedium, FaintSignalsThatCannotTipTheEnergyDetectionCostNoEvent) {
  // The geometry above: b's energy detection is ambiguous (a and c together could
  // cross its threshold), but only a sends, and a alone (-90.3 dBm) stays under
  // it. The radio re-assesses only where the outcome would change, so a's frames
  // cost b no event: the run executes exactly the events of the same run with a
  // threshold no faint signal comes near (Radio::first_faint_flip).
  ReceptionConfig rc = sinr_config();
  rc.sensitivity = PowerDbm(-80.0);
  rc.cca_threshold = PowerDbm(-90.0);
  const std::vector<std::pair<double, double>> positions{{0.0, 0.0}, {181.0, 0.0}, {181.0 + 300.0, 0.0}};
  const std::vector<std::tuple<Time, RadioId, double, std::uint32_t>> sends{
      {1_ms, 0, 6e6, 1000}, {3_ms, 0, 54e6, 500}, {5_ms, 0, 54e6, 20}};
  const auto [ambiguous, n_ambiguous] = run_faint(rc, false, positions, sends);
  rc.cca_threshold = PowerDbm(-60.0);
  const auto [clear, n_clear] = run_faint(rc, false, positions, sends);
  EXPECT_TRUE(ambiguous[1].empty());  // b: never busy, nothing received
  EXPECT_EQ(n_ambiguous, n_clear);
}

// Sets the rule before e151b56 (a re-assessment at every faint start and end) for
// one scope.
struct FormerFaintRecheckRule {
  explicit FormerFaintRecheckRule(bool on) { test_hooks::set_faint_recheck_at_every_edge(on); }
  ~FormerFaintRecheckRule() { test_hooks::set_faint_recheck_at_every_edge(false); }
};

TEST(PhyMedium, AFaintFlipRunsBeforeAnEventOfTheSamePicosecondScheduledAfterItsSignalWasSent) {
  // The one place where the rule of e151b56 and the former one part (docs/performance.md
  // §5). The geometry above: c's frame reaches b first (at t1, alone: under the
  // threshold), a's second (at t2, on top of c's: over it), and a sends before t1.
  // Another event of b's falls at t2 (a MAC's access timer, say), scheduled between
  // a's send and t1; it notes whether b's CCA is busy yet. The re-check that makes b
  // busy at t2 is scheduled when a sends under the rule of e151b56, but at t1 under
  // the former rule (it looked at every faint start), so the two events of t2 run in
  // the other order: the timer now finds b busy, formerly idle. b's own callbacks
  // are the same under both.
  ReceptionConfig rc = sinr_config();
  rc.sensitivity = PowerDbm(-80.0);
  rc.cca_threshold = PowerDbm(-90.0);
  const Time a_delay = Time::ps(std::llround(181.0 / kSpeedOfLight * 1e12));
  const Time c_delay = Time::ps(std::llround(300.0 / kSpeedOfLight * 1e12));
  const Time t1 = 1_ms + c_delay, a_sends = 1_ms + 500_ns, t2 = a_sends + a_delay, timer_set = 1_ms + 800_ns;
  ASSERT_LT(a_sends, timer_set);
  ASSERT_LT(timer_set, t1);
  ASSERT_LT(t1, t2);
  const auto run = [&](bool former) {
    FormerFaintRecheckRule rule(former);
    World w(rc);
    for (const double x : {0.0, 181.0, 181.0 + 300.0}) w.add(x);
    w.connect_log_distance();
    w.send_at(1_ms, 2, w.frame(54e6, 500));
    w.send_at(a_sends, 0, w.frame(6e6, 100));
    std::optional<bool> busy_at_timer;
    w.sim.scheduler().schedule_at(timer_set, [&] {
      w.sim.scheduler().schedule_at(t2, [&] { busy_at_timer = w.medium.radio(1).cca_busy(); });
    });
    w.sim.run_until(1_s);
    return std::pair{w.rec(1).events, busy_at_timer};
  };
  const auto [now, now_busy] = run(false);
  const auto [former, former_busy] = run(true);
  expect_same_events({now}, {former});
  ASSERT_FALSE(now.empty());
  EXPECT_EQ(now[0].kind, Event::cca_busy);
  EXPECT_EQ(now[0].at, t2);
  ASSERT_TRUE(now_busy && former_busy);
  EXPECT_TRUE(*now_busy);
  EXPECT_FALSE(*former_busy);
}

// Issue 43 §3 (memory per node): radios with the same profile share the medium's
// one copy of it, a radio with another profile has its own, and spec() gives back
// what add_radio was given.
TEST(Medium, RadiosShareTheirProfile) {
  Simulation sim(1);
  Medium medium(sim, ReceptionConfig{});
  const auto add = [&](const PhyProfile& profile, int channel) {
    return medium.add_radio(RadioSpec{7, Point{1, 2, 3}, channel, PowerDbm(15.0), profile},
                            sim.random().stream("node", medium.radio_count(), "rx_error"));
  };
  const RadioId a = add(profile_80211b(), 1);
  const RadioId b = add(profile_80211b(), 6);
  const RadioId c = add(profile_80211b(Preamble::Short), 1);
  EXPECT_EQ(&medium.radio(a).profile(), &medium.radio(b).profile());
  EXPECT_NE(&medium.radio(a).profile(), &medium.radio(c).profile());
  EXPECT_EQ(medium.radio(c).profile().preamble, Preamble::Short);
  const RadioSpec spec = medium.spec(b);
  EXPECT_EQ(spec.node, 7u);
  EXPECT_EQ(spec.channel, 6);
  EXPECT_EQ(spec.position.z_m, 3.0);
  EXPECT_EQ(spec.tx_power.dbm(), 15.0);
  EXPECT_TRUE(same_profile(spec.profile, profile_80211b()));
  EXPECT_FALSE(same_profile(medium.spec(c).profile, profile_80211b()));
  // The one-field accessors give what spec() gives, radio by radio.
  for (const RadioId r : {a, b, c}) {
    EXPECT_EQ(medium.node_of(r), medium.spec(r).node);
    EXPECT_EQ(medium.channel_of(r), medium.spec(r).channel);
    EXPECT_EQ(medium.position_of(r).z_m, medium.spec(r).position.z_m);
    EXPECT_EQ(medium.tx_power_of(r).dbm(), medium.spec(r).tx_power.dbm());
  }
  EXPECT_EQ(medium.channel_of(b), 6);
}

// Issue 43 §3 (memory per node): a radio holds a record of the medium's only while
// it receives. Receptions under way at once each keep their own, across another
// radio's reception ending, being aborted by a transmission and beginning anew
// (the freed record taken again), and the medium makes no more records than
// receptions were ever under way at once.
TEST(Medium, EachReceptionUnderWayKeepsItsOwnRecordUntilItEnds) {
  World w(sinr_config());
  // Two pairs on different channels, which never interact: a to b, c to d.
  const RadioId a = w.add(0, 36), b = w.add(60, 36);
  const RadioId c = w.add(0, 40, 20.0, 500), d = w.add(60, 40, 20.0, 500);
  w.connect_log_distance();
  const Time delay = Time::ps(std::llround(60.0 / kSpeedOfLight * 1e12));
  const PhyFrame long_frame = w.frame(6e6, 1500), short_frame = w.frame(6e6, 100);
  ASSERT_GT(long_frame.duration, 2_ms);
  w.send_at(1_ms, a, long_frame);            // b receives until after 3 ms
  w.send_at(1200_us, c, short_frame);        // d receives and ends: its record freed
  w.send_at(1600_us, c, short_frame);        // d again, on the freed record
  std::optional<std::pair<Time, Time>> starts;
  std::size_t records_while_both = 0;
  w.sim.scheduler().schedule_at(1700_us, [&] {
    ASSERT_TRUE(w.medium.radio(b).receiving() && w.medium.radio(d).receiving());
    starts = std::pair{w.medium.radio(b).reception_start(), w.medium.radio(d).reception_start()};
    records_while_both = w.medium.reception_records().capacity();
  });
  w.send_at(2_ms, b, short_frame);           // b transmits: its reception aborted, its record freed
  w.send_at(2500_us, c, short_frame);        // d again
  w.send_at(9950_us, c, long_frame);         // still under way when the run (and the world) ends
  w.sim.run_until(10_ms);
  ASSERT_TRUE(starts.has_value());
  EXPECT_EQ(starts->first, 1_ms + delay);
  EXPECT_EQ(starts->second, 1600_us + delay);
  EXPECT_EQ(records_while_both, 2u);
  EXPECT_EQ(w.rec(b).outcomes(RxOutcome::aborted), 1);
  EXPECT_EQ(w.rec(d).outcomes(RxOutcome::success), 3);
  EXPECT_TRUE(w.medium.radio(d).receiving());
  EXPECT_FALSE(w.medium.radio(b).receiving());
  EXPECT_EQ(w.medium.reception_records().capacity(), 2u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
