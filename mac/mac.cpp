#include "mac/mac.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "link/drop_tail_queue.hpp"
#include "phy/airtime.hpp"
#include "phy/medium.hpp"
#include "core/sim_log.hpp"

namespace wmnsim::mac {
namespace {

// The duplicate cache's category for management frames: apart from the data
// categories (0 for DCF data, 0..3 for QoS data by access category).
constexpr std::uint8_t kManagementCacheCategory = 0xff;

void check_params(const EdcaParams& p) {
  if (p.aifsn < 1) throw std::invalid_argument("AIFSN must be at least 1, got " + std::to_string(p.aifsn));
  if (p.cw_min < 1) throw std::invalid_argument("cw_min must be at least 1 slot, got " + std::to_string(p.cw_min));
  if (p.cw_max < p.cw_min) {
    throw std::invalid_argument("cw_max (" + std::to_string(p.cw_max) + ") must not be below cw_min (" +
                                std::to_string(p.cw_min) + ")");
  }
}

void check_retry_limits(int short_limit, int long_limit) {
  if (short_limit < 1 || long_limit < 1) {
    throw std::invalid_argument("retry limits must be at least 1 attempt, got short " + std::to_string(short_limit) +
                                " and long " + std::to_string(long_limit));
  }
}

}  // namespace

Mac::Mac(Simulation& sim, phy::Radio& radio, const MacConfig& config, PacketPool& pool, DropSink& drops,
         RandomStream backoff_draws)
    : sim_(sim),
      scheduler_(sim.scheduler()),
      radio_(radio),
      type_(config.type),
      timing_(mac_timing(radio.profile(), config.control_rate != nullptr ? *config.control_rate
                                                                         : radio.profile().lowest_rate())),
      pool_(pool),
      frame_pool_(radio.medium().payload_pool()),
      drops_(drops),
      backoff_draws_(backoff_draws),
      data_rate_(config.data_rate),
      rts_threshold_(config.params.rts_threshold_bytes),
      deferral_(config.params.deferral),
      dequeue_(config.params.dequeue),
      short_retry_limit_(config.params.short_retry_limit),
      long_retry_limit_(config.params.long_retry_limit),
      queue_lifetime_(config.params.queue_lifetime),
      queue_limit_(config.params.queue) {
  check_retry_limits(short_retry_limit_, long_retry_limit_);
  auto add_function = [&](AccessCategory ac, const EdcaParams& params) {
    check_params(params);
    AccessFunction f;
    f.ac = ac;
    f.params = params;
    f.cw = params.cw_min;
    f.queue = std::make_unique<DropTailQueue>(config.params.queue, drops_);
    f.queue->set_ready_listener(this);
    functions_.push_back(std::move(f));
  };
  if (type_ == MacType::dcf) {
    add_function(AccessCategory::ac_be, dcf_params(config.params));
  } else {
    for (std::size_t i = 0; i < kAccessCategoryCount; ++i) {
      add_function(static_cast<AccessCategory>(i), config.params.access_categories[i]);
    }
  }
  phy_busy_ = radio_.cca_busy();
  busy_ = medium_busy();
  channel_busy_ = busy_;
  radio_.set_listener(this);
}

Mac::~Mac() {
  radio_.set_listener(nullptr);
  scheduler_.cancel(nav_timer_);
  scheduler_.cancel(access_timer_);
  scheduler_.cancel(response_timer_);
  scheduler_.cancel(sifs_timer_);
  for (AccessFunction& f : functions_) {
    scheduler_.cancel(f.ready_timer);
    f.queue->set_ready_listener(nullptr);
  }
}

std::size_t Mac::index_for(AccessCategory ac) const { return type_ == MacType::dcf ? 0 : index_of(ac); }
Mac::AccessFunction& Mac::function_for(AccessCategory ac) { return functions_[index_for(ac)]; }
const Mac::AccessFunction& Mac::function_for(AccessCategory ac) const { return functions_[index_for(ac)]; }

// IEEE 802.11ae-2012 4.5.6.2: without a QMF policy, management frames are sent
// with the access category of voice, AC_VO.
AccessCategory Mac::management_category() const {
  return type_ == MacType::dcf ? AccessCategory::ac_be : AccessCategory::ac_vo;
}
std::size_t Mac::management_index() const { return index_for(management_category()); }

// ---- runtime control --------------------------------------------------------------

void Mac::set_params(AccessCategory ac, const EdcaParams& params) {
  check_params(params);
  AccessFunction& f = function_for(ac);
  // A window at its reset value (no failure since the last success, 9.19.2.5) is
  // CWmin: it follows the new CWmin either way. A doubled one is kept within bounds.
  const bool at_reset = f.cw == f.params.cw_min;
  f.params = params;
  f.cw = at_reset ? params.cw_min : std::clamp(f.cw, params.cw_min, params.cw_max);
  // A changed AIFSN moves the access time of a counting function.
  if (f.counting && !f.committed && !busy_) {
    schedule_access(f);
    const Time now = scheduler_.now();
    if (f.access_at < now) {
      // A shorter AIFS under which the count would have ended already: access at the
      // first slot boundary from now on the new count's grid (9.19.2.3: counting
      // and access are at slot boundaries).
      const std::int64_t slots = (now - f.access_at + timing_.slot - Time::ps(1)) / timing_.slot;
      f.access_at = f.access_at + slots * timing_.slot;
    }
    reschedule_access_timer();
  }
}

void Mac::set_cw_min(AccessCategory ac, int cw_min) {
  EdcaParams p = params(ac);
  p.cw_min = cw_min;
  p.cw_max = std::max(p.cw_max, cw_min);
  set_params(ac, p);
}

void Mac::set_retry_limits(int short_limit, int long_limit) {
  check_retry_limits(short_limit, long_limit);
  short_retry_limit_ = short_limit;
  long_retry_limit_ = long_limit;
}

void Mac::set_queue(AccessCategory ac, std::unique_ptr<QueueDiscipline> queue) {
  if (!queue) throw std::invalid_argument("set_queue: no queue discipline given");
  AccessFunction& f = function_for(ac);
  const Time now = scheduler_.now();
  f.queue->set_ready_listener(nullptr);
  while (PacketPtr p = f.queue->dequeue(now)) queue->enqueue(std::move(p), now);
  f.queue = std::move(queue);
  f.queue->set_ready_listener(this);
  // A held function asks the new discipline when it may go.
  if (f.held) {
    if (f.has_frame_ready(now)) {
      start_access(f, now);
    } else {
      hold(f, now);
    }
  }
}

// ---- enqueue ----------------------------------------------------------------------

EnqueueResult Mac::enqueue(PacketPtr packet) {
  if (!packet) throw std::invalid_argument("Mac::enqueue: null packet");
  const AccessCategory ac = type_ == MacType::dcf ? AccessCategory::ac_be : classifier_.classify(*packet);
  AccessFunction& f = function_for(ac);
  const bool was_idle = !f.counting && !f.has_frame() && !(exchange_ && &functions_[*exchange_] == &f);
  const Time now = scheduler_.now();
  packet->queued_at = now;  // its queue lifetime counts from here
  const EnqueueResult result = f.queue->enqueue(std::move(packet), now);
  if (!result.is_accepted()) return result;
  if (was_idle && !f.counting) {  // (a discipline's notify_ready() may have started it)
    if (f.has_frame_ready(now)) {
      start_access(f, now);
    } else {
      hold(f, now);  // a shaper holds it back from the start
    }
  } else if (f.held) {
    release_if_ready(f);  // a held discipline may let the new packet go at once
  }
  take_next_early(f);
  return result;
}

void Mac::send_management(std::shared_ptr<const ManagementBody> body, std::uint32_t receiver) {
  if (!body) throw std::invalid_argument("Mac::send_management: no frame body");
  AccessFunction& f = functions_[management_index()];
  const bool was_idle = !f.counting && !f.held && !f.has_frame() && !in_exchange(f);
  f.management.push_back(Management{std::move(body), receiver});
  if (was_idle) {
    start_access(f, scheduler_.now());
  } else {
    release_if_ready(f);  // the data head is held back; this frame is not
  }
}

void Mac::start_access(AccessFunction& f, Time now) {
  // 9.3.4.2: a frame for an idle function with no backoff pending goes once the
  // medium has been idle for AIFS; if the medium is busy, it backs off first.
  if (f.held) {
    f.held = false;
    scheduler_.cancel(f.ready_timer);
  }
  f.counting = true;
  f.eligible_from = now;
  if (busy_) {
    draw_backoff(f, now);
  } else {
    f.backoff_slots = 0;
    f.draw_on_busy = true;
    schedule_access(f);
    reschedule_access_timer();
  }
}

void Mac::hold(AccessFunction& f, Time now) {
  // Not contending: a held frame is not a pending MPDU. The function is idle until
  // the discipline releases its head; ready_at() dates the release when it can.
  f.held = true;
  scheduler_.cancel(f.ready_timer);
  const Time at = f.queue->ready_at(now);
  if (at == Time::max()) return;  // only notify_ready() (or a new packet) can release it
  AccessFunction* fp = &f;
  f.ready_timer = scheduler_.schedule_at(std::max(at, now), [this, fp] {
    const Time t = scheduler_.now();
    if (!fp->held) return;
    if (fp->has_frame_ready(t)) {
      release_if_ready(*fp);
    } else {
      hold(*fp, t);  // the discipline moved its release later
    }
  }, radio_.node());
}

void Mac::release_if_ready(AccessFunction& f) {
  if (!f.held) return;
  const Time now = scheduler_.now();
  if (f.has_frame_ready(now)) start_access(f, now);
}

void Mac::on_queue_ready(QueueDiscipline& queue) {
  for (AccessFunction& f : functions_) {
    if (f.queue.get() != &queue || !f.held) continue;
    const Time now = scheduler_.now();
    if (f.has_frame_ready(now)) {
      start_access(f, now);
    } else {
      hold(f, now);  // not yet: the release date may have moved (a shaper's new rate)
    }
  }
}

// ---- medium state -----------------------------------------------------------------

bool Mac::nav_set() const { return scheduler_.now() < nav_end_; }

bool Mac::exchange_active() const {
  return awaiting_ != Awaiting::nothing || sifs_action_ != SifsAction::none || sending_ != Sending::nothing;
}

bool Mac::wants_min_sinr() const { return scheduler_.log().enabled(spdlog::level::debug, radio_.node()); }

bool Mac::channel_cause() const { return phy_busy_ || radio_.transmitting() || nav_set(); }

bool Mac::medium_busy() const { return channel_cause() || exchange_active(); }

void Mac::account_channel_busy(bool busy) {
  if (busy == channel_busy_) return;
  const Time now = scheduler_.now();
  if (busy) {
    channel_busy_since_ = now;
  } else {
    channel_busy_total_ += now - channel_busy_since_;
  }
  channel_busy_ = busy;
}

Time Mac::channel_busy_time() const {
  return channel_busy_ ? channel_busy_total_ + (scheduler_.now() - channel_busy_since_) : channel_busy_total_;
}

Time Mac::ns2_busy_time() const {
  if (!ns2_busy_) return ns2_busy_total_;
  return ns2_busy_total_ + (std::min(scheduler_.now(), ns2_busy_until_) - ns2_busy_since_);
}

void Mac::account_ns2_busy() { account_ns2_busy(channel_cause()); }

void Mac::account_ns2_busy(bool cause) {
  const Time deadline = std::max(ns2_send_until_, ns2_nav_until_);
  // Called on every change of the medium. With the cause and the deadline of the
  // last call, a call could only close a period at its recorded end (an EIFS that
  // ran out), which the next call with other inputs, or ns2_busy_time, does alike.
  if (cause == ns2_last_cause_ && deadline == ns2_last_deadline_) return;
  ns2_last_cause_ = cause;
  ns2_last_deadline_ = deadline;
  const Time now = scheduler_.now();
  if (ns2_busy_ && ns2_busy_until_ <= now) {  // an EIFS that ended since the last call
    ns2_busy_total_ += ns2_busy_until_ - ns2_busy_since_;
    ns2_busy_ = false;
  }
  const Time until = cause ? Time::max() : deadline;
  if (until > now) {
    if (!ns2_busy_) {
      ns2_busy_ = true;
      ns2_busy_since_ = now;
    }
    ns2_busy_until_ = until;
  } else if (ns2_busy_) {
    ns2_busy_total_ += now - ns2_busy_since_;
    ns2_busy_ = false;
  }
}

void Mac::refresh_medium() {
  const bool cause = channel_cause();
  account_channel_busy(cause);
  const bool busy = cause || exchange_active();
  if (busy != busy_) {
    busy_ = busy;
    const Time now = scheduler_.now();
    if (busy) {
      on_medium_busy(now);
    } else {
      idle_since_ = now;
      on_medium_idle();
    }
  }
  account_ns2_busy(cause);  // after idle_since_ moved: an EIFS counts from there
}

Time Mac::defer_for(const AccessFunction& f) const {
  // 9.19.2.3: AIFS[AC] after an idle medium, EIFS - DIFS + AIFS[AC] after an
  // errored frame (for DCF, AIFSN 2: DIFS and EIFS).
  const Time aifs = timing_.aifs(f.params.aifsn);
  return use_eifs_ ? timing_.eifs - timing_.difs + aifs : aifs;
}

void Mac::schedule_access(AccessFunction& f) {
  const Time count_from = std::max(idle_since_ + defer_for(f), f.eligible_from);
  f.access_at = count_from + f.backoff_slots * timing_.slot;
}

void Mac::on_medium_busy(Time now) {
  const Time guard = same_slot_guard(timing_.slot);
  // Only someone else's signal can start in "our" slot; our own exchange freezes all.
  const bool own = radio_.transmitting() || exchange_active();
  for (AccessFunction& f : functions_) {
    if (!f.counting || f.committed) continue;
    if (!own && f.access_at != Time::max() && f.access_at >= now && f.access_at - now < guard) {
      f.committed = true;  // the busy start is in the slot it transmits in
      continue;
    }
    if (f.draw_on_busy) {
      // Immediate access interrupted before AIFS elapsed: back off (9.3.4.2).
      f.draw_on_busy = false;
      draw_backoff(f, now);
      f.access_at = Time::max();
      continue;
    }
    if (f.access_at != Time::max()) {
      // Whole idle slots that elapsed before the busy start are consumed; the
      // partial one is not (9.3.4.3: decrement at the end of each idle slot).
      const std::int64_t left = (f.access_at - now + timing_.slot - Time::ps(1)) / timing_.slot;
      f.backoff_slots = static_cast<int>(std::min<std::int64_t>(f.backoff_slots, left));
    }
    f.access_at = Time::max();
  }
  reschedule_access_timer();
}

void Mac::on_medium_idle() {
  for (AccessFunction& f : functions_) {
    if (f.counting && !f.committed) schedule_access(f);
  }
  reschedule_access_timer();
}

void Mac::reschedule_access_timer() {
  Time earliest = Time::max();
  for (const AccessFunction& f : functions_) {
    if (f.counting) earliest = std::min(earliest, f.access_at);
  }
  // access_timer_at_ is Time::max() exactly while no access timer is pending.
  if (earliest == access_timer_at_) return;
  scheduler_.cancel(access_timer_);
  access_timer_at_ = Time::max();
  if (earliest != Time::max()) {
    access_timer_ = scheduler_.schedule_at(earliest, [this] { on_access_timer(); }, radio_.node());
    access_timer_at_ = earliest;  // once scheduled: a throw leaves the invariant above
  }
}

void Mac::set_nav(Time until) {
  // 9.3.2.4: the NAV only ever grows from a received Duration.
  if (until <= nav_end_) return;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::trace, radio_.node(), "mac {}: NAV set until {:.9f}s",
             scheduler_.log().radio_label(radio_.id()), until.to_seconds());
  nav_end_ = until;
  scheduler_.cancel(nav_timer_);
  nav_timer_ = scheduler_.schedule_at(until, [this] { refresh_medium(); }, radio_.node());
  refresh_medium();
}

void Mac::draw_backoff(AccessFunction& f, Time now) {
  f.counting = true;
  f.committed = false;
  f.draw_on_busy = false;
  f.backoff_slots = static_cast<int>(backoff_draws_.uniform_int(static_cast<std::uint64_t>(f.cw)));
  WMNSIM_LOG(scheduler_.log(), spdlog::level::trace, radio_.node(), "mac {}: backoff {} slots drawn (CW {}, {})",
             scheduler_.log().radio_label(radio_.id()), f.backoff_slots, f.cw, to_string(f.ac));
  f.eligible_from = now;
  f.access_at = Time::max();
  if (!busy_) schedule_access(f);
}

// ---- channel access -----------------------------------------------------------------

void Mac::on_access_timer() {
  const Time now = scheduler_.now();
  access_timer_at_ = Time::max();
  if (radio_.transmitting() || exchange_active()) {
    // Cannot happen by construction (the medium is busy then); stay safe: try later.
    for (AccessFunction& f : functions_) {
      if (f.counting && f.access_at <= now) {
        f.committed = false;
        f.backoff_slots = 0;
        f.access_at = Time::max();
      }
    }
    reschedule_access_timer();
    return;
  }
  // Every function whose counter reached zero now; the highest category with a
  // frame wins, the others with frames suffer an internal collision (9.19.2.3).
  std::optional<std::size_t> winner;
  std::array<std::size_t, kAccessCategoryCount> losers{};
  std::size_t loser_count = 0;
  for (std::size_t i = functions_.size(); i-- > 0;) {
    AccessFunction& f = functions_[i];
    if (!f.counting || f.access_at != now) continue;
    // Stale packets go before the function's state changes: a source refilling on
    // the drop enqueues as into a function already contending.
    drop_expired(f, now);
    f.counting = false;
    f.committed = false;
    f.draw_on_busy = false;
    f.backoff_slots = 0;
    f.access_at = Time::max();
    if (!f.has_frame()) continue;  // post-backoff over: idle until a frame comes
    if (!f.has_frame_ready(now)) {
      // A shaping discipline holds the head back: idle until it is released, then
      // access as for a frame arriving at an idle function.
      hold(f, now);
      continue;
    }
    if (!winner) {
      winner = i;
    } else {
      losers[loser_count++] = i;
    }
  }
  // The winner first: its transmission makes the medium busy, so the losers'
  // new backoffs count from the end of its exchange.
  if (winner) start_txop(*winner);
  for (std::size_t l = 0; l < loser_count; ++l) {
    AccessFunction& f = functions_[losers[l]];
    ++stats_.internal_collisions;
    WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, radio_.node(), "mac {}: internal collision, {} loses to {}",
               scheduler_.log().radio_label(radio_.id()), to_string(f.ac), to_string(functions_[*winner].ac));
    load_next_mpdu(f);  // the lost frame is charged the retry (9.19.2.3)
    retry_or_drop(f, long_mpdu(loaded_mpdu(f)));
  }
  reschedule_access_timer();
}

void Mac::start_txop(std::size_t index) {
  ++stats_.txops;
  exchange_ = index;
  txop_frames_ = 0;
  const TxopLimit& limit = functions_[index].params.txop;
  txop_end_ = limit.time > Time::zero() ? scheduler_.now() + limit.time : scheduler_.now();
  send_mpdu(index);
}

void Mac::drop_expired(AccessFunction& f, Time now) {
  // A queue lifetime, as ns-3's WifiMacQueue MaxDelay (802.11's
  // dot11MaxTransmitMSDULifetime bounds the whole stay, retries included): a packet
  // that waited longer than it is dropped when the MAC would take it (at a channel
  // access, or to continue a TXOP), not sent late. A frame already taken finishes
  // its retries.
  if (queue_lifetime_) f.queue->drop_expired(now, *queue_lifetime_);
}

void Mac::load_next_mpdu(AccessFunction& f) {
  if (f.has_mpdu()) return;
  // Management frames first: no data queue discipline holds them back.
  const bool management = !f.management.empty();
  if (management) {
    f.mgmt = std::move(f.management.front());
    f.management.pop_front();
  } else {
    f.packet = f.queue->dequeue(scheduler_.now());
    if (!f.packet) throw std::logic_error("MAC: access granted with no frame ready");
    f.service_start = std::max(f.packet->queued_at, f.last_service_end);
    // Here, where each data MPDU is taken exactly once (has_mpdu() above keeps a
    // retried MPDU from coming back), not where its service ends.
    queueing_delays_.add(f.service_start - f.packet->queued_at);
  }
  // One sequence counter for every MPDU (8.2.4.4.2; the simulator keeps one for
  // QoS data too).
  f.sequence = next_sequence_;
  next_sequence_ = static_cast<std::uint16_t>((next_sequence_ + 1) & 0x0fff);  // 12 bits (8.2.4.4.2)
  f.sent_once = false;
  f.short_retries = 0;
  f.long_retries = 0;
  if (!management && user_ != nullptr) user_->on_queue_space(f.ac, *f.packet);
}

void Mac::take_next_early(AccessFunction& f) {
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

void Mac::send_mpdu(std::size_t index) {
  AccessFunction& f = functions_[index];
  load_next_mpdu(f);
  ++txop_frames_;
  sent_rts_ = needs_rts(f);
  if (sent_rts_) {
    send_rts(index);
  } else {
    send_loaded(index);
  }
}

void Mac::send_loaded(std::size_t index) {
  if (functions_[index].mgmt.body) {
    send_management_frame(index);
  } else {
    send_data(index);
  }
}

Mac::MpduInfo Mac::data_mpdu(const Packet& p) {
  return MpduInfo{p.next_hop_radio, data_mpdu_bytes(p), data_airtime(p)};
}

Mac::MpduInfo Mac::management_mpdu(const Management& m) const {
  // Management frames go at the control (basic) rate, whoever receives them.
  const std::uint32_t bytes = mpdu_bytes(FrameKind::action, m.body->size_bytes());
  return MpduInfo{m.receiver, bytes, phy::airtime(radio_.profile(), *timing_.control_rate, bytes)};
}

Mac::MpduInfo Mac::loaded_mpdu(const AccessFunction& f) {
  return f.mgmt.body ? management_mpdu(f.mgmt) : data_mpdu(*f.packet);
}

Mac::MpduInfo Mac::next_mpdu(const AccessFunction& f) {
  if (f.has_mpdu()) return loaded_mpdu(f);
  if (!f.management.empty()) return management_mpdu(f.management.front());
  return data_mpdu(*f.queue->peek_at(scheduler_.now()));
}

std::uint32_t Mac::data_mpdu_bytes(const Packet& p) const {
  return mpdu_bytes(type_ == MacType::dcf ? FrameKind::data : FrameKind::qos_data, p.size_bytes);
}

bool Mac::needs_rts(const AccessFunction& f) const {
  // 9.3.2.6: RTS/CTS for individually addressed frames longer than the threshold.
  if (!rts_threshold_) return false;
  if (f.mgmt.body) {
    const std::uint32_t bytes = mpdu_bytes(FrameKind::action, f.mgmt.body->size_bytes());
    return f.mgmt.receiver != kBroadcastRadio && bytes > *rts_threshold_;
  }
  return f.packet->next_hop_radio != kBroadcastRadio && data_mpdu_bytes(*f.packet) > *rts_threshold_;
}

const phy::Mcs& Mac::rate_to(std::uint32_t radio) {
  if (radio == kBroadcastRadio || !data_rate_) return *timing_.control_rate;
  auto [it, inserted] = rate_cache_.try_emplace(radio, nullptr);
  if (inserted) it->second = data_rate_(radio);
  return it->second != nullptr ? *it->second : *timing_.control_rate;
}

Time Mac::data_airtime(const Packet& p) {
  return phy::airtime(radio_.profile(), rate_to(p.next_hop_radio), data_mpdu_bytes(p));
}

void Mac::send_rts(std::size_t index) {
  AccessFunction& f = functions_[index];
  auto rts = new_frame();
  rts->kind = FrameKind::rts;
  rts->transmitter = MacAddress(address());
  const MpduInfo mpdu = loaded_mpdu(f);
  rts->receiver = MacAddress(mpdu.receiver);
  rts->duration = rts_duration(mpdu.airtime, timing_.cts_airtime, timing_.ack_airtime, timing_.sifs);
  ++stats_.rts_attempts;
  send_frame(std::move(rts), *timing_.control_rate, Sending::rts);
}

void Mac::send_data(std::size_t index) {
  AccessFunction& f = functions_[index];
  const bool broadcast = f.packet->next_hop_radio == kBroadcastRadio;
  auto data = new_frame();
  data->kind = type_ == MacType::dcf ? FrameKind::data : FrameKind::qos_data;
  data->transmitter = MacAddress(address());
  data->receiver = MacAddress(f.packet->next_hop_radio);
  data->duration = broadcast ? Time::zero() : data_duration(timing_.ack_airtime, timing_.sifs);
  data->sequence = f.sequence;
  data->retry = f.sent_once;
  data->access_category = f.ac;
  data->packet = pool_.clone(*f.packet);
  ++stats_.data_attempts;
  if (f.sent_once) ++stats_.data_retries;
  f.sent_once = true;
  const phy::Mcs& rate = rate_to(f.packet->next_hop_radio);
  send_frame(std::move(data), rate, broadcast ? Sending::mpdu_broadcast : Sending::mpdu_unicast);
}

void Mac::send_management_frame(std::size_t index) {
  AccessFunction& f = functions_[index];
  const bool broadcast = f.mgmt.receiver == kBroadcastRadio;
  auto frame = std::make_shared<Frame>();
  frame->kind = FrameKind::action;
  frame->transmitter = MacAddress(address());
  frame->receiver = MacAddress(f.mgmt.receiver);
  frame->duration = broadcast ? Time::zero() : data_duration(timing_.ack_airtime, timing_.sifs);
  frame->sequence = f.sequence;
  frame->retry = f.sent_once;
  frame->management = f.mgmt.body;
  ++stats_.mgmt_attempts;
  if (f.sent_once) ++stats_.mgmt_retries;
  f.sent_once = true;
  send_frame(std::move(frame), *timing_.control_rate, broadcast ? Sending::mpdu_broadcast : Sending::mpdu_unicast);
}

std::shared_ptr<Frame> Mac::new_frame() {
  // One frame per transmission, the hot path: from the medium's pool, not the heap.
  // A pool allocator behind std::allocate_shared keeps the PHY's interface (a
  // shared_ptr payload, held by the medium and by every receiver while on the air)
  // and hands the block back to the pool whichever holder lets go last; an
  // intrusive count would have changed phy_frame.hpp and every PHY user. The pool
  // is the medium's because the medium holds a frame longest (until the last
  // receiver's signal ends), after its sender and receivers are done with it.
  return std::allocate_shared<Frame>(PoolAllocator<Frame>(frame_pool_));
}

void Mac::send_frame(std::shared_ptr<Frame> frame, const phy::Mcs& rate, Sending what) {
  const std::uint32_t bytes = frame->size_bytes();
  const phy::PhyFrame phy_frame{bytes, &rate, phy::airtime(radio_.profile(), rate, bytes), frame};
  if (observer_ != nullptr) observer_->on_frame_sent(address(), *frame, phy_frame.duration);
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, radio_.node(),
             "mac {}: {} sent to {}, {} B at {}, retry {}, seq {}, airtime {:.1f}us", scheduler_.log().radio_label(radio_.id()), to_string(frame->kind),
             frame->receiver.is_broadcast() ? std::string("broadcast") : scheduler_.log().radio_label(frame->receiver.radio()),
             bytes, rate.name, frame->retry ? 1 : 0, frame->sequence, phy_frame.duration.to_seconds() * 1e6);
  if (Fingerprint* fp = scheduler_.fingerprint()) {
    fp->frame(scheduler_.now(), address(), to_string(frame->kind), bytes, phy_frame.duration);
  }
  sending_ = what;
  arm_ns2_send_timer(what, phy_frame.duration, frame->duration);
  radio_.transmit(phy_frame);
}

void Mac::arm_ns2_send_timer(Sending what, Time airtime, Time duration_field) {
  // ns-2's Mac802_11::check_pktRTS/check_pktTx/check_pktCTRL start mhSend_ with the
  // transmission; tx_state_ stays busy until it fires or the response stops it.
  // DSSS_MaxPropagationDelay (mac-802_11.h) is 2 us.
  constexpr Time prop = Time::us(2);
  const Time start = scheduler_.now();
  Time until = start + airtime;
  switch (what) {
    case Sending::rts:
      until += prop + timing_.sifs + timing_.cts_airtime + prop;
      break;
    case Sending::mpdu_unicast:
      until += prop + timing_.sifs + timing_.ack_airtime + prop;
      break;
    case Sending::cts:
      // "cts + data tx time": the CTS's duration field less SIFS and the ACK.
      until += prop + duration_field + prop - timing_.sifs - timing_.ack_airtime;
      break;
    case Sending::mpdu_broadcast:
    case Sending::ack:
    case Sending::nothing:
      break;
  }
  ns2_send_until_ = until;
  ns2_cts_wait_ = what == Sending::cts;
}

void Mac::stop_ns2_send_timer() {
  ns2_send_until_ = std::min(ns2_send_until_, scheduler_.now());
  ns2_cts_wait_ = false;
  account_ns2_busy();
}

void Mac::on_rx_ignored(const phy::PhyFrame& frame) {
  // ns-2's Mac802_11::capture: a frame weaker than the one being received by
  // CPThresh is dropped, and the NAV set to EIFS past its end "so that this does
  // not screw up carrier sense". Always counted in ns2_busy_time; deferred on
  // only with deferral "ns2" (the standard has no such rule: docs/phy.md).
  ns2_nav_until_ = std::max(ns2_nav_until_, scheduler_.now() + frame.duration + timing_.eifs);
  if (deferral_ == Deferral::ns2) set_nav(scheduler_.now() + frame.duration + timing_.eifs);
  account_ns2_busy();
}

void Mac::on_tx_start(const phy::PhyFrame& /*frame*/) { refresh_medium(); }

void Mac::on_tx_end() {
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
      if (f.mgmt.body) {
        ++stats_.mgmt_tx_success;
        f.mgmt = {};
      } else {
        ++stats_.tx_success;
        ++stats_.broadcasts;
        service_delays_.add(now - f.service_start);
        f.packet.reset();
      }
      f.last_service_end = now;
      f.cw = f.params.cw_min;
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
    const Time timeout = awaiting_ == Awaiting::cts ? timing_.cts_timeout : timing_.ack_timeout;
    response_timer_ = scheduler_.schedule_at(now + timeout, [this] { on_response_timeout(); }, radio_.node());
  }
  refresh_medium();
}

void Mac::schedule_sifs(SifsAction action) {
  sifs_action_ = action;
  sifs_timer_ = scheduler_.schedule_in(timing_.sifs, [this] { on_sifs(); }, radio_.node());
}

void Mac::on_sifs() {
  const SifsAction action = sifs_action_;
  sifs_action_ = SifsAction::none;
  if (radio_.transmitting()) {
    refresh_medium();  // cannot happen: one exchange at a time
    return;
  }
  switch (action) {
    case SifsAction::ack:
      ++stats_.acks_sent;
      send_frame(std::move(sifs_frame_), *timing_.control_rate, Sending::ack);
      break;
    case SifsAction::cts:
      ++stats_.cts_sent;
      send_frame(std::move(sifs_frame_), *timing_.control_rate, Sending::cts);
      break;
    case SifsAction::data_after_cts:
      send_loaded(*exchange_);
      break;
    case SifsAction::txop_next:
      ++stats_.txop_continuations;
      send_mpdu(*exchange_);  // the frame taken when the TXOP was continued
      break;
    case SifsAction::none:
      refresh_medium();
      break;
  }
}

bool Mac::txop_allows_next(AccessFunction& f) {
  // 9.19.2.2: more frames of the same category, SIFS apart, while the TXOP lasts.
  const TxopLimit& limit = f.params.txop;
  if (limit.frames <= 0 && limit.time <= Time::zero()) return false;  // one frame per access
  drop_expired(f, scheduler_.now());  // the next frame is taken now
  if (!f.has_frame_ready(scheduler_.now())) return false;
  if (limit.frames > 0) return txop_frames_ < limit.frames;
  const MpduInfo next = next_mpdu(f);
  if (next.receiver == kBroadcastRadio) return false;
  Time exchange = timing_.sifs + next.airtime + timing_.sifs + timing_.ack_airtime;
  if (long_mpdu(next)) {
    exchange += timing_.rts_airtime + timing_.sifs + timing_.cts_airtime + timing_.sifs;
  }
  return scheduler_.now() + exchange <= txop_end_;
}

// ---- outcomes -----------------------------------------------------------------------

void Mac::on_response_timeout() {
  if (radio_.receiving() && radio_.reception_start() >= response_window_start_) {
    // A frame started in time: its end decides (9.3.2.8).
    timeout_passed_ = true;
    return;
  }
  exchange_failed();
}

void Mac::exchange_succeeded() {
  scheduler_.cancel(response_timer_);
  awaiting_ = Awaiting::nothing;
  stop_ns2_send_timer();  // ns-2's recvACK
  AccessFunction& f = functions_[*exchange_];
  // 9.3.4.4: the retry count of the frame resets on its ACK; the window too.
  const Time now = scheduler_.now();
  if (f.mgmt.body) {
    ++stats_.mgmt_tx_success;
    f.mgmt = {};
  } else {
    ++stats_.tx_success;
    service_delays_.add(now - f.service_start);
    f.packet.reset();
  }
  f.last_service_end = now;
  f.short_retries = 0;
  f.long_retries = 0;
  f.cw = f.params.cw_min;
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

void Mac::exchange_failed() {
  scheduler_.cancel(response_timer_);
  const bool rts_failed = awaiting_ == Awaiting::cts;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, radio_.node(), "mac {}: exchange failed: no {}", scheduler_.log().radio_label(radio_.id()),
             rts_failed ? "CTS" : "ACK");
  awaiting_ = Awaiting::nothing;
  timeout_passed_ = false;
  ++stats_.failed_attempts;
  AccessFunction& f = functions_[*exchange_];
  // 9.3.4.4: an RTS counts against the short limit; a DATA frame against the long
  // one when it is longer than the RTS threshold, else the short one.
  const bool long_frame = !rts_failed && long_mpdu(loaded_mpdu(f));
  exchange_.reset();
  retry_or_drop(f, long_frame);
  refresh_medium();
}

void Mac::retry_or_drop(AccessFunction& f, bool long_frame) {
  const Time now = scheduler_.now();
  int& count = long_frame ? f.long_retries : f.short_retries;
  const int limit = long_frame ? long_retry_limit_ : short_retry_limit_;
  ++count;
  if (f.mgmt.body && count >= limit) {
    // A management frame is no packet: counted, not reported as a packet drop.
    ++stats_.mgmt_drops_retry_limit;
    f.short_retries = 0;
    f.long_retries = 0;
    f.cw = f.params.cw_min;
    f.mgmt = {};
    f.last_service_end = now;
  } else if (f.packet && count >= limit) {
    ++stats_.drops_retry_limit;
    // (the drop itself is logged where every drop goes: Node::on_drop)
    f.short_retries = 0;
    f.long_retries = 0;
    f.cw = f.params.cw_min;
    service_delays_.add(now - f.service_start);
    f.last_service_end = now;
    if (observer_ != nullptr) observer_->on_drop(address(), *f.packet, DropCause::retry_limit);
    drops_.on_drop(std::move(f.packet), DropCause::retry_limit, now);
    f.packet.reset();
  } else {
    f.cw = next_cw(f.cw, f.params.cw_max);
    WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, radio_.node(), "mac {}: retry {} of {} ({} retry count), CW now {}",
               scheduler_.log().radio_label(radio_.id()), count, limit, long_frame ? "long" : "short", f.cw);
  }
  draw_backoff(f, now);
  take_next_early(f);  // after a drop, the next frame (mac.dequeue "after_exchange")
  reschedule_access_timer();
}

void Mac::finish_exchange(AccessFunction& f) {
  exchange_.reset();
  // Post-backoff after every exchange (9.3.4.3), with the window now in force.
  draw_backoff(f, scheduler_.now());
  take_next_early(f);
  refresh_medium();
  reschedule_access_timer();
}

// ---- receiving ----------------------------------------------------------------------

void Mac::on_cca_busy() {
  phy_busy_ = true;
  refresh_medium();
}

void Mac::on_cca_idle() {
  phy_busy_ = false;
  refresh_medium();
}

void Mac::on_rx_end(const phy::PhyFrame& phy_frame, phy::RxOutcome outcome, const phy::RxInfo& info) {
  if (outcome == phy::RxOutcome::aborted) return;  // our own transmission cut it: no EIFS
  if (outcome == phy::RxOutcome::error) {
    ++stats_.rx_errors;
    // The PHY does not say whether a collision or a channel error lost the frame;
    // the worst SINR (sinr reception model; infinite under the others) hints which.
    WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, radio_.node(),
               "mac {}: reception lost (collision or channel error), worst SINR {:.1f} dB",
               scheduler_.log().radio_label(radio_.id()), info.min_sinr_db());
    // ns-2's recv_timer: set_nav(EIFS) from the lost frame's end.
    ns2_nav_until_ = std::max(ns2_nav_until_, scheduler_.now() + timing_.eifs);
    if (deferral_ == Deferral::ns2) {
      set_nav(scheduler_.now() + timing_.eifs);  // then DIFS, as after any NAV
    } else {
      use_eifs_ = true;  // 9.3.2.3.7
    }
    account_ns2_busy();
    // Whatever it was, the awaited response did not arrive intact; unless it began
    // before the response window (it overlapped our own frame, so it was never a
    // PHY-RXSTART in the window, 9.3.2.8): then the timeout decides.
    if (awaiting_ != Awaiting::nothing && (timeout_passed_ || info.start >= response_window_start_)) exchange_failed();
    return;
  }
  use_eifs_ = false;  // an error-free frame resynchronises (9.3.2.3.7)
  account_ns2_busy();
  // Every payload on a MAC's channel is a mac::Frame; the PHY tests send none.
  const auto* frame = static_cast<const Frame*>(phy_frame.payload.get());
  if (frame == nullptr) return;
  if (observer_ != nullptr) observer_->on_frame_received(address(), *frame);
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, radio_.node(), "mac {}: {} received from {} to {}, {} B, retry {}, seq {}",
             scheduler_.log().radio_label(radio_.id()), to_string(frame->kind), scheduler_.log().radio_label(frame->transmitter.radio()),
             frame->receiver.is_broadcast() ? std::string("broadcast") : scheduler_.log().radio_label(frame->receiver.radio()),
             phy_frame.psdu_bytes, frame->retry ? 1 : 0, frame->sequence);
  const bool to_me = frame->receiver == MacAddress(address());
  if (awaiting_ == Awaiting::cts && to_me && frame->kind == FrameKind::cts) {
    scheduler_.cancel(response_timer_);
    awaiting_ = Awaiting::nothing;
    functions_[*exchange_].short_retries = 0;  // 9.3.4.4: SRC resets on the CTS
    stop_ns2_send_timer();  // ns-2's recvCTS
    schedule_sifs(SifsAction::data_after_cts);
    return;
  }
  // ns-2's recvDATA stops a CTS sender's timer when the DATA arrives.
  if (ns2_cts_wait_ && to_me && (frame->kind == FrameKind::data || frame->kind == FrameKind::qos_data || frame->kind == FrameKind::action)) {
    stop_ns2_send_timer();
  }
  if (awaiting_ == Awaiting::ack && to_me && frame->kind == FrameKind::ack) {
    exchange_succeeded();
    return;
  }
  // 9.3.2.8: any other frame while a response is awaited means it failed.
  if (awaiting_ != Awaiting::nothing) exchange_failed();
  handle_frame(*frame);
}

void Mac::handle_frame(const Frame& frame) {
  const std::uint32_t me = address();
  if (frame.receiver.is_broadcast()) {
    if (is_data(frame.kind) && frame.packet) {
      ++stats_.rx_data;
      if (user_ != nullptr) user_->on_mac_receive(pool_.clone(*frame.packet), frame.transmitter.radio());
    } else if (frame.kind == FrameKind::action && frame.management) {
      receive_management(frame);
    }
    return;
  }
  if (frame.receiver.radio() != me) {
    // Virtual carrier sense (9.3.2.4): a frame for someone else reserves the medium.
    if (frame.duration > Time::zero()) set_nav(scheduler_.now() + frame.duration);
    return;
  }
  switch (frame.kind) {
    case FrameKind::data:
    case FrameKind::qos_data: {
      if (sifs_action_ != SifsAction::none) return;  // cannot answer two frames at once
      auto ack = new_frame();
      ack->kind = FrameKind::ack;
      ack->transmitter = MacAddress(me);
      ack->receiver = frame.transmitter;
      ack->duration = ack_duration();
      sifs_frame_ = std::move(ack);
      schedule_sifs(SifsAction::ack);
      const auto category = static_cast<std::uint8_t>(frame.kind == FrameKind::qos_data ? index_of(frame.access_category) : 0);
      if (duplicates_.is_duplicate(frame.transmitter.radio(), category, frame.sequence, frame.retry)) {
        ++stats_.rx_duplicates;  // acknowledged again, not delivered twice (9.3.2.10)
      } else if (frame.packet) {
        ++stats_.rx_data;
        if (user_ != nullptr) user_->on_mac_receive(pool_.clone(*frame.packet), frame.transmitter.radio());
      }
      refresh_medium();
      return;
    }
    case FrameKind::rts: {
      // 9.3.2.6: answer an RTS only if the NAV says the medium is idle.
      if (nav_set() || sifs_action_ != SifsAction::none || exchange_) return;
      auto cts = new_frame();
      cts->kind = FrameKind::cts;
      cts->transmitter = MacAddress(me);
      cts->receiver = frame.transmitter;
      cts->duration = cts_duration(frame.duration, timing_.cts_airtime, timing_.sifs);
      sifs_frame_ = std::move(cts);
      schedule_sifs(SifsAction::cts);
      refresh_medium();
      return;
    }
    case FrameKind::action: {
      if (sifs_action_ != SifsAction::none) return;  // cannot answer two frames at once
      auto ack = std::make_shared<Frame>();
      ack->kind = FrameKind::ack;
      ack->transmitter = MacAddress(me);
      ack->receiver = frame.transmitter;
      ack->duration = ack_duration();
      sifs_frame_ = std::move(ack);
      schedule_sifs(SifsAction::ack);
      // 9.3.2.10: management frames have their own cache entry per transmitter.
      if (duplicates_.is_duplicate(frame.transmitter.radio(), kManagementCacheCategory, frame.sequence, frame.retry)) {
        ++stats_.mgmt_rx_duplicates;
      } else if (frame.management) {
        receive_management(frame);
      }
      refresh_medium();
      return;
    }
    case FrameKind::cts:
    case FrameKind::ack:
      return;  // not awaited (late or stray): ignored
  }
}

void Mac::receive_management(const Frame& frame) {
  ++stats_.mgmt_rx;
  const bool taken = user_ != nullptr && user_->on_management_receive(*frame.management, frame.transmitter.radio());
  if (!taken) ++stats_.mgmt_rx_discarded;
}

}  // namespace wmnsim::mac
