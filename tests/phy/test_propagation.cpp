#include "phy/propagation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(Propagation, LogDistanceIsPaper004Equation1) {
  const LogDistance eq1;  // K = -140.046 dB, gamma = 4, d0 = 1000 m
  const PowerDbm pt(20.0);
  // At d0 the log term vanishes: Pr = Pt + K.
  EXPECT_NEAR(received_power(eq1, pt, 1000.0).dbm(), 20.0 - 140.046, 1e-9);
  // 10 gamma = 40 dB per decade.
  EXPECT_NEAR((eq1.gain(100.0) - eq1.gain(1000.0)).db(), 40.0, 1e-9);
  EXPECT_NEAR((eq1.gain(10.0) - eq1.gain(100.0)).db(), 40.0, 1e-9);
  EXPECT_NEAR((eq1.gain(250.0) - eq1.gain(500.0)).db(), 40.0 * std::log10(2.0), 1e-9);
  // Shadowing psi is a loss: positive psi lowers Pr by psi dB.
  EXPECT_NEAR(received_power(eq1, pt, 300.0, Db(5.0)).dbm(),
              received_power(eq1, pt, 300.0).dbm() - 5.0, 1e-12);
  EXPECT_NEAR(received_power(eq1, pt, 300.0, Db(-2.0)).dbm(),
              received_power(eq1, pt, 300.0).dbm() + 2.0, 1e-12);
  // Other exponents.
  const LogDistance free_space_like{Db(-40.0), 2.0, 1.0};
  EXPECT_NEAR((free_space_like.gain(10.0) - free_space_like.gain(100.0)).db(), 20.0, 1e-9);
}

TEST(Propagation, FriisAtOneMetreAt2400MHz) {
  // lambda = 299792458 / 2.4e9 = 0.124913524 m; lambda / (4 pi) = 0.009940302;
  // 20 log10(0.009940302) = -40.0520 dB.
  const Friis f{2.4e9};
  EXPECT_NEAR(f.wavelength_m(), 0.124913524, 1e-9);
  EXPECT_NEAR(f.gain(1.0).db(), -40.0520, 1e-4);
  // 20 dB per decade.
  EXPECT_NEAR((f.gain(10.0) - f.gain(100.0)).db(), 20.0, 1e-9);
  // Antenna gains add, system loss L = 2 subtracts 3.0103 dB.
  const Friis g{2.4e9, Db(2.0), Db(3.0), 2.0};
  EXPECT_NEAR(g.gain(1.0).db(), -40.0520 + 5.0 - 3.0103, 1e-4);
}

TEST(Propagation, TwoRayMeetsFriisAtTheCrossover) {
  const TwoRayGround tr{2.4e9};  // ht = hr = 1.5 m
  // d_c = 4 pi ht hr / lambda = 4 pi * 2.25 / 0.124913524 = 226.35 m.
  const double dc = tr.crossover_distance_m();
  EXPECT_NEAR(dc, 4.0 * std::numbers::pi * 2.25 / 0.124913524, 1e-6);
  EXPECT_NEAR(dc, 226.35, 0.01);
  const Friis f{2.4e9};
  // Friis below, and both formulas agree at d_c itself.
  EXPECT_DOUBLE_EQ(tr.gain(100.0).db(), f.gain(100.0).db());
  const double far_formula_at_dc = 20.0 * std::log10(2.25) - 40.0 * std::log10(dc);
  EXPECT_NEAR(tr.gain(dc).db(), far_formula_at_dc, 1e-9);
  EXPECT_NEAR(f.gain(dc).db(), far_formula_at_dc, 1e-9);
  // Continuous across it, and 40 dB per decade beyond it, whatever the frequency.
  EXPECT_NEAR(tr.gain(dc * (1 - 1e-9)).db(), tr.gain(dc * (1 + 1e-9)).db(), 1e-6);
  EXPECT_NEAR((tr.gain(300.0) - tr.gain(3000.0)).db(), 40.0, 1e-9);
  EXPECT_NEAR(tr.gain(1000.0).db(), TwoRayGround{5.0e9}.gain(1000.0).db(), 1e-9);
}

// ns-2's defaults, which papers 001 and 003 ran with: 914 MHz, Pt = 0.28183815 W,
// unity gains and loss, antennas at 1.5 m. Its receive threshold 3.652e-10 W and
// carrier-sense threshold 1.559e-11 W are the two-ray powers at 250 m and 550 m:
// Pt ht^2 hr^2 / d^4 = 0.28183815 * 5.0625 / 250^4 = 3.6526e-10 W (and 1.5592e-11 W
// at 550 m). Hence paper 003's "250 m transmission and 550 m sensing range".
TEST(Propagation, Ns2DefaultsGive250And550MetreRanges) {
  const PropagationModel ns2 = TwoRayGround{914e6};
  const PowerDbm pt = PowerMw::from_watts(0.28183815).to_dbm();
  EXPECT_NEAR(std::get<TwoRayGround>(ns2).crossover_distance_m(), 86.20, 0.01);
  EXPECT_NEAR(received_power(ns2, pt, 250.0).to_mw().watts() / 3.652e-10, 1.0, 1e-3);
  EXPECT_NEAR(received_power(ns2, pt, 550.0).to_mw().watts() / 1.559e-11, 1.0, 1e-3);

  const RangeModel ranges;  // 250 m / 550 m
  EXPECT_EQ(ranges.classify(10.0), Reach::Decodable);
  EXPECT_EQ(ranges.classify(250.0), Reach::Decodable);  // ns-2: Pr >= threshold
  EXPECT_EQ(ranges.classify(250.5), Reach::SensedOnly);
  EXPECT_EQ(ranges.classify(550.0), Reach::SensedOnly);
  EXPECT_EQ(ranges.classify(550.5), Reach::OutOfRange);
}

TEST(Propagation, VariantDispatchAndBadDistances) {
  const PropagationModel models[] = {LogDistance{}, Friis{}, TwoRayGround{}};
  for (const PropagationModel& m : models) {
    EXPECT_LT(path_gain(m, 50.0), path_gain(m, 10.0));  // farther is weaker
    EXPECT_THROW(path_gain(m, 0.0), std::invalid_argument);
    EXPECT_THROW(path_gain(m, -1.0), std::invalid_argument);
    EXPECT_THROW(path_gain(m, NAN), std::invalid_argument);
  }
  EXPECT_DOUBLE_EQ(path_gain(models[0], 123.0).db(), LogDistance{}.gain(123.0).db());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
