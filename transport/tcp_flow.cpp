#include "transport/tcp_flow.hpp"

namespace wmnsim::transport {

std::vector<FlowStatistic> TcpFlow::statistics() const {
  return {{"retransmissions", sender_.stats().retransmissions}, {"timeouts", sender_.stats().timeouts}};
}

std::optional<double> TcpFlow::sample(std::string_view kind) const {
  if (kind == "tcp_cwnd") return static_cast<double>(sender_.cwnd_bytes()) / static_cast<double>(sender_.config().mss);
  if (kind == "flow_rtt" && sender_.rtt().has_sample()) return sender_.rtt().srtt().to_seconds();
  return std::nullopt;
}

}  // namespace wmnsim::transport
