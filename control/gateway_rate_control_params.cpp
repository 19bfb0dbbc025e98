#include "control/gateway_rate_control_params.hpp"

#include "config/limits.hpp"
#include "control/gateway_rate_control.hpp"
#include "link/token_bucket.hpp"

namespace wmnsim::control {

namespace {

GatewayRateControlParams parse(JsonReader& r, ControllerParseContext& ctx) {
  GatewayRateControlParams p;
  const auto all = gateways(ctx);
  if (const nlohmann::json* v = r.get("gateway")) {
    if (const auto g = resolve_gateway(*v, r.path_of("gateway"), ctx)) p.gateway = *g;
  } else if (all.size() == 1) {
    p.gateway = all.front();
  } else {
    ctx.issues().add(r.path_of("gateway"), all.empty()
                                               ? "no node has \"role\": \"gateway\"; add one"
                                               : "the scenario has several gateways; name the one to control");
  }
  p.scheme = r.choice_or("scheme", GatewayScheme::per_flow_rate_limit, names(kGatewaySchemes));
  p.capacity_model = r.choice_or("capacity_model", CapacityModel::collision_domain, names(kCapacityModels));
  p.fair_rate_bps = r.number("fair_rate_bps", NumberRange::at_least(1));  // shapers keep whole bit/s
  p.buffer_packets = static_cast<int>(r.integer_or("buffer_packets", 25, 1, 1'000'000));
  p.per_flow_buffer_packets = static_cast<int>(r.integer_or("per_flow_buffer_packets", 5, 1, 1'000'000));
  p.flow_idle_timeout = r.seconds_or("flow_idle_timeout_s", Time::s(1), NumberRange::at_least(kMinPeriodS));
  p.classify = r.choice_or("classify", p.classify, names(mac::kClassifyBy));
  p.burst_bytes = r.integer_or("burst_bytes", p.burst_bytes, 1, mac::TokenBucket::kMaxDepthBytes);
  p.report_interval = r.seconds_or("report_interval_s", Time::s(1), NumberRange::at_least(kMinPeriodS));
  if (p.scheme == GatewayScheme::fred) {
    JsonReader f = r.object("fred");
    FredParams& fr = p.fred;
    fr.min_th_packets = static_cast<int>(f.integer_or("min_th_packets", 5, 1, 1'000'000));
    fr.max_th_packets = static_cast<int>(f.integer_or("max_th_packets", 15, 1, 1'000'000));
    fr.max_p = f.number_or("max_p", 0.1, NumberRange::open_closed(0, 1));
    fr.queue_weight = f.number_or("queue_weight", 0.002, NumberRange::open_closed(0, 1));
    fr.min_q_packets = static_cast<int>(f.integer_or("min_q_packets", 2, 1, 1'000'000));
    if (fr.min_th_packets >= fr.max_th_packets) {
      ctx.issues().add(f.path_of("max_th_packets"), "max_th_packets (" + std::to_string(fr.max_th_packets) +
                                                        ") must exceed min_th_packets (" +
                                                        std::to_string(fr.min_th_packets) + ")");
    }
    if (fr.max_th_packets > p.buffer_packets) {
      ctx.issues().add(f.path_of("max_th_packets"), "max_th_packets (" + std::to_string(fr.max_th_packets) +
                                                        ") exceeds buffer_packets (" +
                                                        std::to_string(p.buffer_packets) + ")");
    }
    f.finish();
  } else {
    r.forbid("fred", "applies only to \"scheme\": \"fred\"");
  }
  r.forbid("nodes", "does not apply to \"gateway_rate_control\": it acts at \"gateway\"");
  return p;
}

}  // namespace

ControllerEntry gateway_rate_control_entry() {
  ControllerEntry e;
  e.name = "gateway_rate_control";
  e.acts_on_nodes = false;
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) { return std::any(parse(r, ctx)); };
  e.build = make_gateway_rate_control;
  e.schema = R"json({
  "description": "001: gateway queueing and rate control",
  "properties": {
    "gateway": {
      "$ref": "#/$defs/id",
      "description": "the gateway; default: the only gateway"
    },
    "scheme": {
      "enum": [
        "fifo",
        "fq",
        "fred",
        "aggregate_rate_limit",
        "aggregate_rate_limit_fq",
        "per_flow_rate_limit",
        "source_rate_limit"
      ],
      "description": "queueing / rate control at the gateway",
      "default": "per_flow_rate_limit"
    },
    "capacity_model": {
      "enum": [
        "collision_domain",
        "clique"
      ],
      "description": "model of the fair shares",
      "default": "collision_domain"
    },
    "fair_rate_bps": {
      "type": "number",
      "description": "each class's share (bit/s); default: the flows' fair_share_bps summed per class, else the capacity model's",
      "minimum": 1
    },
    "buffer_packets": {
      "type": "integer",
      "description": "shared buffer",
      "minimum": 1,
      "default": 25
    },
    "per_flow_buffer_packets": {
      "type": "integer",
      "description": "per-flow buffers",
      "minimum": 1,
      "default": 5
    },
    "flow_idle_timeout_s": {
      "type": "number",
      "description": "a flow silent this long counts as ended (seconds); at least 1e-6",
      "minimum": 1e-06,
      "default": 1.0
    },
    "classify": {
      "enum": ["flow", "subscriber"],
      "description": "a class per flow, or per subscriber (the mesh node a flow starts or ends at, 001 Sec. 4.3.2)",
      "default": "subscriber"
    },
    "burst_bytes": {
      "type": "integer",
      "description": "the shapers' token bucket depth (bytes)",
      "minimum": 1,
      "maximum": 500000,
      "default": 1500
    },
    "report_interval_s": {
      "type": "number",
      "description": "interval of the per-class arrival rates in the statistics (seconds)",
      "minimum": 1e-06,
      "default": 1.0
    },
    "fred": {
      "type": "object",
      "description": "scheme fred only",
      "properties": {
        "min_th_packets": {
          "type": "integer",
          "description": "",
          "minimum": 1,
          "default": 5
        },
        "max_th_packets": {
          "type": "integer",
          "description": "",
          "minimum": 1,
          "default": 15
        },
        "max_p": {
          "type": "number",
          "description": "",
          "exclusiveMinimum": 0,
          "maximum": 1,
          "default": 0.1
        },
        "queue_weight": {
          "type": "number",
          "description": "",
          "exclusiveMinimum": 0,
          "maximum": 1,
          "default": 0.002
        },
        "min_q_packets": {
          "type": "integer",
          "description": "",
          "minimum": 1,
          "default": 2
        }
      },
      "additionalProperties": false
    }
  },
  "if": {
    "required": [
      "fred"
    ]
  },
  "then": {
    "properties": {
      "scheme": {
        "const": "fred"
      }
    },
    "required": [
      "scheme"
    ]
  }
})json";
  e.doc =
      R"md(| `gateway_rate_control` | 001 Sec. 4 | at `gateway` (the only gateway): `scheme` `fifo`, `fq`, `fred`, `aggregate_rate_limit`, `aggregate_rate_limit_fq`, `per_flow_rate_limit` (default) or `source_rate_limit`; `capacity_model` `collision_domain` (default) or `clique` for the fair shares, or a fixed `fair_rate_bps`; `buffer_packets` (25, shared FIFO), `per_flow_buffer_packets` (5); `flow_idle_timeout_s` (1.0); `classify` (`subscriber` or `flow`); `burst_bytes` (1500); `report_interval_s` (1.0); `fred` (scheme fred only): `min_th_packets` 5, `max_th_packets` 15, `max_p` 0.1, `queue_weight` 0.002, `min_q_packets` 2; no `nodes` |)md";
  return e;
}

}  // namespace wmnsim::control
