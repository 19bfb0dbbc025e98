#pragma once
// The 802.11 MAC of one radio: EDCA channel access with one to four access
// categories, DCF being the one-category case (IEEE 802.11-2012 9.3 DCF, 9.19.2
// EDCA). One implementation of the channel-access rules serves both.
//
// The MAC composes the standard's functions, each in a header of its own (as ns-3's
// Txop, ChannelAccessManager and FrameExchangeManager):
//  - access_function.hpp: one per access category (DCF: one), its queue and
//    management FIFO, backoff counter, CW and retry counts;
//  - channel_access.hpp: the medium state (CCA, own transmission, NAV), AIFS/EIFS,
//    the backoff countdown and slot boundaries, one access timer;
//  - frame_exchange.hpp: RTS/CTS/DATA/ACK sequences, TXOP bursting, responses after
//    SIFS, timeouts, retries and drops, duplicate filtering;
//  - busy_time_meter.hpp: the channel busy time as 003 and as ns-2 count it.
// The MAC itself admits frames to the queues (the classifier, Table 9-1), starts an
// idle function's access when a frame comes (9.3.4.2), holds a function whose
// shaping queue holds its head back, and grants the access when a counter reaches
// zero: the highest category with a frame wins, the others suffer an internal
// collision (9.19.2.3).
//
//  - Immediate access: a frame arriving at an idle EDCAF with no backoff pending
//    goes after AIFS if the medium stays idle, and draws a backoff if it is busy
//    (9.3.4.2). Post-backoff: a new backoff is drawn after every exchange, success
//    or not, whether or not more frames wait (9.3.4.3).
//  - Queues that shape (link/queue_discipline.hpp): a function whose head is held back
//    stops contending; it contends again, as a function receiving a frame while
//    idle does (9.3.4.2), at the discipline's ready_at() or when the discipline
//    calls notify_ready(), whichever comes first.
//  - Management frames (send_management): Action frames with a typed body, in a
//    small FIFO of their own served before the data queue of one access function
//    (AC_VO under EDCA, IEEE 802.11ae-2012 4.5.6.2; DCF's only one), so that no
//    data queue discipline holds them back. They contend, are acknowledged and
//    retried like data, at the control rate, and go up to the MacUser apart
//    from data (on_management_receive).
//  - Control frames (RTS, CTS, ACK) and group-addressed frames at the control rate,
//    unicast data at the link's rate.
//
// Not modelled (yet): fragmentation, block ACK, the NAV reset after an RTS whose
// data never starts (9.3.2.4), PCF/HCCA, multiple protection inside a TXOP (each
// frame carries single protection, Duration = SIFS + ACK).

#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <vector>

#include "core/delay_distribution.hpp"
#include "core/management_body.hpp"
#include "core/packet.hpp"
#include "core/random.hpp"
#include "core/simulation.hpp"
#include "link/queue_discipline.hpp"
#include "mac/access_classifier.hpp"
#include "mac/access_function.hpp"
#include "mac/busy_time_meter.hpp"
#include "mac/channel_access.hpp"
#include "mac/edca_params.hpp"
#include "mac/frame.hpp"
#include "mac/frame_exchange.hpp"
#include "mac/mac_params.hpp"
#include "mac/mac_stats.hpp"
#include "mac/mac_timing.hpp"
#include "mac/mac_user.hpp"
#include "mac/radio_port.hpp"
#include "phy/phy_listener.hpp"
#include "phy/radio.hpp"

namespace wmnsim::mac {

struct MacConfig {
  MacType type = MacType::dcf;
  MacParams params;                      // the radio's resolved MAC parameters (scenario.hpp)
  const phy::Mcs* control_rate = nullptr;  // RTS, CTS, ACK and group-addressed frames
  DataRateFn data_rate;                  // empty: everything at the control rate
  // What the MACs whose radios have the same profile share (frame_exchange.hpp):
  // their scheduler, profile, timing (mac_timing(profile, control rate)), packet
  // and frame pools and data rates, made once rather than copied into each (issue
  // 43 §3, memory per node). When set, control_rate and data_rate are not read.
  // Empty: the MAC makes its own from them.
  std::shared_ptr<const MacContext> context;
};

class Mac final : public phy::PhyListener, private link::QueueReadyListener, private ChannelAccess::Owner {
 public:
  // The MAC registers itself as the radio's listener. `drops` receives every packet
  // the MAC or its queues give up, with the cause. Throws std::invalid_argument for
  // parameters out of range (the scenario loader has already checked them).
  // `backoff_draws` must keep no spare normal (RandomStream::uniform_part): the
  // backoffs draw uniforms only.
  Mac(Simulation& sim, phy::Radio& radio, const MacConfig& config, PacketPool& pool, DropSink& drops,
      RandomStream backoff_draws);
  ~Mac() override;
  Mac(const Mac&) = delete;
  Mac& operator=(const Mac&) = delete;

  void set_user(MacUser* user) { exchange_.set_user(user); }
  // Frame observers (mac_user.hpp), any number, told in the order they subscribed;
  // not from inside an observer's call (std::logic_error, core/subscriber_list.hpp).
  void subscribe(MacObserver& observer) { exchange_.subscribe(observer); }
  void unsubscribe(MacObserver& observer) { exchange_.unsubscribe(observer); }

  // Hands a packet to the MAC for Packet::next_hop_radio (kBroadcastRadio for a
  // broadcast). It goes to its category's queue, which may drop it (to `drops`).
  link::EnqueueResult enqueue(PacketPtr packet);

  // Sends a management (Action) frame carrying `body` to the radio `receiver`
  // (kBroadcastRadio: every neighbour, once, no ACK). It waits in the management
  // FIFO of its access function (management_category()), served before that
  // function's data queue, and is never dropped there; a unicast one is retried up
  // to the retry limit (MacStats::mgmt_drops_retry_limit). Frames of one MAC leave
  // in the order they were given.
  void send_management(std::shared_ptr<const ManagementBody> body, std::uint32_t receiver);
  // The category whose access function sends management frames (AC_VO; DCF: its one).
  AccessCategory management_category() const;
  // Management frames waiting, the one being sent not included.
  std::size_t management_backlog() const {
    const auto& waiting = functions_[management_index()].management;
    return static_cast<std::size_t>(std::distance(waiting.begin(), waiting.end()));
  }

  // ---- runtime control (controllers; also the scenario's per-node overrides) ----
  // Under DCF there is one category: every AccessCategory argument names it.
  std::size_t category_count() const { return functions_.size(); }
  const EdcaParams& params(AccessCategory ac) const { return function_for(ac).params; }
  // Takes effect at the next backoff draw; a window at its reset value becomes the
  // new cw_min, a doubled one is kept within the new bounds. Throws std::invalid_argument for aifsn < 1 or windows < 1 or
  // cw_max < cw_min.
  void set_params(AccessCategory ac, const EdcaParams& params);
  void set_cw_min(AccessCategory ac, int cw_min);
  std::optional<std::int64_t> rts_threshold() const { return exchange_.rts_threshold(); }
  void set_rts_threshold(std::optional<std::int64_t> bytes) { exchange_.set_rts_threshold(bytes); }
  void set_retry_limits(int short_limit, int long_limit) { exchange_.set_retry_limits(short_limit, long_limit); }
  int short_retry_limit() const { return exchange_.short_retry_limit(); }
  int long_retry_limit() const { return exchange_.long_retry_limit(); }
  // Installs another queue discipline for a category; queued packets move over in
  // order (the new discipline may drop some). Counters start afresh. The MAC
  // listens to its notify_ready().
  void set_queue(AccessCategory ac, std::unique_ptr<link::QueueDiscipline> queue);
  link::QueueDiscipline& queue(AccessCategory ac) { return *function_for(ac).queue; }
  // The capacity the scenario gave this radio's queues (each access function's),
  // whatever discipline a controller installed since.
  link::QueueLimit queue_limit() const { return {queue_unit_, queue_capacity_}; }
  const link::QueueDiscipline& queue(AccessCategory ac) const { return *function_for(ac).queue; }
  AccessClassifier& classifier() { return classifier_; }

  // ---- observation ----
  // A copy: the counters live in the exchange's records, allocated with the MAC's
  // first traffic (frame_exchange.hpp, TrafficRecords).
  MacStats stats() const { return exchange_.stats(); }
  // Whether those records exist: the MAC has sent, taken or been sent a frame.
  bool holds_traffic_records() const { return exchange_.holds_records(); }
  // MAC service delay of every data MPDU finished so far: from when it reached
  // the head of its queue (the later of its arrival and the end of the previous
  // frame's service at that access function) to its ACK, its end on the air
  // (broadcast) or its drop at the retry limit. Packets that expired in the queue
  // never reached service and are not counted.
  const DelayDistribution& service_delays() const { return exchange_.service_delays(); }
  // MAC queueing delay of every data MPDU that reached service: from its arrival
  // in the MAC queue (Packet::queued_at) to the start of its service as
  // service_delays() counts it (so queueing + service = arrival to ACK). Counted
  // once, when the MAC takes the MPDU from its queue: an MPDU still in service when
  // the run ends is here but not yet in service_delays(); one that expired in the
  // queue is in neither.
  const DelayDistribution& queueing_delays() const { return exchange_.queueing_delays(); }
  // Time the channel was busy as 003 Sec. III-A defines it for the channel
  // busyness ratio: transmitting, receiving (CCA busy) or NAV set. Up to now.
  Time channel_busy_time() const { return meter_.channel_busy_time(scheduler_.now()); }
  // The same as ns-2's Mac802_11 counts it (busy_time_meter.hpp). Accounting only:
  // no event depends on it. 003 measured its ratio in ns-2 (Sec. IV); the wccp
  // controller's busy_time "ns2" reads this one.
  Time ns2_busy_time() const { return meter_.ns2_busy_time(scheduler_.now()); }
  const MacTiming& timing() const { return context_->timing; }
  std::uint32_t address() const { return radio_.id(); }
  phy::Radio& radio() { return radio_; }
  int current_cw(AccessCategory ac) const { return function_for(ac).cw; }
  Time nav_end() const { return access_.nav_end(); }
  MacType type() const { return type_; }

  // PhyListener
  void on_cca_busy() override { access_.set_phy_busy(true); }
  void on_cca_idle() override { access_.set_phy_busy(false); }
  void on_tx_start(const phy::PhyFrame& /*frame*/) override {
    access_.set_transmitting(true);
    access_.refresh();
  }
  void on_tx_end() override {
    access_.set_transmitting(false);
    exchange_.on_tx_end();
  }
  void on_rx_end(const phy::PhyFrame& frame, phy::RxOutcome outcome, const phy::RxInfo& info) override {
    exchange_.on_rx_end(frame, outcome, info);
  }
  bool wants_min_sinr() const override;  // for the debug log only
  void on_rx_ignored(const phy::PhyFrame& frame) override;

 private:
  AccessFunction& function_for(AccessCategory ac);
  const AccessFunction& function_for(AccessCategory ac) const;
  std::size_t index_for(AccessCategory ac) const;
  std::size_t management_index() const;
  // `drops` takes the queues' drops (the MAC keeps no reference of its own).
  std::vector<AccessFunction> make_functions(const MacConfig& config, DropSink& drops);

  // Contention for frames that became sendable.
  void on_queue_ready(link::QueueDiscipline& queue) override;
  // A frame for an idle function: access after AIFS, or a backoff if busy (9.3.4.2).
  void start_access(AccessFunction& f, Time now);
  // Nothing can go yet: stop contending until ready_at() or notify_ready().
  void hold(AccessFunction& f, Time now);
  // A held function whose frame can go now contends again.
  void release_if_ready(AccessFunction& f);

  // ChannelAccess::Owner
  bool exchange_active() const override { return exchange_.active(); }
  bool delivering_reception() const override { return exchange_.delivering(); }
  // Grants the access of every function whose counter reached zero now.
  void on_access_time(Time now) override;

  friend struct MacLayout;  // tests/mac/test_mac_layout.cpp: where the hot fields lie

  Scheduler& scheduler_;
  phy::Radio& radio_;
  MacType type_;
  // The queue limit in two fields, its unit beside the type in 8 B that padding
  // took (issue 43 §3, memory per node): queue_limit() puts them together.
  link::QueueLimit::Unit queue_unit_;
  std::shared_ptr<const MacContext> context_;  // never empty
  AccessClassifier classifier_;
  std::int64_t queue_capacity_;
  std::vector<AccessFunction> functions_;  // by priority: index 0 lowest; DCF: one
  PhyRadioPort port_;
  // What a change of the medium (on_cca_busy, on_cca_idle, the NAV's end) and an
  // overheard frame's end (on_rx_end) read, in one stretch (issue 43 §2,
  // docs/performance.md "The MAC laid out by use"): channel access's members for
  // them (its last), the meter, the frame exchange's for them (its first). Channel
  // access is built before the meter it refers to and reads nothing of it until
  // the MAC is built, nor in its destructor (the meter is destroyed first). tests/mac/test_mac_layout.cpp keeps them together.
  ChannelAccess access_;
  BusyTimeMeter meter_;
  FrameExchange exchange_;
};

}  // namespace wmnsim::mac
