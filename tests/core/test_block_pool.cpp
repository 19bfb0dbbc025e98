// BlockPool and PoolAllocator: std::allocate_shared from a pool, blocks reused
// newest first once the last holder lets go (never while one still holds it),
// chunks allocated only when every block is live, and a pool that refuses a
// second size.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/block_pool.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

struct Payload {
  virtual ~Payload() = default;
};
struct Frame final : Payload {
  std::uint32_t value = 0;
  std::shared_ptr<int> resource;  // destroyed when the frame is
};

std::shared_ptr<Frame> make(BlockPool& pool, std::uint32_t value) {
  auto f = std::allocate_shared<Frame>(PoolAllocator<Frame>(pool));
  f->value = value;
  return f;
}

TEST(BlockPool, AllocateSharedTakesBlocksFromThePoolAndGivesThemBack) {
  BlockPool pool(4);
  EXPECT_EQ(pool.block_bytes(), 0u);
  {
    auto a = make(pool, 1);
    EXPECT_EQ(pool.live(), 1u);
    EXPECT_EQ(pool.capacity(), 4u);
    EXPECT_GE(pool.block_bytes(), sizeof(Frame));
    EXPECT_EQ(pool.block_bytes() % alignof(std::max_align_t), 0u);
  }
  EXPECT_EQ(pool.live(), 0u);
  EXPECT_EQ(pool.capacity(), 4u);
}

TEST(BlockPool, ABlockIsReusedOnlyAfterItsLastHolderLetsGo) {
  BlockPool pool(4);
  auto sender = make(pool, 7);
  const void* block = sender.get();
  // The PHY keeps its own reference while the frame is on the air.
  std::shared_ptr<const Payload> on_air = sender;
  sender.reset();
  auto next = make(pool, 8);
  EXPECT_NE(static_cast<const void*>(next.get()), block);
  EXPECT_EQ(static_cast<const Frame&>(*on_air).value, 7u);  // untouched
  EXPECT_EQ(pool.live(), 2u);
  on_air.reset();  // the last receiver is done
  EXPECT_EQ(pool.live(), 1u);
  auto reused = make(pool, 9);  // newest free block first
  EXPECT_EQ(static_cast<const void*>(reused.get()), block);
  EXPECT_EQ(reused->value, 9u);
}

TEST(BlockPool, DestroysTheObjectWhenTheBlockReturns) {
  BlockPool pool;
  auto token = std::make_shared<int>(1);
  auto f = make(pool, 1);
  f->resource = token;
  EXPECT_EQ(token.use_count(), 2);
  f.reset();
  EXPECT_EQ(token.use_count(), 1);
}

TEST(BlockPool, GrowsByChunksOnlyWhenEveryBlockIsLive) {
  BlockPool pool(4);
  std::vector<std::shared_ptr<Frame>> frames;
  for (std::uint32_t i = 0; i < 4; ++i) frames.push_back(make(pool, i));
  EXPECT_EQ(pool.capacity(), 4u);
  frames.push_back(make(pool, 4));
  EXPECT_EQ(pool.capacity(), 8u);
  frames.clear();
  EXPECT_EQ(pool.live(), 0u);
  // A steady state of churn allocates nothing more.
  for (int round = 0; round < 1000; ++round) {
    auto a = make(pool, 1), b = make(pool, 2), c = make(pool, 3);
  }
  EXPECT_EQ(pool.capacity(), 8u);
  for (std::uint32_t i = 0; i < 4; ++i) frames.push_back(make(pool, i));
  for (std::size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(frames[i]->value, i);  // distinct blocks
}

TEST(BlockPool, RefusesASecondSize) {
  BlockPool pool;
  auto f = make(pool, 1);
  struct Big {
    char bytes[512];
  };
  EXPECT_THROW((void)std::allocate_shared<Big>(PoolAllocator<Big>(pool)), std::logic_error);
  EXPECT_THROW((void)BlockPool(0), std::invalid_argument);
}

TEST(BlockPoolDeathTest, DestroyingAPoolWithLiveBlocksAborts) {
  EXPECT_DEATH(
      {
        auto pool = std::make_unique<BlockPool>();
        auto f = make(*pool, 1);
        pool.reset();
        f.reset();  // would write into freed storage
      },
      "BlockPool destroyed with 1 live blocks");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
