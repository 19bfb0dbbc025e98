#pragma once
// A FIFO on a ring buffer that grows (doubling) to the largest length seen and
// then never allocates again; std::deque would keep allocating as it slides. The
// storage of link/packet_fifo.hpp and of the wired link's packets on the wire.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>

namespace wmnsim::link {

// A FIFO on a ring buffer that grows (doubling) to the largest length seen and
// then never allocates again; std::deque would keep allocating as it slides.
// Its storage, capacity, head and length in 24 B (a std::vector and two size_t
// took 40: issue 43 §3, memory per node, one ring per MAC queue), so it holds at
// most 2^31 elements (std::length_error beyond).
template <typename T>
class Ring {
 public:
  static constexpr std::size_t kMaxCapacity = std::size_t{1} << 31;

  Ring() = default;
  Ring(Ring&& other) noexcept
      : ring_(std::exchange(other.ring_, nullptr)),
        capacity_(std::exchange(other.capacity_, 0)),
        head_(std::exchange(other.head_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  Ring& operator=(Ring&& other) noexcept {
    if (this != &other) {
      release();
      ring_ = std::exchange(other.ring_, nullptr);
      capacity_ = std::exchange(other.capacity_, 0);
      head_ = std::exchange(other.head_, 0);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~Ring() { release(); }

  void push_back(T value) {
    if (size_ == capacity_) grow();
    ring_[(head_ + size_) & (capacity_ - 1)] = std::move(value);
    ++size_;
  }
  T pop_front() {
    T value = std::move(ring_[head_]);
    head_ = (head_ + 1) & (capacity_ - 1);
    --size_;
    return value;
  }
  T& front() { return ring_[head_]; }
  const T& front() const { return ring_[head_]; }
  // Room for at least `n` elements without growing.
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    if (n > kMaxCapacity) throw std::length_error("Ring: more than 2^31 elements");
    const auto bigger_capacity = static_cast<std::uint32_t>(std::bit_ceil(n));
    // Every slot holds a value-initialised T, as std::vector's did: a slot is
    // assigned to, never constructed, when an element arrives.
    // If a T's construction or move throws, the new block is freed and the ring keeps
    // its old one, the same length and order (the elements moved before the throw
    // are left moved-from: the basic guarantee).
    T* const bigger = std::allocator<T>{}.allocate(bigger_capacity);
    try {
      std::uninitialized_value_construct_n(bigger, bigger_capacity);  // undoes itself if one throws
    } catch (...) {
      std::allocator<T>{}.deallocate(bigger, bigger_capacity);
      throw;
    }
    try {
      for (std::uint32_t i = 0; i < size_; ++i) bigger[i] = std::move(ring_[(head_ + i) & (capacity_ - 1)]);
    } catch (...) {
      std::destroy_n(bigger, bigger_capacity);
      std::allocator<T>{}.deallocate(bigger, bigger_capacity);
      throw;
    }
    release();
    ring_ = bigger;
    capacity_ = bigger_capacity;
    head_ = 0;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity() const { return capacity_; }

 private:
  void grow() { reserve(capacity_ == 0 ? 8 : std::size_t{capacity_} * 2); }
  // (A std::allocator's block, not new T[]: no array cookie in front of it.)
  void release() {
    if (ring_ == nullptr) return;
    std::destroy_n(ring_, capacity_);
    std::allocator<T>{}.deallocate(ring_, capacity_);
    ring_ = nullptr;
  }
  T* ring_ = nullptr;
  std::uint32_t capacity_ = 0;  // 0 or a power of two
  std::uint32_t head_ = 0;
  std::uint32_t size_ = 0;
};

}  // namespace wmnsim::link
