#include "core/hilbert_order.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace wmnsim {

std::uint64_t hilbert_distance(std::uint32_t x, std::uint32_t y) {
  std::uint64_t d = 0;
  for (std::uint32_t s = 1U << 15; s > 0; s /= 2) {
    const std::uint32_t rx = (x & s) != 0 ? 1 : 0;
    const std::uint32_t ry = (y & s) != 0 ? 1 : 0;
    d += static_cast<std::uint64_t>(s) * s * ((3 * rx) ^ ry);
    // Rotate the quadrant; only the bits below s are read from here on, so the
    // reflection may wrap around in the bits above them.
    if (ry == 0) {
      if (rx == 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      std::swap(x, y);
    }
  }
  return d;
}

std::vector<std::uint32_t> hilbert_order(std::span<const PlanePoint> points) {
  std::vector<std::uint32_t> order(points.size());
  if (points.empty()) return order;
  double x0 = points[0].x, x1 = x0, y0 = points[0].y, y1 = y0;
  for (const PlanePoint& p : points) {
    x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
    y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  }
  const double side = std::max({x1 - x0, y1 - y0, 1e-9});
  const auto cell = [side](double v) {
    return static_cast<std::uint32_t>(std::clamp(std::floor(v / side * 65535.0), 0.0, 65535.0));
  };
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(points.size());
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    keyed[i] = {hilbert_distance(cell(points[i].x - x0), cell(points[i].y - y0)), i};
  }
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t k = 0; k < keyed.size(); ++k) order[k] = keyed[k].second;
  return order;
}

}  // namespace wmnsim
