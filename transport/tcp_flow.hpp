#pragma once
// A TCP connection: its TcpSender and TcpReceiver, and for paced traffic (cbr,
// poisson, on_off) the TrafficGenerator that writes into the send buffer, seen
// through FlowEndpoint.
//
// Statistics for the results file: retransmissions and timeouts of the sender.
// Series: tcp_cwnd (the congestion window in segments, cwnd / MSS) and flow_rtt
// (the smoothed RTT of RFC 6298, once the first sample is taken).

#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "transport/sender_receiver_flow.hpp"
#include "transport/tcp_config.hpp"
#include "transport/tcp_sender.hpp"

namespace wmnsim::transport {

class TcpFlow final : public SenderReceiverFlow<TcpSender, TcpSenderConfig> {
 public:
  static constexpr FlowSeriesKind kSeries[] = {{"tcp_cwnd", "segments"}, {"flow_rtt", "s"}};

  // See SenderReceiverFlow.
  TcpFlow(Scheduler& scheduler, PacketPool& pool, PacketSink& src_network, PacketSink& dst_network,
          const TcpSenderConfig& sender, const TcpReceiverConfig& receiver, const TrafficConfig& traffic,
          RandomStream arrivals)
      : SenderReceiverFlow(scheduler, pool, src_network, dst_network, sender, receiver, traffic, std::move(arrivals)) {}

  std::vector<FlowStatistic> statistics() const override;
  std::span<const FlowSeriesKind> series() const override { return kSeries; }
  std::optional<double> sample(std::string_view kind) const override;
};

}  // namespace wmnsim::transport
