#include "phy/rate_selection.hpp"

#include <cmath>
#include <stdexcept>

#include "phy/error_model.hpp"

namespace wmnsim::phy {
namespace {

double frame_per(const Mcs& mcs, double snr_linear, std::uint32_t frame_bytes) {
  return frame_error_rate(mcs, snr_linear, 8 * static_cast<std::uint64_t>(frame_bytes));
}

}  // namespace

bool meets_per_target(const Mcs& mcs, double snr_linear, std::uint32_t frame_bytes, double max_per) {
  return frame_per(mcs, snr_linear, frame_bytes) < max_per;
}

std::optional<Mcs> select_mcs(std::span<const Mcs> candidates, double snr_linear,
                              std::uint32_t frame_bytes, double max_per) {
  std::optional<Mcs> best;
  for (const Mcs& m : candidates) {
    if (best && m.rate_bps <= best->rate_bps) continue;
    if (meets_per_target(m, snr_linear, frame_bytes, max_per)) best = m;
  }
  return best;
}

double snr_threshold(const Mcs& mcs, std::uint32_t frame_bytes, double max_per) {
  if (!(max_per > 0.0 && max_per < 1.0)) {
    throw std::invalid_argument("a PER target must lie strictly between 0 and 1");
  }
  // PER falls monotonically with SNR, so bisect on the sign of PER - max_per.
  double lo_db = -20.0;  // PER above the target here for any frame of a few bytes
  double hi_db = 60.0;   // and below it here
  const auto per_at = [&](double db) {
    return frame_per(mcs, std::pow(10.0, db / 10.0), frame_bytes);
  };
  if (per_at(hi_db) >= max_per || per_at(lo_db) < max_per) {
    throw std::invalid_argument("PER target not crossed between -20 and 60 dB");
  }
  while (hi_db - lo_db > 1e-6) {
    const double mid = 0.5 * (lo_db + hi_db);
    (per_at(mid) < max_per ? hi_db : lo_db) = mid;
  }
  return std::pow(10.0, hi_db / 10.0);
}

}  // namespace wmnsim::phy
