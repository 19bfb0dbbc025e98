#include "link/drop_tail_queue.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace wmnsim::link {

DropTailQueue::DropTailQueue(QueueLimit limit, DropSink& drops, QueueObserver* observer)
    : QueueDiscipline(drops, observer), capacity_(limit.capacity), in_bytes_(limit.unit == QueueLimit::Unit::bytes) {
  if (capacity_ < 1) {
    throw std::invalid_argument("drop-tail queue capacity must be at least 1, got " + std::to_string(capacity_));
  }
  // A packet-limited queue never holds more than its capacity: allocate it once.
  // (Capped, so that an absurd limit does not allocate up front.)
  if (!in_bytes_) fifo_.reserve(static_cast<std::size_t>(std::min<std::int64_t>(capacity_, 4096)));
}

bool DropTailQueue::fits(const Packet& packet) const {
  if (!in_bytes_) return static_cast<std::int64_t>(fifo_.size()) + held_packets_ < capacity_;
  return fifo_.bytes() + held_bytes_ + static_cast<std::int64_t>(packet.size_bytes) <= capacity_;
}

void DropTailQueue::hold_place(const Packet& in_service) {
  ++held_packets_;
  held_bytes_ += in_service.size_bytes;
}

void DropTailQueue::release_place(const Packet& in_service) {
  if (held_packets_ == 0 || held_bytes_ < in_service.size_bytes) [[unlikely]] {
    throw std::logic_error("drop-tail queue: a place released that was not held");
  }
  --held_packets_;
  held_bytes_ -= in_service.size_bytes;
}

EnqueueResult DropTailQueue::do_enqueue(PacketPtr& packet, Time /*now*/) {
  if (!fits(*packet)) return EnqueueResult::dropped(DropCause::queue_overflow);
  fifo_.push_back(std::move(packet));
  return EnqueueResult::accepted();
}

PacketPtr DropTailQueue::do_dequeue(Time /*now*/) { return fifo_.pop_front(); }

QueueDisciplineEntry drop_tail_entry() {
  QueueDisciplineEntry e;
  e.name = "drop_tail";
  e.build = [](const QueueLimit& limit, const std::any&, DropSink& drops,
                const QueueContext&) -> std::unique_ptr<QueueDiscipline> {
    return std::make_unique<DropTailQueue>(limit, drops);
  };
  e.summary = "FIFO; an arriving packet that does not fit the capacity is dropped (`queue_overflow`), nothing "
              "queued is ever dropped (the default)";
  return e;
}

}  // namespace wmnsim::link
