#include "control/edca_policy_params.hpp"

#include "config/limits.hpp"

namespace wmnsim::control {

ControllerEntry edca_ack_priority_entry() {
  ControllerEntry e;
  e.name = "edca_ack_priority";
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) {
    require_edca("edca_ack_priority", r, ctx);
    EdcaAckPriorityParams p;
    p.data_aifsn_increase = static_cast<int>(r.integer_or("data_aifsn_increase", 4, 0, 13));
    if (const nlohmann::json* v = r.get("ack_cw_min")) {
      p.ack_cw_min = ctx.check_window(*v, r.path_of("ack_cw_min")).value_or(p.ack_cw_min);
    }
    return std::any(p);
  };
  e.schema = R"json({
  "description": "002: TCP ACK prioritisation (edca only)",
  "properties": {
    "data_aifsn_increase": {
      "type": "integer",
      "description": "extra AIFS slots for TCP data",
      "minimum": 0,
      "maximum": 13,
      "default": 4
    },
    "ack_cw_min": {
      "$ref": "#/$defs/window",
      "default": 4,
      "description": "CWmin of TCP ACKs"
    }
  }
})json";
  e.doc =
      R"md(| `edca_ack_priority` | 002 Sec. III | `data_aifsn_increase` (4 slots), `ack_cw_min` (4); edca only |)md";
  return e;
}

ControllerEntry edca_txop_entry() {
  ControllerEntry e;
  e.name = "edca_txop";
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) {
    require_edca("edca_txop", r, ctx);
    EdcaTxopParams p;
    p.scaling = r.choice_or("scaling", TxopScaling::flows, names(kTxopScalings));
    p.dynamic = r.boolean_or("dynamic", true);
    p.flow_idle_timeout = r.seconds_or("flow_idle_timeout_s", Time::s(1), NumberRange::at_least(kMinPeriodS));
    return std::any(p);
  };
  e.schema = R"json({
  "description": "002: TXOP per forwarded flow (edca only)",
  "properties": {
    "scaling": {
      "enum": [
        "flows",
        "half_txop_half_cw"
      ],
      "description": "flows: TXOP = flows forwarded; half_txop_half_cw: half of that with CWmin/2",
      "default": "flows"
    },
    "dynamic": {
      "type": "boolean",
      "default": true,
      "description": "follow flows as they come and go"
    },
    "flow_idle_timeout_s": {
      "type": "number",
      "description": "a flow silent this long counts as ended (seconds); at least 1e-6",
      "minimum": 1e-06,
      "default": 1.0
    }
  }
})json";
  e.doc =
      R"md(| `edca_txop` | 002 Sec. IV | `scaling`: `flows` (TXOP = flows the radio forwards) or `half_txop_half_cw` (half of that with CWmin/2); `dynamic` (true: follow flows as they come and go); `flow_idle_timeout_s` (1.0); edca only |)md";
  return e;
}

}  // namespace wmnsim::control
