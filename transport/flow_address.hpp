#pragma once
// Who a flow's packets are from and to, as the network layer reads them.

#include <cstdint>

#include "core/packet.hpp"

namespace wmnsim::transport {

// The data direction: data goes src -> dst, a TCP receiver's ACKs dst -> src.
struct FlowAddress {
  std::uint32_t flow = kNoFlow;  // index into Scenario::flows
  std::uint32_t src = 0;         // node index of the sender
  std::uint32_t dst = 0;         // node index of the receiver
};

}  // namespace wmnsim::transport
