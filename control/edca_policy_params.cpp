#include "control/edca_policy_params.hpp"

#include <memory>
#include <string>

#include "config/limits.hpp"
#include "control/edca_ack_priority.hpp"
#include "control/edca_txop.hpp"

namespace wmnsim::control {

namespace {

struct AckPriorityKeys {
  IntegerParameter data_aifsn_increase;
  CustomParameter ack_cw_min;
  ChoiceParameter<AccessCategory> data_access_category;
  ChoiceParameter<AccessCategory> ack_access_category;
};

const AckPriorityKeys& ack_priority_keys() {
  const EdcaAckPriorityParams d;
  static const AckPriorityKeys k{
      // AIFSN is 4 bits (802.11-2012 8.4.2.31): 2 + 13 = 15 at most.
      IntegerParameter({.key = "data_aifsn_increase",
                        .unit = "slots",
                        .min = 0,
                        .max = 13,
                        .fallback = d.data_aifsn_increase,
                        .description = "extra AIFS slots for TCP data",
                        .source = "002 Sec. III: \"increasing the AIFS of data packets by 4 slots\""}),
      CustomParameter({.key = "ack_cw_min",
                       .schema = {{"$ref", "#/$defs/window"}},
                       .value = "a window: a power of two 1..32768",
                       .fallback = d.ack_cw_min,
                       .description = "CWmin of TCP ACKs",
                       .source = "002 Sec. III: 2^2"}),
      ChoiceParameter<AccessCategory>({.key = "data_access_category",
                                       .names = names(kAccessCategories),
                                       .fallback = d.data_category,
                                       .description = "the category of TCP data, whose AIFSN is raised",
                                       .source = "002 Sec. III"}),
      ChoiceParameter<AccessCategory>({.key = "ack_access_category",
                                       .names = names(kAccessCategories),
                                       .fallback = d.ack_category,
                                       .description = "the category pure TCP ACKs go to: AIFSN and CWmax of the "
                                                      "data category before the change, CWmin ack_cw_min, one frame "
                                                      "per access; not the data's",
                                       .source = "002 Sec. III"}),
  };
  return k;
}

}  // namespace

ControllerEntry edca_ack_priority_entry() {
  ControllerEntry e;
  e.name = "edca_ack_priority";
  e.needs_edca = true;
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) {
    const AckPriorityKeys& k = ack_priority_keys();
    EdcaAckPriorityParams p;
    p.data_aifsn_increase = static_cast<int>(k.data_aifsn_increase.read_or(r));
    if (const nlohmann::json* v = k.ack_cw_min.get(r)) {
      p.ack_cw_min = ctx.check_window(*v, k.ack_cw_min.path(r)).value_or(p.ack_cw_min);
    }
    p.data_category = k.data_access_category.read_or(r);
    p.ack_category = k.ack_access_category.read_or(r);
    if (p.data_category == p.ack_category) {
      ctx.issues().add(r.path_of(k.ack_access_category.key),
                       "TCP ACKs need a category of their own; choose one other than data_access_category (\"" +
                           std::string(to_string(p.data_category)) + "\")");
    }
    return std::any(p);
  };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<EdcaAckPriority>(c, ctx); };
  e.summary = "TCP ACK prioritisation: data AIFS + `data_aifsn_increase` slots, pure TCP ACKs to their own "
              "category with CWmin `ack_cw_min`; a DCF scenario runs on EDCA MACs with DCF's parameters";
  e.source = "002 Sec. III";
  const AckPriorityKeys& k = ack_priority_keys();
  e.parameters = {k.data_aifsn_increase, k.ack_cw_min, k.data_access_category, k.ack_access_category};
  return e;
}

namespace {

struct TxopKeys {
  ChoiceParameter<TxopScaling> scaling;
  BooleanParameter dynamic;
  TimeParameter flow_idle_timeout;
  ChoiceParameter<FlowDefinition> flow_definition;
  ChoiceParameter<AccessCategory> access_category;
  CustomParameter weights;
};

const TxopKeys& txop_keys() {
  const EdcaTxopParams d;
  static const TxopKeys k{
      ChoiceParameter<TxopScaling>({.key = "scaling",
                                    .names = names(kTxopScalings),
                                    .fallback = d.scaling,
                                    .description = "flows: TXOP = n frames, n the flows the radio sends; "
                                                   "half_txop_half_cw: for n >= 2, TXOP = ceil(n/2) frames and "
                                                   "CWmin halved",
                                    .source = "002 Sec. IV, IV-A"}),
      BooleanParameter({.key = "dynamic",
                        .fallback = d.dynamic,
                        .description = "true: count the flows each radio sends as they come and go; false: count "
                                       "them from the routes at start",
                        .source = "002 Sec. IV-B"}),
      TimeParameter({.key = "flow_idle_timeout_s",
                     .range = NumberRange::at_least(kMinPeriodS),
                     .fallback = d.flow_idle_timeout,
                     .description = "dynamic only: a flow silent this long has ended",
                     .source = "ours"}),
      ChoiceParameter<FlowDefinition>({.key = "flow_definition",
                                       .names = names(kFlowDefinitions),
                                       .fallback = d.flow_definition,
                                       .description = "what one flow is: a transport flow in one direction, or "
                                                      "all a source node sends",
                                       .source = "ours (002 Sec. IV leaves it to the operator)"}),
      ChoiceParameter<AccessCategory>({.key = "access_category",
                                       .names = names(kAccessCategories),
                                       .fallback = d.category,
                                       .description = "the category whose TXOP is set, and whose packets are "
                                                      "counted",
                                       .source = "002 Sec. IV"}),
      CustomParameter({.key = "weights",
                       .schema = {{"type", "object"},
                                  {"additionalProperties", {{"type", "number"}, {"exclusiveMinimum", 0}}}},
                       .value = "an object of weights > 0 by flow id or node id",
                       .description = "TXOP = the sum of the weights of the flows carried: a weight per flow id "
                                      "(five_tuple) or source node id (source_node); default 1",
                       .source = "002 Sec. V"}),
  };
  return k;
}

// "weights": {"<flow or node id>": w, ...}, w > 0; by flow index or node index.
std::vector<double> read_weights(JsonReader& r, FlowDefinition definition, ControllerParseContext& ctx) {
  const CustomParameter& key = txop_keys().weights;
  const nlohmann::json* v = key.get(r);
  if (v == nullptr) return {};
  const std::string path = key.path(r);
  if (!v->is_object()) {
    ctx.issues().add(path, "expected an object of weights by " +
                               std::string(definition == FlowDefinition::five_tuple ? "flow id" : "node id") +
                               ", e.g. {\"flow0\": 2}, got " + describe_value(*v));
    return {};
  }
  const bool by_flow = definition == FlowDefinition::five_tuple;
  std::vector<double> weights(by_flow ? ctx.flow_count() : ctx.node_count(), 1.0);
  for (const auto& [id, value] : v->items()) {
    const std::string at = pointer_join(path, id);
    const auto index = by_flow ? ctx.resolve_flow(id, at) : ctx.resolve_node(id, at);
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
    const TxopKeys& k = txop_keys();
    EdcaTxopParams p;
    p.scaling = k.scaling.read_or(r);
    p.dynamic = k.dynamic.read_or(r);
    p.flow_idle_timeout = k.flow_idle_timeout.read_or(r);
    if (!p.dynamic && r.has(k.flow_idle_timeout.key)) {
      ctx.issues().add(r.path_of(k.flow_idle_timeout.key),
                       "applies only with \"dynamic\": true (static counts come from the routes)");
    }
    p.flow_definition = k.flow_definition.read_or(r);
    p.category = k.access_category.read_or(r);
    p.weights = read_weights(r, p.flow_definition, ctx);
    return std::any(p);
  };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<EdcaTxop>(c, ctx); };
  e.summary = "on each radio, the TXOP limit (in frames) of the TCP data category follows the flows it sends (the "
              "sum of their weights); a DCF scenario runs on EDCA MACs with DCF's parameters";
  e.source = "002 Sec. IV, V";
  const TxopKeys& k = txop_keys();
  e.parameters = {k.scaling, k.dynamic, k.flow_idle_timeout, k.flow_definition, k.access_category, k.weights};
  return e;
}

}  // namespace wmnsim::control
