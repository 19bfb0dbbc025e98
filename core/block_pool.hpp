#pragma once
// Free-list storage for many short-lived objects of one size, behind a standard
// allocator (PoolAllocator), so that std::allocate_shared takes them from a pool
// instead of the heap. Made for the MAC's frames (mac/mac.cpp): one per frame
// sent, shared by the PHY while it is on the air.
//
// Storage comes in chunks whose addresses never move; a released block is reused
// newest first (still warm in the cache). The block size is fixed by the first
// allocation: allocate_shared asks for its control block with the object inside,
// a type only the standard library names, so the pool learns its size then; a
// later request for another size is a bug and throws std::logic_error.
// Cost: allocate and deallocate are O(1) and touch the heap only when every block
// is live. Single-threaded, no global state: one pool per owner. The pool must
// outlive every block it handed out; destroying it with live blocks is a bug and
// aborts. Under AddressSanitizer free blocks are poisoned, so a use after release
// is reported as it would be for the heap.

#include <cstddef>
#include <memory>
#include <vector>

namespace wmnsim {

class BlockPool {
 public:
  explicit BlockPool(std::size_t chunk_blocks = 64);
  ~BlockPool();
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  // A block of `bytes` (the pool's block size once set), aligned to `alignment`
  // (at most alignof(std::max_align_t)).
  void* allocate(std::size_t bytes, std::size_t alignment);
  void deallocate(void* block) noexcept;

  std::size_t block_bytes() const { return block_bytes_; }  // 0 before the first allocation
  std::size_t live() const { return live_; }                // handed out, not yet returned
  std::size_t capacity() const { return capacity_; }        // blocks allocated (live + free)

 private:
  std::size_t chunk_blocks_;
  std::size_t block_bytes_ = 0;
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::vector<void*> free_;  // reserved to capacity_, so deallocate never allocates
  std::size_t capacity_ = 0;
  std::size_t live_ = 0;
};

// A standard allocator over a BlockPool, for one object at a time
// (std::allocate_shared<T>(PoolAllocator<T>(pool), ...)). The shared_ptr's control
// block keeps a copy, so the object returns to its pool whichever holder lets go last.
template <typename T>
struct PoolAllocator {
  using value_type = T;

  explicit PoolAllocator(BlockPool& storage) : pool(&storage) {}
  template <typename U>
  PoolAllocator(const PoolAllocator<U>& other) : pool(other.pool) {}  // NOLINT: rebinding

  T* allocate(std::size_t n) {
    if (n != 1) throw std::bad_array_new_length();
    return static_cast<T*>(pool->allocate(sizeof(T), alignof(T)));
  }
  void deallocate(T* p, std::size_t /*n*/) noexcept { pool->deallocate(p); }

  template <typename U>
  bool operator==(const PoolAllocator<U>& other) const {
    return pool == other.pool;
  }

  BlockPool* pool;
};

}  // namespace wmnsim
