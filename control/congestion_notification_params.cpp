#include "control/congestion_notification_params.hpp"

#include <string>

#include "config/limits.hpp"
#include "control/mesh_congestion_control.hpp"

namespace wmnsim::control {

namespace {

CongestionNotificationParams parse(JsonReader& r, bool link_selective, ControllerParseContext& ctx) {
  CongestionNotificationParams p;
  p.link_selective = link_selective;
  p.forward_share = fraction(r, "forward_share", 0.8);
  p.congestion_threshold = fraction(r, "congestion_threshold", 0.6);
  p.too_short_threshold = fraction(r, "too_short_threshold", 0.2);
  p.too_long_threshold = fraction(r, "too_long_threshold", 0.1);
  p.initial_duration = r.seconds_or("initial_duration_s", Time::ms(100), NumberRange::closed(kMinPeriodS, 6.5535));
  p.increase_factor = r.number_or("increase_factor", 1.2, NumberRange{1.0, 100.0, true, false});
  p.decrease_factor = fraction(r, "decrease_factor", 0.8);
  p.expiry_check_lead = r.seconds_or("expiry_check_lead_s", Time::ms(10), NumberRange::closed(0.0, 6.5535));
  p.delivery = r.choice_or("notification_delivery", NotificationDelivery::unicast, names(kNotificationDeliveries));
  // 004's thresholds are ordered: too long < too short < congested.
  if (!(p.too_long_threshold < p.too_short_threshold)) {
    ctx.issues().add(r.path_of("too_long_threshold"), "too_long_threshold must be below too_short_threshold");
  }
  if (!(p.too_short_threshold <= p.congestion_threshold)) {
    ctx.issues().add(r.path_of("too_short_threshold"), "too_short_threshold must not exceed congestion_threshold");
  }
  if (link_selective) {
    // 1 turns each remedy off (no limit on blocked local packets; no look-ahead):
    // 004's Fig. 3 buffer blocking without them.
    p.blocked_local_limit = r.number_or("blocked_local_limit", 0.5, NumberRange::open_closed(0, 1));
    p.look_ahead_threshold = r.number_or("look_ahead_threshold", 0.4, NumberRange::open_closed(0, 1));
    p.look_ahead_share = fraction(r, "look_ahead_share", 0.02);
    p.exclude_blocked_packets = r.boolean_or("exclude_blocked_packets", false);
  } else {
    for (const char* key : {"blocked_local_limit", "look_ahead_threshold", "look_ahead_share", "exclude_blocked_packets"}) {
      r.forbid(key, "applies only to \"lscc\" (TCC has no virtual buffers or look-ahead)");
    }
  }
  return p;
}

// The keys tcc and lscc share (004 Sec. 3), as JSON Schema properties.
constexpr const char* kSharedProperties = R"json(
    "forward_share": {
      "type": "number",
      "description": "buffer share reserved for forwarded packets",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.8
    },
    "congestion_threshold": {
      "type": "number",
      "description": "buffer fill that signals congestion",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.6
    },
    "too_short_threshold": {
      "type": "number",
      "description": "fill at timer expiry that lengthens the duration",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.2
    },
    "too_long_threshold": {
      "type": "number",
      "description": "forwarded fill that shortens the duration",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.1
    },
    "initial_duration_s": {
      "type": "number",
      "description": "first congestion duration (seconds); at least 1e-6",
      "minimum": 1e-06,
      "maximum": 6.5535,
      "default": 0.1
    },
    "increase_factor": {
      "type": "number",
      "description": "duration x this when too short",
      "exclusiveMinimum": 1,
      "maximum": 100,
      "default": 1.2
    },
    "decrease_factor": {
      "type": "number",
      "description": "duration x this when too long",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.8
    },
    "expiry_check_lead_s": {
      "type": "number",
      "description": "how long before a notification expires the buffer is checked (seconds; at most half the notification's duration is used); 004 says only 'shortly before'",
      "minimum": 0,
      "maximum": 6.5535,
      "default": 0.01
    },
    "notification_delivery": {
      "enum": ["unicast", "group"],
      "description": "unicast: one acknowledged, retried frame per notified neighbour; group: one group-addressed frame to all of them, not acknowledged, not retried (004 says 'multicast')",
      "default": "unicast"
    }
)json";

}  // namespace

ControllerEntry tcc_entry() {
  ControllerEntry e;
  e.name = "tcc";
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) { return std::any(parse(r, false, ctx)); };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<MeshCongestionControl>(c, ctx); };
  e.schema = std::string(R"json({
  "description": "004: total congestion control (802.11s)",
  "properties": {
)json") + kSharedProperties + "}}";
  e.doc =
      R"md(| `tcc` | 004 Sec. 3 | `forward_share` (0.8), `congestion_threshold` (0.6), `too_short_threshold` (0.2), `too_long_threshold` (0.1), `initial_duration_s` (0.1, at most 6.5535), `increase_factor` (1.2), `decrease_factor` (0.8), `expiry_check_lead_s` (0.01, ours: 004 says "shortly before"), `notification_delivery` (`unicast`, or `group`: one unacknowledged group-addressed frame; 004 says "multicast"). Thresholds must satisfy too_long < too_short <= congestion |)md";
  return e;
}

ControllerEntry lscc_entry() {
  ControllerEntry e;
  e.name = "lscc";
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) { return std::any(parse(r, true, ctx)); };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<MeshCongestionControl>(c, ctx); };
  e.schema = std::string(R"json({
  "description": "004: link-selective congestion control (802.11s)",
  "properties": {
)json") + kSharedProperties + R"json(,
    "blocked_local_limit": {
      "type": "number",
      "description": "share of the local buffer blocked packets may use (1: no limit)",
      "exclusiveMinimum": 0,
      "maximum": 1,
      "default": 0.5
    },
    "look_ahead_threshold": {
      "type": "number",
      "description": "forwarded fill that starts look-ahead signalling (1: no look-ahead)",
      "exclusiveMinimum": 0,
      "maximum": 1,
      "default": 0.4
    },
    "look_ahead_share": {
      "type": "number",
      "description": "neighbours above this share of the buffer are signalled",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.02
    },
    "exclude_blocked_packets": {
      "type": "boolean",
      "description": "ours, outside 004: the congestion, look-ahead and renewal tests leave out the packets held for neighbours that block this station (ends congestion-control collisions)",
      "default": false
    }
}})json";
  e.doc =
      R"md(| `lscc` | 004 Sec. 4.1 | the keys of `tcc`, and `blocked_local_limit` (0.5; 1: no limit), `look_ahead_threshold` (0.4; 1: no look-ahead), `look_ahead_share` (0.02), `exclude_blocked_packets` (false; ours, outside 004: the congestion, look-ahead and renewal tests leave out packets held for neighbours that block the station) |)md";
  return e;
}

}  // namespace wmnsim::control
