#include "mac/frame_exchange.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/sim_log.hpp"
#include "phy/airtime.hpp"

namespace wmnsim::mac {

namespace {
// A response goes SIFS after the frame it answers ends (9.3.2.3.2), and the radio
// receives one frame at a time: another frame for this station cannot end within
// that SIFS, so a second response can never be due while one waits (an internal
// invariant: it fails loudly).
void require_no_pending_response(bool pending, std::uint32_t self, const Frame& frame) {
  if (pending) {
    throw std::logic_error("MAC " + std::to_string(self) + ": a frame from " +
                           std::to_string(frame.transmitter.radio()) + " asks for a response while one is pending");
  }
}

// The duplicate cache's category for management frames: apart from the data
// categories (0 for DCF data, 0..3 for QoS data by access category).
constexpr std::uint8_t kManagementCacheCategory = 0xff;

// What a debug line names of a frame's packet, so that it can be matched with the
// event trace's records (docs/traces.md "Event trace"): its id (0: none) and its
// flow's index (-1: none, control traffic or a management frame).
std::uint64_t log_packet(const Packet* p) { return p != nullptr ? p->id : 0; }
std::int64_t log_flow(const Packet* p) { return p != nullptr && p->flow != kNoFlow ? std::int64_t{p->flow} : -1; }

}  // namespace

void check_retry_limits(int short_limit, int long_limit) {
  if (short_limit < 1 || long_limit < 1 || short_limit > kMaxRetryLimit || long_limit > kMaxRetryLimit) {
    throw std::invalid_argument("retry limits must be 1 to 255 attempts, got short " + std::to_string(short_limit) +
                                " and long " + std::to_string(long_limit));
  }
}

FrameExchange::FrameExchange(const FrameExchangeParts& parts, const FrameExchangeConfig& config)
    : scheduler_(parts.context.scheduler),
      access_(parts.access),
      meter_(parts.meter),
      observers_(parts.access.observers()),
      node_(parts.node),
      address_(parts.address),
      ns2_(config.deferral == Deferral::ns2),
      context_(parts.context),
      radio_(parts.radio),
      functions_(parts.functions),
      drops_(parts.drops),
      rts_threshold_(config.rts_threshold.value_or(kNoRtsThreshold)),
      queue_lifetime_(config.queue_lifetime.value_or(Time::max())),
      type_(config.type),
      queue_lifetime_rule_(config.queue_lifetime_rule),
      short_retry_limit_(config.short_retry_limit),
      long_retry_limit_(config.long_retry_limit),
      dequeue_(config.dequeue),
      retry_counts_(config.retry_counts) {
  check_retry_limits(short_retry_limit_, long_retry_limit_);
}

const DelayDistribution& FrameExchange::no_delays() {
  static const DelayDistribution none;
  return none;
}

FrameExchange::~FrameExchange() {
  scheduler_.cancel(response_timer_);
  scheduler_.cancel(sifs_timer_);
}

void FrameExchange::set_retry_limits(int short_limit, int long_limit) {
  check_retry_limits(short_limit, long_limit);
  short_retry_limit_ = short_limit;
  long_retry_limit_ = long_limit;
}

// ---- taking MPDUs -------------------------------------------------------------------

bool FrameExchange::drop_expired(AccessFunction& f, Time now) {
  // A queue lifetime, as ns-3's WifiMacQueue MaxDelay: a packet that waited longer
  // than it is dropped when the MAC would take it (at a channel access, or to
  // continue a TXOP), not sent late. A frame already taken finishes its retries,
  // unless QueueLifetimeRule::ns3. QueueLifetimeRule::standard is 802.11's own
  // bound instead (mac_params.hpp).
  if (queue_lifetime_ == Time::max()) return false;
  if (queue_lifetime_rule_ == QueueLifetimeRule::standard) {
    // 802.11's transmit MSDU timer: from the frame's first attempt, and only for
    // a frame attempted (a packet in the queue has no timer running).
    if (!f.packet || in_exchange(f) || f.first_attempt == Time::max() || now - f.first_attempt <= queue_lifetime_) {
      return false;
    }
    drop_expired_in_service(f, now);
    return true;
  }
  bool dropped = false;
  if (queue_lifetime_rule_ == QueueLifetimeRule::ns3 && f.packet && !in_exchange(f) &&
      now - f.packet->queued_at > queue_lifetime_) {
    drop_expired_in_service(f, now);
    dropped = true;
  }
  return f.queue->drop_expired(now, queue_lifetime_) > 0 || dropped;
}

void FrameExchange::drop_expired_in_service(AccessFunction& f, Time now) {
  // ns-3 3.44 removes the expired MPDU at the access without a new backoff and
  // without resetting the CW (no Txop::ResetCw on an expiry): only the MPDU's own
  // retry counts go with it, and the access serves the next packet. The standard's
  // timer does the same (9.3.3 resets the CW after a success or at a retry limit,
  // not at a discard for lifetime).
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node_,
             "mac {}: frame in service expired after {} retries, seq {}, pkt {}, flow {}",
             scheduler_.log().radio_label(address_), f.short_retries + f.long_retries, f.sequence,
             log_packet(f.packet.get()), log_flow(f.packet.get()));
  give_place_back(f);
  PacketPtr packet = std::move(f.packet);  // (leaves f.packet null)
  records().service_delays.add(now - f.service_start);
  ++counters().drops_lifetime_in_service;
  f.short_retries = 0;
  f.long_retries = 0;
  f.last_service_end = now;
  observers_.tell([&](MacObserver& o) { o.on_drop(address_, *packet, DropCause::lifetime_expired); });
  // Last: the sink may refill a saturated source at once, and under
  // Dequeue::after_exchange the MAC then takes the new packet into f.packet.
  drops_.on_drop_in_service(std::move(packet), DropCause::lifetime_expired, now);
}

std::uint16_t FrameExchange::take_sequence_number(bool management, const AccessFunction& f) {
  // 802.11-2012 9.3.2.11: a QoS STA numbers individually addressed QoS data with
  // one modulo-4096 counter per <Address 1, TID> (a traffic category here), and
  // everything else (management, group-addressed, non-QoS data) with one counter.
  // The numbers matter to the receiver's duplicate rule (9.3.2.10).
  std::uint16_t* counter = &next_sequence_;
  if (!management && type_ != MacType::dcf && f.packet->next_hop_radio != kBroadcastRadio) {
    counter = &records().qos_sequences[(std::uint64_t{f.packet->next_hop_radio} << 8) | index_of(f.ac)];
  }
  const std::uint16_t sequence = *counter;
  *counter = static_cast<std::uint16_t>((sequence + 1) & 0x0fff);  // 12 bits (8.2.4.4.2)
  return sequence;
}

void FrameExchange::load_next_mpdu(AccessFunction& f) {
  if (f.has_mpdu()) return;
  // Management frames first: no data queue discipline holds them back.
  const bool management = !f.management.empty();
  if (management) {
    f.mgmt = std::move(f.management.front());
    f.management.pop_front();
  } else {
    f.packet = f.queue->dequeue(scheduler_.now());
    if (!f.packet) throw std::logic_error("MAC: access granted with no frame ready");
    observers_.tell([&](MacObserver& o) { o.on_dequeue(address_, *f.packet, f.ac, f.queue->length_packets()); });
    f.service_start = std::max(f.packet->queued_at, f.last_service_end);
    // Here, where each data MPDU is taken exactly once (has_mpdu() above keeps a
    // retried MPDU from coming back), not where its service ends.
    records().queueing_delays.add(f.service_start - f.packet->queued_at);
  }
  f.sequence = take_sequence_number(management, f);
  f.mpdu_id = ++mpdus_taken_;
  f.sent_once = false;
  f.first_attempt = Time::max();
  f.short_retries = 0;
  f.long_retries = 0;
  if (management) return;
  if (dequeue_ == Dequeue::ns3) {
    f.queue->hold_place(*f.packet);  // given back when its service ends (give_place_back)
  } else if (user_ != nullptr) {
    user_->on_queue_space(f.ac, *f.packet);
  }
}

void FrameExchange::give_place_back(AccessFunction& f) {
  if (dequeue_ != Dequeue::ns3) return;
  // Before the packet's fate is told: a saturated source refills into the place now
  // free, and counts the packet out here (Node::on_departure), not at its drop.
  f.queue->release_place(*f.packet);
  if (user_ != nullptr) user_->on_queue_space(f.ac, *f.packet);
}

void FrameExchange::take_next_early(AccessFunction& f) {
  if (dequeue_ != Dequeue::after_exchange || f.has_mpdu() || in_exchange(f)) return;
  const Time now = scheduler_.now();
  // The queue lifetime holds here as at access: stale heads go first. A drop may
  // refill the queue (a saturated source) and so come back through enqueue().
  drop_expired(f, now);
  if (f.has_mpdu()) return;
  // A shaper's held head stays in its queue until released (then taken at access).
  // A frame taken early goes before a management frame that comes after it, and
  // a queue replaced by set_queue() does not see it: it has left the queue.
  if (!f.has_frame_ready(now)) return;
  load_next_mpdu(f);
}

FrameExchange::MpduInfo FrameExchange::data_mpdu(const Packet& p) {
  const std::uint32_t bytes = data_mpdu_bytes(p);
  return MpduInfo{p.next_hop_radio, bytes, phy::airtime(profile(), rate_to(p.next_hop_radio), bytes)};
}

FrameExchange::MpduInfo FrameExchange::management_mpdu(const ManagementFrame& m) const {
  // Management frames go at the control (basic) rate, whoever receives them.
  const std::uint32_t bytes = mpdu_bytes(FrameKind::action, m.body->size_bytes());
  return MpduInfo{m.receiver, bytes, phy::airtime(profile(), *timing().control_rate, bytes)};
}

FrameExchange::MpduInfo FrameExchange::loaded_mpdu(const AccessFunction& f) {
  return f.mgmt.body ? management_mpdu(f.mgmt) : data_mpdu(*f.packet);
}

FrameExchange::MpduInfo FrameExchange::next_mpdu(const AccessFunction& f) {
  if (f.has_mpdu()) return loaded_mpdu(f);
  if (!f.management.empty()) return management_mpdu(f.management.front());
  return data_mpdu(*f.queue->peek_at(scheduler_.now()));
}

std::uint32_t FrameExchange::data_mpdu_bytes(const Packet& p) const {
  return mpdu_bytes(type_ == MacType::dcf ? FrameKind::data : FrameKind::qos_data, p.size_bytes);
}

const phy::Mcs& FrameExchange::rate_to(std::uint32_t radio) {
  if (radio == kBroadcastRadio || !context_.data_rate) return *timing().control_rate;
  auto [it, inserted] = records().rate_cache.try_emplace(radio, nullptr);
  if (inserted) it->second = context_.data_rate(address_, radio);
  return it->second != nullptr ? *it->second : *timing().control_rate;
}

bool FrameExchange::needs_rts(const AccessFunction& f) const {
  // 9.3.2.6: RTS/CTS for individually addressed frames longer than the threshold.
  if (rts_threshold_ == kNoRtsThreshold) return false;
  if (f.mgmt.body) {
    const std::uint32_t bytes = mpdu_bytes(FrameKind::action, f.mgmt.body->size_bytes());
    return f.mgmt.receiver != kBroadcastRadio && bytes > rts_threshold_;
  }
  return f.packet->next_hop_radio != kBroadcastRadio && data_mpdu_bytes(*f.packet) > rts_threshold_;
}

// ---- sending --------------------------------------------------------------------------

void FrameExchange::start_txop(std::size_t index) {
  ++counters().txops;
  // One function per access category in use, so the index fits exchange_'s byte.
  static_assert(kAccessCategoryCount <= std::numeric_limits<std::uint8_t>::max() + 1U);
  exchange_ = static_cast<std::uint8_t>(index);
  txop_frames_ = 0;
  const TxopLimit& limit = functions_[index].params.txop;
  txop_end_ = limit.time > Time::zero() ? scheduler_.now() + limit.time : scheduler_.now();
  send_mpdu(index);
}

void FrameExchange::internal_collision(AccessFunction& f) {
  load_next_mpdu(f);  // the lost frame is charged the retry (9.19.2.3)
  // As a failure of the frame it would have sent first: an RTS charges the short count.
  retry_or_drop(f, charged_count(!needs_rts(f) && long_mpdu(loaded_mpdu(f))));
}

RetryCount FrameExchange::charged_count(bool long_frame) const {
  // 9.3.4.4: an RTS, or a frame up to the RTS threshold, counts against the short
  // limit; a longer DATA frame against the long one. ns-3 3.44 has one count and one
  // limit for every failure (RetryCounts::ns3).
  return long_frame && retry_counts_ != RetryCounts::ns3 ? RetryCount::long_count : RetryCount::short_count;
}

void FrameExchange::send_mpdu(std::size_t index) {
  AccessFunction& f = functions_[index];
  load_next_mpdu(f);
  ++txop_frames_;
  if (needs_rts(f)) {
    send_rts(index);
  } else {
    send_loaded(index);
  }
}

void FrameExchange::send_loaded(std::size_t index) {
  if (functions_[index].mgmt.body) {
    send_management_frame(index);
  } else {
    send_data(index);
  }
}

void FrameExchange::send_rts(std::size_t index) {
  AccessFunction& f = functions_[index];
  auto rts = new_frame();
  rts->kind = FrameKind::rts;
  rts->transmitter = MacAddress(address_);
  const MpduInfo mpdu = loaded_mpdu(f);
  rts->receiver = MacAddress(mpdu.receiver);
  rts->duration = rts_duration(mpdu.airtime, timing().cts_airtime, timing().ack_airtime, timing().sifs);
  ++counters().rts_attempts;
  // The MSDU's first attempt may be its RTS (management frames have no timer).
  if (f.packet) f.first_attempt = std::min(f.first_attempt, scheduler_.now());
  send_frame(std::move(rts), *timing().control_rate, Sending::rts);
}

void FrameExchange::send_data(std::size_t index) {
  AccessFunction& f = functions_[index];
  const bool broadcast = f.packet->next_hop_radio == kBroadcastRadio;
  auto data = new_frame();
  data->kind = type_ == MacType::dcf ? FrameKind::data : FrameKind::qos_data;
  data->transmitter = MacAddress(address_);
  data->receiver = MacAddress(f.packet->next_hop_radio);
  data->duration = broadcast ? Time::zero() : data_duration(timing().ack_airtime, timing().sifs);
  data->sequence = f.sequence;
  data->mpdu_id = f.mpdu_id;
  data->retry = f.sent_once;
  data->access_category = f.ac;
  data->packet = pool().clone(*f.packet);
  ++counters().data_attempts;
  if (f.sent_once) ++counters().data_retries;
  f.sent_once = true;
  f.first_attempt = std::min(f.first_attempt, scheduler_.now());
  const phy::Mcs& rate = rate_to(f.packet->next_hop_radio);
  send_frame(std::move(data), rate, broadcast ? Sending::mpdu_broadcast : Sending::mpdu_unicast);
}

void FrameExchange::send_management_frame(std::size_t index) {
  AccessFunction& f = functions_[index];
  const bool broadcast = f.mgmt.receiver == kBroadcastRadio;
  auto frame = new_frame();
  frame->kind = FrameKind::action;
  frame->transmitter = MacAddress(address_);
  frame->receiver = MacAddress(f.mgmt.receiver);
  frame->duration = broadcast ? Time::zero() : data_duration(timing().ack_airtime, timing().sifs);
  frame->sequence = f.sequence;
  frame->mpdu_id = f.mpdu_id;
  frame->retry = f.sent_once;
  frame->management = f.mgmt.body;
  ++counters().mgmt_attempts;
  if (f.sent_once) ++counters().mgmt_retries;
  f.sent_once = true;
  send_frame(std::move(frame), *timing().control_rate, broadcast ? Sending::mpdu_broadcast : Sending::mpdu_unicast);
}

inline std::shared_ptr<Frame> FrameExchange::new_frame() {
  // One frame per transmission, the hot path: from the medium's pool, not the heap.
  // A pool allocator behind std::allocate_shared keeps the PHY's interface (a
  // shared_ptr payload, held by the medium and by every receiver while on the air)
  // and hands the block back to the pool whichever holder lets go last; an
  // intrusive count would have changed phy_frame.hpp and every PHY user. The pool
  // is the medium's because the medium holds a frame longest (until the last
  // receiver's signal ends), after its sender and receivers are done with it.
  return std::allocate_shared<Frame>(PoolAllocator<Frame>(context_.frame_pool));
}

void FrameExchange::respond(FrameKind kind, MacAddress to, Time duration, SifsAction action) {
  auto frame = new_frame();
  frame->kind = kind;
  frame->transmitter = MacAddress(address_);
  frame->receiver = to;
  frame->duration = duration;
  sifs_frame_ = std::move(frame);
  schedule_sifs(action);
}

void FrameExchange::send_frame(std::shared_ptr<Frame> frame, const phy::Mcs& rate, Sending what) {
  const std::uint32_t bytes = frame->size_bytes();
  const phy::PhyFrame phy_frame{bytes, &rate, phy::airtime(profile(), rate, bytes), frame};
  observers_.tell([&](MacObserver& o) { o.on_frame_sent(address_, *frame, phy_frame.duration); });
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node_,
             "mac {}: {} sent to {}, {} B at {}, retry {}, seq {}, airtime {:.1f}us, pkt {}, flow {}",
             scheduler_.log().radio_label(address_), to_string(frame->kind),
             frame->receiver.is_broadcast() ? std::string("broadcast") : scheduler_.log().radio_label(frame->receiver.radio()),
             bytes, rate.name, frame->retry ? 1 : 0, frame->sequence, phy_frame.duration.to_seconds() * 1e6,
             log_packet(frame->packet.get()), log_flow(frame->packet.get()));
  if (Fingerprint* fp = scheduler_.fingerprint()) {
    fp->frame(scheduler_.now(), address_, to_string(frame->kind), bytes, phy_frame.duration);
  }
  sending_ = what;
  Ns2SendWait wait = Ns2SendWait::none;
  switch (what) {
    case Sending::rts: wait = Ns2SendWait::cts; break;
    case Sending::mpdu_unicast: wait = Ns2SendWait::ack; break;
    case Sending::cts: wait = Ns2SendWait::data_after; break;
    case Sending::mpdu_broadcast:
    case Sending::ack:
    case Sending::nothing: break;
  }
  meter_.ns2_arm_send_timer(wait, scheduler_.now(), phy_frame.duration, frame->duration, timing());
  radio_.transmit(phy_frame);
}

void FrameExchange::on_tx_end() {
  const Sending sent = sending_;
  sending_ = Sending::nothing;
  const Time now = scheduler_.now();
  switch (sent) {
    case Sending::rts:
      awaiting_ = Awaiting::cts;
      break;
    case Sending::mpdu_unicast:
      awaiting_ = Awaiting::ack;
      break;
    case Sending::mpdu_broadcast: {
      // Group-addressed: no ACK, no retry; the exchange ends here (9.3.4.4 resets SRC).
      AccessFunction& f = functions_[*exchange_];
      finish_mpdu(f, MpduEnd::sent_group_addressed);
      finish_exchange(f);
      break;
    }
    case Sending::ack:
    case Sending::cts:
    case Sending::nothing:
      break;
  }
  if (awaiting_ != Awaiting::nothing) {
    // 9.3.2.8: the response must start within SIFS + slot + PHY-RX-START delay.
    timeout_passed_ = false;
    response_window_start_ = now;
    const bool cts = awaiting_ == Awaiting::cts;
    // Under ns-2's rules its send timer (check_pktRTS, check_pktTx): SIFS, the
    // response's airtime and DSSS_MaxPropagationDelay each way.
    const Time timeout = !ns2_ ? (cts ? timing().cts_timeout : timing().ack_timeout)
                               : 2 * kNs2MaxPropagationDelay + timing().sifs + (cts ? timing().cts_airtime : timing().ack_airtime);
    response_timer_ = scheduler_.schedule_at(now + timeout, [this] { on_response_timeout(); }, node_);
  }
  access_.refresh();
}

void FrameExchange::schedule_sifs(SifsAction action) {
  sifs_action_ = action;
  sifs_timer_ = scheduler_.schedule_in(timing().sifs, [this] { on_sifs(); }, node_);
}

void FrameExchange::on_sifs() {
  const SifsAction action = sifs_action_;
  sifs_action_ = SifsAction::none;
  // One exchange at a time: while a SIFS gap is pending the medium is busy for our
  // own functions and a second response is refused, so nothing of ours is on the air
  // and the gap has a purpose.
  if (radio_.transmitting()) throw std::logic_error("MAC: SIFS ended while the radio was transmitting");
  switch (action) {
    case SifsAction::ack:
      ++counters().acks_sent;
      send_frame(std::move(sifs_frame_), *timing().control_rate, Sending::ack);
      break;
    case SifsAction::cts:
      if (ns2_ && !ns2_idle()) {
        // ns-2's check_pktCTRL, SIFS after the RTS: "If the medium is not IDLE, don't
        // send the CTS" (DROP_MAC_BUSY).
        WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node_, "mac {}: CTS not sent: medium busy SIFS after the RTS",
                   scheduler_.log().radio_label(address_));
        ++counters().cts_refused_busy;
        sifs_frame_.reset();
        access_.refresh();
        break;
      }
      ++counters().cts_sent;
      send_frame(std::move(sifs_frame_), *timing().control_rate, Sending::cts);
      break;
    case SifsAction::data_after_cts:
      if (ns2_ && !ns2_idle()) {
        ++counters().data_refused_after_cts;
        ns2_rts_again();
        break;
      }
      send_loaded(*exchange_);
      break;
    case SifsAction::txop_next:
      ++counters().txop_continuations;
      send_mpdu(*exchange_);  // the frame taken when the TXOP was continued
      break;
    case SifsAction::none:
      throw std::logic_error("MAC: a SIFS gap ended with nothing to send");
  }
}

void FrameExchange::ns2_rts_again() {
  // ns-2's check_pktTx: a DATA frame due SIFS after its CTS finds the medium busy:
  // sendRTS(), inc_cw() and a backoff; the failure is not charged (the short count
  // stays where the CTS left it: restarted, as ns-2's recvCTS, under reset_on_cts).
  AccessFunction& f = functions_[*exchange_];
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node_,
             "mac {}: DATA not sent: medium busy SIFS after the CTS; a new RTS after a backoff, seq {}, pkt {}",
             scheduler_.log().radio_label(address_), f.sequence, log_packet(f.packet.get()));
  exchange_.reset();
  f.widen_cw();
  access_.draw_backoff(f, scheduler_.now());
  access_.refresh();
  access_.reschedule_timer();
}

bool FrameExchange::txop_allows_next(AccessFunction& f) {
  // 9.19.2.2: more frames of the same category, SIFS apart, while the TXOP lasts.
  const TxopLimit& limit = f.params.txop;
  if (limit.frames <= 0 && limit.time <= Time::zero()) return false;  // one frame per access
  if (ns2_ && (limit.frames > 1 || limit.time > Time::zero())) {
    throw std::logic_error("MAC: a TXOP limit under deferral ns2 (refused at load)");
  }
  drop_expired(f, scheduler_.now());  // the next frame is taken now
  if (!f.has_frame_ready(scheduler_.now())) return false;
  if (limit.frames > 0) return txop_frames_ < limit.frames;
  const MpduInfo next = next_mpdu(f);
  if (next.receiver == kBroadcastRadio) return false;
  Time exchange = timing().sifs + next.airtime + timing().sifs + timing().ack_airtime;
  if (long_mpdu(next)) {
    exchange += timing().rts_airtime + timing().sifs + timing().cts_airtime + timing().sifs;
  }
  return scheduler_.now() + exchange <= txop_end_;
}

// ---- outcomes -------------------------------------------------------------------------

void FrameExchange::on_response_timeout() {
  // ns-2's send_timer() fails the wait whatever is being received (a late response
  // is then discarded: recvCTS/recvACK in the wrong tx_state_).
  if (!ns2_ && radio_.receiving() && radio_.reception_start() >= response_window_start_) {
    // A frame started in time: its end decides (9.3.2.8).
    timeout_passed_ = true;
    return;
  }
  exchange_failed();
}

void FrameExchange::finish_mpdu(AccessFunction& f, MpduEnd end) {
  const Time now = scheduler_.now();
  // 9.3.4.4: the retry counts reset when the frame is done; the window too (9.19.2.5).
  f.mpdu_done(now, end == MpduEnd::retry_limit);
  if (f.mgmt.body) {
    // A management frame is no packet: counted, never reported as a packet drop.
    ++(end == MpduEnd::retry_limit ? counters().mgmt_drops_retry_limit : counters().mgmt_tx_success);
    f.mgmt = {};
    return;
  }
  records().service_delays.add(now - f.service_start);
  give_place_back(f);
  if (end == MpduEnd::retry_limit) {
    ++counters().drops_retry_limit;
    // (the drop itself is logged where every drop goes: Node::on_drop)
    observers_.tell([&](MacObserver& o) { o.on_drop(address_, *f.packet, DropCause::retry_limit); });
    drops_.on_drop(std::move(f.packet), DropCause::retry_limit, now);
    f.packet.reset();
    return;
  }
  ++counters().tx_success;
  if (end == MpduEnd::sent_group_addressed) ++counters().broadcasts;
  f.packet.reset();
}

void FrameExchange::exchange_succeeded() {
  scheduler_.cancel(response_timer_);
  awaiting_ = Awaiting::nothing;
  meter_.ns2_stop_send_timer(scheduler_.now());  // ns-2's recvACK
  access_.account_ns2();
  AccessFunction& f = functions_[*exchange_];
  finish_mpdu(f, MpduEnd::acknowledged);
  if (txop_allows_next(f)) {
    // The frame checked is the frame sent (9.19.2.2): taken now, so nothing the
    // queue does during the SIFS (a mesh buffer's block ending, which can put an
    // earlier packet for another next hop first) swaps in one the TXOP may not hold.
    load_next_mpdu(f);
    schedule_sifs(SifsAction::txop_next);
    return;
  }
  finish_exchange(f);
}

void FrameExchange::exchange_failed() {
  scheduler_.cancel(response_timer_);
  const bool rts_failed = awaiting_ == Awaiting::cts;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node_, "mac {}: exchange failed: no {}",
             scheduler_.log().radio_label(address_), rts_failed ? "CTS" : "ACK");
  awaiting_ = Awaiting::nothing;
  timeout_passed_ = false;
  ++counters().failed_attempts;
  AccessFunction& f = functions_[*exchange_];
  const bool long_frame = !rts_failed && long_mpdu(loaded_mpdu(f));
  exchange_.reset();
  retry_or_drop(f, charged_count(long_frame));
  access_.refresh();
}

void FrameExchange::retry_or_drop(AccessFunction& f, RetryCount count) {
  const Time now = scheduler_.now();
  const bool long_count = count == RetryCount::long_count;
  const int limit = long_count ? long_retry_limit_ : short_retry_limit_;
  if (f.charge_retry(count, limit)) {
    finish_mpdu(f, MpduEnd::retry_limit);
  } else {
    const int retries = long_count ? f.long_retries : f.short_retries;
    WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node_,
               "mac {}: retry {} of {} ({} retry count), CW now {}, seq {}, pkt {}, flow {}",
               scheduler_.log().radio_label(address_), retries, limit, long_count ? "long" : "short", f.cw, f.sequence,
               log_packet(f.packet.get()), log_flow(f.packet.get()));
    observers_.tell([&](MacObserver& o) { o.on_retry(address_, f.packet.get(), f.sequence, retries); });
  }
  access_.draw_backoff(f, now);
  take_next_early(f);  // after a drop, the next frame (mac.dequeue "after_exchange")
  access_.reschedule_timer();
}

void FrameExchange::finish_exchange(AccessFunction& f) {
  exchange_.reset();
  // Post-backoff after every exchange (9.3.4.3), with the window now in force.
  access_.draw_backoff(f, scheduler_.now());
  take_next_early(f);
  access_.refresh();
  access_.reschedule_timer();
}

// ---- receiving ------------------------------------------------------------------------

void FrameExchange::on_rx_end(const phy::PhyFrame& phy_frame, phy::RxOutcome outcome, const phy::RxInfo& info) {
  if (outcome == phy::RxOutcome::aborted) return;  // our own transmission cut it: no EIFS
  if (outcome == phy::RxOutcome::error) {
    ++rx_errors_;
    // The PHY does not say whether a collision or a channel error lost the frame;
    // the worst SINR (sinr reception model; infinite under the others) hints which.
    WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node_,
               "mac {}: reception lost (collision or channel error), worst SINR {:.1f} dB",
               scheduler_.log().radio_label(address_), info.min_sinr_db());
    access_.errored_reception();
    // Whatever it was, the awaited response did not arrive intact; unless it began
    // before the response window (it overlapped our own frame, so it was never a
    // PHY-RXSTART in the window, 9.3.2.8): then the timeout decides. ns-2's
    // recv_timer only sets the NAV for an errored frame: its send timer decides.
    const bool decides = timeout_passed_ || (!ns2_ && info.start >= response_window_start_);
    if (awaiting_ != Awaiting::nothing && decides) exchange_failed();
    return;
  }
  access_.error_free_reception();
  // Every payload on a MAC's channel is a mac::Frame; the PHY tests send none.
  const auto* frame = static_cast<const Frame*>(phy_frame.payload.get());
  if (frame == nullptr) return;
  observers_.tell([&](MacObserver& o) { o.on_frame_received(address_, *frame); });
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node_,
             "mac {}: {} received from {} to {}, {} B, retry {}, seq {}, pkt {}, flow {}",
             scheduler_.log().radio_label(address_), to_string(frame->kind),
             scheduler_.log().radio_label(frame->transmitter.radio()),
             frame->receiver.is_broadcast() ? std::string("broadcast") : scheduler_.log().radio_label(frame->receiver.radio()),
             phy_frame.psdu_bytes, frame->retry ? 1 : 0, frame->sequence, log_packet(frame->packet.get()),
             log_flow(frame->packet.get()));
  const bool to_me = frame->receiver == MacAddress(address_);
  if (awaiting_ == Awaiting::cts && to_me && frame->kind == FrameKind::cts) {
    scheduler_.cancel(response_timer_);
    awaiting_ = Awaiting::nothing;
    // Only the reset_on_cts reading restarts the frame's short count (RetryCounts).
    if (retry_counts_ == RetryCounts::reset_on_cts) functions_[*exchange_].cts_received();
    meter_.ns2_stop_send_timer(scheduler_.now());  // ns-2's recvCTS
    access_.account_ns2();
    schedule_sifs(SifsAction::data_after_cts);
    return;
  }
  // ns-2's recvDATA stops a CTS sender's timer when the DATA arrives.
  if (meter_.ns2_waiting_for_data() && to_me &&
      (frame->kind == FrameKind::data || frame->kind == FrameKind::qos_data || frame->kind == FrameKind::action)) {
    meter_.ns2_stop_send_timer(scheduler_.now());
    access_.account_ns2();
  }
  if (awaiting_ == Awaiting::ack && to_me && frame->kind == FrameKind::ack) {
    exchange_succeeded();
    return;
  }
  // 9.3.2.8: any other frame while a response is awaited means it failed. ns-2's
  // recv_timer sets the NAV for a frame to another station and discards it, the
  // wait going on until the response or the send timer.
  if (awaiting_ != Awaiting::nothing && (!ns2_ || to_me || timeout_passed_)) exchange_failed();
  handle_frame(*frame);
}

void FrameExchange::handle_frame(const Frame& frame) {
  if (frame.receiver.is_broadcast()) {
    if (is_data(frame.kind) && frame.packet) {
      deliver_data(frame);
    } else if (frame.kind == FrameKind::action && frame.management) {
      receive_management(frame);
    }
    return;
  }
  if (frame.receiver.radio() != address_) {
    // Virtual carrier sense (9.3.2.4): a frame for someone else reserves the medium.
    if (frame.duration > Time::zero()) access_.set_nav(scheduler_.now() + frame.duration);
    return;
  }
  switch (frame.kind) {
    case FrameKind::data:
    case FrameKind::qos_data:
    case FrameKind::action: {
      require_no_pending_response(sifs_action_ != SifsAction::none, address_, frame);
      respond(FrameKind::ack, frame.transmitter, ack_duration(), SifsAction::ack);
      // 9.3.2.10: one cache entry per transmitter and data category; management
      // frames have their own.
      const bool management = frame.kind == FrameKind::action;
      const auto category = static_cast<std::uint8_t>(
          management ? kManagementCacheCategory : frame.kind == FrameKind::qos_data ? index_of(frame.access_category) : 0);
      const SequenceMatch match =
          records().duplicates.check(frame.transmitter.radio(), category, frame.sequence, frame.retry, frame.mpdu_id);
      if (match != SequenceMatch::new_frame) {
        ++(management ? counters().mgmt_rx_duplicates : counters().rx_duplicates);  // acknowledged again, not delivered twice
        // A new MPDU the rule discards (duplicate_filter.hpp): the sender releases
        // its copy on this ACK, so the loss is recorded here, at the receiver.
        if (match == SequenceMatch::false_duplicate) {
          if (management) {
            ++counters().mgmt_rx_false_duplicates;
          } else if (frame.packet) {
            drops_.on_drop(pool().clone(*frame.packet), DropCause::false_duplicate, scheduler_.now());
          }
        }
      } else if (management ? frame.management != nullptr : frame.packet != nullptr) {
        if (management) {
          receive_management(frame);
        } else {
          deliver_data(frame);
        }
      }
      access_.refresh();
      return;
    }
    case FrameKind::rts: {
      require_no_pending_response(sifs_action_ != SifsAction::none, address_, frame);
      // 9.3.2.6: answer an RTS only if the NAV says the medium is idle. ns-2's recvRTS
      // refuses only while its tx_state_ is busy (its own exchange, or the wait for
      // the DATA after a CTS it sent); the medium is judged SIFS later.
      if (ns2_ ? (exchange_ || meter_.ns2_send_timer_running(scheduler_.now())) : (access_.nav_set() || exchange_)) {
        ++counters().rts_refused;
        return;
      }
      respond(FrameKind::cts, frame.transmitter, cts_duration(frame.duration, timing().cts_airtime, timing().sifs),
              SifsAction::cts);
      access_.refresh();
      return;
    }
    case FrameKind::cts:
    case FrameKind::ack:
      return;  // not awaited (late or stray): ignored
  }
}

namespace {
// Sets the flag for the duration of a hand-up, whatever the user does.
class DeliveringScope {
 public:
  explicit DeliveringScope(bool& flag) : flag_(flag) { flag_ = true; }
  ~DeliveringScope() { flag_ = false; }
  DeliveringScope(const DeliveringScope&) = delete;
  DeliveringScope& operator=(const DeliveringScope&) = delete;

 private:
  bool& flag_;
};
}  // namespace

void FrameExchange::deliver_data(const Frame& frame) {
  ++counters().rx_data;
  if (user_ == nullptr) return;
  const DeliveringScope scope(delivering_);
  user_->on_mac_receive(pool().clone(*frame.packet), frame.transmitter.radio());
}

void FrameExchange::receive_management(const Frame& frame) {
  ++counters().mgmt_rx;
  bool taken = false;
  {
    const DeliveringScope scope(delivering_);
    taken = user_ != nullptr && user_->on_management_receive(*frame.management, frame.transmitter.radio());
  }
  if (!taken) ++counters().mgmt_rx_discarded;
}

}  // namespace wmnsim::mac
