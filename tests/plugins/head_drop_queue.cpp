#include "tests/plugins/head_drop_queue.hpp"

#include <utility>

namespace wmnsim::test {

HeadDropQueue::HeadDropQueue(QueueLimit limit, HeadDropParams params, DropSink& drops)
    : QueueDiscipline(drops), limit_(limit), params_(params) {}

bool HeadDropQueue::full() const {
  if (limit_.unit == QueueLimit::Unit::packets) return static_cast<std::int64_t>(fifo_.size()) >= limit_.capacity;
  return fifo_.bytes() >= limit_.capacity;
}

mac::EnqueueResult HeadDropQueue::do_enqueue(PacketPtr& packet, Time now) {
  if (full()) {
    for (int i = 0; i < params_.head_drop_packets && !fifo_.empty(); ++i) {
      drop(fifo_.pop_front(), DropCause::queue_overflow, now);
    }
  }
  fifo_.push_back(std::move(packet));
  return mac::EnqueueResult::accepted();
}

PacketPtr HeadDropQueue::do_dequeue(Time /*now*/) { return fifo_.pop_front(); }

mac::QueueDisciplineEntry head_drop_entry() {
  mac::QueueDisciplineEntry e;
  e.name = "head_drop";
  e.parse = [](JsonReader& queue, const std::any* base) {
    HeadDropParams p = base != nullptr ? std::any_cast<HeadDropParams>(*base) : HeadDropParams{};
    p.head_drop_packets = static_cast<int>(queue.integer_or("head_drop_packets", p.head_drop_packets, 1, 100));
    return std::any(p);
  };
  e.build = [](const QueueLimit& limit, const std::any& params, DropSink& drops,
                const mac::QueueContext&) -> std::unique_ptr<mac::QueueDiscipline> {
    const HeadDropParams p = params.has_value() ? std::any_cast<HeadDropParams>(params) : HeadDropParams{};
    return std::make_unique<HeadDropQueue>(limit, p, drops);
  };
  e.schema = R"json({"properties": {"head_drop_packets": {"type": "integer", "minimum": 1, "maximum": 100, "default": 1}}})json";
  e.doc = "| `head_drop` | `head_drop_packets` (1) | tests only: a full queue drops its oldest packets for the arrival |";
  return e;
}

}  // namespace wmnsim::test
