#include "scenario/transport_builder.hpp"

namespace wmnsim::transport {

TcpSenderConfig tcp_sender_config(const FlowConfig& flow, FlowAddress address, bool edca) {
  TcpSenderConfig c;
  c.address = address;
  c.variant = flow.tcp.variant;
  c.mss = static_cast<std::uint32_t>(flow.payload_bytes);
  c.window_packets = static_cast<std::uint32_t>(flow.tcp.window_packets);
  c.rto.min = flow.tcp.min_rto;
  c.initial_window_segments = static_cast<std::uint32_t>(flow.tcp.initial_window_segments);
  c.limited_transmit = flow.tcp.limited_transmit;
  c.timestamps = flow.tcp.timestamps;
  c.application = flow.traffic.type == TrafficType::saturated ? TcpApplication::bulk : TcpApplication::written;
  c.start = flow.start;
  c.stop = flow.stop;
  if (edca) c.user_priority = user_priority_of(flow.access_category);
  return c;
}

TcpReceiverConfig tcp_receiver_config(const FlowConfig& flow, FlowAddress address, MeasurementWindow window,
                                      bool edca) {
  TcpReceiverConfig c;
  c.address = address;
  c.mss = static_cast<std::uint32_t>(flow.payload_bytes);
  c.window_packets = static_cast<std::uint32_t>(flow.tcp.window_packets);
  c.delayed_ack = flow.tcp.delayed_ack;
  c.timestamps = flow.tcp.timestamps;
  c.window = window;
  if (edca) c.ack_user_priority = user_priority_of(flow.ack_access_category);
  return c;
}

}  // namespace wmnsim::transport
