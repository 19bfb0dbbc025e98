#pragma once
// Transports by name, for a flow's "transport" (docs/scenario.md, `flows`). An entry
// reads its own keys of the flow entry (the common ones: id, src, dst, start_s,
// stop_s, payload_bytes, traffic, access categories, are read by the scenario
// layer), declared once (config/parameter_table.hpp: the schema and docs/scenario.md
// are generated from them), and builds the flow's endpoints.

#include <any>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/json_reader.hpp"
#include "config/parameter_table.hpp"
#include "config/registry.hpp"
#include "transport/flow_build_context.hpp"
#include "transport/flow_endpoint.hpp"

namespace wmnsim::transport {

struct TransportEntry {
  // Reads the entry's own keys of the flow object `flow` and returns its parameters
  // (a registered transport's own struct; the built-ins' TcpConfig/WccpConfig).
  using Parse = std::function<std::any(JsonReader& flow)>;
  // Builds the flow's endpoints and attaches them to their nodes
  // (transport/flow_build_context.hpp).
  using Build = FlowBuild;

  std::string name;
  // Transport and IP header bytes per packet: payload_bytes + header_bytes must fit
  // one 2304-byte 802.11 MSDU (no fragmentation).
  int header_bytes = 28;
  // It sends ACKs back (takes ack_access_category under EDCA; routes both ways).
  bool sends_acks = false;
  // A controller every node must run for it; added with its defaults when the
  // scenario lists none (wccp's in-network half). Empty: none.
  std::string companion_controller;
  Parse parse;  // may be empty: no keys of its own
  Build build;  // empty: registered for parsing only; a run refuses the flow
  // The time series its endpoints can offer (FlowEndpoint::series()); each may be
  // listed in outputs.timeseries. The names must outlive the registry (literals).
  std::vector<FlowSeriesKind> series;
  // What it is, in a sentence or two (its paragraph of docs/scenario.md, under `flows`).
  std::string summary;
  // The paper section or RFC it follows.
  std::string source;
  // The keys of the flow entry it owns (config/parameter_table.hpp; tcp and wccp own
  // one object each): its parse reads them through these declarations, the schema's
  // clause for its name and its docs table are generated from them, and a flow of
  // another transport may not use them.
  ParameterTable parameters;

  std::vector<std::string> keys() const { return parameters.keys(); }
};

using TransportRegistry = Registry<TransportEntry>;

// udp, tcp and wccp.
TransportRegistry builtin_transports();
// Every series kind the registered transports offer, each once, in registration order.
std::vector<FlowSeriesKind> series_kinds(const TransportRegistry& transports);
TransportEntry udp_entry();
TransportEntry tcp_entry();
TransportEntry wccp_entry();

}  // namespace wmnsim::transport
