#pragma once
// A FIFO of owned packets with its byte count, on link/ring.hpp's ring: the storage
// of drop-tail and, later, of each sub-queue of FQ or per-neighbour buffers.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/packet.hpp"
#include "link/ring.hpp"

namespace wmnsim::link {

class PacketFifo {
 public:
  PacketFifo() = default;
  explicit PacketFifo(std::size_t reserve_packets) { reserve(reserve_packets); }

  void push_back(PacketPtr packet) {
    bytes_ += packet->size_bytes;
    ring_.push_back(std::move(packet));
  }
  PacketPtr pop_front() {  // null when empty
    if (ring_.empty()) return nullptr;
    PacketPtr packet = ring_.pop_front();
    bytes_ -= packet->size_bytes;
    return packet;
  }
  const Packet* front() const { return ring_.empty() ? nullptr : ring_.front().get(); }

  std::size_t size() const { return ring_.size(); }
  bool empty() const { return ring_.empty(); }
  std::int64_t bytes() const { return bytes_; }
  void reserve(std::size_t packets) { ring_.reserve(packets); }

 private:
  Ring<PacketPtr> ring_;
  std::int64_t bytes_ = 0;
};

}  // namespace wmnsim::link
