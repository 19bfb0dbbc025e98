#pragma once
// Static rate selection by SNR: the highest-rate MCS that still sends a frame with a
// packet error rate below a target. Fu et al. (paper 004, Section 4.1) choose, per
// link, "the MCS with the maximum data rate which guarantees a frame error rate of
// less than 1 %" for a 1.5 kB IP packet over AWGN; those are the defaults here.
//
// The PER is that of the frame's bits at the MCS (error_model.hpp); the PLCP header
// is left out, as in the paper's criterion.

#include <cstdint>
#include <optional>
#include <span>

#include "phy/mcs.hpp"

namespace wmnsim::phy {

inline constexpr std::uint32_t kRateSelectionFrameBytes = 1500;
inline constexpr double kRateSelectionMaxPer = 0.01;

// Whether `mcs` sends frame_bytes at snr_linear with a PER strictly below max_per:
// the one rule for a usable link, at a chosen rate (select_mcs) or at a fixed one
// (scenario/phy_builder.hpp usable_link_rate).
bool meets_per_target(const Mcs& mcs, double snr_linear, std::uint32_t frame_bytes = kRateSelectionFrameBytes,
                      double max_per = kRateSelectionMaxPer);

// The candidate with the highest rate whose PER for frame_bytes at snr_linear is
// strictly below max_per; nullopt if none is. Candidates need not be sorted, and a
// faster MCS that needs less SNR than a slower one (OFDM 12 vs 9 Mbit/s) is handled.
std::optional<Mcs> select_mcs(std::span<const Mcs> candidates, double snr_linear,
                              std::uint32_t frame_bytes = kRateSelectionFrameBytes,
                              double max_per = kRateSelectionMaxPer);

// The SNR (linear) at which `mcs` sends frame_bytes with PER exactly max_per: the
// MCS's threshold for select_mcs. Bisection in dB over [-20, 60] dB to 1e-6 dB;
// requires 0 < max_per < 1.
double snr_threshold(const Mcs& mcs, std::uint32_t frame_bytes = kRateSelectionFrameBytes,
                     double max_per = kRateSelectionMaxPer);

}  // namespace wmnsim::phy
