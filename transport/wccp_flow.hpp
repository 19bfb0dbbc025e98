#pragma once
// A WCCP flow (003): its WccpSender, the TcpReceiver that echoes the congestion
// header in its ACKs, and for paced traffic (cbr, poisson, on_off) the
// TrafficGenerator that writes into the send buffer, seen through FlowEndpoint.
//
// Statistics for the results file: the sender's retransmissions, timeouts, fast
// retransmits, and the ACKs whose feedback it applied or ignored (003's timeout
// rule). Series: wccp_rate (the permit rate r_p, packets/s, once the first ACK set
// it) and flow_rtt (the smoothed RTT of RFC 6298).

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/tcp_receiver.hpp"
#include "transport/traffic_generator.hpp"
#include "transport/transport_config.hpp"
#include "transport/wccp_sender.hpp"

namespace wmnsim::transport {

class WccpFlow final : public FlowEndpoint {
 public:
  static constexpr FlowSeriesKind kSeries[] = {{"wccp_rate", "packets/s"}, {"flow_rtt", "s"}};

  // Built in the order sender, receiver, generator (their start events' order).
  WccpFlow(Scheduler& scheduler, PacketPool& pool, PacketSink& src_network, PacketSink& dst_network,
           const WccpSenderConfig& sender, const TcpReceiverConfig& receiver, const TrafficConfig& traffic,
           RandomStream arrivals);

  WccpSender& sender() { return sender_; }
  const WccpSender& sender() const { return sender_; }
  TcpReceiver& receiver() { return receiver_; }
  const TcpReceiver& receiver() const { return receiver_; }

  std::uint64_t packets_sent() const override { return sender_.stats().segments_sent; }
  std::uint64_t payload_bytes_delivered() const override { return receiver_.stats().delivered_bytes; }
  double goodput_bps() const override { return receiver_.goodput_bps(); }
  std::vector<FlowStatistic> statistics() const override;
  std::span<const FlowSeriesKind> series() const override { return kSeries; }
  std::optional<double> sample(std::string_view kind) const override;

 private:
  WccpSender sender_;
  TcpReceiver receiver_;
  std::unique_ptr<TrafficGenerator> application_;  // the written application only
};

}  // namespace wmnsim::transport
