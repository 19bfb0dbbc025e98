// Controllers: one object per controller, chosen by "type", with its parameters
// next to it. Validated now; run once control/ lands. Every default is the value
// the controller's paper used.

#include <algorithm>

#include "scenario/scenario_parse.hpp"

namespace wmnsim::scenario_detail {

namespace {

std::vector<std::size_t> wireless_nodes(const Scenario& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    if (s.nodes[i].role != NodeRole::host) out.push_back(i);
  }
  return out;
}

std::vector<std::size_t> gateways(const Scenario& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    if (s.nodes[i].role == NodeRole::gateway) out.push_back(i);
  }
  return out;
}

// A node reference that must name a gateway.
std::optional<std::size_t> resolve_gateway(const nlohmann::json& v, const std::string& path,
                                           ParseContext& ctx) {
  const auto n = ctx.nodes.resolve(v, path, ctx.issues);
  if (n && ctx.scenario.nodes[*n].role != NodeRole::gateway) {
    ctx.issues.add(path, "node \"" + ctx.scenario.nodes[*n].id + "\" is a " +
                             std::string(to_string(ctx.scenario.nodes[*n].role)) +
                             ", not a gateway; give it \"role\": \"gateway\" or name a gateway");
    return std::nullopt;
  }
  return n;
}

// "key": [ids...]; absent -> nullopt (the caller's default applies).
std::optional<std::vector<std::size_t>> node_list(JsonReader& r, std::string_view key,
                                                  bool gateways_only, ParseContext& ctx) {
  const nlohmann::json* list = r.array(key);
  if (list == nullptr) return std::nullopt;
  if (list->empty()) {
    ctx.issues.add(r.path_of(key),
                   "the list is empty; omit \"" + std::string(key) + "\" to use the default");
    return std::nullopt;
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = pointer_join(r.path_of(key), i);
    const auto n = gateways_only ? resolve_gateway((*list)[i], path, ctx)
                                 : ctx.nodes.resolve((*list)[i], path, ctx.issues);
    if (!n) continue;
    if (std::find(out.begin(), out.end(), *n) != out.end()) {
      ctx.issues.add(path, "\"" + ctx.scenario.nodes[*n].id + "\" is listed twice");
      continue;
    }
    if (!gateways_only && ctx.scenario.nodes[*n].role == NodeRole::host) {
      ctx.issues.add(path, "\"" + ctx.scenario.nodes[*n].id +
                               "\" is a wired host; controllers act on wireless nodes");
      continue;
    }
    out.push_back(*n);
  }
  return out;
}

void require_edca(const ControllerConfig& c, JsonReader& r, ParseContext& ctx) {
  if (ctx.scenario.mac.type != MacType::edca) {
    ctx.issues.add(r.path_of("type"),
                   "\"" + std::string(to_string(c.type)) +
                       "\" tunes EDCA parameters; set \"type\": \"edca\" in /mac");
  }
}

double fraction(JsonReader& r, std::string_view key, double fallback) {
  return r.number_or(key, fallback, NumberRange::open(0, 1));
}

CounterStarvationParams parse_counter_starvation(JsonReader& r, ParseContext& ctx) {
  CounterStarvationParams p;
  // 000 Sec. 5.6: "a factor of at least two greater than all other nodes".
  p.cw_min_factor = r.number_or("cw_min_factor", 4.0, NumberRange::at_least(2));
  if (const nlohmann::json* v = r.get("cw_min"))
    p.cw_min = check_window(*v, r.path_of("cw_min"), ctx.issues);
  if (r.has("cw_min") && r.has("cw_min_factor")) {
    ctx.issues.add(r.path_of("cw_min"), "give either cw_min or cw_min_factor, not both");
  }
  const int base = ctx.scenario.mac.params.cw_min;
  if (p.cw_min && ctx.scenario.mac.type == MacType::dcf && *p.cw_min < 2 * base) {
    ctx.issues.add(r.path_of("cw_min"), "cw_min " + std::to_string(*p.cw_min) +
                                            " is less than twice the scenario's cw_min (" +
                                            std::to_string(base) + "); the policy needs at least " +
                                            std::to_string(2 * base));
  }
  if (const nlohmann::json* list = r.array("access_categories")) {
    if (ctx.scenario.mac.type != MacType::edca) {
      ctx.issues.add(r.path_of("access_categories"),
                     "DCF has a single category; omit \"access_categories\" or set \"type\": \"edca\" in /mac");
    } else if (list->empty()) {
      ctx.issues.add(r.path_of("access_categories"),
                     "the list is empty; omit it to raise CWmin in every category");
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = pointer_join(r.path_of("access_categories"), i);
      const auto ac = check_enum((*list)[i], path, ctx.issues, names(kAccessCategories));
      if (!ac) continue;
      if (std::find(p.access_categories.begin(), p.access_categories.end(), *ac) !=
          p.access_categories.end()) {
        ctx.issues.add(path, "\"" + std::string(to_string(*ac)) + "\" is listed twice");
        continue;
      }
      p.access_categories.push_back(*ac);
    }
  }
  p.gateways = node_list(r, "gateways", true, ctx).value_or(gateways(ctx.scenario));
  if (p.gateways.empty() && !r.has("gateways")) {
    ctx.issues.add(
        r.path_of("type"),
        "\"counter_starvation\" acts around gateways, and no node has \"role\": \"gateway\"");
  }
  r.forbid("nodes",
           "does not apply to \"counter_starvation\": it acts on the neighbours of \"gateways\"");
  return p;
}

GatewayRateControlParams parse_gateway_rate_control(JsonReader& r, ParseContext& ctx) {
  GatewayRateControlParams p;
  const auto all = gateways(ctx.scenario);
  if (const nlohmann::json* v = r.get("gateway")) {
    if (const auto g = resolve_gateway(*v, r.path_of("gateway"), ctx)) p.gateway = *g;
  } else if (all.size() == 1) {
    p.gateway = all.front();
  } else {
    ctx.issues.add(r.path_of("gateway"),
                   all.empty() ? "no node has \"role\": \"gateway\"; add one"
                               : "the scenario has several gateways; name the one to control");
  }
  p.scheme = r.choice_or("scheme", GatewayScheme::per_flow_rate_limit, names(kGatewaySchemes));
  p.capacity_model =
      r.choice_or("capacity_model", CapacityModel::collision_domain, names(kCapacityModels));
  p.fair_rate_bps = r.number("fair_rate_bps", NumberRange::positive());
  p.buffer_packets = static_cast<int>(r.integer_or("buffer_packets", 25, 1, 1'000'000));
  p.per_flow_buffer_packets =
      static_cast<int>(r.integer_or("per_flow_buffer_packets", 5, 1, 1'000'000));
  p.flow_idle_timeout = r.seconds_or("flow_idle_timeout_s", Time::s(1), NumberRange::at_least(kMinPeriodS));
  if (p.scheme == GatewayScheme::fred) {
    JsonReader f = r.object("fred");
    FredParams& fr = p.fred;
    fr.min_th_packets = static_cast<int>(f.integer_or("min_th_packets", 5, 1, 1'000'000));
    fr.max_th_packets = static_cast<int>(f.integer_or("max_th_packets", 15, 1, 1'000'000));
    fr.max_p = f.number_or("max_p", 0.1, NumberRange::open_closed(0, 1));
    fr.queue_weight = f.number_or("queue_weight", 0.002, NumberRange::open_closed(0, 1));
    fr.min_q_packets = static_cast<int>(f.integer_or("min_q_packets", 2, 1, 1'000'000));
    if (fr.min_th_packets >= fr.max_th_packets) {
      ctx.issues.add(f.path_of("max_th_packets"), "max_th_packets (" +
                                                      std::to_string(fr.max_th_packets) +
                                                      ") must exceed min_th_packets (" +
                                                      std::to_string(fr.min_th_packets) + ")");
    }
    if (fr.max_th_packets > p.buffer_packets) {
      ctx.issues.add(f.path_of("max_th_packets"),
                     "max_th_packets (" + std::to_string(fr.max_th_packets) +
                         ") exceeds buffer_packets (" + std::to_string(p.buffer_packets) + ")");
    }
    f.finish();
  } else {
    r.forbid("fred", "applies only to \"scheme\": \"fred\"");
  }
  r.forbid("nodes", "does not apply to \"gateway_rate_control\": it acts at \"gateway\"");
  return p;
}

CongestionNotificationParams parse_congestion_notification(JsonReader& r, bool link_selective,
                                                           ParseContext& ctx) {
  CongestionNotificationParams p;
  p.link_selective = link_selective;
  p.forward_share = fraction(r, "forward_share", 0.8);
  p.congestion_threshold = fraction(r, "congestion_threshold", 0.6);
  p.too_short_threshold = fraction(r, "too_short_threshold", 0.2);
  p.too_long_threshold = fraction(r, "too_long_threshold", 0.1);
  p.initial_duration =
      r.seconds_or("initial_duration_s", Time::ms(100), NumberRange::closed(kMinPeriodS, 6.5535));
  p.increase_factor = r.number_or("increase_factor", 1.2, NumberRange{1.0, 100.0, true, false});
  p.decrease_factor = fraction(r, "decrease_factor", 0.8);
  // 004's thresholds are ordered: too long < too short < congested.
  if (!(p.too_long_threshold < p.too_short_threshold)) {
    ctx.issues.add(r.path_of("too_long_threshold"),
                   "too_long_threshold must be below too_short_threshold");
  }
  if (!(p.too_short_threshold <= p.congestion_threshold)) {
    ctx.issues.add(r.path_of("too_short_threshold"),
                   "too_short_threshold must not exceed congestion_threshold");
  }
  if (link_selective) {
    p.blocked_local_limit = fraction(r, "blocked_local_limit", 0.5);
    p.look_ahead_threshold = fraction(r, "look_ahead_threshold", 0.4);
    p.look_ahead_share = fraction(r, "look_ahead_share", 0.02);
  } else {
    for (const char* key : {"blocked_local_limit", "look_ahead_threshold", "look_ahead_share"}) {
      r.forbid(key, "applies only to \"lscc\" (TCC has no virtual buffers or look-ahead)");
    }
  }
  return p;
}

EdcaTxopParams parse_edca_txop(JsonReader& r) {
  EdcaTxopParams p;
  p.scaling = r.choice_or("scaling", TxopScaling::flows, names(kTxopScalings));
  p.dynamic = r.boolean_or("dynamic", true);
  p.flow_idle_timeout = r.seconds_or("flow_idle_timeout_s", Time::s(1), NumberRange::at_least(kMinPeriodS));
  return p;
}

void parse_controller(JsonReader r, std::size_t index, ParseContext& ctx) {
  Scenario& s = ctx.scenario;
  ControllerConfig c;
  const auto type =
      r.choice("type", names(kControllerTypes), Need::required, "\"counter_starvation\"");
  if (!type) {
    // Without a type the other keys cannot be judged; report the one real problem.
    r.ignore_unknown_keys();
    return;
  }
  c.type = *type;
  if (const auto id = r.string("id")) {
    c.id = *id;
    if (!valid_id(*id)) {
      ctx.issues.add(r.path_of("id"), "invalid controller id \"" + *id +
                                          "\": use letters, digits, '_', '-' and '.' only");
    } else {
      ctx.controllers.define(*id, index, r.path(), r.path_of("id"), ctx.issues);
    }
  } else {
    c.id = std::string(to_string(c.type)) + "#" +
           std::to_string(index);  // '#' never clashes with a given id
  }
  c.start = r.seconds_or("start_s", Time::zero(), NumberRange::non_negative());
  c.stop = r.seconds("stop_s", NumberRange::positive());
  if (c.stop && *c.stop <= c.start) {
    ctx.issues.add(r.path_of("stop_s"), "stop_s must be after start_s");
  }
  const bool names_nodes = c.type != ControllerType::counter_starvation &&
                           c.type != ControllerType::gateway_rate_control;
  if (names_nodes) c.nodes = node_list(r, "nodes", false, ctx).value_or(wireless_nodes(s));

  switch (c.type) {
    case ControllerType::counter_starvation:
      c.params = parse_counter_starvation(r, ctx);
      break;
    case ControllerType::gateway_rate_control:
      c.params = parse_gateway_rate_control(r, ctx);
      break;
    case ControllerType::tcc:
      c.params = parse_congestion_notification(r, false, ctx);
      break;
    case ControllerType::lscc:
      c.params = parse_congestion_notification(r, true, ctx);
      break;
    case ControllerType::edca_ack_priority: {
      require_edca(c, r, ctx);
      EdcaAckPriorityParams p;
      p.data_aifsn_increase = static_cast<int>(r.integer_or("data_aifsn_increase", 4, 0, 13));
      if (const nlohmann::json* v = r.get("ack_cw_min")) {
        p.ack_cw_min = check_window(*v, r.path_of("ack_cw_min"), ctx.issues).value_or(p.ack_cw_min);
      }
      c.params = p;
      break;
    }
    case ControllerType::edca_txop:
      require_edca(c, r, ctx);
      c.params = parse_edca_txop(r);
      break;
    case ControllerType::wccp: {
      WccpControllerParams p;
      p.busyness_threshold = fraction(r, "busyness_threshold", 0.92);
      p.alpha = fraction(r, "alpha", 0.1);
      c.params = p;
      break;
    }
  }
  r.finish();
  s.controllers.push_back(std::move(c));
}

}  // namespace

void parse_controllers(const nlohmann::json* controllers, ParseContext& ctx) {
  Scenario& s = ctx.scenario;
  for (std::size_t i = 0; controllers != nullptr && i < controllers->size(); ++i) {
    parse_controller(JsonReader((*controllers)[i], pointer_join("/controllers", i), ctx.issues), i,
                     ctx);
  }
  // WCCP flows need the in-network half on every node; without an explicit
  // "wccp" controller it runs with 003's parameters.
  const bool wccp_flows = std::any_of(s.flows.begin(), s.flows.end(), [](const FlowConfig& f) {
    return f.transport == Transport::wccp;
  });
  const bool wccp_controller =
      std::any_of(s.controllers.begin(), s.controllers.end(),
                  [](const ControllerConfig& c) { return c.type == ControllerType::wccp; });
  if (wccp_flows && !wccp_controller) {
    ControllerConfig c;
    c.type = ControllerType::wccp;
    c.id = "wccp#implicit";
    c.nodes = wireless_nodes(s);
    c.params = WccpControllerParams{};
    s.controllers.push_back(std::move(c));
  }
}

}  // namespace wmnsim::scenario_detail
