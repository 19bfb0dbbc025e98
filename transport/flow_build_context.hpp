#pragma once
// What a transport's build hook (transport/transport_entry.hpp) is given for one
// flow: the flow's common settings as the scenario layer resolved them, its two
// nodes, and where the run's packets and random numbers come from. The hook builds
// the flow's endpoints, attaches them to their nodes (Node::set_endpoint, and
// Node::set_backlog_source for a saturated sender) and returns them.

#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "core/node.hpp"
#include "core/packet.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "core/time.hpp"
#include "transport/flow_address.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/measurement_window.hpp"
#include "transport/transport_config.hpp"

namespace wmnsim::transport {

// The keys every flow entry has (docs/scenario.md, `flows`), resolved.
struct FlowSpec {
  FlowAddress address;             // flow index, source and destination node
  std::uint32_t payload_bytes = 0;  // per packet; the MSS for TCP
  TrafficConfig traffic;
  Time start;
  Time stop;  // already cut to the end of the run
  // Under EDCA only: the 802.1D user priority of the flow's packets and of a
  // transport's ACKs (the MAC maps it to an access category, 802.11-2012 Table 9-1).
  std::optional<std::uint8_t> user_priority;
  std::optional<std::uint8_t> ack_user_priority;
  std::any params;  // what the entry's parse produced (empty: it has no keys)
};

struct FlowBuildContext {
  Scheduler& scheduler;
  PacketPool& pool;
  Node& src;
  Node& dst;
  const FlowSpec& flow;
  MeasurementWindow window;  // the results' measurement window
  RandomStream arrivals;     // the flow's own stream ("flow", id, "arrivals")
  int saturated_backlog;     // packets a saturated sender keeps queued at its node
};

// A transport's build hook: builds the flow's endpoints and attaches them.
using FlowBuild = std::function<std::unique_ptr<FlowEndpoint>(FlowBuildContext&)>;

}  // namespace wmnsim::transport
