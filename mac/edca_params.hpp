#pragma once
// Contention parameters per access category, and DCF as the one-category case.
//
// Convention (the scenario's and the papers'): a contention window is a SIZE in
// slots, CW = aCWmin + 1 in the standard's notation. The backoff is uniform in
// [0, CW - 1]; after a failure the window doubles up to cw_max (the standard's
// CW <- 2 (CW + 1) - 1); after a success or a drop it returns to cw_min.
// 802.11b's aCWmin = 31 is therefore written 32, 802.11a's aCWmin = 15 is 16.
//
// The parameter struct is the scenario's EdcaParams {aifsn, cw_min, cw_max, txop},
// so a radio's resolved MacParams feed the MAC without translation.

#include <algorithm>
#include <array>
#include <cstddef>

#include "mac/mac_params.hpp"
#include "phy/profile.hpp"

namespace wmnsim::mac {

inline constexpr std::size_t kAccessCategoryCount = 4;

constexpr std::size_t index_of(AccessCategory ac) { return static_cast<std::size_t>(ac); }

// Internal collisions are won by the higher category (IEEE 802.11-2012 9.19.2, EDCA).
// The enum is declared in increasing priority: BK < BE < VI < VO (the UP-to-AC
// mapping, Table 9-1).
constexpr bool higher_priority(AccessCategory a, AccessCategory b) { return index_of(a) > index_of(b); }

// aCWmin + 1 and aCWmax + 1 of a PHY: HR/DSSS 31/1023 (IEEE 802.11-2012 clause 17,
// HR/DSSS PHY characteristics), OFDM and ERP-OFDM 15/1023 (clause 18, OFDM PHY
// characteristics).
struct CwBounds {
  int cw_min;
  int cw_max;
};
constexpr CwBounds phy_cw_bounds(const phy::PhyProfile& profile) {
  return profile.family == phy::PhyFamily::Dsss ? CwBounds{32, 1024} : CwBounds{16, 1024};
}

// The default EDCA parameter set for a non-AP station (IEEE 802.11-2012, EDCA
// Parameter Set element, Table 8-105), in window sizes (W = aCWmin + 1):
//   AC_BK  AIFSN 7  CW W     .. 1024   TXOP 0 (one frame)
//   AC_BE  AIFSN 3  CW W     .. 1024   TXOP 0
//   AC_VI  AIFSN 2  CW W/2   .. W      TXOP 6.016 ms (DSSS) / 3.008 ms (OFDM)
//   AC_VO  AIFSN 2  CW W/4   .. W/2    TXOP 3.264 ms (DSSS) / 1.504 ms (OFDM)
// The standard writes (aCWmin+1)/2 - 1 and (aCWmin+1)/4 - 1, i.e. sizes W/2, W/4.
constexpr std::array<EdcaParams, kAccessCategoryCount> default_edca_params(
    const phy::PhyProfile& profile) {
  const CwBounds b = phy_cw_bounds(profile);
  const int w = b.cw_min;
  const bool dsss = profile.family == phy::PhyFamily::Dsss;
  std::array<EdcaParams, kAccessCategoryCount> acs{};
  acs[index_of(AccessCategory::ac_bk)] = {7, w, b.cw_max, {}};
  acs[index_of(AccessCategory::ac_be)] = {3, w, b.cw_max, {}};
  acs[index_of(AccessCategory::ac_vi)] = {2, w / 2, w, {Time::us(dsss ? 6016 : 3008), 0}};
  acs[index_of(AccessCategory::ac_vo)] = {2, w / 4, w / 2, {Time::us(dsss ? 3264 : 1504), 0}};
  return acs;
}

// DCF is EDCA with one category: AIFSN 2 makes AIFS = SIFS + 2 slots = DIFS
// (IEEE 802.11-2012 9.3.2.3), no TXOP (one frame per access).
constexpr EdcaParams dcf_params(int cw_min, int cw_max) { return {2, cw_min, cw_max, {}}; }
constexpr EdcaParams dcf_params(const MacParams& mac) { return dcf_params(mac.cw_min, mac.cw_max); }

// Window size after a failed attempt: doubled, capped at cw_max.
constexpr int next_cw(int cw, int cw_max) { return std::min(2 * cw, cw_max); }

// How many doublings take cw_min to cw_max: Bianchi's m (m' in Wu et al.).
// 32..1024 gives 5, 16..1024 gives 6.
constexpr int doubling_stages(int cw_min, int cw_max) {
  int stages = 0;
  for (int cw = cw_min; cw < cw_max; cw = next_cw(cw, cw_max)) ++stages;
  return stages;
}

}  // namespace wmnsim::mac
