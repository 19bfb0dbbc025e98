#include "control/gateway_rate_control_params.hpp"

#include "config/limits.hpp"
#include "control/gateway_rate_control.hpp"
#include "link/shaping_queue.hpp"  // shaper_keys: burst_bytes
#include "link/token_bucket.hpp"

namespace wmnsim::control {

namespace {

// The FRED keys the gateway's `fred` object takes: the discipline's own declarations.
ParameterTable fred_members() {
  const link::FredKeys& f = link::fred_keys();
  return {f.min_th_packets, f.max_th_packets, f.max_p, f.queue_weight, f.min_q_packets};
}

struct GatewayRateControlKeys {
  CustomParameter gateway;
  ChoiceParameter<GatewayScheme> scheme;
  ChoiceParameter<CapacityModel> capacity_model;
  NumberParameter fair_rate_bps;
  IntegerParameter buffer_packets;
  IntegerParameter per_flow_buffer_packets;
  ChoiceParameter<ShareMode> share_mode;
  TimeParameter flow_idle_timeout;
  NumberParameter flow_idle_timeout_intervals;
  ChoiceParameter<MacCapacitySource> mac_capacity;
  NumberParameter mac_capacity_bps;
  ChoiceParameter<MeasuredBCounts> measured_b_counts;
  ChoiceParameter<link::ClassifyBy> classify;
  TimeParameter report_interval;
  ObjectParameter fred;
};

const GatewayRateControlKeys& gateway_rate_control_keys() {
  const GatewayRateControlParams defaults;
  static const GatewayRateControlKeys k{
      CustomParameter({.key = "gateway",
                       .schema = {{"$ref", "#/$defs/id"}},
                       .value = "a gateway id",
                       .description = "the gateway whose queues it manages; default: the only gateway",
                       .source = "001 Sec. 4"}),
      ChoiceParameter<GatewayScheme>({.key = "scheme",
                                      .names = names(kGatewaySchemes),
                                      .fallback = defaults.scheme,
                                      .description = "queueing / rate control at the gateway (docs/controllers.md)",
                                      .source = "001 Sec. 4.1-4.3, Table 2"}),
      ChoiceParameter<CapacityModel>({.key = "capacity_model",
                                      .names = names(kCapacityModels),
                                      .fallback = defaults.capacity_model,
                                      .description = "model of the fair shares (docs/capacity.md)",
                                      .source = "001 Appendix A"}),
      // Shapers keep whole bit/s (link/token_bucket.hpp).
      NumberParameter({.key = "fair_rate_bps",
                       .unit = "bit/s",
                       .range = NumberRange::at_least(1),
                       .description = "each class's share; absent: the flows' fair_share_bps summed per class, "
                                      "else the capacity model's",
                       .source = "001 Sec. 4.3"}),
      IntegerParameter({.key = "buffer_packets",
                        .unit = "packets",
                        .min = 1,
                        .max = kMaxBufferPackets,
                        .fallback = defaults.buffer_packets,
                        .description = "the shared buffer (fifo, fred, aggregate_rate_limit, source_rate_limit)",
                        .source = "ours (001 gives no size)"}),
      IntegerParameter({.key = "per_flow_buffer_packets",
                        .unit = "packets",
                        .min = 1,
                        .max = kMaxBufferPackets,
                        .fallback = defaults.per_flow_buffer_packets,
                        .description = "each class's buffer (fq and the per-class schemes)",
                        .source = "001 Sec. 5.3.1: 5 per flow"}),
      ChoiceParameter<ShareMode>({.key = "share_mode",
                                  .names = names(kShareModes),
                                  .fallback = defaults.share_mode,
                                  .description = "which flows the shares are for: `activity`, the classes the gateway "
                                                 "sees packets of (idle ones leave after the timeout); `offline`, the "
                                                 "flows the scenario declares active (start_s <= t < stop_s), "
                                                 "recomputed only at their starts and stops",
                                  .source = "001 App. A (offline), Sec. 5.3.3 (activity)"}),
      TimeParameter({.key = "flow_idle_timeout_s",
                     .range = NumberRange::at_least(kMinPeriodS),
                     .fallback = defaults.flow_idle_timeout,
                     .description = "share_mode activity: a class silent this long counts as inactive (\"the "
                                    "presence or absence of packets\")",
                     .source = "001 Sec. 5.3.3; the value ours"}),
      // A TCP flow at its share sends a packet every interval; a timeout of a few
      // intervals follows its pace where a fixed second may be shorter than its gaps.
      NumberParameter({.key = "flow_idle_timeout_intervals",
                       .range = NumberRange::at_least(1),
                       .description = "share_mode activity, instead of flow_idle_timeout_s: a class counts as "
                                      "inactive after this many of its packet intervals at its share (a data "
                                      "packet's bits over its token rate) without a packet; a class the model "
                                      "leaves unbounded (no wireless hop) keeps flow_idle_timeout_s's default",
                       .source = "ours (issue 38)"}),
      ChoiceParameter<MacCapacitySource>({.key = "mac_capacity",
                                          .names = names(kMacCapacitySources),
                                          .fallback = defaults.mac_capacity,
                                          .description = "B of the capacity model: Bianchi's one-station "
                                                         "throughput, or `measured` in a one-hop run on the "
                                                         "scenario's PHY and MAC (docs/capacity.md)",
                                          .source = "001 App. A.2"}),
      NumberParameter({.key = "mac_capacity_bps",
                       .unit = "bit/s",
                       .range = NumberRange::positive(),
                       .description = "a given B for the capacity model, instead of mac_capacity's",
                       .source = "001 App. A.2"}),
      ChoiceParameter<MeasuredBCounts>({.key = "measured_b_counts",
                                        .names = names(kMeasuredBCounts),
                                        .fallback = defaults.measured_b_counts,
                                        .description = "mac_capacity measured: what the one-hop run's B counts, "
                                                       "the flow's goodput (`data`, TCP ACKs left out) or the "
                                                       "MAC-layer throughput both ways (`data_and_tcp_acks`: "
                                                       "the ACKs' bytes too; the same for UDP)",
                                        .source = "001 App. A.2 (\"throughput ... at the MAC layer\"); the "
                                                  "two readings ours"}),
      ChoiceParameter<link::ClassifyBy>({.key = "classify",
                                        .names = names(link::kClassifyBy),
                                        .fallback = defaults.classify,
                                        .description = "a class per flow, or per subscriber (the mesh node a flow "
                                                       "starts or ends at)",
                                        .source = "001 Sec. 4.3.2"}),
      TimeParameter({.key = "report_interval_s",
                     .range = NumberRange::at_least(kMinPeriodS),
                     .fallback = defaults.report_interval,
                     .description = "interval of the per-class arrival rates in the statistics",
                     .source = "ours (001 Fig. 4)"}),
      ObjectParameter({.key = "fred",
                       .members = fred_members(),
                       .description = "scheme fred only: FRED's thresholds (the `fred` discipline's keys)",
                       .source = "001 Sec. 4.2, 5.2"}),
  };
  return k;
}

GatewayRateControlParams parse_gateway_rate_control(JsonReader& r, ControllerParseContext& ctx) {
  const GatewayRateControlKeys& k = gateway_rate_control_keys();
  GatewayRateControlParams p;
  const auto all = gateways(ctx);
  if (const nlohmann::json* v = k.gateway.get(r)) {
    if (const auto g = resolve_gateway(*v, k.gateway.path(r), ctx)) p.gateway = *g;
  } else if (all.size() == 1) {
    p.gateway = all.front();
  } else {
    ctx.issues().add(k.gateway.path(r), all.empty()
                                            ? "no node has \"role\": \"gateway\"; add one"
                                            : "the scenario has several gateways; name the one to control");
  }
  p.scheme = k.scheme.read_or(r);
  p.capacity_model = k.capacity_model.read_or(r);
  p.fair_rate_bps = k.fair_rate_bps.read(r);
  p.buffer_packets = static_cast<int>(k.buffer_packets.read_or(r));
  p.per_flow_buffer_packets = static_cast<int>(k.per_flow_buffer_packets.read_or(r));
  p.share_mode = k.share_mode.read_or(r);
  const std::optional<Time> idle_s = k.flow_idle_timeout.read(r);
  p.flow_idle_timeout = idle_s.value_or(p.flow_idle_timeout);
  p.flow_idle_timeout_intervals = k.flow_idle_timeout_intervals.read(r);
  if (idle_s && p.flow_idle_timeout_intervals) {
    ctx.issues().add(r.path_of(k.flow_idle_timeout_intervals.key),
                     "give flow_idle_timeout_s or flow_idle_timeout_intervals, not both");
  }
  if (p.share_mode == ShareMode::offline) {
    // Offline shares follow the scenario's starts and stops, never the traffic.
    for (const std::string* key : {&k.flow_idle_timeout.key, &k.flow_idle_timeout_intervals.key}) {
      if (r.has(*key)) ctx.issues().add(r.path_of(*key), "applies only to \"share_mode\": \"activity\"");
    }
  }
  p.mac_capacity = k.mac_capacity.read_or(r);
  p.mac_capacity_bps = k.mac_capacity_bps.read(r);
  if (p.mac_capacity_bps && r.has(k.mac_capacity.key)) {
    ctx.issues().add(r.path_of(k.mac_capacity_bps.key), "give mac_capacity or mac_capacity_bps, not both");
  }
  p.measured_b_counts = k.measured_b_counts.read_or(r);
  if (r.has(k.measured_b_counts.key) && p.mac_capacity != MacCapacitySource::measured) {
    ctx.issues().add(r.path_of(k.measured_b_counts.key), "applies only to \"mac_capacity\": \"measured\"");
  }
  if (p.fair_rate_bps) {
    // B matters only to the capacity model, which a given share replaces.
    for (const std::string* key : {&k.mac_capacity.key, &k.mac_capacity_bps.key, &k.measured_b_counts.key}) {
      if (r.has(*key)) ctx.issues().add(r.path_of(*key), "applies only to shares from the capacity model; "
                                                          "fair_rate_bps gives them");
    }
  }
  p.classify = k.classify.read_or(r);
  p.burst_bytes = link::shaper_keys().burst_bytes.read_or(r);
  p.report_interval = k.report_interval.read_or(r);
  if (p.scheme == GatewayScheme::fred) {
    const link::FredKeys& fk = link::fred_keys();
    JsonReader f = k.fred.open(r);
    link::FredParams& fr = p.fred;
    fr.min_th_packets = static_cast<int>(fk.min_th_packets.read_or(f));
    fr.max_th_packets = static_cast<int>(fk.max_th_packets.read_or(f));
    fr.max_p = fk.max_p.read_or(f);
    fr.queue_weight = fk.queue_weight.read_or(f);
    fr.min_q_packets = static_cast<int>(fk.min_q_packets.read_or(f));
    if (fr.min_th_packets >= fr.max_th_packets) {
      ctx.issues().add(f.path_of(fk.max_th_packets.key), "max_th_packets (" + std::to_string(fr.max_th_packets) +
                                                              ") must exceed min_th_packets (" +
                                                              std::to_string(fr.min_th_packets) + ")");
    }
    if (fr.max_th_packets > p.buffer_packets) {
      ctx.issues().add(f.path_of(fk.max_th_packets.key), "max_th_packets (" + std::to_string(fr.max_th_packets) +
                                                              ") exceeds buffer_packets (" +
                                                              std::to_string(p.buffer_packets) + ")");
    }
    f.finish();
  } else {
    r.forbid(k.fred.key, "applies only to \"scheme\": \"fred\"");
  }
  r.forbid("nodes", "does not apply to \"gateway_rate_control\": it acts at \"gateway\"");
  return p;
}

}  // namespace

ControllerEntry gateway_rate_control_entry() {
  const GatewayRateControlKeys& k = gateway_rate_control_keys();
  ControllerEntry e;
  e.name = "gateway_rate_control";
  e.replaces_queues = true;  // the scheme's discipline at the gateway
  e.acts_on_nodes = false;
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) { return std::any(parse_gateway_rate_control(r, ctx)); };
  e.build = make_gateway_rate_control;
  e.summary = "queueing and rate control at one gateway: its queues get the `scheme`'s discipline, shaped to "
              "each class's fair share (docs/controllers.md)";
  e.source = "001 Sec. 4";
  e.parameters = {k.gateway,
                  k.scheme,
                  k.capacity_model,
                  k.fair_rate_bps,
                  k.buffer_packets,
                  k.per_flow_buffer_packets,
                  k.share_mode,
                  k.flow_idle_timeout,
                  k.flow_idle_timeout_intervals,
                  k.mac_capacity,
                  k.mac_capacity_bps,
                  k.measured_b_counts,
                  k.classify,
                  link::shaper_keys().burst_bytes,
                  k.report_interval,
                  k.fred};
  // "fred" only with "scheme": "fred" (the parse forbids it otherwise).
  e.schema_rules = {{"if", {{"required", nlohmann::ordered_json::array({k.fred.key})}}},
                    {"then",
                     {{"properties", {{k.scheme.key, {{"const", "fred"}}}}},
                      {"required", nlohmann::ordered_json::array({k.scheme.key})}}}};
  return e;
}

}  // namespace wmnsim::control
