#include "transport/udp_sink.hpp"

namespace wmnsim::transport {

void UdpSink::receive(PacketPtr packet) {
  const Time now = scheduler_.now();
  const auto& t = packet->transport;
  ++stats_.packets;
  stats_.payload_bytes += t.payload_bytes;
  if (t.seq < next_expected_) {
    ++stats_.reordered_packets;
  } else {
    next_expected_ = t.seq + 1;
  }
  if (window_.contains(now)) {
    ++stats_.window_packets;
    stats_.window_payload_bytes += t.payload_bytes;
    stats_.delay.add(now - packet->created);
  }
}

}  // namespace wmnsim::transport
