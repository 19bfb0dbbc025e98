// MaybePosition: a position or none in 24 bytes, read as std::optional<Position>.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <stdexcept>

#include "core/topology.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(MaybePosition, ReadsAsAnOptionalInTheBytesOfAPosition) {
  static_assert(sizeof(MaybePosition) == sizeof(Position));
  MaybePosition none;
  EXPECT_FALSE(none);
  EXPECT_FALSE(none.has_value());
  EXPECT_EQ(static_cast<std::optional<Position>>(none), std::nullopt);
  const MaybePosition at = Position{-400.0, 50.0, 3.0};
  ASSERT_TRUE(at);
  EXPECT_EQ(at->x_m, -400.0);
  EXPECT_EQ((*at).y_m, 50.0);
  EXPECT_EQ(static_cast<std::optional<Position>>(at)->z_m, 3.0);
  // The origin is a position (a zero x is not "none").
  EXPECT_TRUE(MaybePosition(Position{}));
  EXPECT_FALSE(MaybePosition(std::nullopt));
  EXPECT_FALSE(MaybePosition(std::optional<Position>()));
  EXPECT_EQ(MaybePosition(std::optional<Position>(Position{1.0, 2.0, 0.0}))->y_m, 2.0);
  MaybePosition moved = at;
  moved = std::nullopt;
  EXPECT_FALSE(moved);
}

TEST(MaybePosition, ANanXIsRefused) {
  EXPECT_THROW(MaybePosition(Position{std::nan(""), 0.0, 0.0}), std::invalid_argument);
  EXPECT_TRUE(MaybePosition(Position{0.0, std::nan(""), 0.0}));  // only x marks "none"
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
