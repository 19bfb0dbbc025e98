#pragma once
// A routing protocol that runs during the simulation, beside the static tables
// (core/routing.hpp): a node given one (Node::set_route_agent) asks it for each
// packet's next hop instead of its tables, hands it the packets it has no route
// for, the protocol's control packets it receives, and the link failures its
// interfaces report. AODV (core/aodv.hpp) is the one implementation.
//
// The agent sends through the node (Node::send_control, Node::route_held,
// Node::on_drop), so its packets take the same interfaces, queues and MACs as
// data, and every data packet it drops is accounted for by the node with a cause.
//
// Cost for a node without an agent (static routing): one branch per routed packet,
// per arrival and per drop.

#include <cstdint>

#include "core/node_signals.hpp"
#include "core/packet.hpp"
#include "core/routing.hpp"

namespace wmnsim {

class RouteAgent {
 public:
  virtual ~RouteAgent() = default;
  // The next hop of a data packet at `node` (null: none). Using a route keeps it
  // alive (AODV: RFC 3561 6.2); `from` is null for a packet this node originated.
  virtual const NextHop* next_hop(std::uint32_t node, const Packet& packet, const PrevHop* from) = 0;
  // A data packet `node` has no route for: the agent holds it while it looks for
  // one, or drops it through the node (Node::on_drop, with the cause).
  virtual void no_route(std::uint32_t node, PacketPtr packet, const PrevHop* from) = 0;
  // A control packet of the agent's protocol reached `node` over a link.
  virtual void receive_control(std::uint32_t node, PacketPtr packet, const PrevHop& from) = 0;
  // One of `node`'s control packets was dropped (queue, MAC) with `cause`.
  virtual void control_dropped(std::uint32_t node, const Packet& packet, DropCause cause) = 0;
  // `node`'s MAC gave up a unicast frame to the radio at `address` at its retry
  // limit (the link layer's notice of a broken link, RFC 3561 6.11).
  virtual void link_failed(std::uint32_t node, std::uint32_t address) = 0;
};

}  // namespace wmnsim
