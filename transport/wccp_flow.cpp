#include "transport/wccp_flow.hpp"

namespace wmnsim::transport {

std::vector<FlowStatistic> WccpFlow::statistics() const {
  const WccpSenderStats& s = sender_.stats();
  std::vector<FlowStatistic> out{{"retransmissions", s.retransmissions},
                                 {"timeouts", s.timeouts},
                                 {"fast_retransmits", s.fast_retransmits},
                                 {"feedback_applied", s.feedback_applied},
                                 {"feedback_ignored", s.feedback_ignored},
                                 {"wccp_rate_pps", sender_.rate_pps()}};
  if (sender_.config().handshake) append_connection_statistics(out, s, sender_.config().start);
  return out;
}

std::optional<double> WccpFlow::sample(std::string_view kind) const {
  if (kind == "wccp_rate" && sender_.rate_pps() > 0.0) return sender_.rate_pps();
  if (kind == "flow_rtt" && sender_.rtt().has_sample()) return sender_.rtt().srtt().to_seconds();
  return std::nullopt;
}

}  // namespace wmnsim::transport
