#pragma once
// 004's IEEE 802.11s intra-mesh congestion control (Fu, Staehle, Pries, Staehle,
// MSWiM 2010, Sec. 3), controller types "tcc" and "lscc".
//
// Each acted-on radio gets a MeshBuffer (link/mesh_buffer.hpp: 80/20 forward/local
// split; LSCC's per-next-hop virtual FIFOs) in place of its data queue, and:
//  - detection (Sec. 3.1): congested while more than congestion_threshold (60 %)
//    of the buffer is occupied;
//  - signalling (Sec. 3.2): a Congestion Control Notification
//    (mac/congestion_notification.hpp, an Action frame at the basic rate, around
//    the data queue) carrying the congestion duration D, sent to each neighbour in
//    the routing tree (the neighbours the flows' paths, and their ACK paths,
//    cross) that is not already under a running notification. By default it is
//    sent unicast, one frame per neighbour, acknowledged and retried: 004 says
//    "multicast" but not how group frames are protected; 802.11 gives them neither
//    ACK nor retry. notification_delivery "group" sends one group-addressed frame
//    to all the neighbours notified at that instant instead;
//  - LSCC look-ahead (Sec. 3.3, 4.1): while the forwarded packets fill more than
//    look_ahead_threshold (40 %) of the buffer, each neighbour whose packets hold
//    more than look_ahead_share (2 %) of the buffer's content is notified too;
//  - adaptation (Sec. 3.1, 4.1), from the first notification on: expiry_check_lead
//    before a running notification expires (renewal_check_at: or at its expiry, or
//    expiry_check_lead after it), if at least too_short_threshold (20 %) of the
//    buffer is still occupied, D *= increase_factor (1.2) and a new notification
//    with it goes to the same neighbours. renewal_checks per_neighbour checks each
//    notified neighbour's notification on its own timer; last_used only the last
//    one sent (004 Sec. 3.1's words), whose renewal goes to every neighbour still
//    under control; after each data packet
//    leaves the buffer, if a neighbour is under control (its timer runs, or its
//    check is still to come: after_expiry's lag, last_used's earlier neighbours)
//    and the forwarded packets fill less than too_long_threshold (10 %),
//    D *= decrease_factor (0.8), a notification with timer 0 lifts the limit of
//    the neighbours whose timer still runs, and no check is left pending. (004 leaves the check's lead open;
//    it applies the decrease "each time" a packet leaves, which read literally
//    would shrink D at every packet of an uncongested station: here it applies
//    once per period, the one whose duration was too long.)
//  - rate control: a notified radio blocks data towards the notifier until the
//    notification's timer runs out (a later one replaces it, timer 0 lifts it);
//    TCC then sends no data at all (Sec. 3.2), LSCC none to the notifier
//    (Sec. 3.3). Management frames are never blocked. A frame the MAC had already
//    taken from the buffer finishes its retries.
// exclude_blocked_packets (LSCC, ours, outside 004, off by default): the congestion,
// look-ahead and renewal tests leave out the packets held for neighbours that block
// this station. Under 004's rules two stations that each hold packets for the
// other above the renewal level block each other for good (004's congestion-
// control collision, Fig. 2, in a form its Sec. 3.3 says LSCC resolves).
// One access category (004 Sec. 3.1): the durations travel in the AC_BE field,
// and the mesh buffer replaces the AC_BE queue (DCF's only one; under EDCA the
// other categories keep their queues and are not controlled).
// A station's own packets are local, a gateway's too: in 004's mesh the downlink
// flows start at the gateway, so a gateway holds them in its 20 % local part.
// The capacity is the radio's queue capacity from the scenario (/mac/queue; in
// packets, 1500 bytes each).
//
// Statistics: per radio, notifications sent (with a timer, with timer 0, by
// look-ahead; per notified neighbour, also when one group frame carries several) and received, duration changes and D over time, time blocked per
// notifying neighbour and in all (TCC: while any block stands).

#include <cstdint>
#include <memory>
#include <vector>

#include "control/congestion_notification_params.hpp"
#include "control/controller.hpp"
#include "link/mesh_buffer.hpp"

namespace wmnsim::control {

class MeshCongestionControl final : public Controller, private NodeSubscriber, private ManagementHandler {
 public:
  MeshCongestionControl(const ControllerConfig& config, ControlContext& context);
  ~MeshCongestionControl() override;

  void start() override;
  nlohmann::ordered_json statistics() const override;
  // Each radio's notification duration D now (a "duration" decision).
  void report_state() override;

  // A notification this radio sent to `radio`: it expires at `until`.
  struct Notified {
    std::uint32_t radio = 0;
    Time until;
    // When to check whether it was too short; Time::max() once checked (or lifted,
    // or for a timer of 0): no check pending.
    Time check_at = Time::max();
    bool check_pending() const { return check_at != Time::max(); }
  };
  // Blocks this radio received from `radio` (the notifier), and the time they held.
  struct BlockedBy {
    std::uint32_t radio = 0;
    Time since, until;  // the current or last block
    Time total;         // closed blocks
    Time held(Time now) const { return total + (std::min(now, until) - since); }
  };
  struct RadioState final : link::QueueObserver {
    MeshCongestionControl* owner = nullptr;
    std::uint32_t node = 0;
    mac::Mac* mac = nullptr;
    std::vector<link::MeshBuffer*> buffers;       // one per access function
    std::vector<std::uint32_t> tree_neighbours;  // radios, sorted
    Time duration;                               // D
    bool adapting = false;
    std::vector<Notified> notified;
    // renewal_checks last_used: the check of the last notification sent with a
    // timer (Time::max(): none pending).
    Time last_used_check_at = Time::max();
    EventId check;
    // The packet being forwarded onto this radio now, and the radio it came from.
    PacketId incoming = 0;
    std::uint32_t incoming_from = link::MeshBuffer::kLocal;
    bool incoming_valid = false;
    std::vector<BlockedBy> blocked_by;
    BlockedBy blocked_any;  // TCC's view: while any block stands
    // Statistics.
    std::uint64_t sent = 0, sent_zero = 0, sent_look_ahead = 0, received = 0, received_zero = 0;
    std::uint64_t increases = 0, decreases = 0, congested_detections = 0;
    std::vector<std::pair<Time, Time>> duration_series;  // (when, D)

    // A data packet left the buffer for the MAC, then the buffer's new length.
    void on_departure(Time now, const Packet& departed) override;
    void on_queue_length(Time now, std::size_t packets, std::int64_t bytes) override;
  };
  const std::vector<std::unique_ptr<RadioState>>& radios() const { return radios_; }

 private:
  void on_stop() override;
  void on_forwarded(std::uint32_t node, Packet& packet, const PrevHop& from, const NextHop& to) override;
  void on_management(std::uint32_t node, const ManagementBody& body, const PrevHop& from) override;

  // Sec. 3.1's "too long" rule, after each data packet that leaves the buffer.
  void on_departure(RadioState& s, Time now);
  // Detection and look-ahead, after every change of the buffer's length.
  void on_length(RadioState& s, Time now);
  // Why a notification is sent (statistics and the debug log).
  enum class Reason { congestion, look_ahead, renewal, lift };
  static const char* reason_name(Reason r);
  // One notification with `duration` to each of `radios` (a group frame for all of
  // them under NotificationDelivery::group).
  void notify(RadioState& s, const std::vector<std::uint32_t>& radios, Time duration, Time now, Reason reason);
  // Whether `radio` is under this radio's control: its notification's timer runs,
  // or its check has not run yet (after_expiry: the lag after expiry; last_used:
  // until the last used notification's check), so that the congestion and
  // look-ahead tests leave the decision to the check.
  bool running(const RadioState& s, std::uint32_t radio, Time now) const;
  // When the "too short" check of a notification sent at `sent_at` with `timer` runs.
  Time check_time(Time sent_at, Time timer) const;
  // (Re)schedules the station's one check event at its next pending check.
  void schedule_check(RadioState& s);
  void check_expiry(RadioState& s);
  void set_duration(RadioState& s, Time d, Time now);
  RadioState* state_of_radio(std::uint32_t radio);
  void tree_neighbours();
  std::int64_t held_bytes(const RadioState& s) const;
  std::int64_t forward_bytes(const RadioState& s) const;
  // exclude_blocked_packets: the bytes held for neighbours blocking `s` now, else 0.
  std::int64_t blocked_bytes(const RadioState& s, Time now, bool forwarded_only) const;
  std::int64_t capacity(const RadioState& s) const;

  CongestionNotificationParams params_;
  std::vector<std::unique_ptr<RadioState>> radios_;
  std::vector<std::int32_t> by_radio_;  // radio id -> index in radios_, -1 for none
};

}  // namespace wmnsim::control
