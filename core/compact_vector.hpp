#pragma once
// A vector of trivially copyable values in 16 B: a pointer and two 32-bit counts,
// where std::vector takes three pointers (24 B). For the lists every radio keeps
// (its signals, candidates, stretches and faint signals; issue 43 §3, memory per
// node), of which a large network holds one set per radio.
//
// Contract: std::vector's for the members it has, with the same capacities:
// push_back and emplace_back grow a full vector to size + max(size, 1), reserve(n) to exactly n,
// resize(n) beyond the capacity to size + max(size, n - size), as libstdc++ does,
// so that code reading capacity() (phy/radio.cpp's faint list) behaves as it did
// with std::vector. At most 2^31 elements (std::length_error when doubling would pass 2^32 - 1).
// Iterators are pointers, invalidated as std::vector's are.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace wmnsim {

template <typename T>
class CompactVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "CompactVector moves its elements with memcpy and never destroys them");
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "storage from the plain operator new");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = std::size_t;

  CompactVector() = default;
  CompactVector(const CompactVector& other) { assign_from(other); }
  CompactVector& operator=(const CompactVector& other) {
    if (this != &other) {
      size_ = 0;
      assign_from(other);
    }
    return *this;
  }
  CompactVector(CompactVector&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  CompactVector& operator=(CompactVector&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  ~CompactVector() { release(); }

  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void push_back(const T& value) {
    if (size_ == capacity_) [[unlikely]] {
      grow_and_push(value);
      return;
    }
    data_[size_++] = value;
  }
  // Constructs the element in place from its fields (T{args...}), taken by value: a
  // push_back of a braced temporary builds it on the stack in 8-byte stores and
  // copies it with a 16-byte load, which the store buffer cannot forward (a stall at
  // every call; perf, docs/performance.md "Issue 43 §4", session 17).
  template <typename... Args>
  void emplace_back(Args... args) {
    if (size_ == capacity_) [[unlikely]] {
      grow_and_emplace(args...);
      return;
    }
    ::new (static_cast<void*>(data_ + size_)) T{args...};
    ++size_;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  T* erase(const T* position) { return erase(position, position + 1); }
  T* erase(const T* first, const T* last) {
    T* const at = data_ + (first - data_);
    const auto removed = static_cast<std::uint32_t>(last - first);
    const auto after = static_cast<std::size_t>(end() - last);
    // (memmove's pointers must not be null, even for no bytes: an empty vector has none.)
    if (after > 0) std::memmove(static_cast<void*>(at), static_cast<const void*>(last), after * sizeof(T));
    size_ -= removed;
    return at;
  }
  void reserve(std::size_t n) {
    if (n > capacity_) reallocate(checked(n));
  }
  // New elements are value-initialised, as std::vector's.
  void resize(std::size_t n) {
    if (n > capacity_) reallocate(grown(n - size_));
    for (std::size_t i = size_; i < n; ++i) data_[i] = T{};
    size_ = static_cast<std::uint32_t>(n);
  }
  void shrink_to_fit() {
    if (size_ < capacity_) reallocate(size_);
  }

 private:
  static std::uint32_t checked(std::size_t n) {
    if (n > std::numeric_limits<std::uint32_t>::max()) throw std::length_error("CompactVector: too many elements");
    return static_cast<std::uint32_t>(n);
  }
  // Out of line, as std::vector's _M_realloc_insert: the callers' fast path stays short.
  [[gnu::noinline]] void grow_and_push(const T& value) {
    const T copy = value;  // `value` may be one of ours, which the growth moves
    reallocate(grown(1));
    data_[size_++] = copy;
  }
  template <typename... Args>
  [[gnu::noinline]] void grow_and_emplace(Args... args) {
    reallocate(grown(1));
    ::new (static_cast<void*>(data_ + size_)) T{args...};
    ++size_;
  }
  // libstdc++'s _M_check_len: room for `more` elements beyond the size.
  std::uint32_t grown(std::size_t more) const { return checked(std::size_t{size_} + std::max<std::size_t>(size_, more)); }
  void reallocate(std::uint32_t capacity) {
    T* fresh = nullptr;
    if (capacity > 0) {
      fresh = static_cast<T*>(::operator new(std::size_t{capacity} * sizeof(T)));
      if (size_ > 0) std::memcpy(static_cast<void*>(fresh), static_cast<const void*>(data_), std::size_t{size_} * sizeof(T));
    }
    release();
    data_ = fresh;
    capacity_ = capacity;
  }
  void release() {
    if (data_ != nullptr) ::operator delete(data_);
    data_ = nullptr;
  }
  void assign_from(const CompactVector& other) {
    reserve(other.size_);
    if (other.size_ > 0) {
      std::memcpy(static_cast<void*>(data_), static_cast<const void*>(other.data_), std::size_t{other.size_} * sizeof(T));
    }
    size_ = other.size_;
  }

  T* data_ = nullptr;
  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = 0;
};

}  // namespace wmnsim
