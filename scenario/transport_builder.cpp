#include "scenario/transport_builder.hpp"

#include <algorithm>

namespace wmnsim::transport {

FlowSpec flow_spec(const FlowConfig& flow, FlowAddress address, bool edca, Time run_end) {
  FlowSpec s;
  s.address = address;
  s.payload_bytes = static_cast<std::uint32_t>(flow.payload_bytes);
  s.traffic = flow.traffic;
  s.start = flow.start;
  // Nothing starts at the end instant: a flow is cut at the end of the simulation
  // (docs/scenario.md), so the run covers [0, duration).
  s.stop = flow.stop ? std::min(*flow.stop, run_end) : run_end;
  if (edca) {
    // Only categories the flow names are tagged; the classifier decides the rest.
    if (flow.access_category) s.user_priority = user_priority_of(*flow.access_category);
    if (const auto ack = flow.ack_access_category ? flow.ack_access_category : flow.access_category) {
      s.ack_user_priority = user_priority_of(*ack);
    }
  }
  s.params = flow.transport_params;
  return s;
}

}  // namespace wmnsim::transport
