#include "phy/phy_config.hpp"

#include <algorithm>
#include <cstddef>

#include "phy/mcs.hpp"

namespace wmnsim {

namespace {

// The rates of phy/mcs.hpp's MCS tables, in bit/s: one list of rates in the code.
template <std::size_t N>
constexpr std::array<double, N> rates(const std::array<phy::Mcs, N>& table) {
  std::array<double, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = static_cast<double>(table[i].rate_bps);
  return out;
}
constexpr auto kDsssRates = rates(phy::kDsssMcs);
constexpr auto kOfdmRates = rates(phy::kOfdmMcs);
// 802.11g (ERP) offers the DSSS rates and the OFDM ones, slowest first.
constexpr auto kErpRates = [] {
  std::array<double, kDsssRates.size() + kOfdmRates.size()> out{};
  std::merge(kDsssRates.begin(), kDsssRates.end(), kOfdmRates.begin(), kOfdmRates.end(), out.begin());
  return out;
}();

}  // namespace

std::span<const double> rates_of(PhyStandard standard) {
  switch (standard) {
    case PhyStandard::dot11b:
      return kDsssRates;
    case PhyStandard::dot11a:
      return kOfdmRates;
    case PhyStandard::dot11g:
      return kErpRates;
  }
  return {};
}

bool channel_valid(PhyStandard standard, int channel) {
  if (is_2ghz(standard)) return channel >= 1 && channel <= 14;
  // 5 GHz 20 MHz channels: UNII-1/2 (36..64), UNII-2e (100..144), UNII-3 (149..165).
  if (channel >= 36 && channel <= 64) return channel % 4 == 0;
  if (channel >= 100 && channel <= 144) return channel % 4 == 0;
  if (channel >= 149 && channel <= 165) return (channel - 149) % 4 == 0;
  return false;
}

}  // namespace wmnsim
