#include "core/node.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include "core/sim_log.hpp"

namespace wmnsim {

Node::~Node() {
  if (interface_count_ > 1) delete[] interfaces_.several;
}

std::uint32_t Node::add_interface(NetInterface& interface) {
  // Set-up only: the first in place, then one new array per interface.
  if (interface_count_ == 0) {
    interfaces_.one = &interface;
    return interface_count_++;
  }
  auto* grown = new NetInterface*[interface_count_ + 1];
  if (interface_count_ == 1) {
    grown[0] = interfaces_.one;
  } else {
    std::copy_n(interfaces_.several, interface_count_, grown);
    delete[] interfaces_.several;
  }
  grown[interface_count_] = &interface;
  interfaces_.several = grown;
  return interface_count_++;
}

void Node::throw_no_interface(std::uint32_t interface) const {
  throw std::out_of_range("node " + std::to_string(index_) + " has no interface " + std::to_string(interface));
}

void Node::subscribe(NodeSubscriber& subscriber) {
  if (!signals_) signals_ = std::make_unique<NodeSignals>();
  signals_->subscribe(subscriber);
}

void Node::set_endpoint(std::uint32_t flow, PacketSink& endpoint) {
  auto& endpoints = attached().endpoints;
  const auto at = std::lower_bound(endpoints.begin(), endpoints.end(), flow,
                                   [](const auto& e, std::uint32_t f) { return e.first < f; });
  if (at != endpoints.end() && at->first == flow) {
    at->second = &endpoint;
  } else {
    endpoints.insert(at, {flow, &endpoint});
  }
}

PacketSink* Node::endpoint_of(std::uint32_t flow) const {
  if (!attachments_) return nullptr;
  const auto& endpoints = attachments_->endpoints;
  const auto at = std::lower_bound(endpoints.begin(), endpoints.end(), flow,
                                   [](const auto& e, std::uint32_t f) { return e.first < f; });
  return at != endpoints.end() && at->first == flow ? at->second : nullptr;
}

void Node::set_backlog_source(std::uint32_t flow, BacklogSource& source, int target) {
  if (target < 1) throw std::invalid_argument("a saturated source needs a backlog of at least one packet");
  attached().backlog.push_back(Backlog{flow, &source, target, 0});
}

Node::Backlog* Node::backlog_of(const Packet& p) {
  // Only the node's own packets still in its queues (no hop made yet).
  if (p.src != index_ || p.hops != 0 || !attachments_) return nullptr;
  for (Backlog& b : attachments_->backlog) {
    if (b.flow == p.flow) return &b;
  }
  return nullptr;
}

void Node::receive(PacketPtr packet) {
  if (packet->src != index_) {
    throw std::logic_error("node " + std::to_string(index_) + ": an endpoint sent a packet from node " +
                           std::to_string(packet->src));
  }
  ++counters_.originated;
  context_->ledger.originated(*packet);
  if (Backlog* b = backlog_of(*packet)) ++b->queued;
  if (signals_active()) signals_->originated(index_, *packet);
  route(std::move(packet), nullptr);
}

void Node::arrive(PacketPtr packet, PrevHop from) {
  if (agent_ != nullptr && packet->transport.routing_message != 0) {
    agent_->receive_control(index_, std::move(packet), from);
    return;
  }
  ++counters_.received;
  ++packet->hops;
  context_->ledger.arrived(*packet);
  if (packet->dst == index_) {
    PacketSink* endpoint = endpoint_of(packet->flow);
    if (endpoint == nullptr) {
      throw std::logic_error("node " + std::to_string(index_) + ": no endpoint for flow " +
                             std::to_string(packet->flow));
    }
    ++counters_.delivered;
    context_->ledger.delivered(*packet, context_->scheduler.now());
    if (Fingerprint* fp = context_->scheduler.fingerprint()) fp->delivery(context_->scheduler.now(), index_, packet->flow, packet->size_bytes);
    if (signals_active()) signals_->delivered(index_, *packet, from);
    endpoint->receive(std::move(packet));
    return;
  }
  // RFC 791: a router decrements the TTL and discards the datagram at zero.
  if (packet->ttl <= 1) {
    on_drop(std::move(packet), DropCause::ttl_expired, context_->scheduler.now());
    return;
  }
  --packet->ttl;
  ++counters_.forwarded;
  route(std::move(packet), &from);
}

void Node::route(PacketPtr packet, const PrevHop* from) {
  const NextHop* hop = agent_ == nullptr ? context_->tables.next_hop(index_, packet->dst) : agent_->next_hop(index_, *packet, from);
  if (hop == nullptr) {
    if (agent_ != nullptr) {
      agent_->no_route(index_, std::move(packet), from);
      return;
    }
    on_drop(std::move(packet), DropCause::no_route, context_->scheduler.now());
    return;
  }
  if (from != nullptr && signals_active()) signals_->forwarded(index_, *packet, *from, *hop);
  interface_at(hop->interface).send(std::move(packet), hop->address);
}

void Node::on_drop(PacketPtr packet, DropCause cause, Time now) {
  // A retry-limit drop comes after the packet left the queue (on_departure).
  drop(std::move(packet), cause, now, cause == DropCause::retry_limit);
}

void Node::on_drop_in_service(PacketPtr packet, DropCause cause, Time now) {
  drop(std::move(packet), cause, now, true);
}

void Node::drop(PacketPtr packet, DropCause cause, Time now, bool left_queue) {
  if (agent_ != nullptr) [[unlikely]] {
    // A unicast frame given up at the retry limit is the link layer's notice that
    // the link to its receiver broke (RFC 3561 6.11), whatever it carried.
    if (cause == DropCause::retry_limit) agent_->link_failed(index_, packet->next_hop_radio);
    if (packet->transport.routing_message != 0) {
      WMNSIM_LOG(context_->scheduler.log(), spdlog::level::debug, index_, "drop ({}): routing control packet {}, {} B",
                 to_string(cause), packet->id, packet->size_bytes);
      agent_->control_dropped(index_, *packet, cause);
      return;
    }
  }
  if (cause == DropCause::false_duplicate) {
    // Received over the hop, then discarded by this node's MAC (802.11-2012
    // 9.3.2.10): the packet made the hop, and was never in a queue here.
    ++packet->hops;
  } else if (!left_queue) {  // else on_departure counted it out already
    if (Backlog* b = backlog_of(*packet)) --b->queued;
  }
  // Every drop on the node comes here (queue overflow, queue lifetime, MAC retry
  // limit, false duplicate, TTL, no route), so this one line logs them all.
  WMNSIM_LOG(context_->scheduler.log(), spdlog::level::debug, index_, "drop ({}): packet {} of flow {}, {} B, {} hops", to_string(cause),
             packet->id, packet->flow == kNoFlow ? std::string("-") : std::to_string(packet->flow), packet->size_bytes,
             packet->hops);
  context_->ledger.dropped(*packet, index_, cause, now);
  if (Fingerprint* fp = context_->scheduler.fingerprint()) fp->drop(now, index_, to_string(cause), packet->flow, packet->size_bytes);
  if (signals_active()) signals_->dropped(index_, *packet, cause);
  // A stale packet left a queue as a departing one does: refill saturated sources,
  // or one whose every queued packet expired would never send again.
  if (cause == DropCause::lifetime_expired) refill_backlogs();
  // The packet returns to its pool here.
}

void Node::subscribe_management(std::uint8_t category, ManagementHandler& handler) {
  attached().management.emplace_back(category, &handler);
}

void Node::unsubscribe_management(ManagementHandler& handler) {
  if (!attachments_) return;
  auto& management = attachments_->management;
  if (attachments_->dispatching_management > 0) {
    // Keep the indices of the running dispatch: the entry is skipped, erased after.
    for (auto& entry : management) {
      if (entry.second == &handler) entry.second = nullptr;
    }
    return;
  }
  std::erase_if(management, [&](const auto& entry) { return entry.second == &handler; });
}

bool Node::receive_management(const ManagementBody& body, const PrevHop& from) {
  if (!attachments_) return false;  // no handler
  auto& management = attachments_->management;  // the block stays: a handler may subscribe another
  bool handled = false;
  const std::uint8_t category = body.category();
  // Unsubscribed handlers are erased when the outermost dispatch ends, also when a
  // handler throws.
  struct Dispatch {
    Node& node;
    explicit Dispatch(Node& n) : node(n) { ++node.attachments_->dispatching_management; }
    ~Dispatch() {
      if (--node.attachments_->dispatching_management == 0) {
        std::erase_if(node.attachments_->management, [](const auto& entry) { return entry.second == nullptr; });
      }
    }
    Dispatch(const Dispatch&) = delete;
    Dispatch& operator=(const Dispatch&) = delete;
  } dispatch(*this);
  for (std::size_t i = 0; i < management.size(); ++i) {  // by index: a handler may subscribe another
    if (management[i].first != category || management[i].second == nullptr) continue;
    management[i].second->on_management(index_, body, from);
    handled = true;
  }
  return handled;
}

void Node::on_departure(const Packet& departed) {
  if (Backlog* b = backlog_of(departed)) --b->queued;
  refill_backlogs();
}

void Node::refill_backlogs() {
  if (!attachments_) return;
  for (Backlog& b : attachments_->backlog) {
    if (b.queued < b.target) b.source->refill();
  }
}

}  // namespace wmnsim
