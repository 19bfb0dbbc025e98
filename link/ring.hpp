#pragma once
// A FIFO on a ring buffer that grows (doubling) to the largest length seen and
// then never allocates again; std::deque would keep allocating as it slides. The
// storage of link/packet_fifo.hpp and of the wired link's packets on the wire.

#include <bit>
#include <cstddef>
#include <utility>
#include <vector>

namespace wmnsim::link {

// A FIFO on a ring buffer that grows (doubling) to the largest length seen and
// then never allocates again; std::deque would keep allocating as it slides.
template <typename T>
class Ring {
 public:
  void push_back(T value) {
    if (size_ == ring_.size()) grow();
    ring_[(head_ + size_) & (ring_.size() - 1)] = std::move(value);
    ++size_;
  }
  T pop_front() {
    T value = std::move(ring_[head_]);
    head_ = (head_ + 1) & (ring_.size() - 1);
    --size_;
    return value;
  }
  T& front() { return ring_[head_]; }
  const T& front() const { return ring_[head_]; }
  // Room for at least `n` elements without growing.
  void reserve(std::size_t n) {
    if (n <= ring_.size()) return;
    std::vector<T> bigger(std::bit_ceil(n));
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move(ring_[(head_ + i) & (ring_.size() - 1)]);
    ring_ = std::move(bigger);
    head_ = 0;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  void grow() { reserve(ring_.empty() ? 8 : ring_.size() * 2); }
  std::vector<T> ring_;  // size is 0 or a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace wmnsim::link
