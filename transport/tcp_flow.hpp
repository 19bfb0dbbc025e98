#pragma once
// A TCP connection: its TcpSender and TcpReceiver, and for paced traffic (cbr,
// poisson, on_off) the TrafficGenerator that writes into the send buffer, seen
// through FlowEndpoint.
//
// Statistics for the results file: retransmissions and timeouts of the sender.
// Series: tcp_cwnd (the congestion window in segments, cwnd / MSS) and flow_rtt
// (the smoothed RTT of RFC 6298, once the first sample is taken).

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/random.hpp"
#include "transport/transport_config.hpp"  // TrafficConfig
#include "core/scheduler.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/tcp_config.hpp"
#include "transport/tcp_receiver.hpp"
#include "transport/tcp_sender.hpp"
#include "transport/traffic_generator.hpp"

namespace wmnsim::transport {

class TcpFlow final : public FlowEndpoint {
 public:
  static constexpr FlowSeriesKind kSeries[] = {{"tcp_cwnd", "segments"}, {"flow_rtt", "s"}};

  // The sender sends through `src_network` (its node), the receiver its ACKs
  // through `dst_network`. With the `written` application a TrafficGenerator of
  // `traffic` feeds the sender, messages of one MSS, in [start, stop) of the
  // sender's config, drawing from `arrivals`. Built in the order sender,
  // receiver, generator (the order their start events are scheduled in).
  TcpFlow(Scheduler& scheduler, PacketPool& pool, PacketSink& src_network, PacketSink& dst_network,
          const TcpSenderConfig& sender, const TcpReceiverConfig& receiver, const TrafficConfig& traffic,
          RandomStream arrivals);

  TcpSender& sender() { return sender_; }
  const TcpSender& sender() const { return sender_; }
  TcpReceiver& receiver() { return receiver_; }
  const TcpReceiver& receiver() const { return receiver_; }

  std::uint64_t packets_sent() const override { return sender_.stats().segments_sent; }
  std::uint64_t payload_bytes_delivered() const override { return receiver_.stats().delivered_bytes; }
  double goodput_bps() const override { return receiver_.goodput_bps(); }
  std::vector<FlowStatistic> statistics() const override;
  std::span<const FlowSeriesKind> series() const override { return kSeries; }
  std::optional<double> sample(std::string_view kind) const override;

 private:
  TcpSender sender_;
  TcpReceiver receiver_;
  std::unique_ptr<TrafficGenerator> application_;  // the written application only
};

}  // namespace wmnsim::transport
