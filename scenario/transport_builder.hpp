#pragma once
// How a scenario's flow maps to what its transport's build hook is given
// (transport/flow_build_context.hpp); the transport maps the rest
// (transport/tcp_settings.hpp, docs/transport.md).

#include "scenario/scenario.hpp"
#include "transport/flow_build_context.hpp"

namespace wmnsim::transport {

// The flow's common settings and its transport's parameters. `stop` is the end of
// the flow's offer: its stop_s, or `run_end` when it has none or a later one. The
// user priorities are set under EDCA only (`edca`), from the access categories.
FlowSpec flow_spec(const FlowConfig& flow, FlowAddress address, bool edca, Time run_end);

}  // namespace wmnsim::transport
