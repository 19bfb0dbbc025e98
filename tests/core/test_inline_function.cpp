#include "core/inline_function.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using Fn = InlineFunction<int(int), 40>;

TEST(InlineFunction, CallsItsTarget) {
  const int base = 5;
  Fn f = [base](int x) { return base + x; };
  ASSERT_TRUE(f);
  EXPECT_EQ(f(3), 8);
  Fn empty;
  EXPECT_FALSE(empty);
}

TEST(InlineFunction, MoveLeavesTheSourceEmpty) {
  Fn a = [](int x) { return 2 * x; };
  Fn b = std::move(a);
  EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  EXPECT_EQ(b(4), 8);
}

TEST(InlineFunction, MovesANonTrivialTargetWithoutCopyingIt) {
  auto token = std::make_shared<int>(3);
  Fn a = [token](int x) { return *token * x; };
  EXPECT_EQ(token.use_count(), 2);
  Fn b = std::move(a);
  EXPECT_EQ(token.use_count(), 2);  // moved, not copied; the source's copy destroyed
  EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b(5), 15);
  Fn c;
  c = std::move(b);
  EXPECT_EQ(token.use_count(), 2);
  EXPECT_EQ(c(2), 6);
}

TEST(InlineFunction, EmplaceReplacesAndReleasesTheOldTarget) {
  // A non-trivial capture: the old target's destructor must run when replaced,
  // and the new one's when the function is reset.
  auto token = std::make_shared<int>(1);
  Fn f = [token](int x) { return *token + x; };
  EXPECT_EQ(token.use_count(), 2);
  f.emplace([](int x) { return -x; });
  EXPECT_EQ(token.use_count(), 1);
  EXPECT_EQ(f(7), -7);
  f.emplace([token](int x) { return *token * x; });
  EXPECT_EQ(token.use_count(), 2);
  f.reset();
  EXPECT_EQ(token.use_count(), 1);
  EXPECT_FALSE(f);
}

TEST(InlineFunction, EmplaceOfAnInlineFunctionMovesIt) {
  Fn source = [](int x) { return x + 100; };
  Fn f;
  f.emplace(std::move(source));
  EXPECT_FALSE(source);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(f(1), 101);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
