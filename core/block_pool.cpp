#include "core/block_pool.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define WMNSIM_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define WMNSIM_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define WMNSIM_POISON(p, n) ((void)(p), (void)(n))
#define WMNSIM_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace wmnsim {

BlockPool::BlockPool(std::size_t chunk_blocks) : chunk_blocks_(chunk_blocks) {
  if (chunk_blocks_ == 0) throw std::invalid_argument("BlockPool: chunk size must be positive");
}

BlockPool::~BlockPool() {
  if (live_ != 0) {
    // Outstanding blocks would return into freed storage later: a lifetime bug in
    // whoever owns the pool, and one that must not pass silently.
    std::fprintf(stderr, "wmnsim: BlockPool destroyed with %zu live blocks\n", live_);
    std::abort();
  }
  for (const auto& chunk : chunks_) WMNSIM_UNPOISON(chunk.get(), chunk_blocks_ * block_bytes_);
}

void* BlockPool::allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment > alignof(std::max_align_t)) throw std::logic_error("BlockPool: over-aligned type");
  if (block_bytes_ == 0) {
    // Rounded up so that every block of a chunk keeps the chunk's alignment.
    constexpr std::size_t a = alignof(std::max_align_t);
    block_bytes_ = (bytes + a - 1) / a * a;
  }
  if (bytes > block_bytes_ || block_bytes_ - bytes >= alignof(std::max_align_t)) {
    throw std::logic_error("BlockPool: blocks are " + std::to_string(block_bytes_) + " bytes, asked for " +
                           std::to_string(bytes));
  }
  if (free_.empty()) {
    // new std::byte[] is aligned for any fundamental type (max_align_t).
    chunks_.push_back(std::make_unique<std::byte[]>(chunk_blocks_ * block_bytes_));
    capacity_ += chunk_blocks_;
    free_.reserve(capacity_);
    std::byte* chunk = chunks_.back().get();
    WMNSIM_POISON(chunk, chunk_blocks_ * block_bytes_);
    // Pushed in reverse so that blocks are handed out in address order.
    for (std::size_t i = chunk_blocks_; i-- > 0;) free_.push_back(chunk + i * block_bytes_);
  }
  void* block = free_.back();
  free_.pop_back();
  ++live_;
  WMNSIM_UNPOISON(block, block_bytes_);
  return block;
}

void BlockPool::deallocate(void* block) noexcept {
  WMNSIM_POISON(block, block_bytes_);
  free_.push_back(block);  // capacity reserved in allocate(): cannot throw
  --live_;
}

}  // namespace wmnsim

#undef WMNSIM_POISON  // not beyond this file (a unity build batches files)
#undef WMNSIM_UNPOISON
