#include "transport/tcp_settings.hpp"

namespace wmnsim::transport {

TcpSenderConfig tcp_sender_config(const TcpConfig& tcp, const FlowSpec& flow) {
  TcpSenderConfig c;
  c.address = flow.address;
  c.variant = tcp.variant;
  c.mss = flow.payload_bytes;
  c.window_packets = static_cast<std::uint32_t>(tcp.window_packets);
  c.rto.min = tcp.min_rto;
  c.rto.initial = tcp.initial_rto;
  c.initial_window_segments = static_cast<std::uint32_t>(tcp.initial_window_segments);
  c.limited_transmit = tcp.limited_transmit;
  c.timestamps = tcp.timestamps;
  c.sack = tcp.sack;
  c.ssthresh_from = tcp.ssthresh_from;
  c.handshake = tcp.handshake;
  c.application = flow.traffic.type == TrafficType::saturated ? TcpApplication::bulk : TcpApplication::written;
  c.start = flow.start;
  c.stop = flow.stop;
  c.user_priority = flow.user_priority;
  return c;
}

WccpSenderConfig wccp_sender_config(const WccpConfig& wccp, const FlowSpec& flow) {
  WccpSenderConfig c;
  c.address = flow.address;
  c.mss = flow.payload_bytes;
  c.window_packets = static_cast<std::uint32_t>(wccp.window_packets);
  c.beta = wccp.beta;
  c.fast_retransmit = wccp.fast_retransmit;
  c.timeout_restart = wccp.timeout_restart;
  c.rto.min = wccp.min_rto;
  c.rto.initial = wccp.initial_rto;
  c.handshake = wccp.handshake;
  c.application = flow.traffic.type == TrafficType::saturated ? TcpApplication::bulk : TcpApplication::written;
  if (c.application == TcpApplication::written && flow.payload_bytes > 0) {
    c.desired_rate_pps = flow.traffic.rate_bps / (8.0 * flow.payload_bytes);  // while on, for on_off
  }
  c.start = flow.start;
  c.stop = flow.stop;
  c.user_priority = flow.user_priority;
  return c;
}

TcpReceiverConfig tcp_receiver_config(const TcpConfig& tcp, const FlowSpec& flow, MeasurementWindow window) {
  TcpReceiverConfig c;
  c.address = flow.address;
  c.mss = flow.payload_bytes;
  c.window_packets = static_cast<std::uint32_t>(tcp.window_packets);
  c.delayed_ack = tcp.delayed_ack;
  c.timestamps = tcp.timestamps;
  c.sack = tcp.sack;
  c.window = window;
  c.ack_user_priority = flow.ack_user_priority;
  return c;
}

}  // namespace wmnsim::transport
