// DelayDistribution (exact percentiles, histogram) and DelayVariation (FlowMonitor
// jitter) on delays whose answers are computed by hand.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/delay_distribution.hpp"
#include "core/delay_variation.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

DelayDistribution of_ms(const std::vector<int>& ms) {
  DelayDistribution d;
  for (int m : ms) d.add(Time::ms(m));
  return d;
}

TEST(DelayDistribution, NearestRankPercentilesOfOneToTwenty) {
  // 1..20 ms, given out of order. Nearest rank: p50 -> rank ceil(10) = 10 -> 10 ms;
  // p95 -> ceil(19) = 19 -> 19 ms; p99 -> ceil(19.8) = 20 -> 20 ms.
  const DelayDistribution d = of_ms({7, 3, 20, 1, 15, 2, 19, 4, 18, 5, 17, 6, 16, 8, 14, 9, 13, 10, 12, 11});
  const DelayDistribution::Summary s = d.summary();
  EXPECT_EQ(s.count, 20u);
  EXPECT_DOUBLE_EQ(*s.mean_s, 0.0105);  // (1 + ... + 20) / 20 = 10.5 ms
  EXPECT_DOUBLE_EQ(*s.p50_s, 0.010);
  EXPECT_DOUBLE_EQ(*s.p95_s, 0.019);
  EXPECT_DOUBLE_EQ(*s.p99_s, 0.020);
  EXPECT_DOUBLE_EQ(*s.max_s, 0.020);
}

TEST(DelayDistribution, NearestRankOfFiveValues) {
  // n = 5: p50 -> rank ceil(2.5) = 3; p95 -> ceil(4.75) = 5; p0 -> rank 1; p20 -> rank 1; p21 -> rank 2.
  const std::vector<std::int64_t> sorted{10, 20, 30, 40, 50};
  EXPECT_EQ(DelayDistribution::nearest_rank(sorted, 50), 30);
  EXPECT_EQ(DelayDistribution::nearest_rank(sorted, 95), 50);
  EXPECT_EQ(DelayDistribution::nearest_rank(sorted, 0), 10);
  EXPECT_EQ(DelayDistribution::nearest_rank(sorted, 20), 10);
  EXPECT_EQ(DelayDistribution::nearest_rank(sorted, 21), 20);
  EXPECT_EQ(DelayDistribution::nearest_rank(sorted, 100), 50);
  EXPECT_THROW(DelayDistribution::nearest_rank({}, 50), std::invalid_argument);
  EXPECT_THROW(DelayDistribution::nearest_rank(sorted, 101), std::invalid_argument);
}

TEST(DelayDistribution, SummaryPercentilesAreTheNearestRanksOfTheSortedValues) {
  // Whatever summary() does to find them (it selects the ranks in a copy, nested
  // nth_element calls): on random values with many ties, every size from 1 to 300,
  // each percentile and the maximum must be the sorted values' nearest ranks.
  std::uint64_t state = 12345;
  for (std::size_t n = 1; n <= 300; ++n) {
    DelayDistribution d;
    std::vector<std::int64_t> sorted;
    for (std::size_t i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const auto ps = static_cast<std::int64_t>((state >> 33) % 50);  // ties
      d.add(Time::ps(ps));
      sorted.push_back(ps);
    }
    std::sort(sorted.begin(), sorted.end());
    const DelayDistribution::Summary s = d.summary();
    const auto seconds = [](std::int64_t ps) { return static_cast<double>(ps) * 1e-12; };
    ASSERT_EQ(*s.p50_s, seconds(DelayDistribution::nearest_rank(sorted, 50))) << n;
    ASSERT_EQ(*s.p95_s, seconds(DelayDistribution::nearest_rank(sorted, 95))) << n;
    ASSERT_EQ(*s.p99_s, seconds(DelayDistribution::nearest_rank(sorted, 99))) << n;
    ASSERT_EQ(*s.max_s, seconds(sorted.back())) << n;
  }
}

TEST(DelayDistribution, EmptyHasNoSummaryValues) {
  const DelayDistribution d;
  const DelayDistribution::Summary s = d.summary();
  EXPECT_EQ(s.count, 0u);
  EXPECT_FALSE(s.mean_s || s.p50_s || s.p95_s || s.p99_s || s.max_s);
  EXPECT_TRUE(d.histogram(Time::ms(1)).empty());
}

TEST(DelayDistribution, HistogramCountsHalfOpenBins) {
  // 1 ms bins [0,1) [1,2) [2,3) [3,4): 0.5 -> 0; 1.0 and 1.999 -> 1; 3.0 -> 3.
  DelayDistribution d;
  d.add(Time::us(500));
  d.add(Time::ms(1));
  d.add(Time::us(1999));
  d.add(Time::ms(3));
  using Bins = std::vector<DelayDistribution::Bin>;
  // Sparse: the empty bin [2,3) has no entry.
  EXPECT_EQ(d.histogram(Time::ms(1)), (Bins{{0, 1}, {1, 2}, {3, 1}}));
  EXPECT_EQ(d.histogram(Time::ms(2)), (Bins{{0, 3}, {1, 1}}));
  EXPECT_THROW(d.histogram(Time::zero()), std::invalid_argument);
}

TEST(DelayDistribution, HistogramSizeIsBoundedByTheDelaysNotTheLargestOne) {
  // A 100-s delay beside a 1-ms one: two entries, whatever the span (a dense
  // 1-ms histogram would hold 100,001 bins); arrival order does not matter.
  DelayDistribution d;
  d.add(Time::s(100));
  d.add(Time::us(1500));
  d.add(Time::us(1200));
  EXPECT_EQ(d.histogram(Time::ms(1)), (std::vector<DelayDistribution::Bin>{{1, 2}, {100000, 1}}));
}

TEST(DelayDistribution, HistogramCountedInPlaceOrSortedGivesTheSameBins) {
  // Delays over a few bins are counted in an array, delays spread wider than their
  // number are sorted: both give every bin's count, as a map counts them.
  std::mt19937_64 rng(43);
  for (const bool with_outlier : {false, true}) {
    DelayDistribution d;
    std::map<std::uint64_t, std::uint64_t> expected;
    std::uniform_int_distribution<std::int64_t> ps(0, Time::ms(50).picoseconds());
    for (int i = 0; i < 5000; ++i) {
      const Time delay = Time::ps(ps(rng));
      d.add(delay);
      ++expected[static_cast<std::uint64_t>(delay.picoseconds() / Time::ms(1).picoseconds())];
    }
    if (with_outlier) {  // 10^6 bins apart: more bins than delays, the sorted path
      d.add(Time::s(1000));
      ++expected[1'000'000];
    }
    std::vector<DelayDistribution::Bin> want;
    for (const auto& [index, count] : expected) want.push_back({index, count});
    EXPECT_EQ(d.histogram(Time::ms(1)), want) << (with_outlier ? "sorted" : "counted in place");
  }
}

TEST(DelayDistribution, MergePoolsTwoSets) {
  DelayDistribution a = of_ms({1, 2});
  a.merge(of_ms({3, 4, 10}));
  const DelayDistribution::Summary s = a.summary();
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(*s.mean_s, 0.004);
  EXPECT_DOUBLE_EQ(*s.p50_s, 0.003);
  EXPECT_DOUBLE_EQ(*s.max_s, 0.010);
}

TEST(DelayVariation, MeanAbsoluteDifferenceOfConsecutiveDelays) {
  // Delays 10, 12, 11, 15 ms in arrival order: |2| + |-1| + |4| = 7 ms over 3 pairs.
  DelayVariation j;
  EXPECT_FALSE(j.mean_s());
  j.add(Time::ms(10));
  EXPECT_FALSE(j.mean_s());  // one packet: no pair yet
  j.add(Time::ms(12));
  j.add(Time::ms(11));
  j.add(Time::ms(15));
  EXPECT_EQ(j.packets(), 4u);
  EXPECT_NEAR(*j.mean_s(), 0.007 / 3.0, 1e-15);
}

TEST(DelayVariation, ConstantDelayHasNoJitter) {
  DelayVariation j;
  for (int i = 0; i < 5; ++i) j.add(Time::ms(3));
  EXPECT_EQ(*j.mean_s(), 0.0);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
