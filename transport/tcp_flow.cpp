#include "transport/tcp_flow.hpp"

#include <utility>

namespace wmnsim::transport {

TcpFlow::TcpFlow(Scheduler& scheduler, PacketPool& pool, PacketSink& src_network, PacketSink& dst_network,
                 const TcpSenderConfig& sender, const TcpReceiverConfig& receiver, const TrafficConfig& traffic,
                 RandomStream arrivals)
    : sender_(scheduler, pool, src_network, sender), receiver_(scheduler, pool, dst_network, receiver) {
  if (sender.application == TcpApplication::written) {
    application_ = std::make_unique<TrafficGenerator>(scheduler, static_cast<TrafficGenerator::Consumer&>(sender_),
                                                      traffic, sender.mss, sender.start, sender.stop,
                                                      std::move(arrivals));
  }
}

std::vector<FlowStatistic> TcpFlow::statistics() const {
  return {{"retransmissions", sender_.stats().retransmissions}, {"timeouts", sender_.stats().timeouts}};
}

std::optional<double> TcpFlow::sample(std::string_view kind) const {
  if (kind == "tcp_cwnd") return static_cast<double>(sender_.cwnd_bytes()) / static_cast<double>(sender_.config().mss);
  if (kind == "flow_rtt" && sender_.rtt().has_sample()) return sender_.rtt().srtt().to_seconds();
  return std::nullopt;
}

}  // namespace wmnsim::transport
