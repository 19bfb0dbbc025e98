#include "link/deficit_round_robin.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace wmnsim::link {

DeficitRoundRobin::DeficitRoundRobin(std::int64_t quantum_bytes, std::size_t class_capacity_packets)
    : quantum_(quantum_bytes), class_capacity_(class_capacity_packets) {
  if (quantum_ < 1) throw std::invalid_argument("DRR quantum must be at least 1 byte, got " + std::to_string(quantum_));
  if (class_capacity_ < 1) throw std::invalid_argument("DRR per-class capacity must be at least 1 packet");
}

DeficitRoundRobin::Class& DeficitRoundRobin::class_for(std::uint32_t cls) {
  const auto [it, inserted] = slot_of_.try_emplace(cls, static_cast<std::uint32_t>(classes_.size()));
  if (inserted) classes_.push_back(Class{cls, PacketFifo(class_capacity_), 0, false, false});
  return classes_[it->second];
}

bool DeficitRoundRobin::push(PacketPtr& packet, std::uint32_t cls) {
  Class& c = class_for(cls);
  if (c.fifo.size() >= class_capacity_) return false;
  bytes_ += packet->size_bytes;
  ++packets_;
  c.fifo.push_back(std::move(packet));
  if (!c.in_round) {
    c.in_round = true;
    active_.push_back(slot_of_.at(cls));
  }
  return true;
}

void DeficitRoundRobin::choose() const {
  if (chosen_ || active_.empty()) return;
  for (;;) {
    Class& c = classes_[active_.front()];
    if (!c.has_turn) {
      c.deficit += quantum_;
      c.has_turn = true;
    }
    if (static_cast<std::int64_t>(c.fifo.front()->size_bytes) <= c.deficit) break;
    // Its head does not fit what is left: the turn passes, the deficit carries over.
    c.has_turn = false;
    active_.push_back(active_.front());
    active_.pop_front();
  }
  chosen_ = true;
}

const Packet* DeficitRoundRobin::front() const {
  choose();
  return active_.empty() ? nullptr : classes_[active_.front()].fifo.front();
}

std::uint32_t DeficitRoundRobin::front_class() const {
  choose();
  if (active_.empty()) throw std::logic_error("DeficitRoundRobin::front_class on an empty store");
  return classes_[active_.front()].id;
}

PacketPtr DeficitRoundRobin::pop() {
  choose();
  if (active_.empty()) return nullptr;
  Class& c = classes_[active_.front()];
  PacketPtr p = c.fifo.pop_front();
  c.deficit -= p->size_bytes;
  bytes_ -= p->size_bytes;
  --packets_;
  chosen_ = false;  // the same class goes on if its next head still fits
  if (c.fifo.empty()) {
    // An idle class keeps no credit (DRR: the deficit resets when the queue empties).
    c.deficit = 0;
    c.has_turn = false;
    c.in_round = false;
    active_.pop_front();
  }
  return p;
}

std::size_t DeficitRoundRobin::class_length(std::uint32_t cls) const {
  const auto it = slot_of_.find(cls);
  return it == slot_of_.end() ? 0 : classes_[it->second].fifo.size();
}

}  // namespace wmnsim::link
