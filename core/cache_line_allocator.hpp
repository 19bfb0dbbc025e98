#pragma once
// A std::allocator replacement that places arrays on 64-byte boundaries, so that
// a 64-byte element occupies exactly one cache line (and a 128-byte one two).

#include <cstddef>
#include <new>

namespace wmnsim {

template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}  // NOLINT: rebinding
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64})); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{64}); }
  template <typename U>
  bool operator==(const CacheLineAllocator<U>&) const { return true; }
};

}  // namespace wmnsim
