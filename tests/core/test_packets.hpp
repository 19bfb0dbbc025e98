#pragma once
// Packets for tests that only need their transport kind.

#include <cstdint>

#include "core/packet.hpp"

namespace wmnsim::test {

// A TCP segment of `flow`: a full 1460-byte data segment, or a pure ACK.
inline Packet tcp_packet(std::uint32_t flow, bool pure_ack) {
  Packet p;
  p.flow = flow;
  p.transport.ack_valid = true;
  p.transport.payload_bytes = pure_ack ? 0 : 1460;
  return p;
}

}  // namespace wmnsim::test
