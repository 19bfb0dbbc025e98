#pragma once
// A FIFO of owned packets on a growable ring buffer, with its byte count: the
// storage of drop-tail and, later, of each sub-queue of FQ or per-neighbour buffers.
// std::deque would allocate and free blocks as the queue slides; the ring grows
// (doubling) to the largest length seen and then never allocates again.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/packet.hpp"

namespace wmnsim::mac {

class PacketFifo {
 public:
  PacketFifo() = default;
  explicit PacketFifo(std::size_t reserve_packets) { reserve(reserve_packets); }

  void push_back(PacketPtr packet);
  PacketPtr pop_front();  // null when empty
  const Packet* front() const { return size_ == 0 ? nullptr : ring_[head_].get(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::int64_t bytes() const { return bytes_; }
  void reserve(std::size_t packets);

 private:
  std::vector<PacketPtr> ring_;  // size is 0 or a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  std::int64_t bytes_ = 0;
};

}  // namespace wmnsim::mac
