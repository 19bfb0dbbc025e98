// ChannelAccess alone, against a stub MAC (the owner: its transmission and frame
// exchange are flags, and a grant is recorded with its time), on 802.11b timing
// (slot 20 us, SIFS 10 us, DIFS 50 us, EIFS 364 us). Every test scripts the medium
// at exact microseconds and expects the access grants at exact microseconds, as
// ns-3's channel-access-manager test does.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/simulation.hpp"
#include "link/drop_tail_queue.hpp"
#include "mac/channel_access.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

class NoDrops : public DropSink {
 public:
  void on_drop(PacketPtr, DropCause, Time) override {}
};

// A stream whose first backoff draw below `cw` is at least `at_least` slots (so a
// test can freeze a countdown part-way); the key is found, not guessed.
std::uint64_t key_with_first_draw(std::uint64_t cw, std::uint64_t at_least) {
  for (std::uint64_t key = 1;; ++key) {
    RandomStream s(key);
    if (s.uniform_int(cw) >= at_least) return key;
  }
}

class World final : public ChannelAccess::Owner {
 public:
  explicit World(std::vector<EdcaParams> params, Deferral deferral = Deferral::standard, std::uint64_t key = 7,
                 bool phy_busy = false)
      : draws(key), replay(key) {
    functions.reserve(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
      functions.emplace_back(static_cast<AccessCategory>(i), params[i],
                             std::make_unique<link::DropTailQueue>(link::QueueLimit{}, sink));
    }
    access = std::make_unique<ChannelAccess>(sim.scheduler(), kNoContext, 0, timing, deferral,
                                             ImmediateAccess::standard, std::span<AccessFunction>(functions), meter,
                                             *this, draws.uniform_part(), phy_busy, false);
  }

  bool exchange_active() const override { return exchange; }
  bool delivering_reception() const override { return false; }
  void on_access_time(Time now) override {
    for (std::size_t i = 0; i < functions.size(); ++i) {
      AccessFunction& f = functions[i];
      if (!f.contending() || f.access_at != now) continue;
      f.end_contention();
      grants.push_back({now, i});
    }
    access->reschedule_timer();
  }

  void at(Time t, std::function<void()> action) { sim.scheduler().schedule_at(t, std::move(action)); }
  void phy(Time t, bool busy) {
    at(t, [this, busy] { access->set_phy_busy(busy); });
  }
  void request(Time t, std::size_t i = 0) {
    at(t, [this, i] { access->request_access(functions[i], sim.now()); });
  }
  int next_draw(std::size_t i = 0) { return static_cast<int>(replay.uniform_int(static_cast<std::uint64_t>(functions[i].cw))); }
  // When the one access granted began counting its backoff: its time less the slots of
  // the first draw (the test fails unless exactly one access was granted).
  Time count_began() {
    EXPECT_EQ(grants.size(), 1u);
    return grants.empty() ? Time::max() : grants[0].at - next_draw() * timing.slot;
  }

  struct Grant {
    Time at;
    std::size_t function;
    bool operator==(const Grant&) const = default;
  };

  Simulation sim{1};
  NoDrops sink;
  RandomStream draws;   // the functions' shared backoff stream
  RandomStream replay;  // the same draws, in order, to predict theirs
  const MacTiming timing = mac_timing(phy::profile_80211b(), phy::kDsssMcs[0]);
  BusyTimeMeter meter{false};
  std::vector<AccessFunction> functions;
  std::unique_ptr<ChannelAccess> access;
  bool exchange = false;
  std::vector<Grant> grants;
};

const EdcaParams kDcf{2, 32, 1024, {}};

TEST(ChannelAccess, TimingIsThe80211bOne) {
  World w({kDcf});
  EXPECT_EQ(w.timing.slot, 20_us);
  EXPECT_EQ(w.timing.difs, 50_us);
  EXPECT_EQ(w.timing.eifs, 364_us);
  EXPECT_EQ(same_slot_guard(w.timing.slot), 10_us);
}

TEST(ChannelAccess, ImmediateAccessAfterDifsOfIdleMedium) {
  // 9.3.4.2: the medium idle since 0; a frame at 0 goes at DIFS, one at 1 ms (idle
  // for longer than DIFS already) goes at once.
  World w({kDcf});
  w.request(0_us);
  w.sim.run_until(500_us);
  w.request(1_ms);
  w.sim.run_until(2_ms);
  EXPECT_EQ(w.grants, (std::vector<World::Grant>{{50_us, 0}, {1_ms, 0}}));
}

TEST(ChannelAccess, BusyBeforeDifsDrawsABackoffCountedAfterTheNextDifs) {
  World w({kDcf});
  w.request(0_us);
  w.phy(30_us, true);  // 20 us before the access time: not the same slot
  w.phy(1030_us, false);
  w.sim.run_until(5_ms);
  const int n = w.next_draw();
  ASSERT_EQ(w.grants.size(), 1u);
  EXPECT_EQ(w.grants[0].at, 1030_us + 50_us + n * 20_us);
}

TEST(ChannelAccess, BusyFrameInTheAccessSlotDoesNotStopIt) {
  // Someone else's signal starting less than half a slot before our access time is
  // in our slot (9.3.7): we transmit anyway, at the access time.
  World w({kDcf});
  w.request(0_us);
  w.phy(41_us, true);
  w.phy(2_ms, false);
  w.sim.run_until(1_ms);
  EXPECT_EQ(w.grants, (std::vector<World::Grant>{{50_us, 0}}));
}

TEST(ChannelAccess, BusyExactlyHalfASlotBeforeStopsIt) {
  World w({kDcf});
  w.request(0_us);
  w.phy(40_us, true);  // 10 us before: not within the guard
  w.sim.run_until(1_ms);
  EXPECT_TRUE(w.grants.empty());
  EXPECT_EQ(w.functions[0].phase(), AccessPhase::backoff);
}

TEST(ChannelAccess, OwnTransmissionInTheGuardFreezesAll) {
  // Only someone else's signal can start unseen in our slot; our own exchange
  // (here a response we start) freezes every function.
  World w({kDcf});
  w.request(0_us);
  w.at(45_us, [&w] {
    w.access->set_transmitting(true);
    w.access->refresh();
  });
  w.sim.run_until(1_ms);
  EXPECT_TRUE(w.grants.empty());
}

TEST(ChannelAccess, FreezeSubtractsWholeSlotsAndResumesAfterDifs) {
  const std::uint64_t key = key_with_first_draw(32, 5);
  World w({kDcf}, Deferral::standard, key, /*phy_busy=*/true);
  w.request(0_us);  // busy: a backoff of n >= 5 slots
  const int n = w.next_draw();
  ASSERT_GE(n, 5);
  w.phy(1000_us, false);  // counting from 1050 us
  // Busy 2 whole slots and 5 us into the third: 2 slots consumed.
  w.phy(1050_us + 2 * 20_us + 5_us, true);
  w.at(1050_us + 2 * 20_us + 6_us, [&w, n] { EXPECT_EQ(w.functions[0].backoff_slots, n - 2); });
  w.phy(3000_us, false);
  w.sim.run_until(10_ms);
  ASSERT_EQ(w.grants.size(), 1u);
  EXPECT_EQ(w.grants[0].at, 3000_us + 50_us + (n - 2) * 20_us);
}

TEST(ChannelAccess, NavSetExtendedAndExpired) {
  // 9.3.2.4: the NAV only grows; when it runs out the medium is idle and counting
  // resumes after DIFS.
  World w({kDcf});
  w.at(0_us, [&w] { w.access->set_nav(300_us); });
  w.at(100_us, [&w] { w.access->set_nav(500_us); });  // extended
  w.at(150_us, [&w] {
    w.access->set_nav(200_us);  // shorter: ignored
    EXPECT_EQ(w.access->nav_end(), 500_us);
    EXPECT_TRUE(w.access->nav_set());
    EXPECT_TRUE(w.access->busy());
  });
  w.request(200_us);  // busy: backoff
  w.at(500_us, [&w] { EXPECT_FALSE(w.access->nav_set()); });
  w.sim.run_until(10_ms);
  const int n = w.next_draw();
  ASSERT_EQ(w.grants.size(), 1u);
  EXPECT_EQ(w.grants[0].at, 500_us + 50_us + n * 20_us);
  EXPECT_EQ(w.meter.channel_busy_time(10_ms), 500_us);  // the NAV is a cause of busyness
}

TEST(ChannelAccess, EifsAfterAnErroredReceptionAifsAfterAGoodOne) {
  // 9.3.2.3.7: EIFS instead of DIFS after an errored frame, until an error-free one.
  for (const bool errored : {true, false}) {
    World w({kDcf});
    w.phy(0_us, true);
    w.request(10_us);
    w.at(1000_us, [&w, errored] {
      if (errored) {
        w.access->errored_reception();
      } else {
        w.access->error_free_reception();
      }
      w.access->set_phy_busy(false);
    });
    w.sim.run_until(10_ms);
    const int n = w.next_draw();
    ASSERT_EQ(w.grants.size(), 1u);
    EXPECT_EQ(w.grants[0].at, 1000_us + (errored ? 364_us : 50_us) + n * 20_us) << "errored " << errored;
  }
}

TEST(ChannelAccess, EifsOfAnEdcaFunctionIsEifsMinusDifsPlusItsAifs) {
  // 9.19.2.3: EIFS - DIFS + AIFS[AC]; AIFSN 3 is AIFS 70 us.
  World w({EdcaParams{3, 32, 1024, {}}});
  w.phy(0_us, true);
  w.request(10_us);
  w.at(1000_us, [&w] {
    w.access->errored_reception();
    w.access->set_phy_busy(false);
  });
  w.sim.run_until(10_ms);
  const int n = w.next_draw();
  ASSERT_EQ(w.grants.size(), 1u);
  EXPECT_EQ(w.grants[0].at, 1000_us + 364_us - 50_us + 70_us + n * 20_us);
}

// A request while the medium is busy, an errored frame ending at 1000 us, the medium
// idle after it: under deferral "ns2" the NAV is set for EIFS from its end.
void errored_frame_at_1000_us(World& w) {
  w.phy(0_us, true);
  w.request(10_us);
  w.at(1000_us, [&w] {
    w.access->errored_reception();
    EXPECT_EQ(w.access->nav_end(), 1364_us);
    w.access->set_phy_busy(false);
  });
  w.sim.run_until(10_ms);
}

TEST(ChannelAccess, Ns2DeferralSetsTheNavForEifsThenDifs) {
  // ns-2's recv_timer: the NAV for EIFS from the errored frame's end, then DIFS.
  World w({kDcf}, Deferral::ns2);
  errored_frame_at_1000_us(w);
  const int n = w.next_draw();
  ASSERT_EQ(w.grants.size(), 1u);
  EXPECT_EQ(w.grants[0].at, 1364_us + 50_us + n * 20_us);
}

TEST(ChannelAccess, Ns2DeferralUnderEdcaSetsTheNavForEifsThenTheCategorysAifs) {
  // EDCA under deferral "ns2" (TXOP limits refused at load, scenario_radio.cpp): ns-2's
  // EIFS NAV, then AIFS[AC] where ns-2's DCF has DIFS; AIFSN 3 is AIFS 70 us.
  World w({EdcaParams{3, 32, 1024, {}}}, Deferral::ns2);
  errored_frame_at_1000_us(w);
  const int n = w.next_draw();
  ASSERT_EQ(w.grants.size(), 1u);
  EXPECT_EQ(w.grants[0].at, 1364_us + 70_us + n * 20_us);
}

TEST(ChannelAccess, Ns2DeferralUnderEdcaGivesEachFunctionItsOwnAifsAfterTheEifsNav) {
  // Two access functions under deferral "ns2", both asking while the medium is busy:
  // the one EIFS NAV, then each function's own AIFS (AIFSN 3: 70 us, AIFSN 7: 150 us).
  // Windows of one slot (backoff 0) keep the grant times free of the draws' order.
  World w({EdcaParams{3, 1, 1, {}}, EdcaParams{7, 1, 1, {}}}, Deferral::ns2);
  w.phy(0_us, true);
  w.request(10_us, 0);
  w.request(10_us, 1);
  w.at(1000_us, [&w] {
    w.access->errored_reception();
    EXPECT_EQ(w.access->nav_end(), 1364_us);
    w.access->set_phy_busy(false);
  });
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.grants, (std::vector<World::Grant>{{1364_us + 70_us, 0}, {1364_us + 150_us, 1}}));
}

// An errored frame ends at 1000 us; the medium stays busy (a frame that began during
// it, sensed only) until `idle_at`, then is idle. The first backoff is drawn at 10 us.
void errored_frame_then_busy_until(World& w, Time idle_at) {
  w.phy(0_us, true);
  w.request(10_us);
  w.at(1000_us, [&w, idle_at] {
    w.access->errored_reception();
    if (idle_at == 1000_us) w.access->set_phy_busy(false);
  });
  if (idle_at != 1000_us) w.phy(idle_at, false);
  w.sim.run_until(10_ms);
}

TEST(ChannelAccess, StandardDeferralBeginsTheEifsWhenTheMediumIdlesAfterTheErroredFrame) {
  // 9.3.2.3.7: the EIFS begins when the PHY indicates the medium idle after the
  // erroneous frame, however long the medium stayed busy after it.
  for (const Time idle_at : {1000_us, 1200_us, 2000_us}) {
    World w({kDcf});
    errored_frame_then_busy_until(w, idle_at);
    EXPECT_EQ(w.count_began(), idle_at + 364_us) << idle_at.to_seconds();
  }
}

TEST(ChannelAccess, Ns3DeferralCountsEifsMinusDifsFromTheErroredFramesEnd) {
  // ns-3's GetAccessGrantStart: the count starts DIFS after the later of the idle
  // medium and the errored frame's end + EIFS - DIFS (1000 + 364 - 50 = 1314 us).
  for (const auto& [idle_at, count_from] :
       {std::pair{1000_us, 1364_us}, std::pair{1200_us, 1364_us}, std::pair{2000_us, 2050_us}}) {
    World w({kDcf}, Deferral::ns3);
    errored_frame_then_busy_until(w, idle_at);
    EXPECT_EQ(w.count_began(), count_from) << idle_at.to_seconds();
  }
}

TEST(ChannelAccess, Ns3DeferralUnderEdcaAddsTheCategorysAifs) {
  // EIFS - DIFS from the errored frame's end, then AIFS[AC] (AIFSN 3: 70 us).
  for (const auto& [idle_at, count_from] : {std::pair{1000_us, 1384_us}, std::pair{2000_us, 2070_us}}) {
    World w({EdcaParams{3, 32, 1024, {}}}, Deferral::ns3);
    errored_frame_then_busy_until(w, idle_at);
    EXPECT_EQ(w.count_began(), count_from) << idle_at.to_seconds();
  }
}

TEST(ChannelAccess, Ns3DeferralIsNotRenewedByALaterBusyPeriodTheStandardsIs) {
  // The errored frame ends at 1000 us with the medium idle; a sensed-only signal
  // from 1100 to 3000 us interrupts the EIFS before any slot was counted. The
  // standard's EIFS lasts until an error-free frame: EIFS again after 3000 us.
  // ns-3's was counted from 1000 us and has run out: DIFS after 3000 us.
  for (const Deferral deferral : {Deferral::standard, Deferral::ns3}) {
    World w({kDcf}, deferral);
    w.phy(0_us, true);
    w.request(10_us);
    w.at(1000_us, [&w] {
      w.access->errored_reception();
      w.access->set_phy_busy(false);
    });
    w.phy(1100_us, true);
    w.phy(3000_us, false);
    w.sim.run_until(10_ms);
    const Time ifs = deferral == Deferral::ns3 ? 50_us : 364_us;
    EXPECT_EQ(w.count_began(), 3000_us + ifs) << static_cast<int>(deferral);
  }
}

TEST(ChannelAccess, Ns3DeferralReportedAfterTheMediumIdledStillDatesTheCount) {
  // The radio reports a reception's end before its CCA goes idle; reported the other
  // way round, the function already counting is dated again from the errored end.
  World w({kDcf}, Deferral::ns3);
  w.phy(0_us, true);
  w.request(10_us);
  w.at(1000_us, [&w] {
    w.access->set_phy_busy(false);
    w.access->errored_reception();
  });
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.count_began(), 1364_us);
}

TEST(ChannelAccess, Ns3DeferralAfterAGoodFrameIsDifs) {
  // An error-free frame ends the EIFS in both (ns-3: m_lastRxReceivedOk).
  World w({kDcf}, Deferral::ns3);
  w.phy(0_us, true);
  w.request(10_us);
  w.at(1000_us, [&w] { w.access->errored_reception(); });
  w.at(1100_us, [&w] {
    w.access->error_free_reception();
    w.access->set_phy_busy(false);
  });
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.count_began(), 1150_us);
}

// A NAV until `nav_until` is set at 500 us (a CTS heard); an errored frame (its DATA,
// hidden) ends at 1000 us with the PHY idle after it. The first backoff is drawn at 10 us.
void errored_frame_under_a_nav_until(World& w, Time nav_until) {
  w.phy(0_us, true);
  w.request(10_us);
  w.at(500_us, [&w, nav_until] { w.access->set_nav(nav_until); });
  w.at(1000_us, [&w] {
    w.access->errored_reception();
    w.access->set_phy_busy(false);
  });
  w.sim.run_until(10_ms);
}

TEST(ChannelAccess, PhyIdleDeferralBeginsTheEifsAtThePhysIdleWithoutRegardToTheNav) {
  // 9.3.2.3.7 read to the letter (phy_idle): the EIFS runs from the PHY's idle at
  // 1000 us whatever the NAV; the NAV defers by DIFS after its end (9.3.2.1). The
  // standard reading (9.3.4.3) counts the EIFS from the medium's idle, NAV included.
  struct Case {
    Time nav_until;
    Time phy_idle_count_from;
    Time standard_count_from;
  };
  for (const Case c : {Case{900_us, 1364_us, 1364_us},    // NAV over before the PHY idles: the same
                       Case{1200_us, 1364_us, 1564_us},   // EIFS outlasts NAV + DIFS
                       Case{1400_us, 1450_us, 1764_us}}) {  // NAV + DIFS outlasts the EIFS
    for (const Deferral deferral : {Deferral::phy_idle, Deferral::standard}) {
      World w({kDcf}, deferral);
      errored_frame_under_a_nav_until(w, c.nav_until);
      const Time count_from = deferral == Deferral::phy_idle ? c.phy_idle_count_from : c.standard_count_from;
      EXPECT_EQ(w.count_began(), count_from)
          << "NAV until " << c.nav_until.to_seconds() << ", deferral " << static_cast<int>(deferral);
    }
  }
}

TEST(ChannelAccess, PhyIdleDeferralUnderEdcaAddsTheCategorysAifs) {
  // EIFS - DIFS + AIFS[AC] from the PHY's idle, AIFS[AC] after the NAV (AIFSN 3: 70 us).
  for (const auto& [nav_until, count_from] : {std::pair{1200_us, 1384_us}, std::pair{1400_us, 1470_us}}) {
    World w({EdcaParams{3, 32, 1024, {}}}, Deferral::phy_idle);
    errored_frame_under_a_nav_until(w, nav_until);
    EXPECT_EQ(w.count_began(), count_from) << nav_until.to_seconds();
  }
}

TEST(ChannelAccess, PhyIdleDeferralIsTheStandardsWithoutANav) {
  // No NAV: the PHY's idle is the medium's, and a later busy period renews the EIFS
  // until an error-free frame, under both readings.
  for (const Deferral deferral : {Deferral::phy_idle, Deferral::standard}) {
    for (const Time idle_at : {1000_us, 2000_us}) {
      World w({kDcf}, deferral);
      errored_frame_then_busy_until(w, idle_at);
      EXPECT_EQ(w.count_began(), idle_at + 364_us)
          << idle_at.to_seconds() << ", deferral " << static_cast<int>(deferral);
    }
    World w({kDcf}, deferral);
    w.phy(0_us, true);
    w.request(10_us);
    w.at(1000_us, [&w] {
      w.access->errored_reception();
      w.access->set_phy_busy(false);
    });
    w.phy(1100_us, true);
    w.phy(3000_us, false);
    w.sim.run_until(10_ms);
    EXPECT_EQ(w.count_began(), 3000_us + 364_us) << static_cast<int>(deferral);
  }
}

TEST(ChannelAccess, PhyIdleDeferralReportedAfterThePhyIdledBeginsTheEifsThen) {
  // The error reported 100 us after the PHY idled, a NAV running on to 1200 us: the
  // EIFS begins at the report (1100 us), not at the PHY's idle (1000 us).
  World w({kDcf}, Deferral::phy_idle);
  w.phy(0_us, true);
  w.request(10_us);
  w.at(500_us, [&w] { w.access->set_nav(1200_us); });
  w.phy(1000_us, false);
  w.at(1100_us, [&w] { w.access->errored_reception(); });
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.count_began(), 1464_us);
}

TEST(ChannelAccess, PhyIdleDeferralASecondErrorOnAnIdleMediumBeginsTheEifsAgain) {
  // The first EIFS runs from the PHY's idle at 1000 us under a NAV to 1400 us; the
  // medium is idle from 1400 us (access DIFS after it, 1450 us, the EIFS being over at
  // 1364 us). A second error reported at 1410 us begins the EIFS again: the count is
  // dated from 1410 + 364 us, not left at 1450 us.
  World w({kDcf}, Deferral::phy_idle);
  w.phy(0_us, true);
  w.request(10_us);
  w.at(500_us, [&w] { w.access->set_nav(1400_us); });
  w.at(1000_us, [&w] {
    w.access->errored_reception();
    w.access->set_phy_busy(false);
  });
  w.at(1410_us, [&w] { w.access->errored_reception(); });
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.count_began(), 1774_us);
}

TEST(ChannelAccess, PhyIdleDeferralReportedWithTheMediumIdle) {
  // The error reported as the whole medium idles (1000 us): the next count adds the
  // EIFS, under both readings (the request at 1100 us defers EIFS from 1000 us).
  // Reported 50 us later, with no NAV (the radio never does: it reports while its CCA
  // is busy), phy_idle begins the EIFS at the report and standard at the idle.
  struct Case {
    Time reported_at;
    Time phy_idle_grant;
    Time standard_grant;
  };
  for (const Case c : {Case{1000_us, 1364_us, 1364_us}, Case{1050_us, 1414_us, 1364_us}}) {
    for (const Deferral deferral : {Deferral::phy_idle, Deferral::standard}) {
      World w({kDcf}, deferral);
      w.phy(0_us, true);
      w.phy(1000_us, false);
      w.at(c.reported_at, [&w] { w.access->errored_reception(); });
      w.request(1100_us);
      w.sim.run_until(10_ms);
      ASSERT_EQ(w.grants.size(), 1u);
      EXPECT_EQ(w.grants[0].at, deferral == Deferral::phy_idle ? c.phy_idle_grant : c.standard_grant)
          << c.reported_at.to_seconds() << ", deferral " << static_cast<int>(deferral);
    }
  }
}

TEST(ChannelAccess, PhyIdleDeferralAfterAGoodFrameIsDifsAfterTheNav) {
  // An error-free frame ends the EIFS: DIFS after the NAV, as under every reading.
  // First reported while the PHY is still busy; then with the PHY idle after the
  // errored frame (800 us) and an error-free one from 900 to 1000 us under the NAV.
  {
    World w({kDcf}, Deferral::phy_idle);
    w.phy(0_us, true);
    w.request(10_us);
    w.at(500_us, [&w] { w.access->set_nav(1200_us); });
    w.at(800_us, [&w] { w.access->errored_reception(); });
    w.at(1000_us, [&w] {
      w.access->error_free_reception();
      w.access->set_phy_busy(false);
    });
    w.sim.run_until(10_ms);
    EXPECT_EQ(w.count_began(), 1250_us);
  }
  World w({kDcf}, Deferral::phy_idle);
  w.phy(0_us, true);
  w.request(10_us);
  w.at(500_us, [&w] { w.access->set_nav(1100_us); });
  w.at(800_us, [&w] {
    w.access->errored_reception();
    w.access->set_phy_busy(false);
  });
  w.phy(900_us, true);
  w.at(1000_us, [&w] {
    w.access->error_free_reception();
    w.access->set_phy_busy(false);
  });
  w.sim.run_until(10_ms);
  EXPECT_EQ(w.count_began(), 1150_us);
}

TEST(ChannelAccess, PhyIdleDeferralBeginsTheEifsAfterOurOwnExchange) {
  // Our own transmission (2000 to 2500 us) and its response wait (to 2800 us, no
  // response) hold the medium as the PHY does: with no error-free frame since the
  // errored one, the EIFS begins again when the exchange ends, under both readings.
  for (const Deferral deferral : {Deferral::phy_idle, Deferral::standard}) {
    World w({kDcf}, deferral);
    w.phy(0_us, true);
    w.at(1000_us, [&w] {
      w.access->errored_reception();
      w.access->set_phy_busy(false);
    });
    w.at(2000_us, [&w] {
      w.exchange = true;
      w.access->set_transmitting(true);
      w.access->refresh();
    });
    w.at(2500_us, [&w] {
      w.access->set_transmitting(false);
      w.access->refresh();
    });
    w.request(2600_us);
    w.at(2800_us, [&w] {
      w.exchange = false;
      w.access->refresh();
    });
    w.sim.run_until(10_ms);
    EXPECT_EQ(w.count_began(), 2800_us + 364_us) << static_cast<int>(deferral);
  }
}

TEST(ChannelAccess, TheShorterAifsWinsTheTimer) {
  // Two functions asking at once on an idle medium: AIFSN 2 at 50 us, AIFSN 7 at 150 us.
  World w({EdcaParams{7, 32, 1024, {}}, EdcaParams{2, 16, 32, {}}});
  w.request(0_us, 0);
  w.request(0_us, 1);
  w.sim.run_until(1_ms);
  EXPECT_EQ(w.grants, (std::vector<World::Grant>{{50_us, 1}, {150_us, 0}}));
}

TEST(ChannelAccess, AccessTimerDuringOwnExchangeFailsLoudly) {
  // A committed function keeps its access time through someone else's busy start;
  // if the station's own exchange were under way then, two of its transmissions
  // would overlap: an internal invariant, which throws rather than being patched.
  World w({kDcf});
  w.request(0_us);
  w.phy(45_us, true);  // committed
  w.at(48_us, [&w] { w.exchange = true; });
  EXPECT_THROW(w.sim.run_until(1_ms), std::logic_error);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
