// The build order of a network's per-node objects (issue 43 §2): a Hilbert curve
// over the nodes' positions, so that nodes near each other in space are built, and
// allocated, one after the other.

#include "core/hilbert_order.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <vector>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// The curve fills each aligned 2^k x 2^k block at the origin before leaving it, one
// cell after another, each next to the one before.
TEST(HilbertOrder, TheCurveVisitsNeighbouringCellsOneAfterAnother) {
  std::map<std::uint64_t, std::pair<int, int>> cell_at;
  for (int x = 0; x < 16; ++x) {
    for (int y = 0; y < 16; ++y) cell_at[hilbert_distance(x, y)] = {x, y};
  }
  ASSERT_EQ(cell_at.size(), 256u);
  EXPECT_EQ(cell_at.begin()->first, 0u);
  EXPECT_EQ(cell_at.rbegin()->first, 255u);
  for (std::uint64_t d = 1; d < 256; ++d) {
    const auto [x0, y0] = cell_at[d - 1];
    const auto [x1, y1] = cell_at[d];
    EXPECT_EQ(std::abs(x1 - x0) + std::abs(y1 - y0), 1) << "distance " << d;
  }
}

// The whole grid: the curve runs from (0, 0) to (2^16 - 1, 0), through the left
// half first, and enters the upper left quadrant at the quarter.
TEST(HilbertOrder, TheCurveSpansTheWholeGrid) {
  EXPECT_EQ(hilbert_distance(0, 0), 0u);
  EXPECT_EQ(hilbert_distance(65535, 0), (std::uint64_t{1} << 32) - 1);
  EXPECT_EQ(hilbert_distance(0, 32767), (std::uint64_t{1} << 30) - 1);
  EXPECT_EQ(hilbert_distance(0, 32768), std::uint64_t{1} << 30);
}

TEST(HilbertOrder, NodesNearEachOtherAreOrderedTogether) {
  // Four clusters of five nodes at the corners of a 10 km square, listed
  // interleaved (as a random placement's draw order would scatter them).
  const double corner[4][2] = {{0, 0}, {10000, 0}, {0, 10000}, {10000, 10000}};
  std::vector<PlanePoint> points;
  for (int i = 0; i < 5; ++i) {
    for (const auto& c : corner) points.push_back({c[0] + 10.0 * i, c[1] + 7.0 * i});
  }
  const std::vector<std::uint32_t> order = hilbert_order(points);
  ASSERT_EQ(order.size(), points.size());
  EXPECT_EQ(std::set<std::uint32_t>(order.begin(), order.end()).size(), points.size());  // a permutation
  for (std::size_t k = 0; k < order.size(); k += 5) {
    std::set<std::uint32_t> cluster;
    for (std::size_t j = k; j < k + 5; ++j) cluster.insert(order[j] % 4);  // index % 4: the corner
    EXPECT_EQ(cluster.size(), 1u) << "places " << k << " to " << k + 4 << " mix clusters";
  }
}

TEST(HilbertOrder, PointsInOneCellKeepTheirIndexOrder) {
  const std::vector<PlanePoint> same(5, PlanePoint{3.0, 4.0});
  EXPECT_EQ(hilbert_order(same), (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(hilbert_order({}).empty());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
