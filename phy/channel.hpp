#pragma once
// 802.11 channel numbers and their centre frequencies (IEEE 802.11-2012 17.4.6.3
// for 2.4 GHz, 18.3.8.4.2 for 5 GHz). The two bands' channel numbers do not
// overlap (2.4 GHz: 1..14, 5 GHz: 36..165; phy_config.hpp channel_valid), so the
// number alone names the band.

namespace wmnsim::phy {

constexpr bool is_2ghz_channel(int channel) { return channel >= 1 && channel <= 14; }

// 2407 + 5 ch MHz at 2.4 GHz (2484 for channel 14), 5000 + 5 ch MHz at 5 GHz.
constexpr double channel_frequency_hz(int channel) {
  if (channel == 14) return 2484e6;
  if (is_2ghz_channel(channel)) return (2407.0 + 5.0 * channel) * 1e6;
  return (5000.0 + 5.0 * channel) * 1e6;
}

}  // namespace wmnsim::phy
