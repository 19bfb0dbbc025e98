#include "core/radix_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <vector>

#include "core/random.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using Key = RadixQueue::Key;

Key key(std::uint64_t hi, std::uint64_t lo) { return (static_cast<Key>(hi) << 64) | lo; }

// A key above `floor` differing from it in a random number of low bits, so keys
// land in every digit position, from the lowest to the top of the 128 bits.
Key random_key_above(Key floor, RandomStream& rng) {
  const auto bits = static_cast<unsigned>(rng.uniform_int(128));
  Key span = bits == 0 ? Key{1} : (Key{1} << bits) - 1;
  if (span > ~floor) span = ~floor;
  const Key offset = (static_cast<Key>(rng.next_u64()) << 64 | rng.next_u64()) % span;
  return floor + 1 + offset;
}

TEST(RadixQueue, PopsInOrderAgainstASortedSet) {
  // Interleaved pushes and pops, every push above the last key popped (the
  // simulation's rule), against std::set as the reference.
  RadixQueue q;
  std::set<Key> ref;
  RandomStream rng(7);
  Key last = 0;
  for (int step = 0; step < 200000; ++step) {
    // Look at the minimum at random moments (the queue caches it across pushes),
    // and pop with and without looking first.
    if (!ref.empty() && rng.uniform01() < 0.3) {
      ASSERT_EQ(q.min(), *ref.begin()) << "step " << step;
    }
    if (ref.empty() || rng.uniform01() < 0.52) {
      Key k = random_key_above(last, rng);
      if (!ref.insert(k).second) continue;  // keys are unique in the scheduler
      q.push(k);
    } else {
      if (rng.uniform01() < 0.5) {
        ASSERT_EQ(q.min(), *ref.begin()) << "step " << step;
      }
      q.pop_min();
      last = *ref.begin();
      ref.erase(ref.begin());
    }
    ASSERT_EQ(q.size(), ref.size());
  }
  while (!ref.empty()) {
    ASSERT_EQ(q.min(), *ref.begin());
    q.pop_min();
    ref.erase(ref.begin());
  }
  EXPECT_TRUE(q.empty());
}

TEST(RadixQueue, KeysThatDifferOnlyInLowBitsKeepTheirOrder) {
  // Many events at one time differ only in their sequence bits.
  RadixQueue q;
  for (std::uint64_t seq = 1000; seq-- > 0;) q.push(key(42, seq << 24));
  for (std::uint64_t seq = 0; seq < 1000; ++seq) {
    ASSERT_EQ(q.min(), key(42, seq << 24));
    q.pop_min();
  }
}

TEST(RadixQueue, LookingDoesNotCommit) {
  // The scheduler reads min() to see whether the next event is past the end of a
  // run; a caller may then push a key between the last pop and that minimum.
  RadixQueue q;
  q.push(key(1, 0));
  q.pop_min();
  q.push(key(30, 0));
  EXPECT_EQ(q.min(), key(30, 0));
  q.push(key(25, 0));
  EXPECT_EQ(q.min(), key(25, 0));
  q.pop_min();
  EXPECT_EQ(q.min(), key(30, 0));
}

TEST(RadixQueue, RejectsKeysNotAboveTheLastPopped) {
  RadixQueue q;
  q.push(key(10, 5));
  q.push(key(20, 0));
  q.pop_min();
  EXPECT_THROW(q.push(key(10, 5)), std::logic_error);
  EXPECT_THROW(q.push(key(9, 99)), std::logic_error);
  EXPECT_EQ(q.size(), 1u);
  EXPECT_NO_THROW(q.push(key(10, 6)));
  EXPECT_EQ(q.min(), key(10, 6));
}

TEST(RadixQueue, AnEmptyQueueTakesAnyKey) {
  // Nothing pending, nothing to keep in order: a key below the last one popped
  // is fine (the scheduler after run() popped cancelled events past now).
  RadixQueue q;
  q.push(key(50, 0));
  q.pop_min();
  ASSERT_TRUE(q.empty());
  q.push(key(30, 0));
  q.push(key(40, 0));
  EXPECT_EQ(q.min(), key(30, 0));
  q.pop_min();
  EXPECT_EQ(q.min(), key(40, 0));
}

TEST(RadixQueue, MemoryStaysProportionalToTheKeysPending) {
  // The hold model with 10^4 keys: the pool must stop growing once warm, and
  // hold about one key's worth per key plus one partly filled chunk per bucket.
  RadixQueue q;
  RandomStream rng(3);
  const std::size_t n = 10000;
  Key now = 0;
  for (std::size_t i = 0; i < n; ++i) q.push(key(static_cast<std::uint64_t>(rng.exponential(1e9)), i + 1));
  auto hold = [&](int events) {
    for (int e = 0; e < events; ++e) {
      now = q.min();
      q.pop_min();
      q.push(now + key(static_cast<std::uint64_t>(rng.exponential(1e9)), 1));
    }
  };
  hold(200000);
  const std::size_t warm = q.pool_bytes();
  hold(200000);
  EXPECT_EQ(q.pool_bytes(), warm);
  EXPECT_EQ(q.size(), n);
  // 15 keys per 256-byte chunk, a partly filled tail in each of the 512 buckets,
  // the spare chunks kept for refiling (513), one block of slack.
  const std::size_t bound = (n / 15 + 512 + 513 + 64) * 256;
  EXPECT_LE(warm, bound);
}

TEST(RadixQueue, EraseTakesOutOneKeyAndKeepsTheOrderOfTheRest) {
  // Interleaved pushes, pops and erasures (the scheduler's cancels) against
  // std::set. A key erase() declines (its bucket is crowded) stays and is popped
  // in its turn, as the scheduler then skips it.
  RadixQueue q;
  std::set<Key> ref;
  std::vector<Key> popped;
  RandomStream rng(11);
  Key last = 0;
  std::size_t erased = 0, declined = 0;
  for (int step = 0; step < 200000; ++step) {
    const double r = rng.uniform01();
    if (ref.empty() || r < 0.55) {
      // Mostly near the last key popped (timers due soon), sometimes anywhere above.
      const Key k = rng.uniform01() < 0.8 ? last + 1 + key(rng.uniform_int(1u << 20), rng.next_u64() >> 24)
                                          : random_key_above(last, rng);
      if (!ref.insert(k).second) continue;
      q.push(k);
    } else if (r < 0.7) {
      // Erase a pending key: one just above a random point, whatever it is.
      auto it = ref.lower_bound(last + key(rng.uniform_int(1u << 20), 0));
      if (it == ref.end()) it = ref.begin();
      if (q.erase(*it)) {
        ref.erase(it);
        ++erased;
      } else {
        ++declined;
      }
    } else if (r < 0.75) {
      // Keys not pending: one popped before, one never pushed.
      if (!popped.empty()) {
        ASSERT_FALSE(q.erase(popped[rng.uniform_int(popped.size())]));
      }
      const Key absent = random_key_above(last, rng);
      if (ref.count(absent) == 0) {
        ASSERT_FALSE(q.erase(absent));
      }
    } else {
      ASSERT_EQ(q.min(), *ref.begin()) << "step " << step;
      q.pop_min();
      last = *ref.begin();
      popped.push_back(last);
      ref.erase(ref.begin());
    }
    ASSERT_EQ(q.size(), ref.size()) << "step " << step;
  }
  while (!ref.empty()) {
    ASSERT_EQ(q.min(), *ref.begin());
    q.pop_min();
    ref.erase(ref.begin());
  }
  EXPECT_TRUE(q.empty());
  // Both paths ran: keys taken out, and keys left in a crowded bucket (the queue
  // grows to about 30,000 keys, most of them in a few dozen buckets).
  EXPECT_GT(erased, 1000u);
  EXPECT_GT(declined, 0u);
}

TEST(RadixQueue, EraseFindsAnyKeyOfAShortBucketAndDeclinesACrowdedOne) {
  RadixQueue q;
  // 20 keys at one time, differing in their low bits: one bucket, two chunks.
  for (std::uint64_t i = 0; i < 20; ++i) q.push(key(7, i << 24));
  EXPECT_TRUE(q.erase(key(7, 3 << 24)));
  EXPECT_TRUE(q.erase(key(7, 19 << 24)));  // the tail chunk's last key
  EXPECT_EQ(q.min(), key(7, 0));
  EXPECT_TRUE(q.erase(key(7, 0)));  // the minimum min() remembered: forgotten
  EXPECT_FALSE(q.erase(key(7, 3 << 24)));
  EXPECT_EQ(q.size(), 17u);
  for (std::uint64_t i = 1; i < 19; ++i) {
    if (i == 3) continue;
    ASSERT_EQ(q.min(), key(7, i << 24));
    q.pop_min();
  }
  EXPECT_TRUE(q.empty());
  // 300 keys in one bucket: more than erase searches.
  for (std::uint64_t i = 0; i < 300; ++i) q.push(key(9, i << 24));
  EXPECT_FALSE(q.erase(key(9, std::uint64_t{299} << 24)));  // the last of 20 chunks
  EXPECT_EQ(q.size(), 300u);
}

TEST(RadixQueue, EraseSearchesFourChunksOfABucket) {
  // 75 keys at one time: one bucket of five chunks (15 keys each, in push order).
  // A key in the fourth chunk is taken out; one in the fifth is left, to be
  // skipped by the scheduler when popped (issue 43 §2: longer searches cost more
  // than they save in large networks).
  RadixQueue q;
  for (std::uint64_t i = 0; i < 75; ++i) q.push(key(5, i << 24));
  EXPECT_TRUE(q.erase(key(5, std::uint64_t{59} << 24)));   // the fourth chunk's last key
  EXPECT_FALSE(q.erase(key(5, std::uint64_t{60} << 24)));  // the fifth chunk's first
  EXPECT_EQ(q.size(), 74u);
  for (std::uint64_t i = 0; i < 75; ++i) {
    if (i == 59) continue;
    ASSERT_EQ(q.min(), key(5, i << 24));
    q.pop_min();
  }
  EXPECT_TRUE(q.empty());
}

TEST(RadixQueue, TakeAllEmptiesAndAllowsAnyKeyAgain) {
  RadixQueue q;
  for (std::uint64_t i = 1; i <= 100; ++i) q.push(key(i, 0));
  q.pop_min();
  std::vector<Key> all = q.take_all();
  EXPECT_TRUE(q.empty());
  ASSERT_EQ(all.size(), 99u);
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all.front(), key(2, 0));
  q.push(key(1, 0));  // below the last key popped before take_all
  EXPECT_EQ(q.min(), key(1, 0));
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
