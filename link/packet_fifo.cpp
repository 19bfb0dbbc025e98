#include "link/packet_fifo.hpp"

#include <bit>
#include <utility>

namespace wmnsim::mac {

void PacketFifo::reserve(std::size_t packets) {
  if (packets <= ring_.size()) return;
  std::vector<PacketPtr> bigger(std::bit_ceil(packets));
  const std::size_t mask = ring_.size() - 1;
  for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move(ring_[(head_ + i) & mask]);
  ring_ = std::move(bigger);
  head_ = 0;
}

void PacketFifo::push_back(PacketPtr packet) {
  if (size_ == ring_.size()) reserve(size_ < 8 ? 8 : 2 * size_);
  bytes_ += packet->size_bytes;
  ring_[(head_ + size_) & (ring_.size() - 1)] = std::move(packet);
  ++size_;
}

PacketPtr PacketFifo::pop_front() {
  if (size_ == 0) return nullptr;
  PacketPtr packet = std::move(ring_[head_]);
  head_ = (head_ + 1) & (ring_.size() - 1);
  --size_;
  bytes_ -= packet->size_bytes;
  return packet;
}

}  // namespace wmnsim::mac
