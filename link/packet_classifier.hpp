#pragma once
// The class of a packet in a per-class queue discipline (fair queueing, FRED,
// per-class token buckets): its flow, or its subscriber, the mesh node its flow
// starts or ends at (001 Sec. 4.3.2: "a flow f_i represents the aggregate of all
// micro-flows originating from, or destined to, mesh router n_i"). A TCP flow's
// ACKs carry the flow's index, so they fall in the same class as its data.
// Packets of no flow (routing, control) form one class of their own.

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "core/enum_names.hpp"
#include "core/packet.hpp"
#include "core/random.hpp"

namespace wmnsim::link {

enum class ClassifyBy { flow, subscriber };
inline constexpr std::array<EnumName<ClassifyBy>, 2> kClassifyBy{
    {{"flow", ClassifyBy::flow}, {"subscriber", ClassifyBy::subscriber}}};

// The class of packets that belong to no flow.
inline constexpr std::uint32_t kControlClass = kNoFlow;

// What a queue discipline may know of the network and the interface it is built
// for.
struct QueueContext {
  // By scenario flow index: the flow's subscriber node (scenario/mac_builder.hpp
  // queue_context: its end with role "mesh", the source when both or neither is).
  std::vector<std::uint32_t> flow_subscriber;
  // The queue's own stream, for disciplines that draw (RED's early drops): named
  // ("node", <node id>, "queue/<interface>/<queue>") by the builder, so adding a
  // queue elsewhere changes no one's draws (docs/random.md).
  RandomStream random{0};
};

class PacketClassifier {
 public:
  PacketClassifier() = default;  // by flow
  PacketClassifier(ClassifyBy by, std::vector<std::uint32_t> flow_subscriber)
      : by_(by), flow_subscriber_(std::move(flow_subscriber)) {}

  ClassifyBy by() const { return by_; }
  std::uint32_t class_of(const Packet& p) const {
    if (p.flow == kNoFlow) return kControlClass;
    if (by_ == ClassifyBy::flow) return p.flow;
    // A flow the table does not know is a wiring error, not a class of its own:
    // flow and node indices must not mix.
    if (p.flow >= flow_subscriber_.size()) throw std::logic_error("PacketClassifier: no subscriber for this flow");
    return flow_subscriber_[p.flow];
  }

 private:
  ClassifyBy by_ = ClassifyBy::flow;
  std::vector<std::uint32_t> flow_subscriber_;
};

}  // namespace wmnsim::link
