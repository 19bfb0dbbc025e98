#include "phy/propagation.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace wmnsim::phy {
namespace {

void check_distance(double distance_m) {
  if (!(distance_m > 0.0) || !std::isfinite(distance_m)) {
    throw std::invalid_argument("propagation needs a positive, finite distance, got " +
                                std::to_string(distance_m) + " m");
  }
}

}  // namespace

Db LogDistance::gain(double distance_m) const {
  check_distance(distance_m);
  return k - Db(10.0 * gamma * std::log10(distance_m / d0_m));
}

// Friis transmission equation: Pr/Pt = Gt Gr (lambda / (4 pi d))^2 / L.
Db Friis::gain(double distance_m) const {
  check_distance(distance_m);
  const double ratio = wavelength_m() / (4.0 * std::numbers::pi * distance_m);
  return tx_antenna_gain + rx_antenna_gain + Db(20.0 * std::log10(ratio)) -
         Db::from_linear(system_loss);
}

// Where the two formulas meet: lambda^2 / (4 pi d)^2 = ht^2 hr^2 / d^4.
double TwoRayGround::crossover_distance_m() const {
  return 4.0 * std::numbers::pi * tx_height_m * rx_height_m * frequency_hz / kSpeedOfLight;
}

// Far field of a direct and a ground-reflected ray (Rappaport, "Wireless
// Communications", 2nd ed., 4.6): Pr/Pt = Gt Gr ht^2 hr^2 / (d^4 L), independent of
// frequency. Close in, the rays do not yet cancel, and Friis applies (ns-2's rule).
Db TwoRayGround::gain(double distance_m) const {
  check_distance(distance_m);
  if (distance_m < crossover_distance_m()) {
    return Friis{frequency_hz, tx_antenna_gain, rx_antenna_gain, system_loss}.gain(distance_m);
  }
  const double heights = tx_height_m * rx_height_m;
  return tx_antenna_gain + rx_antenna_gain +
         Db(20.0 * std::log10(heights) - 40.0 * std::log10(distance_m)) -
         Db::from_linear(system_loss);
}

Db path_gain(const PropagationModel& model, double distance_m) {
  return std::visit([distance_m](const auto& m) { return m.gain(distance_m); }, model);
}

PowerDbm received_power(const PropagationModel& model, PowerDbm tx_power, double distance_m,
                        Db shadowing) {
  return tx_power + path_gain(model, distance_m) - shadowing;
}

}  // namespace wmnsim::phy
