#include "control/edca_policy_params.hpp"

#include <memory>
#include <string>

#include "config/limits.hpp"
#include "control/edca_ack_priority.hpp"
#include "control/edca_txop.hpp"

namespace wmnsim::control {

ControllerEntry edca_ack_priority_entry() {
  ControllerEntry e;
  e.name = "edca_ack_priority";
  e.needs_edca = true;
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) {
    EdcaAckPriorityParams p;
    p.data_aifsn_increase = static_cast<int>(r.integer_or("data_aifsn_increase", 4, 0, 13));
    if (const nlohmann::json* v = r.get("ack_cw_min")) {
      p.ack_cw_min = ctx.check_window(*v, r.path_of("ack_cw_min")).value_or(p.ack_cw_min);
    }
    p.data_category = r.choice_or("data_access_category", p.data_category, names(kAccessCategories));
    p.ack_category = r.choice_or("ack_access_category", p.ack_category, names(kAccessCategories));
    if (p.data_category == p.ack_category) {
      ctx.issues().add(r.path_of("ack_access_category"),
                       "TCP ACKs need a category of their own; choose one other than data_access_category (\"" +
                           std::string(to_string(p.data_category)) + "\")");
    }
    return std::any(p);
  };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<EdcaAckPriority>(c, ctx); };
  e.schema = R"json({
  "description": "002 Sec. III: TCP ACK prioritisation. Data AIFS + data_aifsn_increase slots, pure TCP ACKs to their own category with CWmin ack_cw_min. On a DCF scenario the MACs become EDCA with DCF's parameters first",
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
    },
    "data_access_category": {
      "enum": ["ac_bk", "ac_be", "ac_vi", "ac_vo"],
      "default": "ac_be",
      "description": "the category of TCP data, whose AIFSN is raised"
    },
    "ack_access_category": {
      "enum": ["ac_bk", "ac_be", "ac_vi", "ac_vo"],
      "default": "ac_vo",
      "description": "the category pure TCP ACKs go to: AIFSN and CWmax of the data category before the change, CWmin ack_cw_min, one frame per access"
    }
  }
})json";
  e.doc =
      R"md(| `edca_ack_priority` | 002 Sec. III | `data_aifsn_increase` (4 slots), `ack_cw_min` (4), `data_access_category` (`ac_be`), `ack_access_category` (`ac_vo`); a DCF scenario runs on EDCA MACs with DCF's parameters |)md";
  return e;
}

namespace {

// "weights": {"<flow or node id>": w, ...}, w > 0; by flow index or node index.
std::vector<double> read_weights(JsonReader& r, FlowDefinition definition, ControllerParseContext& ctx) {
  const nlohmann::json* v = r.get("weights");
  if (v == nullptr) return {};
  const std::string path = r.path_of("weights");
  if (!v->is_object()) {
    ctx.issues().add(path, "expected an object of weights by " +
                               std::string(definition == FlowDefinition::five_tuple ? "flow id" : "node id") +
                               ", e.g. {\"flow0\": 2}, got " + describe_value(*v));
    return {};
  }
  const bool by_flow = definition == FlowDefinition::five_tuple;
  std::vector<double> weights(by_flow ? ctx.flow_count() : ctx.node_count(), 1.0);
  for (const auto& [key, value] : v->items()) {
    const std::string at = pointer_join(path, key);
    const auto index = by_flow ? ctx.resolve_flow(key, at) : ctx.resolve_node(key, at);
    const auto w = check_number(value, at, ctx.issues(), NumberRange::positive(), "a weight");
    if (index && w) weights[*index] = *w;
  }
  return weights;
}

}  // namespace

ControllerEntry edca_txop_entry() {
  ControllerEntry e;
  e.name = "edca_txop";
  e.needs_edca = true;
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) {
    EdcaTxopParams p;
    p.scaling = r.choice_or("scaling", TxopScaling::flows, names(kTxopScalings));
    p.dynamic = r.boolean_or("dynamic", true);
    p.flow_idle_timeout = r.seconds_or("flow_idle_timeout_s", Time::s(1), NumberRange::at_least(kMinPeriodS));
    if (!p.dynamic && r.has("flow_idle_timeout_s")) {
      ctx.issues().add(r.path_of("flow_idle_timeout_s"),
                       "applies only with \"dynamic\": true (static counts come from the routes)");
    }
    p.flow_definition = r.choice_or("flow_definition", p.flow_definition, names(kFlowDefinitions));
    p.category = r.choice_or("access_category", p.category, names(kAccessCategories));
    p.weights = read_weights(r, p.flow_definition, ctx);
    return std::any(p);
  };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<EdcaTxop>(c, ctx); };
  e.schema = R"json({
  "description": "002 Sec. IV: on each radio, the TXOP limit (in frames) of the TCP data category = the flows it sends (sum of their weights, Sec. V). On a DCF scenario the MACs become EDCA with DCF's parameters first",
  "properties": {
    "scaling": {
      "enum": [
        "flows",
        "half_txop_half_cw"
      ],
      "description": "flows: TXOP = n; half_txop_half_cw (Sec. IV-A): for n >= 2, TXOP = ceil(n/2) frames and CWmin halved",
      "default": "flows"
    },
    "dynamic": {
      "type": "boolean",
      "default": true,
      "description": "true: count the flows each radio sends as they come and go (Sec. IV-B); false: count them from the routes at start"
    },
    "flow_idle_timeout_s": {
      "type": "number",
      "description": "dynamic: a flow silent this long has ended (seconds); at least 1e-6",
      "minimum": 1e-06,
      "default": 1.0
    },
    "flow_definition": {
      "enum": ["five_tuple", "source_node"],
      "default": "five_tuple",
      "description": "what one flow is: a transport flow in one direction, or all a source node sends"
    },
    "access_category": {
      "enum": ["ac_bk", "ac_be", "ac_vi", "ac_vo"],
      "default": "ac_be",
      "description": "the category whose TXOP is set, and whose packets are counted"
    },
    "weights": {
      "type": "object",
      "additionalProperties": {"type": "number", "exclusiveMinimum": 0},
      "description": "Sec. V: weight per flow id (five_tuple) or source node id (source_node); default 1"
    }
  }
})json";
  e.doc =
      R"md(| `edca_txop` | 002 Sec. IV, V | `scaling`: `flows` (TXOP = flows the radio sends) or `half_txop_half_cw` (ceil(n/2) with CWmin/2); `dynamic` (true: follow flows as they come and go; false: from the routes); `flow_idle_timeout_s` (1.0); `flow_definition` (`five_tuple` or `source_node`); `access_category` (`ac_be`); `weights` (1); a DCF scenario runs on EDCA MACs with DCF's parameters |)md";
  return e;
}

}  // namespace wmnsim::control
