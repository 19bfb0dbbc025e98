#include "core/time.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

TEST(Time, FactoriesAgreeOnPicoseconds) {
  EXPECT_EQ(Time::us(20).picoseconds(), 20'000'000);
  EXPECT_EQ(Time::ns(1), Time::ps(1000));
  EXPECT_EQ(Time::ms(1), Time::us(1000));
  EXPECT_EQ(Time::s(1), Time::ms(1000));
  EXPECT_EQ(20_us, Time::us(20));
  EXPECT_EQ(3_s, Time::s(3));
}

TEST(Time, ArithmeticAndComparison) {
  const Time slot = 20_us, sifs = 10_us;
  const Time difs = sifs + 2 * slot;
  EXPECT_EQ(difs, 50_us);
  EXPECT_EQ(difs - sifs, 40_us);
  EXPECT_EQ((7 * slot) / slot, 7);
  EXPECT_EQ(Time::us(45) % slot, 5_us);
  EXPECT_EQ(slot / 4, 5_us);
  EXPECT_LT(sifs, slot);
  EXPECT_GT(Time::max(), Time::s(9'000'000));
  Time t = 1_ms;
  t += 500_us;
  t -= 250_us;
  EXPECT_EQ(t, 1250_us);
  EXPECT_EQ(-t, Time::zero() - t);
}

TEST(Time, SecondsOnlyAtTheEdges) {
  EXPECT_EQ(Time::from_seconds(1.5), 1500_ms);
  EXPECT_EQ(Time::from_seconds(20e-6), 20_us);  // rounds to the nearest picosecond
  EXPECT_EQ(Time::from_seconds(1e-12), 1_ps);
  EXPECT_DOUBLE_EQ((250_ms).to_seconds(), 0.25);
  EXPECT_THROW(Time::from_seconds(1e8), std::out_of_range);  // > 106 days
  EXPECT_THROW(Time::from_seconds(std::nan("")), std::out_of_range);
}

TEST(Time, ToStringPicksReadableUnits) {
  EXPECT_EQ((20_us).to_string(), "20us");
  EXPECT_EQ((1500_ms).to_string(), "1.500000000s");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
