#include "core/node_signals.hpp"

#include <algorithm>
#include <stdexcept>

namespace wmnsim {

namespace {
// Counts the signals being fired, so that the list is not changed under the loop.
class Firing {
 public:
  explicit Firing(int& depth) : depth_(depth) { ++depth_; }
  ~Firing() { --depth_; }
  Firing(const Firing&) = delete;
  Firing& operator=(const Firing&) = delete;

 private:
  int& depth_;
};
}  // namespace

void NodeSignals::subscribe(NodeSubscriber& subscriber) {
  if (firing_ > 0) throw std::logic_error("a node subscriber was added while the node fired a signal");
  subscribers_.push_back(&subscriber);
}

void NodeSignals::unsubscribe(NodeSubscriber& subscriber) {
  if (firing_ > 0) throw std::logic_error("a node subscriber was removed while the node fired a signal");
  subscribers_.erase(std::remove(subscribers_.begin(), subscribers_.end(), &subscriber), subscribers_.end());
}

void NodeSignals::originated(std::uint32_t node, Packet& p) {
  const Firing firing(firing_);
  for (NodeSubscriber* s : subscribers_) s->on_originated(node, p);
}

void NodeSignals::forwarded(std::uint32_t node, Packet& p, const PrevHop& from, const NextHop& to) {
  const Firing firing(firing_);
  for (NodeSubscriber* s : subscribers_) s->on_forwarded(node, p, from, to);
}

void NodeSignals::delivered(std::uint32_t node, Packet& p, const PrevHop& from) {
  const Firing firing(firing_);
  for (NodeSubscriber* s : subscribers_) s->on_delivered(node, p, from);
}

void NodeSignals::dropped(std::uint32_t node, const Packet& p, DropCause cause) {
  const Firing firing(firing_);
  for (NodeSubscriber* s : subscribers_) s->on_dropped(node, p, cause);
}

}  // namespace wmnsim
