#pragma once
// The 802.11 MAC of one radio: EDCA channel access with one to four access
// categories, DCF being the one-category case (IEEE 802.11-2012 9.3 DCF, 9.19.2
// EDCA). One implementation of the channel-access rules serves both.
//
// What it does
//  - Carrier sense: physical (the radio's CCA and its own transmissions) and
//    virtual (the NAV, set from the Duration field of frames addressed to others,
//    9.3.2.4). The medium is idle only when all three are.
//  - Backoff per access function (EDCAF): a counter drawn uniformly in [0, CW-1]
//    (edca_params.hpp for the window convention), counted down one slot at a time
//    after the medium has been idle for AIFS[AC] (DIFS = AIFS with AIFSN 2), or
//    EIFS - DIFS + AIFS[AC] after an errored reception (9.3.2.3.7, 9.19.2.3);
//    frozen while the medium is busy and resumed where it stopped. The counter is
//    not advanced slot by slot: the MAC computes when it will reach zero and
//    schedules one event, and on a busy indication subtracts the whole slots that
//    elapsed (cost O(access functions) per medium transition, not per slot).
//  - Immediate access: a frame arriving at an idle EDCAF with no backoff pending
//    goes after AIFS if the medium stays idle, and draws a backoff if it is busy
//    (9.3.4.2). Post-backoff: a new backoff is drawn after every exchange, success
//    or not, whether or not more frames wait (9.3.4.3).
//  - Frame exchanges: basic access (DATA-ACK) and RTS/CTS for frames whose MPDU is
//    longer than the RTS threshold (9.3.2.6), ACK and CTS timeouts (9.3.2.8),
//    binary exponential backoff, short and long retry counts and limits (9.3.4.4),
//    group-addressed frames without ACK and without retry, responses after SIFS
//    regardless of the medium (CTS only if the NAV is clear, 9.3.2.6), duplicate
//    filtering (9.3.2.10).
//  - EDCA: four queues and EDCAFs, internal collisions won by the higher category
//    (9.19.2.3), TXOP bursting: after a successful exchange the winner may send
//    its next frame SIFS later while the TXOP limit (time or number of frames)
//    allows (9.19.2.2).
//  - Control frames (RTS, CTS, ACK) and group-addressed frames at the control rate,
//    unicast data at the link's rate.
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
//
// Slot boundaries. Two stations whose counters reach zero in the same slot both
// transmit and collide: a station cannot see a transmission that started within
// the same slot, because aSlotTime contains the CCA detection time (9.3.7). Here
// the busy indication is instantaneous, and the stations' slot boundaries differ
// by propagation delays and Duration-field rounding (well under 2 us), so a busy
// indication that starts less than half a slot before an EDCAF's access time does
// not stop it (kSameSlotGuard).
//
// Not modelled (yet): fragmentation, block ACK, the NAV reset after an RTS whose
// data never starts (9.3.2.4), PCF/HCCA, multiple protection inside a TXOP (each
// frame carries single protection, Duration = SIFS + ACK).

#include <array>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <unordered_map>

#include "core/management_body.hpp"
#include "core/block_pool.hpp"
#include "core/delay_distribution.hpp"
#include "core/packet.hpp"
#include "core/random.hpp"
#include "mac/mac_params.hpp"
#include "core/simulation.hpp"
#include "mac/access_classifier.hpp"
#include "mac/duplicate_filter.hpp"
#include "mac/edca_params.hpp"
#include "mac/frame.hpp"
#include "mac/mac_stats.hpp"
#include "mac/mac_timing.hpp"
#include "mac/mac_user.hpp"
#include "link/queue_discipline.hpp"
#include "phy/phy_listener.hpp"
#include "phy/radio.hpp"

namespace wmnsim::mac {

// The data rate towards a receiver (a radio index), or nullptr for "the control
// rate" (no usable rate known).
using DataRateFn = std::function<const phy::Mcs*(std::uint32_t to_radio)>;

struct MacConfig {
  MacType type = MacType::dcf;
  MacParams params;                      // the radio's resolved MAC parameters (scenario.hpp)
  const phy::Mcs* control_rate = nullptr;  // RTS, CTS, ACK and group-addressed frames
  DataRateFn data_rate;                  // empty: everything at the control rate
};

class Mac final : public phy::PhyListener, private QueueReadyListener {
 public:
  // The MAC registers itself as the radio's listener. `drops` receives every packet
  // the MAC or its queues give up, with the cause. Throws std::invalid_argument for
  // parameters out of range (the scenario loader has already checked them).
  Mac(Simulation& sim, phy::Radio& radio, const MacConfig& config, PacketPool& pool, DropSink& drops,
      RandomStream backoff_draws);
  ~Mac() override;
  Mac(const Mac&) = delete;
  Mac& operator=(const Mac&) = delete;

  void set_user(MacUser* user) { user_ = user; }
  void set_observer(MacObserver* observer) { observer_ = observer; }

  // Hands a packet to the MAC for Packet::next_hop_radio (kBroadcastRadio for a
  // broadcast). It goes to its category's queue, which may drop it (to `drops`).
  EnqueueResult enqueue(PacketPtr packet);

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
  std::size_t management_backlog() const { return functions_[management_index()].management.size(); }

  // ---- runtime control (controllers; also the scenario's per-node overrides) ----
  // Under DCF there is one category: every AccessCategory argument names it.
  std::size_t category_count() const { return functions_.size(); }
  const EdcaParams& params(AccessCategory ac) const { return function_for(ac).params; }
  // Takes effect at the next backoff draw; a window at its reset value becomes the
  // new cw_min, a doubled one is kept within the new bounds. Throws std::invalid_argument for aifsn < 1 or windows < 1 or
  // cw_max < cw_min.
  void set_params(AccessCategory ac, const EdcaParams& params);
  void set_cw_min(AccessCategory ac, int cw_min);
  std::optional<std::int64_t> rts_threshold() const { return rts_threshold_; }
  void set_rts_threshold(std::optional<std::int64_t> bytes) { rts_threshold_ = bytes; }
  void set_retry_limits(int short_limit, int long_limit);
  int short_retry_limit() const { return short_retry_limit_; }
  int long_retry_limit() const { return long_retry_limit_; }
  // Installs another queue discipline for a category; queued packets move over in
  // order (the new discipline may drop some). Counters start afresh. The MAC
  // listens to its notify_ready().
  void set_queue(AccessCategory ac, std::unique_ptr<QueueDiscipline> queue);
  QueueDiscipline& queue(AccessCategory ac) { return *function_for(ac).queue; }
  // The capacity the scenario gave this radio's queues (each access function's),
  // whatever discipline a controller installed since.
  const QueueLimit& queue_limit() const { return queue_limit_; }
  const QueueDiscipline& queue(AccessCategory ac) const { return *function_for(ac).queue; }
  AccessClassifier& classifier() { return classifier_; }

  // ---- observation ----
  const MacStats& stats() const { return stats_; }
  // MAC service delay of every data MPDU finished so far: from when it reached
  // the head of its queue (the later of its arrival and the end of the previous
  // frame's service at that access function) to its ACK, its end on the air
  // (broadcast) or its drop at the retry limit. Packets that expired in the queue
  // never reached service and are not counted.
  const DelayDistribution& service_delays() const { return service_delays_; }
  // MAC queueing delay of every data MPDU that reached service: from its arrival
  // in the MAC queue (Packet::queued_at) to the start of its service as
  // service_delays() counts it (so queueing + service = arrival to ACK). Counted
  // once, when the MAC takes the MPDU from its queue: an MPDU still in service when
  // the run ends is here but not yet in service_delays(); one that expired in the
  // queue is in neither.
  const DelayDistribution& queueing_delays() const { return queueing_delays_; }
  // Time the channel was busy as 003 Sec. III-A defines it for the channel
  // busyness ratio: transmitting, receiving (CCA busy) or NAV set. Up to now.
  Time channel_busy_time() const;
  // The same as ns-2's Mac802_11 counts it (!is_idle(), mac-802_11.cc): tx_state_
  // from each transmission's start until ns-2's send timer would fire (the wait for
  // CTS or ACK, and a CTS sender's wait until the DATA's end), whatever our own
  // response timeout does; a reception or carrier; the NAV, which ns-2 also sets
  // for EIFS after a collided or errored frame, and for EIFS past the end of a frame
  // ignored by capture (ns2 reception model). Accounting only: no event depends on
  // it. 003 measured its ratio in ns-2 (Sec. IV); the wccp controller's busy_time
  // "ns2" reads this one.
  Time ns2_busy_time() const;
  const MacTiming& timing() const { return timing_; }
  std::uint32_t address() const { return radio_.id(); }
  phy::Radio& radio() { return radio_; }
  int current_cw(AccessCategory ac) const { return function_for(ac).cw; }
  Time nav_end() const { return nav_end_; }
  MacType type() const { return type_; }

  // PhyListener
  void on_cca_busy() override;
  void on_cca_idle() override;
  void on_tx_start(const phy::PhyFrame& frame) override;
  void on_tx_end() override;
  void on_rx_end(const phy::PhyFrame& frame, phy::RxOutcome outcome, const phy::RxInfo& info) override;
  bool wants_min_sinr() const override;  // for the debug log only
  void on_rx_ignored(const phy::PhyFrame& frame) override;

 private:
  // A management frame to send: its body and receiver (a radio, or broadcast).
  struct Management {
    std::shared_ptr<const ManagementBody> body;
    std::uint32_t receiver = kBroadcastRadio;
  };

  struct AccessFunction {
    AccessCategory ac = AccessCategory::ac_be;
    EdcaParams params;
    std::unique_ptr<QueueDiscipline> queue;
    int cw = 0;
    bool counting = false;      // a backoff (possibly of 0 slots) is pending
    int backoff_slots = 0;      // slots left when counting
    bool draw_on_busy = false;  // immediate access: a busy medium before AIFS draws a backoff
    bool committed = false;     // its access time is too close to a busy start to stop
    Time eligible_from;         // counting may not start before this (after a timeout)
    Time access_at = Time::max();
    // The shaping discipline holds every frame back: not contending until its
    // ready_at (ready_timer) or its notify_ready().
    bool held = false;
    EventId ready_timer{};
    // Management frames waiting (only at the management function), before the queue.
    // A list: rare, and an empty one allocates nothing (a deque takes over 512 B at once).
    std::list<Management> management;
    // The MPDU being sent, kept until it is acknowledged or dropped: a data packet
    // or (mgmt.body set) a management frame.
    PacketPtr packet;
    Management mgmt;
    std::uint16_t sequence = 0;
    bool sent_once = false;  // DATA transmitted at least once: retransmissions set Retry
    int short_retries = 0;   // SRC (QSRC[AC])
    int long_retries = 0;    // LRC (QLRC[AC])
    Time service_start;      // the data MPDU reached the head of the queue
    Time last_service_end;   // the previous MPDU (data or management) was done

    bool has_mpdu() const { return packet != nullptr || mgmt.body != nullptr; }
    // (Data first: the common case decides on the first two tests.)
    bool has_frame() const {
      return packet != nullptr || !queue->empty() || mgmt.body != nullptr || !management.empty();
    }
    // A frame that can go now: a shaping discipline may hold its head back.
    bool has_frame_ready(Time now) const {
      return packet != nullptr || queue->ready_at(now) <= now || mgmt.body != nullptr || !management.empty();
    }
  };

  // The MPDU a function sends (or would send next): where to, its size, its airtime.
  struct MpduInfo {
    std::uint32_t receiver = kBroadcastRadio;
    std::uint32_t bytes = 0;
    Time airtime;
  };

  // A frame exchange in progress; the MAC runs one at a time (half duplex).
  enum class Awaiting : std::uint8_t { nothing, cts, ack };
  // What goes on the air SIFS after the previous frame.
  enum class SifsAction : std::uint8_t { none, ack, cts, data_after_cts, txop_next };
  // What the radio is sending now.
  // mpdu_*: the exchange's DATA or management frame.
  enum class Sending : std::uint8_t { nothing, rts, mpdu_unicast, mpdu_broadcast, ack, cts };

  AccessFunction& function_for(AccessCategory ac);
  const AccessFunction& function_for(AccessCategory ac) const;
  std::size_t index_for(AccessCategory ac) const;
  std::size_t management_index() const;
  bool in_exchange(const AccessFunction& f) const { return exchange_ && &functions_[*exchange_] == &f; }

  // Contention for frames that became sendable.
  void on_queue_ready(QueueDiscipline& queue) override;
  // A frame for an idle function: access after AIFS, or a backoff if busy (9.3.4.2).
  void start_access(AccessFunction& f, Time now);
  // Nothing can go yet: stop contending until ready_at() or notify_ready().
  void hold(AccessFunction& f, Time now);
  // A held function whose frame can go now contends again.
  void release_if_ready(AccessFunction& f);

  // Medium state.
  bool nav_set() const;
  bool exchange_active() const;
  bool medium_busy() const;
  void refresh_medium();
  void on_medium_busy(Time now);
  void on_medium_idle();
  void schedule_access(AccessFunction& f);
  Time defer_for(const AccessFunction& f) const;
  void reschedule_access_timer();
  void on_access_timer();
  void set_nav(Time until);
  // What makes the channel busy for the busy-time counters: the PHY, our own
  // transmission, the NAV (not our exchange's gaps).
  bool channel_cause() const;
  void account_channel_busy(bool busy);
  void account_ns2_busy();
  void account_ns2_busy(bool cause);
  void arm_ns2_send_timer(Sending what, Time airtime, Time duration_field);
  void stop_ns2_send_timer();

  // Backoff.
  void draw_backoff(AccessFunction& f, Time now);

  // Sending.
  void start_txop(std::size_t index);
  void send_mpdu(std::size_t index);
  void load_next_mpdu(AccessFunction& f);
  // mac.dequeue "after_exchange": takes the next frame now if the function has none.
  void take_next_early(AccessFunction& f);
  bool needs_rts(const AccessFunction& f) const;
  void send_rts(std::size_t index);
  void send_data(std::size_t index);
  void send_management_frame(std::size_t index);
  // The exchange's MPDU (after the RTS/CTS, if any): data or management.
  void send_loaded(std::size_t index);
  MpduInfo loaded_mpdu(const AccessFunction& f);
  // What load_next_mpdu() would take; f must have a frame ready.
  MpduInfo next_mpdu(const AccessFunction& f);
  MpduInfo data_mpdu(const Packet& p);
  MpduInfo management_mpdu(const Management& m) const;
  bool long_mpdu(const MpduInfo& m) const { return rts_threshold_ && m.bytes > *rts_threshold_; }
  std::shared_ptr<Frame> new_frame();
  void send_frame(std::shared_ptr<Frame> frame, const phy::Mcs& rate, Sending what);
  void schedule_sifs(SifsAction action);
  void on_sifs();
  const phy::Mcs& rate_to(std::uint32_t radio);
  std::uint32_t data_mpdu_bytes(const Packet& p) const;
  Time data_airtime(const Packet& p);
  bool txop_allows_next(AccessFunction& f);
  // Drops the packets at the head of f's queue that outlived queue_lifetime_.
  void drop_expired(AccessFunction& f, Time now);

  // Outcomes.
  void on_response_timeout();
  void exchange_succeeded();
  void exchange_failed();
  void retry_or_drop(AccessFunction& f, bool long_frame);
  void finish_exchange(AccessFunction& f);

  // Receiving.
  void handle_frame(const Frame& frame);
  void receive_management(const Frame& frame);

  Simulation& sim_;
  Scheduler& scheduler_;
  phy::Radio& radio_;
  MacType type_;
  MacTiming timing_;
  PacketPool& pool_;
  BlockPool& frame_pool_;  // the medium's (new_frame())
  DropSink& drops_;
  RandomStream backoff_draws_;
  DataRateFn data_rate_;
  std::unordered_map<std::uint32_t, const phy::Mcs*> rate_cache_;
  MacUser* user_ = nullptr;
  MacObserver* observer_ = nullptr;
  AccessClassifier classifier_;
  DuplicateFilter duplicates_;
  std::vector<AccessFunction> functions_;  // by priority: index 0 lowest; DCF: one
  std::optional<std::int64_t> rts_threshold_;
  Deferral deferral_;
  Dequeue dequeue_;
  int short_retry_limit_;
  int long_retry_limit_;
  std::optional<Time> queue_lifetime_;  // empty: packets wait in the queue for ever
  QueueLimit queue_limit_;
  std::uint16_t next_sequence_ = 0;

  // Medium.
  bool phy_busy_ = false;
  bool busy_ = false;  // medium_busy() at the last refresh
  Time idle_since_;
  bool use_eifs_ = false;
  Time nav_end_;
  EventId nav_timer_{};
  EventId access_timer_{};
  Time access_timer_at_ = Time::max();
  // Channel busyness (003): transmitting, CCA busy or NAV.
  bool channel_busy_ = false;
  Time channel_busy_since_;
  Time channel_busy_total_;
  // ns-2's busy (ns2_busy_time): a busy period from ns2_busy_since_ lasting until
  // ns2_busy_until_ (Time::max() while a cause lasts, else the later deadline below).
  bool ns2_busy_ = false;
  Time ns2_busy_since_;
  Time ns2_busy_until_;
  Time ns2_busy_total_;
  // account_ns2_busy's inputs at its last call (-1 ps: none yet).
  bool ns2_last_cause_ = false;
  Time ns2_last_deadline_ = Time::ps(-1);
  // When ns-2's send timer (mhSend_) would fire: its tx_state_ is not idle until then.
  Time ns2_send_until_;
  bool ns2_cts_wait_ = false;  // that timer covers a CTS's wait for the DATA
  // When ns-2's NAV set for EIFS (recv_timer, capture) would end. A deadline, armed
  // once per lost or ignored frame: unlike use_eifs_, later idle periods do not renew it.
  Time ns2_nav_until_;

  // Exchange.
  std::optional<std::size_t> exchange_;  // index of the EDCAF holding the TXOP
  Awaiting awaiting_ = Awaiting::nothing;
  bool timeout_passed_ = false;  // the timeout fired while a reception was under way
  // When the awaited response's window opened (the end of the frame that asked for
  // it): only a reception that began after it can be the response (9.3.2.8).
  Time response_window_start_;
  EventId response_timer_{};
  SifsAction sifs_action_ = SifsAction::none;
  EventId sifs_timer_{};
  std::shared_ptr<Frame> sifs_frame_;  // the ACK or CTS to send
  Sending sending_ = Sending::nothing;
  bool sent_rts_ = false;  // the current exchange began with RTS/CTS
  Time txop_end_;
  std::int64_t txop_frames_ = 0;

  MacStats stats_;
  DelayDistribution service_delays_;
  DelayDistribution queueing_delays_;
};

// A busy indication this close before an access time does not stop it (see above).
constexpr Time same_slot_guard(Time slot) { return slot / 2; }

}  // namespace wmnsim::mac
