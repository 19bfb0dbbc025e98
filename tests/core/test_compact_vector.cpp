// core/compact_vector.hpp against std::vector as the model: the same elements and
// the same capacities after every operation (phy/radio.cpp reads its faint list's
// capacity), in 16 B.

#include "core/compact_vector.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/random.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

struct Item {
  std::int64_t a;
  double b;
  bool operator==(const Item&) const = default;
};

void expect_same(const CompactVector<Item>& v, const std::vector<Item>& model, int step) {
  ASSERT_EQ(v.size(), model.size()) << step;
  ASSERT_EQ(v.capacity(), model.capacity()) << step;
  ASSERT_EQ(v.empty(), model.empty()) << step;
  ASSERT_TRUE(std::equal(v.begin(), v.end(), model.begin(), model.end())) << step;
}

TEST(CompactVector, HoldsWhatStdVectorHoldsWithItsCapacities) {
  CompactVector<Item> v;
  std::vector<Item> model;
  UniformStream draws(2026);
  for (int step = 0; step < 20000; ++step) {
    const auto op = draws.uniform_int(100);
    const auto x = static_cast<std::int64_t>(draws.next_u64() >> 1);
    if (op < 25) {
      v.push_back({x, 0.5 * static_cast<double>(step)});
      model.push_back({x, 0.5 * static_cast<double>(step)});
    } else if (op < 50) {  // built in place from its fields, grown as push_back grows
      v.emplace_back(x, 0.5 * static_cast<double>(step));
      model.push_back({x, 0.5 * static_cast<double>(step)});
    } else if (op < 62 && !model.empty()) {
      v.pop_back();
      model.pop_back();
    } else if (op < 74 && !model.empty()) {
      const auto at = static_cast<std::ptrdiff_t>(draws.uniform_int(model.size()));
      const auto n = static_cast<std::ptrdiff_t>(draws.uniform_int(model.size() - static_cast<std::size_t>(at)) + 1);
      const Item* r = v.erase(v.begin() + at, v.begin() + at + n);
      model.erase(model.begin() + at, model.begin() + at + n);
      ASSERT_EQ(r, v.begin() + at);
    } else if (op < 80 && !model.empty()) {
      const auto at = static_cast<std::ptrdiff_t>(draws.uniform_int(model.size()));
      v.erase(v.begin() + at);
      model.erase(model.begin() + at);
    } else if (op < 86) {
      const std::size_t n = draws.uniform_int(2 * model.size() + 3);
      v.resize(n);
      model.resize(n);
    } else if (op < 92) {
      const std::size_t n = draws.uniform_int(2 * model.capacity() + 3);
      v.reserve(n);
      model.reserve(n);
    } else if (op < 95) {
      v.shrink_to_fit();
      model.shrink_to_fit();
    } else if (op < 97) {
      v.clear();
      model.clear();
    } else if (op < 98) {
      // push_back of one of its own elements, at full capacity too
      if (!model.empty()) {
        v.push_back(v.front());
        model.push_back(model.front());
      }
    } else if (op < 99) {
      CompactVector<Item> copy = v;  // a copy holds the elements at their number
      ASSERT_TRUE(std::equal(copy.begin(), copy.end(), model.begin(), model.end())) << step;
      ASSERT_EQ(copy.capacity(), model.size()) << step;
    } else {
      CompactVector<Item> moved = std::move(v);
      EXPECT_TRUE(v.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
      EXPECT_EQ(v.capacity(), 0u);
      v = std::move(moved);
    }
    expect_same(v, model, step);
  }
  static_assert(sizeof(CompactVector<Item>) == 16, "a pointer and two 32-bit counts (issue 43 §3)");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
