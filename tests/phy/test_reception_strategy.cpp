// The reception strategies as chosen once per radio: which model tracks the SINR,
// the capture ratio each model's collisions use, and how the medium makes each
// model's links. Their behaviour on the air is tested through the radio and the
// medium (test_medium.cpp, tests/mac/*), unchanged.

#include "phy/reception_strategy.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <variant>

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

ReceptionStrategy strategy_of(ReceptionKind kind) {
  ReceptionConfig rc;
  rc.kind = kind;
  return make_reception_strategy(rc);
}

TEST(ReceptionStrategy, EachKindGetsItsModel) {
  EXPECT_TRUE(std::holds_alternative<SinrReception>(strategy_of(ReceptionKind::sinr)));
  EXPECT_TRUE(std::holds_alternative<Ns2Reception>(strategy_of(ReceptionKind::ns2)));
}

TEST(ReceptionStrategy, TheSinrModelReadsDsssOverTwentyTwoMegahertzOnlyWhenConfigured) {
  // The reading is fixed when the radio is built (SinrReception::dsss_gain); the
  // variant stays two bytes, which keeps the Radio within its budget.
  ReceptionConfig rc;
  EXPECT_FALSE(std::get<SinrReception>(make_reception_strategy(rc)).dsss_gain);
  rc.dsss_sinr_gain = 2.0;
  EXPECT_TRUE(std::get<SinrReception>(make_reception_strategy(rc)).dsss_gain);
  rc.kind = ReceptionKind::range;
  EXPECT_TRUE(std::holds_alternative<ThresholdReception>(make_reception_strategy(rc)));
  EXPECT_EQ(sizeof(ReceptionStrategy), 2u);
}

TEST(ReceptionStrategy, OnlyTheSinrModelTracksTheSinr) {
  EXPECT_TRUE(tracks_sinr(strategy_of(ReceptionKind::sinr)));
  EXPECT_FALSE(tracks_sinr(strategy_of(ReceptionKind::threshold)));
  EXPECT_FALSE(tracks_sinr(strategy_of(ReceptionKind::range)));
  EXPECT_FALSE(tracks_sinr(strategy_of(ReceptionKind::ns2)));
}

TEST(ReceptionStrategy, RangeAndThresholdShareOneStrategy) {
  // Range is threshold reception whose capture ratio is infinite.
  EXPECT_TRUE(std::holds_alternative<ThresholdReception>(strategy_of(ReceptionKind::threshold)));
  EXPECT_TRUE(std::holds_alternative<ThresholdReception>(strategy_of(ReceptionKind::range)));
}

TEST(ReceptionStrategy, CaptureRatioIsTheThresholdButInfiniteInRange) {
  ReceptionConfig rc;
  rc.capture_threshold = Db(10.0);
  for (const auto kind : {ReceptionKind::sinr, ReceptionKind::threshold, ReceptionKind::ns2}) {
    rc.kind = kind;
    EXPECT_DOUBLE_EQ(capture_ratio(rc), 10.0);
  }
  rc.kind = ReceptionKind::range;
  EXPECT_TRUE(std::isinf(capture_ratio(rc)));
}

TEST(ReceptionStrategy, LinkRulesOfEachKind) {
  ReceptionConfig rc;
  rc.kind = ReceptionKind::sinr;
  LinkRules r = link_rules(rc);
  EXPECT_FALSE(r.by_range);
  EXPECT_FALSE(r.carrier_sense_floor);
  EXPECT_TRUE(r.faint_as_intervals);
  rc.faint_signal_events = true;
  EXPECT_FALSE(link_rules(rc).faint_as_intervals);
  for (const auto kind : {ReceptionKind::threshold, ReceptionKind::ns2}) {
    rc.kind = kind;
    r = link_rules(rc);
    EXPECT_FALSE(r.by_range);
    EXPECT_TRUE(r.carrier_sense_floor);
    EXPECT_FALSE(r.faint_as_intervals);
  }
  rc.kind = ReceptionKind::range;
  r = link_rules(rc);
  EXPECT_TRUE(r.by_range);
  EXPECT_FALSE(r.carrier_sense_floor);
  EXPECT_FALSE(r.faint_as_intervals);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
