#pragma once
// Frame exchange (IEEE 802.11-2012 9.3.2, 9.19.2.2): the frame sequences of one MAC,
// one at a time (half duplex), once channel access has granted a function its TXOP.
//
//  - Sequences: basic access (DATA-ACK) and RTS-CTS-DATA-ACK for individually
//    addressed frames whose MPDU is longer than the RTS threshold (9.3.2.6);
//    group-addressed frames without ACK and without retry. The same for management
//    (Action) frames, at the control rate.
//  - Timeouts (9.3.2.8): the CTS or ACK must start within SIFS + slot +
//    PHY-RX-START delay of the frame's end; a reception that started in time
//    decides at its end. Any other frame while a response is awaited fails it.
//  - Outcomes: a success resets the function's counts and CW; a failure charges the
//    short or long retry count and doubles CW, the frame given up at the limit
//    (9.3.4.4); a new backoff follows every exchange (post-backoff, 9.3.4.3).
//  - TXOP bursting (9.19.2.2): after a success the same function sends its next
//    frame SIFS later while the TXOP limit (time or number of frames) allows.
//  - Responses: an ACK after SIFS for individually addressed data and management
//    frames, regardless of the medium; a CTS only if the NAV is clear (9.3.2.6);
//    duplicate filtering (9.3.2.10). A frame for someone else sets the NAV (9.3.2.4).
//  - Under `mac.deferral: "ns2"` three of ns-2's Mac802_11 rules instead (001 and
//    003 ran it; docs/mac.md): the CTS is decided SIFS after the RTS, when it would
//    be sent, and refused if the medium is not idle then (NAV, or a frame being
//    received); no DATA after a CTS if the medium is not idle SIFS later (the window
//    widens, no retry is counted, and a new RTS follows a backoff); and a CTS or ACK
//    wait ends only with the response or ns-2's send timer (an errored frame, a
//    frame for another station, or one still being received does not end or extend
//    it); an RTS is refused while the station's own send timer runs.
//  - MPDUs: which frame a function sends next (management first, then its queue),
//    its sequence number, its rate, the queue lifetime, and the MAC service and
//    queueing delays.
//
// Not modelled: fragmentation, block ACK, multiple protection inside a TXOP (each
// frame carries single protection, Duration = SIFS + ACK).
//
// Cost: O(1) per frame, plus the access functions' queue operations.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>

#include "core/block_pool.hpp"
#include "core/delay_distribution.hpp"
#include "core/packet.hpp"
#include "core/scheduler.hpp"
#include "core/subscriber_list.hpp"
#include "mac/access_function.hpp"
#include "mac/busy_time_meter.hpp"
#include "mac/channel_access.hpp"
#include "mac/duplicate_filter.hpp"
#include "mac/frame.hpp"
#include "mac/mac_params.hpp"
#include "mac/mac_stats.hpp"
#include "mac/mac_timing.hpp"
#include "mac/mac_user.hpp"
#include "mac/radio_port.hpp"
#include "phy/phy_listener.hpp"
#include "phy/profile.hpp"

namespace wmnsim::mac {

// The data rate from a sender to a receiver (radio indices), or nullptr for "the
// control rate" (no usable rate known). One function serves every MAC of a
// profile (MacContext), so it is told the sender.
using DataRateFn = std::function<const phy::Mcs*(std::uint32_t from_radio, std::uint32_t to_radio)>;

// What the MACs of radios with one profile have in common, made once per profile
// (build_macs) and referred to by each MAC and its frame exchange rather than
// held in each (issue 43 §3, memory per node). Outlives the MACs.
struct MacContext {
  Scheduler& scheduler;
  const phy::PhyProfile& profile;
  MacTiming timing;  // mac_timing(profile, the control rate)
  PacketPool& pool;
  BlockPool& frame_pool;  // the medium's: frames live as long as it holds them
  DataRateFn data_rate;   // empty: everything at the control rate
};

struct FrameExchangeConfig {
  MacType type = MacType::dcf;  // DATA (dcf) or QoS DATA (edca) frames
  std::optional<std::int64_t> rts_threshold;
  int short_retry_limit = 7;
  int long_retry_limit = 4;
  Dequeue dequeue = Dequeue::at_access;
  std::optional<Time> queue_lifetime;  // empty: packets wait in the queue for ever
  QueueLifetimeRule queue_lifetime_rule = QueueLifetimeRule::when_taken;  // whether it reaches a frame taken
  Deferral deferral = Deferral::standard;  // ns2: ns-2's response rules too (above)
  RetryCounts retry_counts = RetryCounts::reset_on_cts;  // which counts give an RTS-protected frame up
};

// Throws std::invalid_argument for retry limits below 1 attempt or above 255, the
// range of dot11ShortRetryLimit and dot11LongRetryLimit (IEEE 802.11-2012 Annex C,
// INTEGER (1..255); the scenario schema's too): an access function counts its
// retries in a byte (access_function.hpp).
inline constexpr int kMaxRetryLimit = 255;
void check_retry_limits(int short_limit, int long_limit);

// What a frame exchange keeps about the frames its radio sends and receives: the
// data rate looked up per receiver, the duplicate cache, EDCA's sequence counters,
// the delay records and the MAC's counters. Apart from the rest of the exchange,
// allocated when first needed: in a large network with few flows most radios never
// send a data or management frame nor receive one addressed to them (they relay no
// flow), and such a radio holds one null pointer instead of these 440 bytes (issue
// 43 §3, docs/performance.md "Memory per node"). The one counter such a radio
// moves, rx_errors (a frame it locked onto and lost), is kept apart
// (FrameExchange::rx_errors_), so overhearing allocates nothing.
struct TrafficRecords {
  std::unordered_map<std::uint32_t, const phy::Mcs*> rate_cache;  // by receiving radio
  DuplicateFilter duplicates;
  std::unordered_map<std::uint64_t, std::uint16_t> qos_sequences;  // by (receiver, category): EDCA's unicast data
  DelayDistribution service_delays;
  DelayDistribution queueing_delays;
  MacStats stats;  // but its rx_errors (FrameExchange::stats() adds it)
};

// The parts of the MAC a frame exchange works with; all outlive it.
struct FrameExchangeParts {
  const MacContext& context;  // the scheduler, profile, timing, pools and data rates
  ContextId node;
  std::uint32_t address;  // the radio's id
  RadioPort& radio;
  ChannelAccess& access;
  BusyTimeMeter& meter;
  std::span<AccessFunction> functions;
  DropSink& drops;
};

class FrameExchange {
 public:
  FrameExchange(const FrameExchangeParts& parts, const FrameExchangeConfig& config);
  ~FrameExchange();
  FrameExchange(const FrameExchange&) = delete;
  FrameExchange& operator=(const FrameExchange&) = delete;

  void set_user(MacUser* user) { user_ = user; }
  // Frame observers (mac_user.hpp), any number (core/subscriber_list.hpp).
  void subscribe(MacObserver& observer) { observers_.subscribe(observer); }
  void unsubscribe(MacObserver& observer) { observers_.unsubscribe(observer); }

  // ---- what channel access and the MAC ask ----
  // A SIFS gap, a response awaited or a frame on the air.
  bool active() const {
    return awaiting_ != Awaiting::nothing || sifs_action_ != SifsAction::none || sending_ != Sending::nothing;
  }
  bool in_exchange(const AccessFunction& f) const { return exchange_ && &functions_[*exchange_] == &f; }
  // A received frame's payload is being handed up (ChannelAccess::Owner::delivering_reception).
  bool delivering() const { return delivering_; }
  // Channel access granted functions_[index] its TXOP now: it sends its frame.
  void start_txop(std::size_t index);
  // f lost an internal collision (9.19.2.3): its frame is charged the retry.
  void internal_collision(AccessFunction& f);
  // Drops the packets at the head of f's queue that outlived the queue lifetime, and
  // under QueueLifetimeRule::ns3 first f's frame in service if it has (at an access);
  // under QueueLifetimeRule::standard only f's frame in service, its lifetime counted
  // from its first attempt. Returns whether it dropped any.
  bool drop_expired(AccessFunction& f, Time now);
  bool queue_lifetime_ns3() const { return queue_lifetime_rule_ == QueueLifetimeRule::ns3; }
  // Dequeue::after_exchange: takes f's next frame now if it has none.
  void take_next_early(AccessFunction& f);
  // Dequeue::ns3: f's data frame in service holds a place in f's queue.
  bool holds_place(const AccessFunction& f) const { return dequeue_ == Dequeue::ns3 && f.packet != nullptr; }

  // ---- the radio ----
  void on_tx_end();
  void on_rx_end(const phy::PhyFrame& frame, phy::RxOutcome outcome, const phy::RxInfo& info);

  // ---- settings and observation ----
  std::optional<std::int64_t> rts_threshold() const {
    if (rts_threshold_ == kNoRtsThreshold) return std::nullopt;
    return rts_threshold_;
  }
  void set_rts_threshold(std::optional<std::int64_t> bytes) { rts_threshold_ = bytes.value_or(kNoRtsThreshold); }
  // Throws std::invalid_argument for limits below 1.
  void set_retry_limits(int short_limit, int long_limit);
  int short_retry_limit() const { return short_retry_limit_; }
  int long_retry_limit() const { return long_retry_limit_; }
  // Until the first MPDU is taken, an empty distribution shared by every MAC.
  const DelayDistribution& service_delays() const { return records_ ? records_->service_delays : no_delays(); }
  const DelayDistribution& queueing_delays() const { return records_ ? records_->queueing_delays : no_delays(); }
  // The MAC's counters: zeros but rx_errors until the records exist.
  MacStats stats() const {
    MacStats s = records_ ? records_->stats : MacStats{};
    s.rx_errors = rx_errors_;
    return s;
  }
  // For counting: the records' counters (allocating the records if need be).
  MacStats& counters() { return records().stats; }
  bool holds_records() const { return records_ != nullptr; }

 private:
  // The MPDU a function sends (or would send next): where to, its size, its airtime.
  struct MpduInfo {
    std::uint32_t receiver = kBroadcastRadio;
    std::uint32_t bytes = 0;
    Time airtime;
  };
  // How an MPDU's service ended.
  enum class MpduEnd : std::uint8_t { acknowledged, sent_group_addressed, retry_limit };
  enum class Awaiting : std::uint8_t { nothing, cts, ack };
  // What goes on the air SIFS after the previous frame.
  enum class SifsAction : std::uint8_t { none, ack, cts, data_after_cts, txop_next };
  // What the radio is sending now. mpdu_*: the exchange's DATA or management frame.
  enum class Sending : std::uint8_t { nothing, rts, mpdu_unicast, mpdu_broadcast, ack, cts };

  // Sending.
  void send_mpdu(std::size_t index);
  void load_next_mpdu(AccessFunction& f);
  // Dequeue::ns3: the data frame in service is done: its place in the queue is free
  // again, and the MAC's user hears of the room (MacUser::on_queue_space).
  void give_place_back(AccessFunction& f);
  std::uint16_t take_sequence_number(bool management, const AccessFunction& f);
  bool needs_rts(const AccessFunction& f) const;
  void send_rts(std::size_t index);
  // The exchange's MPDU (after the RTS/CTS, if any): data or management.
  void send_loaded(std::size_t index);
  void send_data(std::size_t index);
  void send_management_frame(std::size_t index);
  MpduInfo loaded_mpdu(const AccessFunction& f);
  // What load_next_mpdu() would take; f must have a frame ready.
  MpduInfo next_mpdu(const AccessFunction& f);
  MpduInfo data_mpdu(const Packet& p);
  MpduInfo management_mpdu(const ManagementFrame& m) const;
  bool long_mpdu(const MpduInfo& m) const { return m.bytes > rts_threshold_; }
  std::uint32_t data_mpdu_bytes(const Packet& p) const;
  const phy::Mcs& rate_to(std::uint32_t radio);
  // Every frame from the medium's pool (the hot path: one per transmission).
  inline std::shared_ptr<Frame> new_frame();  // defined (and only called) in frame_exchange.cpp
  // An ACK or CTS to `to`, sent SIFS after the frame it answers.
  void respond(FrameKind kind, MacAddress to, Time duration, SifsAction action);
  void send_frame(std::shared_ptr<Frame> frame, const phy::Mcs& rate, Sending what);
  void schedule_sifs(SifsAction action);
  void on_sifs();
  // ns-2's is_idle() (mac-802_11.cc): no NAV and no frame being received. Its third
  // condition, tx_state_ idle, holds where this is asked: recvRTS refused while it
  // was not, and recvCTS left it idle (tx_resume).
  bool ns2_idle() const { return !access_.nav_set() && !radio_.receiving(); }
  // ns-2's check_pktTx when the medium is busy SIFS after a CTS: back off with a
  // wider window and send a new RTS.
  void ns2_rts_again();
  bool txop_allows_next(AccessFunction& f);

  // The parts of the shared context read most.
  const MacTiming& timing() const { return context_.timing; }
  const phy::PhyProfile& profile() const { return context_.profile; }
  PacketPool& pool() const { return context_.pool; }

  TrafficRecords& records() {
    if (!records_) records_ = std::make_unique<TrafficRecords>();
    return *records_;
  }
  static const DelayDistribution& no_delays();

  // Outcomes.
  void on_response_timeout();
  void exchange_succeeded();
  void exchange_failed();
  // The count a failed attempt charges: the long one for a DATA frame longer than
  // the RTS threshold, else the short one (one count under RetryCounts::ns3).
  RetryCount charged_count(bool long_frame) const;
  void retry_or_drop(AccessFunction& f, RetryCount count);
  // QueueLifetimeRule::ns3: f's frame in service expired: dropped with its own
  // retry counts, the CW as it stands.
  void drop_expired_in_service(AccessFunction& f, Time now);
  // The function's MPDU is done: counted, its counts and CW reset, the packet gone.
  void finish_mpdu(AccessFunction& f, MpduEnd end);
  void finish_exchange(AccessFunction& f);

  // Receiving.
  void handle_frame(const Frame& frame);
  void deliver_data(const Frame& frame);
  void receive_management(const Frame& frame);

  friend struct MacLayout;  // tests/mac/test_mac_layout.cpp: where the hot fields lie

  // The members by use (issue 43 §2, docs/performance.md "The MAC laid out by use"):
  // first what the end of a frame overheard (on_rx_end, handle_frame) and every
  // change of the medium (active(), through ChannelAccess::Owner) read, in the
  // 64 bytes that follow the MAC's meter (mac.hpp); then what only a station in an
  // exchange of its own, or one a frame is addressed to, reads.
  // tests/mac/test_mac_layout.cpp keeps them together.
  Scheduler& scheduler_;  // context_.scheduler, read on every event: kept at hand
  ChannelAccess& access_;
  BusyTimeMeter& meter_;
  SubscriberList<MacObserver>& observers_;  // channel access's: one list per MAC
  ContextId node_;
  std::uint32_t address_;
  std::uint64_t rx_errors_ = 0;  // MacStats::rx_errors, held here: see TrafficRecords
  // When the awaited response's window opened (the end of the frame that asked for
  // it): only a reception that began after it can be the response (9.3.2.8).
  Time response_window_start_;
  // The exchange's state (and ns2_, configuration), side by side in 8 B, so that
  // no padding separates them (issue 43 §3).
  std::optional<std::uint8_t> exchange_;  // index of the function holding the TXOP (at most four)
  Awaiting awaiting_ = Awaiting::nothing;
  bool timeout_passed_ = false;  // the timeout fired while a reception was under way
  SifsAction sifs_action_ = SifsAction::none;
  bool delivering_ = false;  // inside deliver_data / receive_management
  Sending sending_ = Sending::nothing;
  bool ns2_;  // Deferral::ns2

  // Shared with the MACs of the radio's profile: one reference instead of four
  // (profile, timing, the two pools) and the rate function (issue 43 §3).
  const MacContext& context_;
  RadioPort& radio_;
  std::span<AccessFunction> functions_;
  DropSink& drops_;
  MacUser* user_ = nullptr;
  // "Off" and "for ever" as sentinels instead of two 16-B std::optionals (issue 43
  // §3, memory per node): no MPDU is longer than kNoRtsThreshold bytes, and no
  // packet's stay in a queue exceeds Time::max().
  static constexpr std::int64_t kNoRtsThreshold = std::numeric_limits<std::int64_t>::max();
  std::int64_t rts_threshold_;  // kNoRtsThreshold: RTS/CTS off
  Time queue_lifetime_;         // Time::max(): packets wait in the queue for ever
  std::uint64_t mpdus_taken_ = 0;     // Frame::mpdu_id of the last MPDU taken
  std::unique_ptr<TrafficRecords> records_;  // records(): null until first needed
  // The small fields side by side, so that no padding separates them (issue 43 §3).
  MacType type_;
  QueueLifetimeRule queue_lifetime_rule_;  // in the padding before the limits
  int short_retry_limit_;
  int long_retry_limit_;
  std::uint16_t next_sequence_ = 0;  // 9.3.2.11's single counter
  Dequeue dequeue_;
  RetryCounts retry_counts_;  // in the byte the fields above leave before the timers

  EventId response_timer_{};
  EventId sifs_timer_{};
  std::shared_ptr<Frame> sifs_frame_;  // the ACK or CTS to send
  Time txop_end_;
  std::int64_t txop_frames_ = 0;
};

}  // namespace wmnsim::mac
