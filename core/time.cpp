#include "core/time.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace wmnsim {

Time Time::from_seconds(double seconds) {
  const double ps = std::round(seconds * 1e12);
  // 9.2e18 ps is the int64 limit; refuse rather than wrap.
  if (!std::isfinite(ps) || std::fabs(ps) >= 9.2e18) {
    throw std::out_of_range("time of " + std::to_string(seconds) +
                            " s is outside the simulator's range (about +-106 days)");
  }
  return Time(static_cast<std::int64_t>(ps));
}

std::string Time::to_string() const {
  char buf[48];
  const std::int64_t a = ps_ < 0 ? -ps_ : ps_;
  if (a != 0 && a < 1'000'000'000) {  // below 1 ms: microseconds read best
    std::snprintf(buf, sizeof buf, "%.6gus", to_microseconds());
  } else {
    std::snprintf(buf, sizeof buf, "%.9fs", to_seconds());
  }
  return buf;
}

}  // namespace wmnsim
