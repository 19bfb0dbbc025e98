#include "tests/plugins/head_drop_queue.hpp"

#include <utility>

namespace wmnsim::test {

HeadDropQueue::HeadDropQueue(link::QueueLimit limit, HeadDropParams params, DropSink& drops)
    : link::QueueDiscipline(drops), limit_(limit), params_(params) {}

bool HeadDropQueue::full() const {
  if (limit_.unit == link::QueueLimit::Unit::packets) return static_cast<std::int64_t>(fifo_.size()) >= limit_.capacity;
  return fifo_.bytes() >= limit_.capacity;
}

link::EnqueueResult HeadDropQueue::do_enqueue(PacketPtr& packet, Time now) {
  if (full()) {
    for (int i = 0; i < params_.head_drop_packets && !fifo_.empty(); ++i) {
      drop(fifo_.pop_front(), DropCause::queue_overflow, now);
    }
  }
  fifo_.push_back(std::move(packet));
  return link::EnqueueResult::accepted();
}

PacketPtr HeadDropQueue::do_dequeue(Time /*now*/) { return fifo_.pop_front(); }

const IntegerParameter& head_drop_packets_key() {
  static const IntegerParameter key({.key = "head_drop_packets",
                                     .unit = "packets",
                                     .min = 1,
                                     .max = 100,
                                     .fallback = HeadDropParams{}.head_drop_packets,
                                     .description = "dropped from the head per arrival into a full queue",
                                     .source = "tests only"});
  return key;
}

link::QueueDisciplineEntry head_drop_entry() {
  link::QueueDisciplineEntry e;
  e.name = "head_drop";
  e.parse = [](JsonReader& queue, const std::any* base) {
    HeadDropParams p = base != nullptr ? std::any_cast<HeadDropParams>(*base) : HeadDropParams{};
    p.head_drop_packets = static_cast<int>(head_drop_packets_key().read_or(queue, p.head_drop_packets));
    return std::any(p);
  };
  e.build = [](const link::QueueLimit& limit, const std::any& params, DropSink& drops,
                const link::QueueContext&) -> std::unique_ptr<link::QueueDiscipline> {
    const HeadDropParams p = params.has_value() ? std::any_cast<HeadDropParams>(params) : HeadDropParams{};
    return std::make_unique<HeadDropQueue>(limit, p, drops);
  };
  e.summary = "tests only: a full queue drops its oldest packets for the arrival";
  e.source = "tests only";
  e.parameters = {head_drop_packets_key()};
  return e;
}

}  // namespace wmnsim::test
