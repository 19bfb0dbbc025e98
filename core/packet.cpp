#include "core/packet.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "core/packet_sink.hpp"

namespace wmnsim {

void PacketReturn::operator()(Packet* p) const noexcept { pool->release(p); }

void DropSink::on_drop_in_service(PacketPtr packet, DropCause cause, Time now) {
  on_drop(std::move(packet), cause, now);
}

PacketPool::PacketPool(std::size_t chunk_packets) : chunk_packets_(chunk_packets) {
  if (chunk_packets_ == 0) throw std::invalid_argument("PacketPool: chunk size must be positive");
}

PacketPool::~PacketPool() {
  if (live_ != 0) {
    // Outstanding PacketPtrs would return into freed storage later: a lifetime bug
    // in whoever owns the pool, and one that must not pass silently.
    std::fprintf(stderr, "wmnsim: PacketPool destroyed with %zu live packets\n", live_);
    std::abort();
  }
}

Packet* PacketPool::acquire() {
  if (free_.empty()) {
    chunks_.push_back(std::make_unique<Packet[]>(chunk_packets_));
    capacity_ += chunk_packets_;
    free_.reserve(capacity_);
    Packet* chunk = chunks_.back().get();
    // Pushed in reverse so that slots are handed out in address order.
    for (std::size_t i = chunk_packets_; i-- > 0;) free_.push_back(chunk + i);
  }
  Packet* p = free_.back();
  free_.pop_back();
  ++live_;
  return p;
}

void PacketPool::release(Packet* p) noexcept {
  *p = Packet{};  // no stale header survives into the next packet
  free_.push_back(p);  // capacity reserved in acquire(): cannot throw
  --live_;
}

PacketPtr PacketPool::make(Time now) {
  Packet* p = acquire();
  p->id = next_id_++;
  p->created = now;
  return PacketPtr(p, PacketReturn{this});
}

PacketPtr PacketPool::clone(const Packet& original) {
  Packet* p = acquire();
  *p = original;
  return PacketPtr(p, PacketReturn{this});
}

}  // namespace wmnsim
