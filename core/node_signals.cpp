#include "core/node_signals.hpp"

namespace wmnsim {

void NodeSignals::originated(std::uint32_t node, Packet& p) {
  subscribers_.tell([&](NodeSubscriber& s) { s.on_originated(node, p); });
}

void NodeSignals::forwarded(std::uint32_t node, Packet& p, const PrevHop& from, const NextHop& to) {
  subscribers_.tell([&](NodeSubscriber& s) { s.on_forwarded(node, p, from, to); });
}

void NodeSignals::delivered(std::uint32_t node, Packet& p, const PrevHop& from) {
  subscribers_.tell([&](NodeSubscriber& s) { s.on_delivered(node, p, from); });
}

void NodeSignals::dropped(std::uint32_t node, const Packet& p, DropCause cause) {
  subscribers_.tell([&](NodeSubscriber& s) { s.on_dropped(node, p, cause); });
}

}  // namespace wmnsim
