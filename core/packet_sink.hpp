#pragma once
// The one-method interface every layer hands packets through (htsim's PacketSink,
// STYLE.md 6). Ownership moves with the call: the receiver stores, forwards,
// delivers or drops the packet, and accounts for it.
//
// Transport endpoints send through one (the node's network layer, or a wired link
// in tests) and are one (the node delivers segments and ACKs to them).

#include "core/packet.hpp"

namespace wmnsim {

class PacketSink {
 public:
  virtual ~PacketSink() = default;
  virtual void receive(PacketPtr packet) = 0;
};

}  // namespace wmnsim
