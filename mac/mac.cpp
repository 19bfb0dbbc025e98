#include "mac/mac.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "core/sim_log.hpp"
#include "link/drop_tail_queue.hpp"
#include "phy/medium.hpp"

namespace wmnsim::mac {
namespace {

void check_params(const EdcaParams& p) {
  if (p.aifsn < 1) throw std::invalid_argument("AIFSN must be at least 1, got " + std::to_string(p.aifsn));
  if (p.cw_min < 1) throw std::invalid_argument("cw_min must be at least 1 slot, got " + std::to_string(p.cw_min));
  if (p.cw_max < p.cw_min) {
    throw std::invalid_argument("cw_max (" + std::to_string(p.cw_max) + ") must not be below cw_min (" +
                                std::to_string(p.cw_min) + ")");
  }
}

FrameExchangeConfig exchange_config(const MacConfig& config) {
  FrameExchangeConfig c;
  c.type = config.type;
  c.rts_threshold = config.params.rts_threshold_bytes;
  c.short_retry_limit = config.params.short_retry_limit;
  c.long_retry_limit = config.params.long_retry_limit;
  c.dequeue = config.params.dequeue;
  c.queue_lifetime = config.params.queue_lifetime;
  c.queue_lifetime_rule = config.params.queue_lifetime_rule;
  c.deferral = config.params.deferral;
  c.retry_counts = config.params.retry_counts;
  return c;
}

// A MAC built on its own (tests, fixtures): a context of its own.
std::shared_ptr<const MacContext> own_context(Simulation& sim, phy::Radio& radio, const MacConfig& config,
                                              PacketPool& pool) {
  const phy::Mcs& control = config.control_rate != nullptr ? *config.control_rate : radio.profile().lowest_rate();
  return std::make_shared<const MacContext>(MacContext{sim.scheduler(), radio.profile(),
                                                       mac_timing(radio.profile(), control), pool,
                                                       radio.medium().payload_pool(), config.data_rate});
}

// A shared context must be the one this MAC would have: of its radio's profile,
// its simulation, its packet pool and its medium.
const std::shared_ptr<const MacContext>& checked_context(const std::shared_ptr<const MacContext>& context,
                                                         Simulation& sim, phy::Radio& radio, PacketPool& pool) {
  if (&context->scheduler != &sim.scheduler() || &context->profile != &radio.profile() || &context->pool != &pool ||
      &context->frame_pool != &radio.medium().payload_pool()) {
    throw std::invalid_argument("MacConfig::context is not of this radio's profile, simulation, packet pool and medium");
  }
  return context;
}

}  // namespace

Mac::Mac(Simulation& sim, phy::Radio& radio, const MacConfig& config, PacketPool& pool, DropSink& drops,
         RandomStream backoff_draws)
    : scheduler_(sim.scheduler()),
      radio_(radio),
      type_(config.type),
      queue_unit_(config.params.queue.unit),
      context_(config.context ? checked_context(config.context, sim, radio, pool) : own_context(sim, radio, config, pool)),
      queue_capacity_(config.params.queue.capacity),
      functions_(make_functions(config, drops)),
      port_(radio),
      access_(scheduler_, radio.node(), radio.id(), context_->timing, config.params.deferral, config.params.immediate_access,
              functions_, meter_, *this, backoff_draws.uniform_part(), radio.cca_busy(), radio.transmitting()),
      meter_(radio.cca_busy() || radio.transmitting()),
      exchange_(FrameExchangeParts{*context_, radio.node(), radio.id(), port_, access_, meter_, functions_, drops},
                exchange_config(config)) {
  radio_.set_listener(this);
}

std::vector<AccessFunction> Mac::make_functions(const MacConfig& config, DropSink& drops) {
  // The retry limits first, then each function's parameters: a document wrong in
  // both hears of the limits (FrameExchange checks them again for its setter).
  check_retry_limits(config.params.short_retry_limit, config.params.long_retry_limit);
  std::vector<AccessFunction> functions;
  auto add_function = [&](AccessCategory ac, const EdcaParams& params) {
    check_params(params);
    functions.emplace_back(ac, params, std::make_unique<link::DropTailQueue>(config.params.queue, drops));
    functions.back().queue->set_ready_listener(this);
    functions.back().station_count_cw = config.params.cw_after_drop == CwAfterDrop::ns3;
  };
  if (type_ == MacType::dcf) {
    add_function(AccessCategory::ac_be, dcf_params(config.params));
  } else {
    functions.reserve(kAccessCategoryCount);
    for (std::size_t i = 0; i < kAccessCategoryCount; ++i) {
      add_function(static_cast<AccessCategory>(i), config.params.access_categories[i]);
    }
  }
  return functions;
}

Mac::~Mac() {
  radio_.set_listener(nullptr);
  for (AccessFunction& f : functions_) {
    scheduler_.cancel(f.ready_timer);
    f.queue->set_ready_listener(nullptr);
  }
}

std::size_t Mac::index_for(AccessCategory ac) const { return type_ == MacType::dcf ? 0 : index_of(ac); }
AccessFunction& Mac::function_for(AccessCategory ac) { return functions_[index_for(ac)]; }
const AccessFunction& Mac::function_for(AccessCategory ac) const { return functions_[index_for(ac)]; }

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
  f.set_params(params);
  access_.params_changed(f);
  access_.observers().tell([&](MacObserver& o) { o.on_params(address(), f.ac, params); });
}

void Mac::set_cw_min(AccessCategory ac, int cw_min) {
  EdcaParams p = params(ac);
  p.cw_min = cw_min;
  p.cw_max = std::max(p.cw_max, cw_min);
  set_params(ac, p);
}

void Mac::set_queue(AccessCategory ac, std::unique_ptr<link::QueueDiscipline> queue) {
  if (!queue) throw std::invalid_argument("set_queue: no queue discipline given");
  AccessFunction& f = function_for(ac);
  const Time now = scheduler_.now();
  f.queue->set_ready_listener(nullptr);
  // Dequeue::ns3: the frame in service holds its place in the new queue (first, so
  // that the packets moved over fit as they would have beside it).
  if (exchange_.holds_place(f)) queue->hold_place(*f.packet);
  while (PacketPtr p = f.queue->dequeue(now)) queue->enqueue(std::move(p), now);
  f.queue = std::move(queue);
  f.queue->set_ready_listener(this);
  // A held function asks the new discipline when it may go.
  if (f.held()) {
    if (f.has_frame_ready(now)) {
      start_access(f, now);
    } else {
      hold(f, now);
    }
  }
}

// ---- enqueue ----------------------------------------------------------------------

link::EnqueueResult Mac::enqueue(PacketPtr packet) {
  if (!packet) throw std::invalid_argument("Mac::enqueue: null packet");
  const AccessCategory ac = type_ == MacType::dcf ? AccessCategory::ac_be : classifier_.classify(*packet);
  AccessFunction& f = function_for(ac);
  const bool was_idle = !f.contending() && !f.has_frame() && !exchange_.in_exchange(f);
  const Time now = scheduler_.now();
  packet->queued_at = now;  // its queue lifetime counts from here
  const Packet& queued = *packet;  // the queue holds it once accepted
  const link::EnqueueResult result = f.queue->enqueue(std::move(packet), now);
  if (!result.is_accepted()) return result;
  access_.observers().tell(
      [&](MacObserver& o) { o.on_enqueue(radio_.id(), queued, ac, f.queue->length_packets()); });
  if (was_idle && !f.contending()) {  // (a discipline's notify_ready() may have started it)
    if (f.has_frame_ready(now)) {
      start_access(f, now);
    } else {
      hold(f, now);  // a shaper holds it back from the start
    }
  } else if (f.held()) {
    release_if_ready(f);  // a held discipline may let the new packet go at once
  }
  exchange_.take_next_early(f);
  return result;
}

void Mac::send_management(std::shared_ptr<const ManagementBody> body, std::uint32_t receiver) {
  if (!body) throw std::invalid_argument("Mac::send_management: no frame body");
  AccessFunction& f = functions_[management_index()];
  const bool was_idle = !f.contending() && !f.held() && !f.has_frame() && !exchange_.in_exchange(f);
  f.queue_management(ManagementFrame{std::move(body), receiver});
  if (was_idle) {
    start_access(f, scheduler_.now());
  } else {
    release_if_ready(f);  // the data head is held back; this frame is not
  }
}

void Mac::start_access(AccessFunction& f, Time now) {
  if (f.held()) {
    f.release();
    scheduler_.cancel(f.ready_timer);
  }
  access_.request_access(f, now);
}

void Mac::hold(AccessFunction& f, Time now) {
  // Not contending: a held frame is not a pending MPDU. The function is idle until
  // the discipline releases its head; ready_at() dates the release when it can.
  f.hold();
  scheduler_.cancel(f.ready_timer);
  const Time at = f.queue->ready_at(now);
  if (at == Time::max()) return;  // only notify_ready() (or a new packet) can release it
  AccessFunction* fp = &f;
  f.ready_timer = scheduler_.schedule_at(std::max(at, now), [this, fp] {
    const Time t = scheduler_.now();
    if (!fp->held()) return;
    if (fp->has_frame_ready(t)) {
      release_if_ready(*fp);
    } else {
      hold(*fp, t);  // the discipline moved its release later
    }
  }, radio_.node());
}

void Mac::release_if_ready(AccessFunction& f) {
  if (!f.held()) return;
  const Time now = scheduler_.now();
  if (f.has_frame_ready(now)) start_access(f, now);
}

void Mac::on_queue_ready(link::QueueDiscipline& queue) {
  for (AccessFunction& f : functions_) {
    if (f.queue.get() != &queue || !f.held()) continue;
    const Time now = scheduler_.now();
    if (f.has_frame_ready(now)) {
      start_access(f, now);
    } else {
      hold(f, now);  // not yet: the release date may have moved (a shaper's new rate)
    }
  }
}

// ---- the access grant ---------------------------------------------------------------

void Mac::on_access_time(Time now) {
  // Every function whose counter reached zero now; the highest category with a
  // frame wins, the others with frames suffer an internal collision (9.19.2.3).
  std::optional<std::size_t> winner;
  std::array<std::size_t, kAccessCategoryCount> losers{};
  std::size_t loser_count = 0;
  for (std::size_t i = functions_.size(); i-- > 0;) {
    AccessFunction& f = functions_[i];
    if (!f.contending() || f.access_at != now) continue;
    // Stale packets go before the function's state changes: a source refilling on
    // the drop enqueues as into a function already contending.
    const bool expired = exchange_.drop_expired(f, now);
    f.end_contention();
    if (!f.has_frame()) {
      // QueueLifetimeRule::ns3 under DCF: an access that expiries left without a frame
      // is lost, and ns-3's Txop::NotifyChannelReleased draws a new backoff with the CW
      // as it stands, which the next frame waits for. (Its QosTxop draws none after an
      // access that sent nothing, GenerateBackoffOnNoTx being off by default: under EDCA
      // the function falls idle as below.) Otherwise the post-backoff is over: idle
      // until a frame comes.
      if (expired && type_ == MacType::dcf && exchange_.queue_lifetime_ns3()) access_.draw_backoff(f, now);
      continue;
    }
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
  if (winner) exchange_.start_txop(*winner);
  for (std::size_t l = 0; l < loser_count; ++l) {
    AccessFunction& f = functions_[losers[l]];
    ++exchange_.counters().internal_collisions;
    WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, radio_.node(), "mac {}: internal collision, {} loses to {}",
               scheduler_.log().radio_label(radio_.id()), to_string(f.ac), to_string(functions_[*winner].ac));
    exchange_.internal_collision(f);
  }
  access_.reschedule_timer();
}

// ---- the radio ------------------------------------------------------------------------

bool Mac::wants_min_sinr() const { return scheduler_.log().enabled(spdlog::level::debug, radio_.node()); }

void Mac::on_rx_ignored(const phy::PhyFrame& frame) { access_.ignored_reception(frame.duration); }

}  // namespace wmnsim::mac
