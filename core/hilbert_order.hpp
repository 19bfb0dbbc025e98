#pragma once

// The order in which a network's per-node objects are built (issue 43 §2): along a
// Hilbert curve over the nodes' positions, so that nodes near each other in space
// are allocated near each other in memory whatever their indices. A transmission
// touches the state of every radio that hears it; at 10^4 to 10^5 nodes that state
// outgrows the caches, and when a random placement numbers the nodes in draw order,
// each receiver's state is a miss of its own (docs/performance.md, "Locality").
// The order changes where objects lie, never their indices, ids or any result.

#include <cstdint>
#include <span>
#include <vector>

namespace wmnsim {

struct PlanePoint {
  double x = 0.0, y = 0.0;
};

// The distance of cell (x, y), x and y below 2^16 (higher bits are not read), along
// the Hilbert curve that fills a 2^16 x 2^16 grid from (0, 0) to (2^16 - 1, 0) (the
// classic iterative mapping: at each scale, the quadrant's place on the curve, then
// the quadrant rotated into the curve's orientation).
std::uint64_t hilbert_distance(std::uint32_t x, std::uint32_t y);

// The indices 0 .. points.size() - 1 ordered by the Hilbert distance of each point's
// cell in a 2^16 x 2^16 grid over the square whose side is the larger side of the
// points' bounding box, anchored at its lower corner; ties (points in one cell) in
// index order.
std::vector<std::uint32_t> hilbert_order(std::span<const PlanePoint> points);

}  // namespace wmnsim
