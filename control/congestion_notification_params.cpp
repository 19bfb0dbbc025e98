#include "control/congestion_notification_params.hpp"

#include <string>

#include "config/limits.hpp"
#include "control/mesh_congestion_control.hpp"
#include "mac/congestion_notification.hpp"

namespace wmnsim::control {

namespace {

// The keys tcc and lscc share (004 Sec. 3), then lscc's own (Sec. 4.1).
struct CongestionNotificationKeys {
  NumberParameter forward_share;
  NumberParameter congestion_threshold;
  NumberParameter too_short_threshold;
  NumberParameter too_long_threshold;
  TimeParameter initial_duration;
  NumberParameter increase_factor;
  NumberParameter decrease_factor;
  TimeParameter expiry_check_lead;
  ChoiceParameter<RenewalCheckAt> renewal_check_at;
  ChoiceParameter<RenewalChecks> renewal_checks;
  ChoiceParameter<NotificationDelivery> delivery;
  NumberParameter blocked_local_limit;
  NumberParameter look_ahead_threshold;
  NumberParameter look_ahead_share;
  BooleanParameter exclude_blocked_packets;
};

// A share strictly between 0 and 1.
constexpr NumberRange kFraction = NumberRange::open(0, 1);
// A notification's duration field: 16 bits of 100 us (004 Sec. 3.1,
// mac/congestion_notification.hpp), in seconds: the picoseconds divided exactly.
constexpr double kMaxDurationS =
    static_cast<double>(mac::CongestionNotification::kMaxDuration.picoseconds()) / 1e12;

const CongestionNotificationKeys& congestion_notification_keys() {
  const CongestionNotificationParams d;
  static const CongestionNotificationKeys k{
      NumberParameter({.key = "forward_share",
                       .range = kFraction,
                       .fallback = d.forward_share,
                       .description = "buffer share reserved for forwarded packets",
                       .source = "004 Sec. 3.1"}),
      NumberParameter({.key = "congestion_threshold",
                       .range = kFraction,
                       .fallback = d.congestion_threshold,
                       .description = "buffer fill that signals congestion",
                       .source = "004 Sec. 3.1"}),
      NumberParameter({.key = "too_short_threshold",
                       .range = kFraction,
                       .fallback = d.too_short_threshold,
                       .description = "fill at timer expiry that lengthens the duration; at most "
                                      "congestion_threshold",
                       .source = "004 Sec. 3.1"}),
      NumberParameter({.key = "too_long_threshold",
                       .range = kFraction,
                       .fallback = d.too_long_threshold,
                       .description = "forwarded fill that shortens the duration; below too_short_threshold",
                       .source = "004 Sec. 3.1"}),
      TimeParameter({.key = "initial_duration_s",
                     .range = NumberRange::closed(kMinPeriodS, kMaxDurationS),
                     .fallback = d.initial_duration,
                     .description = "the first congestion duration",
                     .source = "004 Sec. 3.1"}),
      NumberParameter({.key = "increase_factor",
                       .range = NumberRange{1.0, 100.0, true, false},
                       .fallback = d.increase_factor,
                       .description = "the duration is multiplied by this when too short",
                       .source = "004 Sec. 3.1"}),
      NumberParameter({.key = "decrease_factor",
                       .range = kFraction,
                       .fallback = d.decrease_factor,
                       .description = "the duration is multiplied by this when too long",
                       .source = "004 Sec. 3.1"}),
      TimeParameter({.key = "expiry_check_lead_s",
                     .range = NumberRange::closed(0.0, kMaxDurationS),
                     .fallback = d.expiry_check_lead,
                     .description = "how long before a notification expires the buffer is checked (at most half "
                                    "the notification's duration is used); with renewal_check_at after_expiry, how "
                                    "long after",
                     .source = "ours: 004 Sec. 3.1 says \"shortly before\""}),
      ChoiceParameter<RenewalCheckAt>({.key = "renewal_check_at",
                                       .names = names(kRenewalCheckAts),
                                       .fallback = d.renewal_check_at,
                                       .description = "when a running notification's \"too short\" check runs: "
                                                      "expiry_check_lead_s before its expiry, at the expiry, or "
                                                      "expiry_check_lead_s after it (the notified neighbours "
                                                      "unblocked in between)",
                                       .source = "004 Sec. 3.1 (\"shortly before\") and 4.1 (\"after the "
                                                 "expiration\")"}),
      ChoiceParameter<RenewalChecks>({.key = "renewal_checks",
                                      .names = names(kRenewalChecks),
                                      .fallback = d.renewal_checks,
                                      .description = "per_neighbour: each notified neighbour's notification is "
                                                     "checked on its own timer (D can grow once per neighbour and "
                                                     "period); last_used: only the last notification sent is "
                                                     "checked, and its renewal goes to every neighbour under control "
                                                     "(D grows at most once per period)",
                                      .source = "004 Sec. 3.1 (\"the last used congestion notification expiration "
                                                "timer\")"}),
      ChoiceParameter<NotificationDelivery>({.key = "notification_delivery",
                                             .names = names(kNotificationDeliveries),
                                             .fallback = d.delivery,
                                             .description = "unicast: one acknowledged, retried frame per notified "
                                                            "neighbour; group: one group-addressed frame to all of "
                                                            "them, neither acknowledged nor retried",
                                             .source = "004 Sec. 3.2 (\"multicast\"); 802.11-2012 9.3.6"}),
      // 1 turns each remedy off (no limit on blocked local packets; no look-ahead):
      // 004's Fig. 3 buffer blocking without them.
      NumberParameter({.key = "blocked_local_limit",
                       .range = NumberRange::open_closed(0, 1),
                       .fallback = d.blocked_local_limit,
                       .description = "share of the local buffer blocked packets may use (1: no limit)",
                       .source = "004 Sec. 4.1"}),
      NumberParameter({.key = "look_ahead_threshold",
                       .range = NumberRange::open_closed(0, 1),
                       .fallback = d.look_ahead_threshold,
                       .description = "forwarded fill that starts look-ahead signalling (1: no look-ahead)",
                       .source = "004 Sec. 4.1"}),
      NumberParameter({.key = "look_ahead_share",
                       .range = kFraction,
                       .fallback = d.look_ahead_share,
                       .description = "neighbours above this share of the buffer are signalled",
                       .source = "004 Sec. 4.1"}),
      BooleanParameter({.key = "exclude_blocked_packets",
                        .fallback = d.exclude_blocked_packets,
                        .description = "the congestion, look-ahead and renewal tests leave out the packets held "
                                       "for neighbours that block this station (ends congestion-control "
                                       "collisions)",
                        .source = "ours, outside 004 (docs/reproductions/mesh-congestion.md)"}),
  };
  return k;
}

ParameterTable shared_parameters() {
  const CongestionNotificationKeys& k = congestion_notification_keys();
  return {k.forward_share,      k.congestion_threshold, k.too_short_threshold, k.too_long_threshold,
          k.initial_duration,   k.increase_factor,      k.decrease_factor,     k.expiry_check_lead,
          k.renewal_check_at,   k.renewal_checks,       k.delivery};
}

CongestionNotificationParams parse_congestion_notification(JsonReader& r, bool link_selective, ControllerParseContext& ctx) {
  const CongestionNotificationKeys& k = congestion_notification_keys();
  CongestionNotificationParams p;
  p.link_selective = link_selective;
  p.forward_share = k.forward_share.read_or(r);
  p.congestion_threshold = k.congestion_threshold.read_or(r);
  p.too_short_threshold = k.too_short_threshold.read_or(r);
  p.too_long_threshold = k.too_long_threshold.read_or(r);
  p.initial_duration = k.initial_duration.read_or(r);
  p.increase_factor = k.increase_factor.read_or(r);
  p.decrease_factor = k.decrease_factor.read_or(r);
  p.expiry_check_lead = k.expiry_check_lead.read_or(r);
  p.renewal_check_at = k.renewal_check_at.read_or(r);
  p.renewal_checks = k.renewal_checks.read_or(r);
  p.delivery = k.delivery.read_or(r);
  // 004's thresholds are ordered: too long < too short < congested.
  if (!(p.too_long_threshold < p.too_short_threshold)) {
    ctx.issues().add(r.path_of(k.too_long_threshold.key), "too_long_threshold must be below too_short_threshold");
  }
  if (!(p.too_short_threshold <= p.congestion_threshold)) {
    ctx.issues().add(r.path_of(k.too_short_threshold.key),
                     "too_short_threshold must not exceed congestion_threshold");
  }
  if (link_selective) {
    p.blocked_local_limit = k.blocked_local_limit.read_or(r);
    p.look_ahead_threshold = k.look_ahead_threshold.read_or(r);
    p.look_ahead_share = k.look_ahead_share.read_or(r);
    p.exclude_blocked_packets = k.exclude_blocked_packets.read_or(r);
  } else {
    for (const std::string* key : {&k.blocked_local_limit.key, &k.look_ahead_threshold.key, &k.look_ahead_share.key,
                                   &k.exclude_blocked_packets.key}) {
      r.forbid(*key, "applies only to \"lscc\" (TCC has no virtual buffers or look-ahead)");
    }
  }
  return p;
}

}  // namespace

ControllerEntry tcc_entry() {
  ControllerEntry e;
  e.name = "tcc";
  e.replaces_queues = true;  // the mesh buffer (link/mesh_buffer.hpp)
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) { return std::any(parse_congestion_notification(r, false, ctx)); };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<MeshCongestionControl>(c, ctx); };
  e.summary = "total congestion control (802.11s): a congested station asks its neighbours to hold their traffic "
              "for a duration it adapts; thresholds in order too_long < too_short <= congestion";
  e.source = "004 Sec. 3";
  e.parameters = shared_parameters();
  return e;
}

ControllerEntry lscc_entry() {
  const CongestionNotificationKeys& k = congestion_notification_keys();
  ControllerEntry e;
  e.name = "lscc";
  e.replaces_queues = true;  // the mesh buffer with virtual buffers per neighbour
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) { return std::any(parse_congestion_notification(r, true, ctx)); };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<MeshCongestionControl>(c, ctx); };
  e.summary = "link-selective congestion control (802.11s): tcc's notifications per link, with virtual buffers "
              "per neighbour and look-ahead signalling";
  e.source = "004 Sec. 4.1";
  e.parameters = shared_parameters().plus(
      {k.blocked_local_limit, k.look_ahead_threshold, k.look_ahead_share, k.exclude_blocked_packets});
  return e;
}

}  // namespace wmnsim::control
