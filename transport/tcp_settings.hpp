#pragma once
// How a flow's `tcp` settings and common keys map to a TCP sender and receiver
// (docs/transport.md lists every choice and its RFC clause).

#include "transport/flow_build_context.hpp"
#include "transport/tcp_config.hpp"
#include "transport/transport_config.hpp"

namespace wmnsim::transport {

// `application` follows the flow's traffic: saturated is a bulk transfer, anything
// else is written by a TrafficGenerator.
TcpSenderConfig tcp_sender_config(const TcpConfig& tcp, const FlowSpec& flow);
// `window` is the results' measurement window.
TcpReceiverConfig tcp_receiver_config(const TcpConfig& tcp, const FlowSpec& flow, MeasurementWindow window);

}  // namespace wmnsim::transport
