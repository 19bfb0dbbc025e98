#pragma once
// Saturation testbed: n stations around one receiver in a single collision domain
// (everyone hears everyone, no errors, no capture), each always backlogged with
// frames of one size: the setting of Bianchi's model (control/bianchi.hpp). Used
// by the MAC validation test and the MAC benchmark; useful to anyone checking a
// MAC parameter set against the model.

#include <chrono>
#include <cstdint>
#include <optional>

#include "core/scenario.hpp"
#include "core/time.hpp"
#include "mac/mac_stats.hpp"
#include "phy/profile.hpp"
#include "phy/reception.hpp"

namespace wmnsim::mac {

struct SaturationSetup {
  phy::PhyProfile profile;
  double data_rate_bps = 11e6;
  double control_rate_bps = 1e6;
  int stations = 10;
  std::uint32_t ip_bytes = 1500;
  MacType type = MacType::dcf;
  MacParams params;  // cw_min/cw_max, retry limits, rts_threshold_bytes
  Time warmup = Time::s(1);
  Time duration = Time::s(10);  // measured after the warm-up
  double radius_m = 5.0;        // stations on a circle around the receiver
  // Bianchi's model has no capture: two frames that overlap are both lost. The
  // default, the threshold model with ns-2's 10 dB capture ratio, loses both. The
  // SINR model lets a 1 Mbit/s DSSS frame (an RTS in 802.11b) survive an
  // equal-power overlap through its 10.4 dB spreading gain: a capture effect the
  // model excludes.
  phy::ReceptionKind reception = phy::ReceptionKind::threshold;
  std::uint64_t seed = 1;
};

struct SaturationResult {
  double throughput_bps = 0.0;  // IP bytes acknowledged per second, all stations, after warm-up
  double collision_probability = 0.0;  // failed attempts / attempts (Bianchi's p)
  double drop_ratio = 0.0;             // retry-limit drops / frames finished
  MacStats totals;                     // summed over the stations, whole run
  std::uint64_t events = 0;
  double wall_time_s = 0.0;
  Time simulated;
};

SaturationResult run_saturation(const SaturationSetup& setup);

}  // namespace wmnsim::mac
