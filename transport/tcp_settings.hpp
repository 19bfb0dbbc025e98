#pragma once
// How a flow's `tcp` settings and common keys map to a TCP sender and receiver, and
// its `wccp` settings to a WCCP sender (TCP's sender core with 003's rate control;
// docs/transport.md lists every choice and its RFC clause).

#include "transport/flow_build_context.hpp"
#include "transport/tcp_config.hpp"
#include "transport/transport_config.hpp"
#include "transport/wccp_sender.hpp"

namespace wmnsim::transport {

// `application` follows the flow's traffic: saturated is a bulk transfer, anything
// else is written by a TrafficGenerator.
TcpSenderConfig tcp_sender_config(const TcpConfig& tcp, const FlowSpec& flow);
// `window` is the results' measurement window.
TcpReceiverConfig tcp_receiver_config(const TcpConfig& tcp, const FlowSpec& flow, MeasurementWindow window);
// The same mapping for WCCP; a written flow's desired rate is its rate while on.
WccpSenderConfig wccp_sender_config(const WccpConfig& wccp, const FlowSpec& flow);

}  // namespace wmnsim::transport
