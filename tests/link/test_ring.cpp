// link/ring.hpp: a FIFO on a ring that doubles, against std::deque as the model,
// across wrap-arounds and growth, with move-only elements (as a queue's packets).

#include "link/ring.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>

#include "core/random.hpp"

namespace wmnsim::link {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(Ring, KeepsFifoOrderAcrossWrapAroundsAndGrowth) {
  Ring<std::unique_ptr<int>> ring;
  std::deque<int> model;
  UniformStream draws(43);
  int next = 0;
  std::size_t largest = 0;
  for (int step = 0; step < 20000; ++step) {
    // Pushes a little more often than it pops while the ring is short, so that it
    // grows, wraps around and drains many times.
    const bool push = model.empty() || draws.uniform01() < (model.size() < 300 ? 0.55 : 0.45);
    if (push) {
      ring.push_back(std::make_unique<int>(next));
      model.push_back(next++);
    } else {
      ASSERT_EQ(*ring.front(), model.front()) << step;
      ASSERT_EQ(*ring.pop_front(), model.front()) << step;
      model.pop_front();
    }
    ASSERT_EQ(ring.size(), model.size());
    ASSERT_EQ(ring.empty(), model.empty());
    largest = std::max(largest, model.size());
  }
  EXPECT_GT(largest, 64u);  // it grew several times
  // The capacity is the smallest power of two (8 at least) that held the largest length.
  EXPECT_EQ(ring.capacity(), std::max<std::size_t>(8, std::bit_ceil(largest)));
}

TEST(Ring, ReserveKeepsTheElementsAndMoveLeavesTheSourceEmpty) {
  Ring<int> ring;
  for (int i = 0; i < 6; ++i) ring.push_back(i);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(ring.pop_front(), i);
  for (int i = 6; i < 12; ++i) ring.push_back(i);  // wraps around the 8 slots
  ring.reserve(20);
  EXPECT_EQ(ring.capacity(), 32u);
  Ring<int> moved(std::move(ring));
  EXPECT_TRUE(ring.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  EXPECT_EQ(ring.capacity(), 0u);
  ring.push_back(99);  // usable again
  EXPECT_EQ(ring.pop_front(), 99);
  for (int i = 4; i < 12; ++i) EXPECT_EQ(moved.pop_front(), i);
  EXPECT_TRUE(moved.empty());
  EXPECT_THROW(moved.reserve(Ring<int>::kMaxCapacity + 1), std::length_error);
  static_assert(sizeof(Ring<int>) == 24, "storage, capacity, head and length (issue 43 §3)");
}

// An element that counts the live ones and whose move-assignment throws on the
// n-th call from when `throw_at_move` is set (0: never).
struct Fragile {
  static inline int live = 0;
  static inline int moves = 0;
  static inline int throw_at_move = 0;
  int value = -1;
  Fragile() { ++live; }
  explicit Fragile(int v) : value(v) { ++live; }
  Fragile(const Fragile& o) : value(o.value) { ++live; }
  Fragile& operator=(const Fragile& o) = default;
  Fragile& operator=(Fragile&& o) {
    if (throw_at_move != 0 && ++moves == throw_at_move) throw std::runtime_error("move");
    value = o.value;
    return *this;
  }
  ~Fragile() { --live; }
};

TEST(Ring, AGrowthThatThrowsFreesItsBlockAndKeepsTheRing) {
  {
    Ring<Fragile> ring;
    for (int i = 0; i < 8; ++i) ring.push_back(Fragile(i));  // full: 8 slots
    ASSERT_EQ(ring.capacity(), 8u);
    ASSERT_EQ(Fragile::live, 8);
    Fragile::moves = 0;
    Fragile::throw_at_move = 3;  // the third element's move into the bigger block
    EXPECT_THROW(ring.reserve(16), std::runtime_error);
    Fragile::throw_at_move = 0;
    // The 16 slots of the bigger block were destroyed (and freed: LeakSanitizer in
    // the asan build); the ring still holds its 8 slots and its 8 elements.
    EXPECT_EQ(Fragile::live, 8);
    EXPECT_EQ(ring.capacity(), 8u);
    EXPECT_EQ(ring.size(), 8u);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(ring.pop_front().value, i);  // moved, not assigned: no throw
    ring.push_back(Fragile(8));
    ring.reserve(16);  // grows normally afterwards
    EXPECT_EQ(ring.capacity(), 16u);
    EXPECT_EQ(ring.pop_front().value, 8);
  }
  EXPECT_EQ(Fragile::live, 0);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::link
