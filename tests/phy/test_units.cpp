#include "phy/units.hpp"

#include <gtest/gtest.h>

#include <type_traits>

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// The point of the types: no silent mixing of log and linear scales.
static_assert(!std::is_convertible_v<double, PowerDbm>);
static_assert(!std::is_convertible_v<double, PowerMw>);
static_assert(!std::is_convertible_v<double, Db>);
static_assert(!std::is_convertible_v<PowerDbm, PowerMw>);
static_assert(!std::is_convertible_v<PowerMw, PowerDbm>);
template <class A, class B>
concept Addable = requires(A a, B b) { a + b; };
static_assert(!Addable<PowerDbm, PowerDbm>);  // adding dBm is meaningless
static_assert(!Addable<PowerDbm, PowerMw>);
static_assert(Addable<PowerDbm, Db>);
static_assert(Addable<PowerMw, PowerMw>);

TEST(PhyUnits, DbmAndMilliwattConvert) {
  EXPECT_DOUBLE_EQ(PowerDbm(0.0).to_mw().mw(), 1.0);
  EXPECT_DOUBLE_EQ(PowerDbm(20.0).to_mw().mw(), 100.0);
  EXPECT_NEAR(PowerDbm(-93.5).to_mw().mw(), 4.4668e-10, 1e-13);
  EXPECT_DOUBLE_EQ(PowerMw(1000.0).to_dbm().dbm(), 30.0);
  EXPECT_DOUBLE_EQ(PowerMw::from_watts(0.5).mw(), 500.0);
  EXPECT_NEAR(PowerMw(123.0).to_dbm().to_mw().mw(), 123.0, 1e-12);
}

TEST(PhyUnits, InterferenceSumsInMilliwatts) {
  // Two equal -90 dBm interferers add to -90 + 10 log10(2) = -86.99 dBm, not -180.
  PowerMw total = PowerDbm(-90.0).to_mw();
  total += PowerDbm(-90.0).to_mw();
  EXPECT_NEAR(total.to_dbm().dbm(), -86.9897, 1e-4);
  // SINR as a linear ratio and in dB.
  const PowerMw signal = PowerDbm(-70.0).to_mw();
  const double sinr = signal / total;
  EXPECT_NEAR(Db::from_linear(sinr).db(), 16.9897, 1e-4);
}

TEST(PhyUnits, GainsAndRatiosInDb) {
  const PowerDbm tx(20.0);
  const PowerDbm rx = tx + Db(-100.0);
  EXPECT_DOUBLE_EQ(rx.dbm(), -80.0);
  EXPECT_DOUBLE_EQ((rx - PowerDbm(-93.5)).db(), 13.5);  // dBm - dBm = dB
  EXPECT_DOUBLE_EQ((rx - Db(3.0)).dbm(), -83.0);
  EXPECT_DOUBLE_EQ(Db(10.0).linear(), 10.0);
  EXPECT_DOUBLE_EQ(Db::from_linear(100.0).db(), 20.0);
  EXPECT_LT(Db(3.0), Db(4.0));
  EXPECT_DOUBLE_EQ((Db(3.0) * 2.0).db(), 6.0);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
