#include "link/fair_queue.hpp"

#include <memory>
#include <stdexcept>
#include <utility>

#include "config/limits.hpp"

namespace wmnsim::link {

const PerClassKeys& per_class_keys() {
  static const PerClassKeys keys{
      IntegerParameter({.key = "per_class_packets",
                        .unit = "packets",
                        .min = 1,
                        .max = kMaxBufferPackets,
                        .fallback = FairQueueParams{}.per_class_packets,
                        .description = "each class's buffer",
                        .source = "001 Sec. 5.3.1: 5 per flow"}),
      IntegerParameter({.key = "quantum_bytes",
                        .unit = "bytes",
                        .min = 1,
                        .max = 1'000'000,
                        .fallback = FairQueueParams{}.quantum_bytes,
                        .description = "deficit round robin's quantum; at least the largest packet sends one "
                                       "packet or more per turn",
                        .source = "Shreedhar and Varghese 1995; ours: one full-size packet"}),
      ChoiceParameter<ClassifyBy>({.key = "classify",
                                   .names = names(kClassifyBy),
                                   .fallback = FairQueueParams{}.classify,
                                   .description = "a class per flow, or per subscriber (the mesh node the flow "
                                                  "starts or ends at)",
                                   .source = "001 Sec. 4.3.2"}),
  };
  return keys;
}

FairQueueParams parse_fair_queue_params(JsonReader& queue, const FairQueueParams& base) {
  const PerClassKeys& k = per_class_keys();
  FairQueueParams p = base;
  p.per_class_packets = static_cast<int>(k.per_class_packets.read_or(queue, p.per_class_packets));
  p.quantum_bytes = k.quantum_bytes.read_or(queue, p.quantum_bytes);
  p.classify = k.classify.read_or(queue, p.classify);
  return p;
}

bool fits_limit(const QueueLimit& limit, std::size_t packets, std::int64_t bytes, std::uint32_t packet_bytes) {
  if (limit.unit == QueueLimit::Unit::packets) return static_cast<std::int64_t>(packets) < limit.capacity;
  return bytes + static_cast<std::int64_t>(packet_bytes) <= limit.capacity;
}

FairQueue::FairQueue(QueueLimit limit, const FairQueueParams& params, PacketClassifier classifier, DropSink& drops,
                     QueueObserver* observer)
    : QueueDiscipline(drops, observer),
      limit_(limit),
      classifier_(std::move(classifier)),
      store_(params.quantum_bytes, static_cast<std::size_t>(params.per_class_packets)) {
  if (limit_.capacity < 1) throw std::invalid_argument("fair queue capacity must be at least 1");
}

EnqueueResult FairQueue::do_enqueue(PacketPtr& packet, Time /*now*/) {
  if (!fits_limit(limit_, store_.size(), store_.bytes(), packet->size_bytes)) {
    return EnqueueResult::dropped(DropCause::queue_overflow);
  }
  if (!store_.push(packet, classifier_.class_of(*packet))) return EnqueueResult::dropped(DropCause::queue_overflow);
  return EnqueueResult::accepted();
}

QueueDisciplineEntry fair_queue_entry() {
  QueueDisciplineEntry e;
  e.name = "fq";
  e.parse = [](JsonReader& queue, const std::any* base) {
    return std::any(parse_fair_queue_params(queue, base != nullptr ? std::any_cast<FairQueueParams>(*base) : FairQueueParams{}));
  };
  e.build = [](const QueueLimit& limit, const std::any& params, DropSink& drops,
               const QueueContext& context) -> std::unique_ptr<QueueDiscipline> {
    const FairQueueParams p = params.has_value() ? std::any_cast<FairQueueParams>(params) : FairQueueParams{};
    return std::make_unique<FairQueue>(limit, p, PacketClassifier(p.classify, context.flow_subscriber), drops);
  };
  e.summary = "fair queueing: a FIFO per class served by deficit round robin, work-conserving; an arrival is "
              "dropped (`queue_overflow`) when its class or the whole queue is full";
  e.source = "Shreedhar and Varghese 1995; 001 Sec. 4.1";
  const PerClassKeys& k = per_class_keys();
  e.parameters = {k.per_class_packets, k.quantum_bytes, k.classify};
  return e;
}

}  // namespace wmnsim::link
