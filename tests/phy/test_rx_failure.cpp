// What a radio tells an air observer (a frame trace) about frames it does not
// decode: the cause and the interferer of each failed reception and of each frame
// it never locked onto (phy/rx_failure.hpp, phy/air_observer.hpp), and that
// watching changes nothing the listener sees.

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <tuple>
#include <vector>

#include "phy/medium.hpp"

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

struct Seen {
  enum Kind { decoded, failed, missed } kind;
  RadioId to;
  std::uint32_t bytes;  // tells the test's frames apart
  RxFailure cause = RxFailure::error_draw;
  RadioId interferer = kNoRadio;
  Time first_bit;
  bool operator==(const Seen&) const = default;
};

class Observer : public AirObserver {
 public:
  void on_transmit(RadioId, const PhyFrame&) override {}
  void on_decoded(RadioId to, const PhyFrame& f, const RxInfo&, Time first_bit) override {
    seen.push_back({Seen::decoded, to, f.psdu_bytes, RxFailure::error_draw, kNoRadio, first_bit});
  }
  void on_failed(RadioId to, const PhyFrame& f, const RxFailureInfo& why, Time first_bit) override {
    seen.push_back({Seen::failed, to, f.psdu_bytes, why.cause, why.interferer, first_bit});
  }
  void on_missed(RadioId to, const PhyFrame& f, const RxFailureInfo& why, Time first_bit) override {
    seen.push_back({Seen::missed, to, f.psdu_bytes, why.cause, why.interferer, first_bit});
  }
  std::vector<Seen> at(RadioId r) const {
    std::vector<Seen> out;
    for (const Seen& s : seen) {
      if (s.to == r) out.push_back(s);
    }
    return out;
  }
  std::vector<Seen> seen;
};

// Every notification the MAC would get, to compare a watched run with an unwatched one.
class Listener : public PhyListener {
 public:
  explicit Listener(Scheduler& s) : s_(s) {}
  void on_cca_busy() override { log.emplace_back(0, s_.now(), RxOutcome::success); }
  void on_cca_idle() override { log.emplace_back(1, s_.now(), RxOutcome::success); }
  void on_rx_start(const PhyFrame&) override { log.emplace_back(2, s_.now(), RxOutcome::success); }
  void on_rx_end(const PhyFrame&, RxOutcome o, const RxInfo&) override { log.emplace_back(3, s_.now(), o); }
  std::vector<std::tuple<int, Time, RxOutcome>> log;

 private:
  Scheduler& s_;
};

struct World {
  World(ReceptionConfig rc, PhyProfile profile, bool watched) : sim(1), medium(sim, rc), profile_(profile) {
    if (watched) medium.set_air_observer(&observer);
  }
  RadioId add(double x, double tx_dbm = 20.0) {
    const auto id = medium.add_radio(RadioSpec{static_cast<ContextId>(medium.radio_count()), Point{x, 0, 0}, 36,
                                               PowerDbm(tx_dbm), profile_},
                                     sim.random().stream("node", medium.radio_count(), "rx_error"));
    listeners.push_back(std::make_unique<Listener>(sim.scheduler()));
    medium.radio(id).set_listener(listeners.back().get());
    return id;
  }
  void connect_log_distance() {
    const LogDistance model{};  // 004 Eq. (1): -87.1 dBm at 150 m, -99.2 dBm at 300 m
    medium.connect([model](RadioId, RadioId, double d) { return model.gain(d); });
  }
  PhyFrame frame(double rate_bps, std::uint32_t bytes) const {
    const Mcs* mcs = find_mcs(profile_.family, static_cast<std::int64_t>(rate_bps));
    return PhyFrame{bytes, mcs, airtime(profile_, *mcs, bytes), nullptr};
  }
  void send_at(Time t, RadioId from, const PhyFrame& f) {
    const PhyFrame* kept = &frames.emplace_back(f);
    sim.scheduler().schedule_at(t, [this, from, kept] { medium.radio(from).transmit(*kept); });
  }
  Time delay(double d) const { return Time::ps(std::llround(d / kSpeedOfLight * 1e12)); }

  Simulation sim;
  Medium medium;
  PhyProfile profile_;
  Observer observer;
  std::vector<std::unique_ptr<Listener>> listeners;
  std::deque<PhyFrame> frames;
};

ReceptionConfig sinr_config() {
  ReceptionConfig rc;
  rc.noise = PowerDbm(-93.5);
  rc.sensitivity = PowerDbm(-93.5);
  return rc;
}

ReceptionConfig range_config() {
  ReceptionConfig rc;
  rc.kind = ReceptionKind::range;
  return rc;
}

// The flagship's geometry (scenarios/two_hop_chain_tcp.json): A and GW hidden from
// each other, both in reach of B.
TEST(RxFailure, HiddenSendersAtTheRelayNameEachOther) {
  World w(range_config(), profile_80211b(), true);
  const RadioId a = w.add(0), b = w.add(200), gw = w.add(400);
  w.medium.connect_by_range(RangeModel{250, 300}, 300);
  w.send_at(1_ms, a, w.frame(11e6, 1500));
  w.send_at(1_ms + 100_us, gw, w.frame(11e6, 40));  // GW cannot sense A
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{
      // GW's frame arrives while B receives A's: never locked onto, because of A.
      {Seen::missed, b, 40, RxFailure::collision, a, 1_ms + 100_us + w.delay(200)},
      // A's frame, locked onto, ends lost: GW's overlapped it.
      {Seen::failed, b, 1500, RxFailure::collision, gw, 1_ms + w.delay(200)},
  };
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, OutOfReceptionRangeIsBelowSensitivity) {
  World w(range_config(), profile_80211b(), true);
  const RadioId a = w.add(0), b = w.add(400);  // sensed (550 m), not decodable (250 m)
  w.medium.connect_by_range(RangeModel{250, 550}, 550);
  w.send_at(1_ms, a, w.frame(2e6, 500));
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{{Seen::missed, b, 500, RxFailure::below_sensitivity, kNoRadio, 1_ms + w.delay(400)}};
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, SinrLossWithNothingElseOnTheAirIsTheErrorDraw) {
  World w(sinr_config(), profile_80211a(), true);
  const RadioId a = w.add(0), b = w.add(150);  // 6.4 dB of SNR: 54 Mbit/s cannot survive it
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(54e6, 1000));
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{{Seen::failed, b, 1000, RxFailure::error_draw, kNoRadio, 1_ms + w.delay(150)}};
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, FaintSignalsAreMissedBelowSensitivityWhenSent) {
  World w(sinr_config(), profile_80211a(), true);
  const RadioId a = w.add(0), c = w.add(300);  // -99.2 dBm: under the noise, above the floor
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 100));
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{{Seen::missed, c, 100, RxFailure::below_sensitivity, kNoRadio, 1_ms + w.delay(300)}};
  EXPECT_EQ(w.observer.at(c), expected);
}

TEST(RxFailure, FrameCaptureLosesTheFirstFrameToTheStrongerOne) {
  ReceptionConfig rc = sinr_config();
  rc.frame_capture = true;
  rc.capture_threshold = Db(10);
  World w(rc, profile_80211a(), true);
  const RadioId a = w.add(0), b = w.add(100), c = w.add(110);  // c 10 m from b: much stronger
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 1000));
  w.send_at(1_ms + 300_us, c, w.frame(6e6, 200));
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{
      {Seen::failed, b, 1000, RxFailure::capture_lost, c, 1_ms + w.delay(100)},
      {Seen::decoded, b, 200, RxFailure::error_draw, kNoRadio, 1_ms + 300_us + w.delay(10)},
  };
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, TransmittingLosesTheReceptionAndMissesWhatArrives) {
  World w(sinr_config(), profile_80211a(), true);
  const RadioId a = w.add(0), b = w.add(50);
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 1000));
  w.send_at(1_ms + 100_us, b, w.frame(6e6, 100));  // aborts b's reception of a's frame
  w.sim.run_until(10_ms);
  const std::vector<Seen> at_b{{Seen::failed, b, 1000, RxFailure::own_transmission, kNoRadio, 1_ms + w.delay(50)}};
  EXPECT_EQ(w.observer.at(b), at_b);
  // a still transmits when b's frame reaches it.
  const std::vector<Seen> at_a{
      {Seen::missed, a, 100, RxFailure::own_transmission, kNoRadio, 1_ms + 100_us + w.delay(50)}};
  EXPECT_EQ(w.observer.at(a), at_a);
}

// ns-2's defaults: two-ray ground at 914 MHz, 24.5 dBm, RXThresh 250 m, CSThresh 550 m.
ReceptionConfig ns2_config() {
  ReceptionConfig rc;
  rc.kind = ReceptionKind::ns2;
  rc.noise = PowerDbm(-101.0);
  rc.sensitivity = PowerDbm(-64.37);   // ns-2's RXThresh: 250 m
  rc.cca_threshold = PowerDbm(-78.07);  // CSThresh: 550 m
  return rc;
}

void connect_two_ray_ground(World& w) {
  TwoRayGround m;
  m.frequency_hz = 914e6;
  w.medium.connect([m](RadioId, RadioId, double d) { return m.gain(d); });
}

TEST(RxFailure, Ns2LocksOntoAWeakFrameAndLosesItBelowSensitivity) {
  World w(ns2_config(), profile_80211b(), true);
  const RadioId b = w.add(0, 24.5), a = w.add(400, 24.5);
  connect_two_ray_ground(w);
  w.send_at(1_ms, a, w.frame(2e6, 1000));
  w.sim.run_until(20_ms);
  const std::vector<Seen> expected{
      {Seen::failed, b, 1000, RxFailure::below_sensitivity, kNoRadio, 1_ms + w.delay(400)}};
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, Ns2NamesOnlyWhatOverlappedTheFrameAndWhatHoldsTheReceiverAfterIt) {
  // ns-2 keeps a collided reception open until the longest collided frame ends:
  // A's short frame collides with B's long one, and C's frame arrives after A's
  // has ended. C, the strongest, never overlapped A's frame, so B is A's
  // interferer; and C is missed because of B's frame, which holds the receiver.
  World w(ns2_config(), profile_80211b(), true);
  const RadioId r = w.add(0, 24.5), a = w.add(200, 24.5), b = w.add(-200, 24.5), c = w.add(100, 24.5);
  connect_two_ray_ground(w);
  const PhyFrame fa = w.frame(2e6, 100), fb = w.frame(2e6, 1000), fc = w.frame(2e6, 120);
  w.send_at(1_ms, a, fa);
  w.send_at(1_ms + 100_us, b, fb);  // equal power at R: both lost, B's lasts longer
  ASSERT_LT(1_ms + fa.duration, 2_ms);
  w.send_at(2_ms, c, fc);  // 12 dB above B's, short: after A's frame, inside B's
  w.sim.run_until(20_ms);
  const std::vector<Seen> expected{
      {Seen::missed, r, 1000, RxFailure::collision, a, 1_ms + 100_us + w.delay(200)},
      {Seen::missed, r, 120, RxFailure::collision, b, 2_ms + w.delay(100)},
      {Seen::failed, r, 100, RxFailure::collision, b, 1_ms + w.delay(200)},
  };
  EXPECT_EQ(w.observer.at(r), expected);
}

// ---- preamble detection over a window (PreambleDetection::window) ----------------------

ReceptionConfig window_config(double snr_db) {
  ReceptionConfig rc = sinr_config();
  rc.preamble_detection = PreambleDetection::window;
  rc.preamble_detection_snr = Db(snr_db);
  return rc;
}

TEST(RxFailure, WindowTwoEqualFramesAreMissedNamingEachOther) {
  World w(window_config(4.0), profile_80211a(), true);
  const RadioId a = w.add(0), b = w.add(50), c = w.add(100);
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 100));
  w.send_at(1_ms, c, w.frame(6e6, 200));
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{
      {Seen::missed, b, 100, RxFailure::collision, c, 1_ms + w.delay(50)},
      {Seen::missed, b, 200, RxFailure::collision, a, 1_ms + w.delay(50)},
  };
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, WindowTheWeakerFrameIsMissedNamingTheStrongerOne) {
  // No SINR condition: only the stronger preamble pending at a's window's end keeps
  // b from locking onto a.
  World w(window_config(-std::numeric_limits<double>::infinity()), profile_80211a(), true);
  const RadioId b = w.add(0), a = w.add(100), c = w.add(-30);
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 100));
  w.send_at(1_ms + 2_us, c, w.frame(6e6, 200));
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{
      {Seen::missed, b, 100, RxFailure::collision, c, 1_ms + w.delay(100)},
      {Seen::decoded, b, 200, RxFailure::error_draw, kNoRadio, 1_ms + 2_us + w.delay(30)},
  };
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, WindowTheFramesDroppedAtALockNameTheFrameLockedOnto) {
  // a (20 m, -52.1 dBm) is judged with c (100 m, -80.1 dBm), which arrived 1 us
  // later, on the air: 28 dB, locked onto; c's window is dropped, because of a.
  World w(window_config(4.0), profile_80211a(), true);
  const RadioId b = w.add(0), a = w.add(-20), c = w.add(100);
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 100));
  w.send_at(1_ms + 1_us, c, w.frame(6e6, 200));
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{
      {Seen::missed, b, 200, RxFailure::collision, a, 1_ms + 1_us + w.delay(100)},
      {Seen::decoded, b, 100, RxFailure::error_draw, kNoRadio, 1_ms + w.delay(20)},
  };
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, WindowTransmittingMissesTheFrameBeingJudged) {
  World w(window_config(4.0), profile_80211a(), true);
  const RadioId a = w.add(0), b = w.add(50);
  w.connect_log_distance();
  w.send_at(1_ms, a, w.frame(6e6, 100));
  w.send_at(1_ms + w.delay(50) + 2_us, b, w.frame(6e6, 200));
  w.sim.run_until(10_ms);
  const std::vector<Seen> expected{{Seen::missed, b, 100, RxFailure::own_transmission, kNoRadio, 1_ms + w.delay(50)}};
  EXPECT_EQ(w.observer.at(b), expected);
}

TEST(RxFailure, WatchingChangesNothingTheListenerHears) {
  // The hidden-terminal exchange and a capture, watched and not: the same
  // notifications at the same times with the same outcomes.
  const auto run = [](bool watched) {
    ReceptionConfig rc = sinr_config();
    rc.frame_capture = true;
    World w(rc, profile_80211a(), watched);
    w.add(0), w.add(100), w.add(110), w.add(200), w.add(300);
    w.connect_log_distance();
    for (int i = 0; i < 20; ++i) {
      w.send_at(Time::us(1000 + 700 * i), static_cast<RadioId>(i % 5), w.frame(i % 2 ? 54e6 : 6e6, 300));
      w.send_at(Time::us(1150 + 700 * i), static_cast<RadioId>((i + 2) % 5), w.frame(12e6, 200));
    }
    w.sim.run_until(50_ms);
    std::vector<std::vector<std::tuple<int, Time, RxOutcome>>> logs;
    for (const auto& l : w.listeners) logs.push_back(l->log);
    return std::pair{logs, w.observer.seen.size()};
  };
  const auto [plain, none] = run(false);
  const auto [watched, seen] = run(true);
  EXPECT_EQ(plain, watched);
  EXPECT_EQ(none, 0u);
  EXPECT_GT(seen, 40u);  // it did watch: every frame at four receivers, decoded or not
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
