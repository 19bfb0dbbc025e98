#pragma once
// Fair queueing: one FIFO per class (flow or subscriber, link/packet_classifier.hpp),
// served by deficit round robin (link/deficit_round_robin.hpp). Work-conserving:
// the head is always ready. 001 Sec. 4.1 and 5.3.1 run it at the gateway with 5
// packets per flow. An arrival is dropped (queue_overflow) when its class holds
// per_class_packets already or the whole queue is at its capacity.

#include <cstddef>
#include <cstdint>

#include "config/parameter_table.hpp"
#include "link/deficit_round_robin.hpp"
#include "link/packet_classifier.hpp"
#include "link/queue_discipline.hpp"
#include "link/queue_discipline_entry.hpp"
#include "link/queue_limit.hpp"

namespace wmnsim::link {

struct FairQueueParams {
  int per_class_packets = 5;          // 001 Sec. 5.3.1 (from its ref. [15])
  std::int64_t quantum_bytes = 1500;  // at least the largest packet: one turn, one packet or more
  ClassifyBy classify = ClassifyBy::flow;
};

// The per-class keys of a queue object, declared once (config/parameter_table.hpp)
// for every discipline that takes them: fq, token_bucket with inner fq,
// per_class_token_bucket (per_class_packets, classify) and fred (classify).
struct PerClassKeys {
  IntegerParameter per_class_packets;
  IntegerParameter quantum_bytes;
  ChoiceParameter<ClassifyBy> classify;
};
const PerClassKeys& per_class_keys();

// Reads `per_class_packets`, `quantum_bytes` and `classify` of a queue object.
FairQueueParams parse_fair_queue_params(JsonReader& queue, const FairQueueParams& base);
// Within `limit` (packets or bytes): does the store hold room for one more packet?
bool fits_limit(const QueueLimit& limit, std::size_t packets, std::int64_t bytes, std::uint32_t packet_bytes);

class FairQueue final : public QueueDiscipline {
 public:
  FairQueue(QueueLimit limit, const FairQueueParams& params, PacketClassifier classifier, DropSink& drops,
            QueueObserver* observer = nullptr);

  std::size_t length_packets() const override { return store_.size(); }
  std::int64_t length_bytes() const override { return store_.bytes(); }
  std::optional<std::size_t> packets_of_class(std::uint32_t cls) const override { return class_length(cls); }
  std::size_t class_length(std::uint32_t cls) const { return store_.class_length(cls); }

 private:
  EnqueueResult do_enqueue(PacketPtr& packet, Time now) override;
  PacketPtr do_dequeue(Time /*now*/) override { return store_.pop(); }
  const Packet* do_peek() const override { return store_.front(); }

  QueueLimit limit_;
  PacketClassifier classifier_;
  DeficitRoundRobin store_;
};

// Its registry entry (link/queue_discipline_entry.hpp): `fq`.
QueueDisciplineEntry fair_queue_entry();

}  // namespace wmnsim::link
