#pragma once
// The parameters of 004's 802.11s congestion control, TCC and LSCC (control/mesh_congestion_control.hpp).

#include <array>

#include "core/enum_names.hpp"
#include "core/time.hpp"
#include "control/controller_entry.hpp"
#include "link/mesh_buffer.hpp"

namespace wmnsim {

// How a notification reaches its neighbours: one acknowledged, retried frame per
// neighbour (unicast), or one group-addressed frame to all of them, neither
// acknowledged nor retried (IEEE 802.11-2012 9.3.6: group frames get no ACK; 004
// Sec. 3.2 says "multicast").
enum class NotificationDelivery { unicast, group };
inline constexpr std::array<EnumName<NotificationDelivery>, 2> kNotificationDeliveries{
    {{"unicast", NotificationDelivery::unicast}, {"group", NotificationDelivery::group}}};

// When the "too short" check of a running notification runs (004 names two
// instants): before its expiry by expiry_check_lead (Sec. 3.1: "shortly before
// the last used congestion notification expiration timer expires"), at the expiry
// itself, or expiry_check_lead after it (Sec. 4.1: "after the expiration of the
// timer"), so that the notified neighbours are unblocked in between.
enum class RenewalCheckAt { before_expiry, at_expiry, after_expiry };
inline constexpr std::array<EnumName<RenewalCheckAt>, 3> kRenewalCheckAts{
    {{"before_expiry", RenewalCheckAt::before_expiry},
     {"at_expiry", RenewalCheckAt::at_expiry},
     {"after_expiry", RenewalCheckAt::after_expiry}}};

// Which notifications are checked: each notified neighbour's on its own timer, so
// that D can grow once per neighbour and period; or, in 004's words (Sec. 3.1),
// only "the last used" notification's, one check (and at most one increase of D)
// per period, whose renewal goes to every neighbour still under control.
enum class RenewalChecks { per_neighbour, last_used };
inline constexpr std::array<EnumName<RenewalChecks>, 2> kRenewalChecks{
    {{"per_neighbour", RenewalChecks::per_neighbour}, {"last_used", RenewalChecks::last_used}}};

// 004: IEEE 802.11s intra-mesh congestion control, TCC or (link_selective) LSCC.
// The buffer's keys default to the mesh buffer's own (link/mesh_buffer.hpp).
struct CongestionNotificationParams {
  bool link_selective = false;
  double forward_share = link::MeshBufferParams{}.forward_share;  // buffer share reserved for forwarded packets
  double congestion_threshold = 0.6;  // buffer fill that signals congestion
  double too_short_threshold = 0.2;   // fill at timer expiry that lengthens the duration
  double too_long_threshold = 0.1;    // forwarded fill that shortens it
  Time initial_duration = Time::ms(100);
  double increase_factor = 1.2;
  double decrease_factor = 0.8;
  // How long before (or, with after_expiry, after) a notification's expiry the
  // station checks its buffer (004 Sec. 3.1: "shortly before"; the value is ours,
  // see docs/controllers.md).
  Time expiry_check_lead = Time::ms(10);
  RenewalCheckAt renewal_check_at = RenewalCheckAt::before_expiry;
  RenewalChecks renewal_checks = RenewalChecks::per_neighbour;
  NotificationDelivery delivery = NotificationDelivery::unicast;
  // lscc only
  // share of the local buffer blocked packets may use
  double blocked_local_limit = link::MeshBufferParams{}.blocked_local_limit;
  double look_ahead_threshold = 0.4;  // forwarded fill that starts look-ahead signalling
  double look_ahead_share = 0.02;     // neighbours above this share of the buffer are signalled
  // Ours, outside 004 (default off): the congestion, look-ahead and renewal tests
  // leave out the packets held for neighbours that block this station, which no
  // notification of its own can drain; this ends congestion-control collisions
  // (docs/reproductions/mesh-congestion.md, "Why LSCC loses").
  bool exclude_blocked_packets = false;
};

namespace control {
// Its registry entry (control/controller_registry.hpp): parse, schema, doc, build
// (control/mesh_congestion_control.hpp).
ControllerEntry tcc_entry();
ControllerEntry lscc_entry();
}  // namespace control

}  // namespace wmnsim
