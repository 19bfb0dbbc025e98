#include "control/wccp_params.hpp"

#include <memory>

#include "control/wccp.hpp"

namespace wmnsim::control {

namespace {

struct WccpKeys {
  NumberParameter busyness_threshold;
  NumberParameter alpha;
  ChoiceParameter<WccpBusyTime> busy_time;
  TimeParameter initial_control_interval;
};

const WccpKeys& wccp_keys() {
  const WccpControllerParams d;
  static const WccpKeys k{
      NumberParameter({.key = "busyness_threshold",
                       .range = NumberRange::open(0, 1),
                       .fallback = d.busyness_threshold,
                       .description = "th_b: the busy fraction the node steers its neighbourhood to",
                       .source = "003 Sec. III-A"}),
      NumberParameter({.key = "alpha",
                       .range = NumberRange::open(0, 1),
                       .fallback = d.alpha,
                       .description = "shuffling share of the traffic moved from fast to slow flows each interval",
                       .source = "003 Sec. III-D, Eq. 13"}),
      ChoiceParameter<WccpBusyTime>({.key = "busy_time",
                                     .names = names(kWccpBusyTimes),
                                     .fallback = d.busy_time,
                                     .description = "what counts as busy: standard (transmitting, receiving or "
                                                    "sensing, NAV set) or ns2 (as ns-2's 802.11 MAC, where 003 "
                                                    "measured: also its send timer's waits for CTS, DATA and ACK, "
                                                    "and the EIFS after an errored or captured frame, once per "
                                                    "frame; docs/mac.md)",
                                     .source = "003 Sec. III-B"}),
      TimeParameter({.key = "initial_control_interval_s",
                     .range = NumberRange::at_least(0.001),
                     .fallback = d.initial_control_interval,
                     .description = "a node's average control interval before its first WCCP packet",
                     .source = "ours: 003 gives none (the order of its 9-node chain's RTT, Sec. IV-A)"}),
  };
  return k;
}

}  // namespace

ControllerEntry wccp_entry() {
  ControllerEntry e;
  e.name = "wccp";
  e.parse = [](JsonReader& r, ControllerParseContext&) {
    const WccpKeys& k = wccp_keys();
    WccpControllerParams p;
    p.busyness_threshold = k.busyness_threshold.read_or(r);
    p.alpha = k.alpha.read_or(r);
    p.initial_control_interval = k.initial_control_interval.read_or(r);
    p.busy_time = k.busy_time.read_or(r);
    return std::any(p);
  };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<Wccp>(c, ctx); };
  e.summary = "the in-network half of WCCP: per-node channel busyness, feedback on WCCP data packets. Added with "
              "its defaults on every wireless node when a flow uses wccp and no `wccp` controller is listed";
  e.source = "003 Sec. III";
  const WccpKeys& k = wccp_keys();
  e.parameters = {k.busyness_threshold, k.alpha, k.busy_time, k.initial_control_interval};
  return e;
}

}  // namespace wmnsim::control
