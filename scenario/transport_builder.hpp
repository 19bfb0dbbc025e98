#pragma once
// How a scenario's flow maps to its transport's settings (docs/transport.md lists
// every choice and its RFC clause).

#include "scenario/scenario.hpp"
#include "transport/tcp_config.hpp"

namespace wmnsim::transport {

// A scenario flow's sender and receiver settings. `window` is the results'
// measurement window; `application` follows the flow's traffic (saturated: bulk,
// else written, to be fed by a TrafficGenerator).
TcpSenderConfig tcp_sender_config(const FlowConfig& flow, FlowAddress address, bool edca);
TcpReceiverConfig tcp_receiver_config(const FlowConfig& flow, FlowAddress address, MeasurementWindow window,
                                      bool edca);

}  // namespace wmnsim::transport
