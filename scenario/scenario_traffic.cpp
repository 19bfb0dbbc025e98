// Routing and flows. Validated now; simulated once routing and transport/ land.

#include <algorithm>
#include <cstdio>

#include "scenario/scenario_parse.hpp"

namespace wmnsim::scenario_detail {

namespace {

constexpr std::string_view kAnyGateway = "@gateway";
constexpr std::string_view kDefaultRoute = "*";
constexpr std::int64_t kMaxMsduBytes = 2304;  // 802.11's largest MSDU; no fragmentation

// "tcp and wccp": the transports that send ACKs, for messages.
std::string transports_with_acks(const ParseContext& ctx) {
  std::vector<std::string> names;
  for (const transport::TransportEntry& e : ctx.registries.transports.entries()) {
    if (e.sends_acks) names.push_back(e.name);
  }
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return out;
}

bool has_gateway(const Scenario& s) {
  return std::any_of(s.nodes.begin(), s.nodes.end(),
                     [](const NodeConfig& n) { return n.role == NodeRole::gateway; });
}

// /routing/tables: {"A": {"GW": "B", "*": "B"}, ...}: per node, destination -> next hop.
void parse_static_tables(JsonReader& r, ParseContext& ctx) {
  const nlohmann::json* tables = r.get("tables", Need::required, "{\"A\": {\"*\": \"B\"}}");
  if (tables == nullptr) return;
  const std::string tables_path = r.path_of("tables");
  if (!tables->is_object()) {
    ctx.issues.add(tables_path, "expected an object of routing tables keyed by node id, got " +
                                    describe_value(*tables));
    return;
  }
  for (const auto& [node_id, table] : tables->items()) {
    const std::string node_path = pointer_join(tables_path, node_id);
    const auto node = ctx.nodes.resolve_id(node_id, node_path, ctx.issues);
    if (!table.is_object()) {
      ctx.issues.add(node_path,
                     "expected an object mapping destination ids (or \"*\") to next-hop ids, got " +
                         describe_value(table));
      continue;
    }
    for (const auto& [dst_id, hop] : table.items()) {
      const std::string entry_path = pointer_join(node_path, dst_id);
      std::optional<std::size_t> dst;
      const bool is_default = dst_id == kDefaultRoute;
      if (!is_default) dst = ctx.nodes.resolve_id(dst_id, entry_path, ctx.issues);
      const auto next = ctx.nodes.resolve(hop, entry_path, ctx.issues);
      if (node && dst && *node == *dst) {
        ctx.issues.add(entry_path, "a node needs no route to itself; remove this entry");
        continue;
      }
      if (node && next && *node == *next) {
        ctx.issues.add(entry_path,
                       "the next hop of \"" + node_id + "\" cannot be \"" + node_id + "\" itself");
        continue;
      }
      if (node && next && (dst || is_default)) {
        ctx.scenario.routing.routes.push_back({*node, dst, *next, entry_path});
      }
    }
  }
  // Extension point: loops, dead ends and next hops out of radio range need the
  // connectivity graph; the routing layer checks them where it builds that graph
  // and reports them at StaticRoute::defined_at.
}

// "A", or "@gateway" where allowed.
std::optional<std::size_t> read_endpoint(JsonReader& r, std::string_view key, bool& any_gateway,
                                         ParseContext& ctx) {
  any_gateway = false;
  const nlohmann::json* v = r.get(key, Need::required, "\"GW\"");
  if (v == nullptr) return std::nullopt;
  if (v->is_string() && v->get<std::string>() == kAnyGateway) {
    any_gateway = true;
    if (!has_gateway(ctx.scenario)) {
      ctx.issues.add(r.path_of(key),
                     "\"@gateway\" needs a node with \"role\": \"gateway\", and there is none");
    }
    return std::nullopt;
  }
  return ctx.nodes.resolve(*v, r.path_of(key), ctx.issues);
}

void parse_traffic(JsonReader r, FlowConfig& f, ParseContext& ctx) {
  TrafficConfig& t = f.traffic;
  t.type = r.choice_or("type", TrafficType::saturated, names(kTrafficTypes));
  const std::string type(to_string(t.type));
  if (t.type == TrafficType::saturated) {
    const std::string why = "does not apply to \"saturated\" traffic (always backlogged)";
    for (const char* key : {"rate_bps", "interval_s", "on_s", "off_s", "periods", "phase", "jitter_s"})
      r.forbid(key, why);
    r.finish();
    return;
  }
  // simulation.offered_load_scale multiplies the rate (divides the interval) before the
  // limits below are checked, so that a scaled source meets them as a typed one would.
  const double scale = ctx.scenario.simulation.offered_load_scale;
  auto rate = r.number("rate_bps", NumberRange::positive());
  const auto typed_interval = r.seconds("interval_s", NumberRange::at_least(kMinPeriodS));
  // What the messages call the rate: the typed one, and the scale when it applies.
  const std::string scaled = scale != 1.0 ? " x /simulation/offered_load_scale " + format_number(scale) : "";
  if (rate) *rate *= scale;
  Time interval;  // zero: none given, or refused
  if (typed_interval) {
    const double s = typed_interval->to_seconds() / scale;
    if (s < kMinPeriodS) {  // docs/scenario.md, "Limits"
      ctx.issues.add(r.path_of("interval_s"), "an interval of " + describe_value(*r.get("interval_s")) +
                                                  " s / /simulation/offered_load_scale " + format_number(scale) +
                                                  " is less than 1e-06 s; lower the scale or lengthen the interval");
    } else if (s > 1e6) {  // as for rate_bps below: far inside Time's range (about +-106 days)
      ctx.issues.add(r.path_of("interval_s"), "an interval of " + describe_value(*r.get("interval_s")) +
                                                  " s / /simulation/offered_load_scale " + format_number(scale) +
                                                  " is more than 1e6 s; raise the scale or shorten the interval");
    } else {
      interval = scale != 1.0 ? Time::from_seconds(s) : *typed_interval;
    }
  }
  const double bits = static_cast<double>(f.payload_bytes) * 8.0;
  if (r.has("rate_bps") && r.has("interval_s")) {
    ctx.issues.add(r.path_of("interval_s"), "give either rate_bps or interval_s, not both");
  } else if (!r.has("rate_bps") && !r.has("interval_s")) {
    ctx.issues.add(
        r.path_of("rate_bps"),
        "\"" + type + "\" traffic needs rate_bps (e.g. 800000) or interval_s (e.g. 0.005)");
  } else if (rate) {
    t.rate_bps = *rate;
    if (bits / *rate > 1e6) {  // keep far inside Time's range; no real source is that slow
      ctx.issues.add(r.path_of("rate_bps"),
                     "a rate of " + describe_value(*r.get("rate_bps")) + scaled +
                         " bit/s sends one packet in more than 1e6 s; raise it");
    } else if (bits / *rate < kMinPeriodS) {  // docs/scenario.md, "Limits"
      char most[32];
      std::snprintf(most, sizeof most, "%.6g", bits / kMinPeriodS);
      ctx.issues.add(r.path_of("rate_bps"),
                     "a rate of " + describe_value(*r.get("rate_bps")) + scaled +
                         " bit/s sends more than 10^6 packets per second; at most " + most + " bit/s with " +
                         std::to_string(f.payload_bytes) + "-byte packets (for an always full queue, use "
                         "\"type\": \"saturated\")");
    } else {
      t.packet_interval = Time::from_seconds(bits / *rate);
    }
  } else if (interval > Time::zero()) {
    t.packet_interval = interval;
    t.rate_bps = bits / interval.to_seconds();
  }
  if (t.type == TrafficType::on_off) {
    if (const auto on = r.seconds("on_s", NumberRange::at_least(kMinPeriodS), Need::required, "1.0"))
      t.on_mean = *on;
    if (const auto off = r.seconds("off_s", NumberRange::at_least(kMinPeriodS), Need::required, "1.0"))
      t.off_mean = *off;
    t.periods =
        r.choice_or("periods", PeriodDistribution::exponential, names(kPeriodDistributions));
  } else {
    const std::string why = "applies only to \"on_off\" traffic";
    for (const char* key : {"on_s", "off_s", "periods"}) r.forbid(key, why);
  }
  if (t.type == TrafficType::cbr) {
    // The first packet leaves phase x interval after start_s: sources started together
    // would otherwise send in lock-step, and a phase (unlike a start time) keeps its
    // place in the period when the rate is scaled (001 App. A.4's sweeps).
    t.phase = r.number_or("phase", 0.0, NumberRange{0.0, 1.0, false, true});
    // A uniform offset per packet from its nominal time (docs/scenario.md, traffic.jitter_s):
    // less than the interval, so the packets keep their order.
    if (const auto jitter = r.seconds("jitter_s", NumberRange::non_negative())) {
      if (t.packet_interval > Time::zero() && *jitter >= t.packet_interval) {
        ctx.issues.add(r.path_of("jitter_s"), "a jitter of " + describe_value(*r.get("jitter_s")) +
                                                  " s is not less than the packet interval (" +
                                                  format_number(t.packet_interval.to_seconds()) +
                                                  " s); lower it, or use \"type\": \"poisson\"");
      } else {
        t.jitter = *jitter;
      }
    }
  } else {
    const std::string why = "applies only to \"cbr\" traffic (the others draw or alternate their gaps)";
    r.forbid("phase", why);
    r.forbid("jitter_s", why);
  }
  r.finish();
}

// src and dst: defined, different, and "@gateway" only against a mesh node.
void read_endpoints(JsonReader& r, FlowConfig& f, ParseContext& ctx) {
  const Scenario& s = ctx.scenario;
  bool src_any = false, dst_any = false;
  f.src = read_endpoint(r, "src", src_any, ctx);
  f.dst = read_endpoint(r, "dst", dst_any, ctx);
  if (src_any && dst_any) {
    ctx.issues.add(r.path_of("dst"), "only one end of a flow can be \"@gateway\"");
  } else if (f.src && f.dst && *f.src == *f.dst) {
    ctx.issues.add(r.path_of("dst"),
                   "a flow's dst must differ from its src (\"" + s.nodes[*f.src].id + "\")");
  } else if (src_any || dst_any) {
    const auto& other = src_any ? f.dst : f.src;
    if (other && s.nodes[*other].role != NodeRole::mesh) {
      ctx.issues.add(r.path_of(src_any ? "dst" : "src"),
                     "\"@gateway\" pairs a mesh node with the gateway that serves it, but \"" +
                         s.nodes[*other].id + "\" is a " +
                         std::string(to_string(s.nodes[*other].role)) + "; name both ends");
    }
  }
}

// The transport's own keys (its entry reads them), the other transports' keys
// (not allowed here) and the EDCA access categories, which depend on the transport
// and the MAC type.
void read_transport_settings(JsonReader& r, FlowConfig& f, const transport::TransportEntry& entry,
                             const ParseContext& ctx) {
  for (const transport::TransportEntry& other : ctx.registries.transports.entries()) {
    if (other.name == entry.name) continue;
    const std::vector<std::string> own = entry.keys();
    for (const std::string& key : other.keys()) {
      if (std::find(own.begin(), own.end(), key) != own.end()) continue;
      r.forbid(key, "applies only to flows with \"transport\": \"" + other.name + "\" (this one is \"" +
                        entry.name + "\")");
    }
  }
  if (entry.parse) f.transport_params = entry.parse(r);
  if (ctx.scenario.mac.type == MacType::edca) {
    f.access_category = r.choice("access_category", names(kAccessCategories));
    if (!entry.sends_acks) {
      r.forbid("ack_access_category", "applies only to " + transports_with_acks(ctx) + " flows, which send ACKs");
    } else {
      f.ack_access_category = r.choice("ack_access_category", names(kAccessCategories));
    }
  } else {
    // A DCF scenario that lists edca_ack_priority or edca_txop runs on EDCA MACs, but
    // its flows are untagged by design: the controllers' classifier rules decide.
    const char* why =
        "applies only with \"type\": \"edca\" in /mac (a DCF scenario with edca_ack_priority or edca_txop "
        "runs on EDCA too, and leaves its flows' categories to those controllers)";
    r.forbid("access_category", why);
    r.forbid("ack_access_category", why);
  }
}

void parse_flow(JsonReader r, std::size_t index, ParseContext& ctx) {
  FlowConfig f;
  if (const auto id = read_id(r, "flow")) {
    f.id = *id;
    ctx.flows.define(*id, index, r.path(), r.path_of("id"), ctx.issues);
  }
  const transport::TransportRegistry& transports = ctx.registries.transports;
  const nlohmann::json* transport_value = r.get("transport", Need::required, "\"tcp\"");
  const auto transport_index = transport_value != nullptr
                                   ? check_choice(*transport_value, r.path_of("transport"), ctx.issues,
                                                  transports.names())
                                   : std::nullopt;
  const transport::TransportEntry* transport =
      transport_index ? &transports.entries()[*transport_index] : nullptr;
  if (transport != nullptr) {
    f.transport_name = transport->name;
    f.transport_build = transport->build;
    f.sends_acks = transport->sends_acks;
  }
  read_endpoints(r, f, ctx);

  f.start = r.seconds_or("start_s", Time::zero(), NumberRange::non_negative());
  f.stop = r.seconds("stop_s", NumberRange::positive());
  if (f.stop && *f.stop <= f.start) {
    ctx.issues.add(r.path_of("stop_s"),
                   "stop_s (" + describe_value(*r.get("stop_s")) + ") must be after start_s (" +
                       describe_value(r.has("start_s") ? *r.get("start_s") : nlohmann::json(0)) +
                       ")");
  }
  // No fragmentation: payload plus the transport's headers (TCP/IP 40 B, UDP/IP 28 B)
  // must fit one 2304-byte 802.11 MSDU.
  const std::int64_t max_payload = kMaxMsduBytes - (transport != nullptr ? transport->header_bytes : 28);
  f.payload_bytes = r.integer_or("payload_bytes", 1460, 1, max_payload);
  f.fair_share_bps = r.number("fair_share_bps", NumberRange::positive());
  if (r.has("traffic")) parse_traffic(r.object("traffic"), f, ctx);
  r.get("traffic");

  if (transport != nullptr) {
    read_transport_settings(r, f, *transport, ctx);
  } else {
    // Without a valid transport its settings cannot be judged; accept the keys and
    // let the transport issue speak.
    for (const transport::TransportEntry& e : transports.entries()) {
      for (const std::string& key : e.keys()) r.get(key);
    }
    for (const char* key : {"access_category", "ack_access_category"}) r.get(key);
  }
  r.finish();
  ctx.scenario.flows.push_back(std::move(f));
}

}  // namespace

void parse_routing(JsonReader r, ParseContext& ctx) {
  RoutingSection& routing = ctx.scenario.routing;
  routing.type = r.choice_or("type", RoutingType::automatic, names(kRoutingTypes));
  if (routing.type == RoutingType::static_tables) {
    r.forbid("metric", "does not apply to \"static\" routing: the tables decide");
    parse_static_tables(r, ctx);
  } else if (routing.type == RoutingType::aodv) {
    r.forbid("metric", "does not apply to \"aodv\": AODV counts hops (RFC 3561)");
    r.forbid("tables", "applies only to \"type\": \"static\"");
    parse_aodv(r, routing.aodv, ctx.issues);
  } else {
    routing.metric = r.choice_or("metric", RoutingMetric::hop_count, names(kRoutingMetrics));
    r.forbid("tables", "applies only to \"type\": \"static\"");
  }
  if (routing.type == RoutingType::gateway_trees && !has_gateway(ctx.scenario) &&
      !ctx.nodes.empty()) {
    ctx.issues.add(r.path_of("type"),
                   "\"gateway_trees\" needs at least one node with \"role\": \"gateway\"");
  }
  r.finish();
}

void parse_flows(const nlohmann::json* flows, ParseContext& ctx) {
  if (flows == nullptr) return;  // missing or not an array: already reported
  if (flows->empty()) {
    ctx.issues.add("/flows",
                   "at least one flow is required (e.g. {\"id\": \"f1\", \"transport\": \"tcp\", "
                   "\"src\": \"A\", \"dst\": \"GW\"})");
  }
  for (std::size_t i = 0; i < flows->size(); ++i) {
    parse_flow(JsonReader((*flows)[i], pointer_join("/flows", i), ctx.issues), i, ctx);
  }
}

}  // namespace wmnsim::scenario_detail
