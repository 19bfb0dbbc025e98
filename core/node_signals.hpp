#pragma once
// What a node's network layer tells the rest of the simulator, packet by packet:
// the controller hooks of DESIGN.md ("node: route lookup, forward, controller
// hooks"). Controllers and samplers subscribe to a node (Node::subscribe) at build
// time; any number may, and they are told in the order they subscribed.
//
// The four signals, each fired exactly once per event:
//  - originated: an endpoint on this node handed the node a packet. Fired before
//    the route lookup, so a subscriber may stamp header fields before it goes out.
//  - forwarded: a packet that arrived over a link goes on: its TTL is already
//    decremented and its next hop found; fired just before the packet is handed to
//    the interface of the next hop. `from` is where it came from, `to` where it
//    goes. (A forwarded packet with no route is dropped instead: no_route.)
//  - delivered: a packet reached its destination; fired just before the node hands
//    it to the endpoint of its flow.
//  - dropped: the node gave a packet up, whoever dropped it (its queues, MACs,
//    wired links, or forwarding: no_route, ttl_expired), with the cause. Stale
//    copies (docs/network.md, Accounting) included: it is every on_drop.
//
// Packet& or const Packet&. originated, forwarded and delivered give Packet&: the
// packet has not reached its next holder yet (the interface, or the endpoint: the
// signal comes first), and a subscriber may edit its header on the way (003's WCCP
// stamps its congestion feedback at every node of the path, the destination
// included). It may change transport and QoS fields (TransportHeader,
// user_priority); it must not change what the network layer has already acted on
// or accounted for (id, src, dst, flow, size_bytes, ttl, hops: the ledger and the
// route lookup have used them). dropped gives const Packet&: the packet goes back
// to its pool.
//
// A subscriber must not subscribe or unsubscribe anyone while a signal is being
// fired (Node::subscribe and unsubscribe throw then).
//
// Cost: one test of an empty list per packet and event when nobody subscribes;
// one virtual call per subscriber otherwise.

#include <cstdint>
#include <vector>

#include "core/packet.hpp"
#include "core/routing.hpp"
#include "core/subscriber_list.hpp"

namespace wmnsim {

// Where a packet came from: the receiving node's interface (the routing layer's
// numbering: radios first, then wired links) and the neighbour's address on it, in
// the same terms as NextHop::address and RoutingLink::address: the transmitting
// radio's id (its MAC address) on a radio, the far node's index on a wired link.
struct PrevHop {
  std::uint32_t interface = 0;
  std::uint32_t address = 0;
  bool operator==(const PrevHop&) const = default;
};

class NodeSubscriber {
 public:
  static constexpr const char* kHookName = "a node subscriber";  // SubscriberList's messages
  virtual ~NodeSubscriber() = default;
  // `node` is the index of the node that fires (one subscriber may watch many).
  virtual void on_originated(std::uint32_t /*node*/, Packet& /*packet*/) {}
  virtual void on_forwarded(std::uint32_t /*node*/, Packet& /*packet*/, const PrevHop& /*from*/,
                            const NextHop& /*to*/) {}
  virtual void on_delivered(std::uint32_t /*node*/, Packet& /*packet*/, const PrevHop& /*from*/) {}
  virtual void on_dropped(std::uint32_t /*node*/, const Packet& /*packet*/, DropCause /*cause*/) {}
};

// The subscriber list of one node, with the firing loops.
class NodeSignals {
 public:
  bool active() const { return !subscribers_.empty(); }
  // Throws std::logic_error while a signal is being fired.
  void subscribe(NodeSubscriber& subscriber) { subscribers_.subscribe(subscriber); }
  // Removes it (if present); the others keep their order.
  void unsubscribe(NodeSubscriber& subscriber) { subscribers_.unsubscribe(subscriber); }
  std::size_t subscriber_count() const { return subscribers_.size(); }

  void originated(std::uint32_t node, Packet& p);
  void forwarded(std::uint32_t node, Packet& p, const PrevHop& from, const NextHop& to);
  void delivered(std::uint32_t node, Packet& p, const PrevHop& from);
  void dropped(std::uint32_t node, const Packet& p, DropCause cause);

 private:
  SubscriberList<NodeSubscriber> subscribers_;  // a subscriber may send, and so fire again
};

}  // namespace wmnsim
