#pragma once
// The interval results are measured over: [begin, end), usually [warm-up, end of
// the simulation). Goodput counts application bytes delivered inside it.

#include <cstdint>

#include "core/time.hpp"

namespace wmnsim::transport {

struct MeasurementWindow {
  Time begin = Time::zero();
  Time end = Time::max();

  constexpr bool contains(Time t) const { return begin <= t && t < end; }
  // Bits per second of `bytes` over the window; 0 for an open-ended or empty window.
  double rate_bps(std::uint64_t bytes) const {
    if (end == Time::max() || end <= begin) return 0.0;
    return static_cast<double>(bytes) * 8.0 / (end - begin).to_seconds();
  }
};

}  // namespace wmnsim::transport
