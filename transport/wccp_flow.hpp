#pragma once
// A WCCP flow (003): its WccpSender, the TcpReceiver that echoes the congestion
// header in its ACKs, and for paced traffic (cbr, poisson, on_off) the
// TrafficGenerator that writes into the send buffer, seen through FlowEndpoint.
//
// Statistics for the results file: the sender's retransmissions, timeouts, fast
// retransmits, and the ACKs whose feedback it applied or ignored (003's timeout
// rule). Series: wccp_rate (the permit rate r_p, packets/s, once the first ACK set
// it) and flow_rtt (the smoothed RTT of RFC 6298).

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
#include "transport/wccp_sender.hpp"

namespace wmnsim::transport {

class WccpFlow final : public SenderReceiverFlow<WccpSender, WccpSenderConfig> {
 public:
  static constexpr FlowSeriesKind kSeries[] = {{"wccp_rate", "packets/s"}, {"flow_rtt", "s"}};

  // See SenderReceiverFlow.
  WccpFlow(Scheduler& scheduler, PacketPool& pool, PacketSink& src_network, PacketSink& dst_network,
           const WccpSenderConfig& sender, const TcpReceiverConfig& receiver, const TrafficConfig& traffic,
           RandomStream arrivals)
      : SenderReceiverFlow(scheduler, pool, src_network, dst_network, sender, receiver, traffic, std::move(arrivals)) {}

  std::vector<FlowStatistic> statistics() const override;
  std::span<const FlowSeriesKind> series() const override { return kSeries; }
  std::optional<double> sample(std::string_view kind) const override;
};

}  // namespace wmnsim::transport
