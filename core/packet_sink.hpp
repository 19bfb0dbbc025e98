#pragma once
// The one-method interface every layer hands packets through (htsim's PacketSink,
// STYLE.md 6). Ownership moves with the call: the receiver stores, forwards,
// delivers or drops the packet, and accounts for it.
//
// Transport endpoints send through one (the node's network layer, or a wired link
// in tests) and are one (the node delivers segments and ACKs to them).

#include "core/packet.hpp"
#include "core/time.hpp"

namespace wmnsim {

class PacketSink {
 public:
  virtual ~PacketSink() = default;
  virtual void receive(PacketPtr packet) = 0;
};

// Receives every packet a queue, a MAC or a link gives up, with ownership and the
// cause, so that drops are counted one way whichever layer drops (DESIGN.md:
// every packet is accounted for).
class DropSink {
 public:
  virtual ~DropSink() = default;
  virtual void on_drop(PacketPtr packet, DropCause cause, Time now) = 0;
  // A packet a MAC had already taken from its queue for service (its place given back
  // then, MacUser::on_queue_space), dropped for `cause` other than its retry limit:
  // the mac.queue_lifetime_rule "ns3" expiry of a frame in service.
  // (Defined in core/packet.cpp: DropSink's key function, so that its vtable and type
  // information are emitted once.)
  virtual void on_drop_in_service(PacketPtr packet, DropCause cause, Time now);
};

}  // namespace wmnsim
