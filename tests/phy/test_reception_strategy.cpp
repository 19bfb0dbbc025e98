// The reception strategies as chosen once per radio: which model tracks the SINR,
// and the capture ratio each model's collisions use. Their behaviour on the air is
// tested through the radio and the medium (test_medium.cpp, tests/mac/*), unchanged.

#include "phy/reception_strategy.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <typeinfo>

namespace wmnsim::phy {
namespace {

TEST(ReceptionStrategy, OnlyTheSinrModelTracksTheSinr) {
  EXPECT_TRUE(make_reception_strategy(ReceptionKind::sinr)->tracks_sinr());
  EXPECT_FALSE(make_reception_strategy(ReceptionKind::threshold)->tracks_sinr());
  EXPECT_FALSE(make_reception_strategy(ReceptionKind::range)->tracks_sinr());
  EXPECT_FALSE(make_reception_strategy(ReceptionKind::ns2)->tracks_sinr());
}

TEST(ReceptionStrategy, RangeAndThresholdShareOneStrategy) {
  // Range is threshold reception whose capture ratio is infinite.
  const auto threshold = make_reception_strategy(ReceptionKind::threshold);
  const auto range = make_reception_strategy(ReceptionKind::range);
  EXPECT_EQ(typeid(*threshold), typeid(*range));
  EXPECT_NE(typeid(*threshold), typeid(*make_reception_strategy(ReceptionKind::ns2)));
  EXPECT_NE(typeid(*threshold), typeid(*make_reception_strategy(ReceptionKind::sinr)));
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

}  // namespace
}  // namespace wmnsim::phy
