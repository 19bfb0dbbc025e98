#include "link/drop_tail_queue.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace wmnsim::link {

DropTailQueue::DropTailQueue(QueueLimit limit, DropSink& drops, QueueObserver* observer)
    : QueueDiscipline(drops, observer), limit_(limit) {
  if (limit_.capacity < 1) {
    throw std::invalid_argument("drop-tail queue capacity must be at least 1, got " +
                                std::to_string(limit_.capacity));
  }
  // A packet-limited queue never holds more than its capacity: allocate it once.
  // (Capped, so that an absurd limit does not allocate up front.)
  if (limit_.unit == QueueLimit::Unit::packets) {
    fifo_.reserve(static_cast<std::size_t>(std::min<std::int64_t>(limit_.capacity, 4096)));
  }
}

bool DropTailQueue::fits(const Packet& packet) const {
  if (limit_.unit == QueueLimit::Unit::packets) {
    return static_cast<std::int64_t>(fifo_.size()) < limit_.capacity;
  }
  return fifo_.bytes() + static_cast<std::int64_t>(packet.size_bytes) <= limit_.capacity;
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
