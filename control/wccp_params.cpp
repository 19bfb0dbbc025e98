#include "control/wccp_params.hpp"

#include <memory>

#include "control/wccp.hpp"

namespace wmnsim::control {

ControllerEntry wccp_entry() {
  ControllerEntry e;
  e.name = "wccp";
  e.parse = [](JsonReader& r, ControllerParseContext&) {
    WccpControllerParams p;
    p.busyness_threshold = fraction(r, "busyness_threshold", 0.92);
    p.alpha = fraction(r, "alpha", 0.1);
    p.initial_control_interval =
        r.seconds_or("initial_control_interval_s", Time::ms(100), NumberRange::at_least(0.001));
    p.busy_time = r.choice_or("busy_time", WccpBusyTime::standard, names(kWccpBusyTimes));
    return std::any(p);
  };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<Wccp>(c, ctx); };
  e.schema = R"json({
  "description": "003 Sec. III: in-network half of WCCP (per-node channel busyness, feedback on WCCP data packets); added with these defaults on every wireless node when wccp flows exist and none is listed",
  "properties": {
    "busyness_threshold": {
      "type": "number",
      "description": "th_b: the busy fraction the node steers its neighbourhood to (Sec. III-A)",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.92
    },
    "alpha": {
      "type": "number",
      "description": "shuffling share of the traffic moved from fast to slow flows each interval (Eq. 13)",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.1
    },
    "busy_time": {
      "enum": ["standard", "ns2"],
      "default": "standard",
      "description": "what counts as busy: standard (transmitting, receiving or sensing, NAV set: Sec. III-B) or ns2 (as ns-2's 802.11 MAC, where 003 measured: also its send timer's waits for CTS, DATA and ACK, and the EIFS after an errored or captured frame, once per frame, which ns-2 keeps in the NAV; docs/mac.md)"
    },
    "initial_control_interval_s": {
      "type": "number",
      "description": "a node's average control interval before its first WCCP packet (003 gives none)",
      "minimum": 0.001,
      "default": 0.1
    }
  }
})json";
  e.doc =
      R"md(| `wccp` | 003 Sec. III | `busyness_threshold` th_b (0.92), `alpha` (0.1), `initial_control_interval_s` (0.1; 003 gives none), `busy_time` (`standard`; `ns2`: as ns-2's MAC counts it, where 003 measured). Added with these defaults on every wireless node when a flow uses wccp and no `wccp` controller is listed |)md";
  return e;
}

}  // namespace wmnsim::control
