#include "link/fair_queue.hpp"

#include <memory>
#include <stdexcept>
#include <utility>

namespace wmnsim::mac {

FairQueueParams parse_fair_queue_params(JsonReader& queue, const FairQueueParams& base) {
  FairQueueParams p = base;
  p.per_class_packets = static_cast<int>(queue.integer_or("per_class_packets", p.per_class_packets, 1, 1'000'000));
  p.quantum_bytes = queue.integer_or("quantum_bytes", p.quantum_bytes, 1, 1'000'000);
  p.classify = queue.choice_or("classify", p.classify, names(kClassifyBy));
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

namespace {
constexpr const char* kFairQueueSchema = R"json({"properties": {
  "per_class_packets": {"type": "integer", "minimum": 1, "default": 5,
    "description": "fq, token_bucket (inner fq), per_class_token_bucket: each class's buffer (packets)"},
  "quantum_bytes": {"type": "integer", "minimum": 1, "default": 1500,
    "description": "fq, token_bucket (inner fq): deficit round robin's quantum (bytes)"},
  "classify": {"enum": ["flow", "subscriber"], "default": "flow",
    "description": "fq, fred, token_bucket (inner fq), per_class_token_bucket: a class per flow, or per subscriber (the mesh node the flow starts or ends at)"}
}})json";
}  // namespace

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
  e.schema = kFairQueueSchema;
  e.doc = R"md(| `fq` | `per_class_packets` (5), `quantum_bytes` (1500), `classify` (`flow` or `subscriber`) | fair queueing: a FIFO per class served by deficit round robin (Shreedhar and Varghese 1995), work-conserving; an arrival is dropped (`queue_overflow`) when its class or the whole queue is full (001 Sec. 4.1: 5 packets per flow) |)md";
  return e;
}

}  // namespace wmnsim::mac
