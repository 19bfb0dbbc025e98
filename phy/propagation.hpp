#pragma once
// Deterministic propagation models: path gain as a pure function of distance.
//
// Nothing here draws random numbers. Shadowing (004's per-link psi) is drawn by the
// caller from its own random stream, once per link, and passed in.
//
//   LogDistance  Fu et al. (paper 004) Eq. (1): Pr = Pt + K - 10 gamma log10(d/d0) - psi
//   Friis        free space: Gt Gr lambda^2 / ((4 pi d)^2 L)
//   TwoRayGround Friis below the crossover distance d_c = 4 pi ht hr / lambda, and
//                Gt Gr ht^2 hr^2 / (d^4 L) beyond it, as in ns-2 (used by papers 001, 003)
//
// Path gains are in dB and negative for a loss. Distances are in metres and must be
// > 0: a zero distance is a placement bug, and the functions throw on it.

#include <variant>

#include "phy/units.hpp"

namespace wmnsim::phy {

inline constexpr double kSpeedOfLight = 299'792'458.0;  // m/s

// Paper 004, Section 4.1, Eq. (1): K = -140.046 dB (the paper writes dBm, but K is
// a gain), gamma = 4, d0 = 1000 m; Pt = 20 dBm and noise -93.5 dBm are its radio's.
struct LogDistance {
  Db k{-140.046};
  double gamma = 4.0;
  double d0_m = 1000.0;

  Db gain(double distance_m) const;
};

struct Friis {
  double frequency_hz = 2.4e9;
  Db tx_antenna_gain{0.0};
  Db rx_antenna_gain{0.0};
  double system_loss = 1.0;  // L >= 1, linear, as in ns-2

  double wavelength_m() const { return kSpeedOfLight / frequency_hz; }
  Db gain(double distance_m) const;
};

// Antenna heights default to ns-2's 1.5 m, which paper 001 kept.
struct TwoRayGround {
  double frequency_hz = 2.4e9;
  double tx_height_m = 1.5;
  double rx_height_m = 1.5;
  Db tx_antenna_gain{0.0};
  Db rx_antenna_gain{0.0};
  double system_loss = 1.0;

  double crossover_distance_m() const;
  Db gain(double distance_m) const;
};

using PropagationModel = std::variant<LogDistance, Friis, TwoRayGround>;

Db path_gain(const PropagationModel& model, double distance_m);

// Pr = Pt + G(d) - psi. `shadowing` is psi of Eq. (1): a loss, positive attenuates.
PowerDbm received_power(const PropagationModel& model, PowerDbm tx_power, double distance_m,
                        Db shadowing = Db{0.0});

// The range abstraction of ns-2 studies (paper 003: 250 m reception, 550 m carrier
// sense): a frame from within rx_range_m can be decoded, one from within cs_range_m
// only makes the medium busy, one from farther is not heard. Boundaries are inclusive,
// as ns-2's "Pr >= threshold" is.
enum class Reach { Decodable, SensedOnly, OutOfRange };

struct RangeModel {
  double rx_range_m = 250.0;
  double cs_range_m = 550.0;

  Reach classify(double distance_m) const {
    if (distance_m <= rx_range_m) return Reach::Decodable;
    if (distance_m <= cs_range_m) return Reach::SensedOnly;
    return Reach::OutOfRange;
  }
};

}  // namespace wmnsim::phy
