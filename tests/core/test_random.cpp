#include "core/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

std::vector<std::uint64_t> draws(RandomStream s, int n) {
  std::vector<std::uint64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(s.next_u64());
  return v;
}

TEST(Random, SameSeedAndNameGiveSameDraws) {
  const RandomStreams a(2024), b(2024);
  EXPECT_EQ(draws(a.stream("node", 7, "backoff"), 100), draws(b.stream("node", 7, "backoff"), 100));
}

TEST(Random, StreamsDependOnlyOnTheirOwnName) {
  // Creating other streams first (a new node, a new flow) changes nothing.
  const RandomStreams r(99);
  const auto before = draws(r.stream("node", 3, "backoff"), 50);
  for (int i = 0; i < 10; ++i) (void)r.stream("node", static_cast<std::uint64_t>(100 + i), "backoff").next_u64();
  (void)r.stream("flow", "f9", "arrivals").next_u64();
  EXPECT_EQ(draws(r.stream("node", 3, "backoff"), 50), before);
}

TEST(Random, DifferentNamesAndSeedsGiveDifferentStreams) {
  const RandomStreams r(1);
  std::set<std::uint64_t> firsts;
  for (std::uint64_t n = 0; n < 200; ++n) {
    firsts.insert(r.stream("node", n, "backoff").next_u64());
    firsts.insert(r.stream("node", n, "shadowing").next_u64());
  }
  EXPECT_EQ(firsts.size(), 400u);
  EXPECT_NE(draws(RandomStreams(1).stream("x"), 4), draws(RandomStreams(2).stream("x"), 4));
  // The path separator keeps ("node", 1, "2x") apart from ("node", 12, "x").
  EXPECT_NE(r.stream("node", 1, "2x").next_u64(), r.stream("node", 12, "x").next_u64());
}

TEST(Random, DerivationMatchesTheDocumentedAlgorithm) {
  // Expected values come from an independent Python transcription of the
  // derivation documented in core/random.hpp and docs/random.md (FNV-1a path
  // hash, SplitMix64 key and state expansion, xoshiro256**). They also pin the
  // generator: an accidental change would silently change every result.
  RandomStream a = RandomStreams(0).stream("node", 0, "backoff");
  EXPECT_EQ(a.next_u64(), 0xb055912cbd1f690aull);
  EXPECT_EQ(a.next_u64(), 0x0f5767d8137faf97ull);
  EXPECT_EQ(a.next_u64(), 0xfadd54279d0c93ecull);
  RandomStream b = RandomStreams(12345).stream("flow", "f1", "arrivals");
  EXPECT_EQ(b.next_u64(), 0xb4e5689b7477929cull);
  EXPECT_EQ(b.next_u64(), 0x58eeb2aac44b3ecfull);
  // The canonical path of ("node", 0, "backoff") is "node/0/backoff".
  EXPECT_EQ(RandomStreams(0).stream("node/0/backoff").next_u64(), 0xb055912cbd1f690aull);
}

TEST(Random, UniformIntIsUnbiasedAndInRange) {
  RandomStream s(7);
  std::vector<int> counts(6, 0);
  const int n = 600000;
  for (int i = 0; i < n; ++i) {
    const auto v = s.uniform_int(6);
    ASSERT_LT(v, 6u);
    ++counts[v];
  }
  // Chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile.
  double chi2 = 0;
  for (const int c : counts) chi2 += (c - n / 6.0) * (c - n / 6.0) / (n / 6.0);
  EXPECT_LT(chi2, 20.5);
}

TEST(Random, DistributionMoments) {
  RandomStream s(11);
  const int n = 200000;
  double su = 0, se = 0, sn = 0, sn2 = 0;
  for (int i = 0; i < n; ++i) {
    const double u = s.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    su += u;
    se += s.exponential(2.5);
    const double x = s.normal(3.0, 2.0);
    sn += x;
    sn2 += x * x;
  }
  EXPECT_NEAR(su / n, 0.5, 0.005);
  EXPECT_NEAR(se / n, 2.5, 0.03);
  EXPECT_NEAR(sn / n, 3.0, 0.02);
  EXPECT_NEAR(std::sqrt(sn2 / n - (sn / n) * (sn / n)), 2.0, 0.02);
}

// A MAC's backoff stream and a radio's error stream keep the uniform part alone
// (issue 43 §3): it continues the stream's draws where the stream stands, and it
// refuses a stream holding a spare normal, which it would lose.
TEST(Random, UniformPartContinuesTheStreamsDraws) {
  const RandomStreams r(2026);
  RandomStream whole = r.stream("node", 5, "backoff");
  (void)whole.next_u64();  // not at its start: the part continues from here
  UniformStream part = whole.uniform_part();
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t n = 1 + static_cast<std::uint64_t>(i) * 37;
    ASSERT_EQ(part.uniform_int(n), whole.uniform_int(n)) << i;
    ASSERT_EQ(part.uniform01(), whole.uniform01()) << i;
  }
  static_assert(sizeof(UniformStream) == 32, "the generator's state alone");
}

TEST(Random, UniformPartRefusesAStreamWithASpareNormal) {
  RandomStream s(7);
  (void)s.normal(0.0, 1.0);  // keeps the pair's second value
  EXPECT_THROW((void)s.uniform_part(), std::logic_error);
  (void)s.normal(0.0, 1.0);  // the spare is used
  EXPECT_NO_THROW((void)s.uniform_part());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
