#include "transport/tcp_flow.hpp"

namespace wmnsim::transport {

std::vector<FlowStatistic> TcpFlow::statistics() const {
  std::vector<FlowStatistic> out{{"retransmissions", sender_.stats().retransmissions},
                                 {"timeouts", sender_.stats().timeouts}};
  if (sender_.config().handshake) append_connection_statistics(out, sender_.stats(), sender_.config().start);
  return out;
}

std::optional<double> TcpFlow::sample(std::string_view kind) const {
  if (kind == "tcp_cwnd") return static_cast<double>(sender_.cwnd_bytes()) / static_cast<double>(sender_.config().mss);
  if (kind == "flow_rtt" && sender_.rtt().has_sample()) return sender_.rtt().srtt().to_seconds();
  return std::nullopt;
}

}  // namespace wmnsim::transport
