#include "control/mesh_congestion_control.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/sim_log.hpp"
#include "mac/congestion_notification.hpp"

namespace wmnsim::control {

namespace {

constexpr AccessCategory kCategory = AccessCategory::ac_be;  // 004 Sec. 3.1: one access class
// A queue limited in packets counts full-size packets.
constexpr std::int64_t kBytesPerPacket = 1500;

double seconds(Time t) { return t.to_seconds(); }

std::string radio_list(const SimLog& log, const std::vector<std::uint32_t>& radios) {
  std::string out;
  for (const std::uint32_t r : radios) {
    if (!out.empty()) out += ", ";
    out += log.radio_label(r);
  }
  return out;
}

}  // namespace

MeshCongestionControl::MeshCongestionControl(const ControllerConfig& config, ControlContext& context)
    : Controller(config, context), params_(config.params_as<CongestionNotificationParams>()) {}

MeshCongestionControl::~MeshCongestionControl() {
  for (auto& s : radios_) sim().scheduler().cancel(s->check);
}

void MeshCongestionControl::on_stop() {
  for (auto& s : radios_) sim().scheduler().cancel(s->check);
}

void MeshCongestionControl::start() {
  ControlContext& ctx = context();
  const Time now = sim().now();
  for (const std::size_t n : config().nodes) {
    if (n >= ctx.macs.size()) continue;
    for (mac::Mac* m : ctx.macs[n]) {
      auto s = std::make_unique<RadioState>();
      s->owner = this;
      s->node = static_cast<std::uint32_t>(n);
      s->mac = m;
      s->duration = params_.initial_duration;
      if (keep()) s->duration_series.emplace_back(now, s->duration);
      RadioState* state = s.get();
      // Data travels in AC_BE (DCF's one category; under EDCA the category 004's
      // single access class maps to): its queue becomes the mesh buffer.
      for (const AccessCategory ac : {AccessCategory::ac_be}) {
        const link::QueueLimit& limit = m->queue_limit();  // the scenario's, whatever queue is there now
        link::MeshBufferParams bp;
        bp.capacity_bytes = limit.unit == link::QueueLimit::Unit::bytes ? limit.capacity : limit.capacity * kBytesPerPacket;
        bp.forward_share = params_.forward_share;
        bp.link_selective = params_.link_selective;
        bp.blocked_local_limit = params_.blocked_local_limit;
        auto previous_hop = [state](const Packet& p) -> std::uint32_t {
          if (p.hops == 0) return link::MeshBuffer::kLocal;
          if (state->incoming_valid && state->incoming == p.id) return state->incoming_from;
          return link::MeshBuffer::kLocal - 1;  // forwarded, from a neighbour not known here
        };
        auto buffer = std::make_unique<link::MeshBuffer>(bp, previous_hop, *ctx.nodes.at(n), state);
        s->buffers.push_back(buffer.get());
        m->set_queue(ac, std::move(buffer));
      }
      radios_.push_back(std::move(s));
    }
  }
  std::uint32_t max_radio = 0;
  for (const auto& s : radios_) max_radio = std::max(max_radio, s->mac->address());
  by_radio_.assign(radios_.empty() ? 0 : max_radio + 1, -1);
  for (std::size_t i = 0; i < radios_.size(); ++i) by_radio_[radios_[i]->mac->address()] = static_cast<std::int32_t>(i);
  tree_neighbours();
  std::set<std::uint32_t> nodes;
  for (const auto& s : radios_) nodes.insert(s->node);
  for (const std::uint32_t n : nodes) {
    subscribe(n, *this);
    subscribe_management(n, mac::CongestionNotification::kCategoryMesh, *this);
  }
}

MeshCongestionControl::RadioState* MeshCongestionControl::state_of_radio(std::uint32_t radio) {
  if (radio >= by_radio_.size() || by_radio_[radio] < 0) return nullptr;
  return radios_[static_cast<std::size_t>(by_radio_[radio])].get();
}

void MeshCongestionControl::tree_neighbours() {
  // Sec. 3.2: "all neighbors in the routing tree". Here: the neighbours that the
  // flows' paths cross this radio with, both ways, ACK paths included.
  const ControlContext& ctx = context();
  const auto walk = [&](std::uint32_t src, std::uint32_t dst) {
    std::uint32_t at = src;
    for (std::size_t step = 0; at != dst && step <= ctx.nodes.size(); ++step) {
      const NextHop* hop = ctx.routing.tables.next_hop(at, dst);
      if (hop == nullptr) return;
      const bool radio_hop = hop->interface < ctx.macs[at].size();
      if (radio_hop) {
        const std::uint32_t from_radio = ctx.macs[at][hop->interface]->address();
        if (RadioState* a = state_of_radio(from_radio)) a->tree_neighbours.push_back(hop->address);
        if (RadioState* b = state_of_radio(hop->address)) b->tree_neighbours.push_back(from_radio);
      }
      at = hop->node;
    }
  };
  for (const ControlContext::FlowInfo& f : ctx.flows) {
    walk(f.src, f.dst);
    if (f.sends_acks) walk(f.dst, f.src);
  }
  for (auto& s : radios_) {
    std::sort(s->tree_neighbours.begin(), s->tree_neighbours.end());
    s->tree_neighbours.erase(std::unique(s->tree_neighbours.begin(), s->tree_neighbours.end()), s->tree_neighbours.end());
  }
}

void MeshCongestionControl::on_forwarded(std::uint32_t node, Packet& packet, const PrevHop& from, const NextHop& to) {
  const ControlContext& ctx = context();
  if (to.interface >= ctx.macs[node].size()) return;  // onto a wired link
  RadioState* s = state_of_radio(ctx.macs[node][to.interface]->address());
  if (s == nullptr) return;
  s->incoming = packet.id;
  s->incoming_valid = true;
  // A radio neighbour by its address; a wired one is no neighbour to notify.
  s->incoming_from = from.interface < ctx.macs[node].size() ? from.address : link::MeshBuffer::kLocal - 1;
}

std::int64_t MeshCongestionControl::held_bytes(const RadioState& s) const {
  std::int64_t b = 0;
  for (const link::MeshBuffer* q : s.buffers) b += q->length_bytes();
  return b;
}
std::int64_t MeshCongestionControl::blocked_bytes(const RadioState& s, Time now, bool forwarded_only) const {
  if (!params_.exclude_blocked_packets) return 0;
  std::int64_t b = 0;
  for (const link::MeshBuffer* q : s.buffers) b += q->bytes_for_blockers(now, forwarded_only);
  return b;
}

std::int64_t MeshCongestionControl::forward_bytes(const RadioState& s) const {
  std::int64_t b = 0;
  for (const link::MeshBuffer* q : s.buffers) b += q->forward_bytes();
  return b;
}
std::int64_t MeshCongestionControl::capacity(const RadioState& s) const {
  std::int64_t b = 0;
  for (const link::MeshBuffer* q : s.buffers) b += q->params().capacity_bytes;
  return b;
}

void MeshCongestionControl::RadioState::on_departure(Time now, const Packet& /*departed*/) {
  owner->on_departure(*this, now);
}

void MeshCongestionControl::RadioState::on_queue_length(Time now, std::size_t /*packets*/, std::int64_t /*bytes*/) {
  owner->on_length(*this, now);
}

bool MeshCongestionControl::running(const RadioState& s, std::uint32_t radio, Time now) const {
  for (const Notified& n : s.notified) {
    // Under the default reading the check precedes the expiry, so this is the timer
    // alone; after_expiry and last_used extend it to the check (header).
    if (n.radio == radio) return n.until > now || n.check_pending();
  }
  return false;
}

Time MeshCongestionControl::check_time(Time sent_at, Time timer) const {
  switch (params_.renewal_check_at) {
    case RenewalCheckAt::before_expiry:
      // 004 Sec. 3.1: "shortly before" (half the timer when that is shorter).
      return sent_at + timer - std::min(params_.expiry_check_lead, timer / 2);
    case RenewalCheckAt::at_expiry: return sent_at + timer;
    case RenewalCheckAt::after_expiry:
      // 004 Sec. 4.1: "after the expiration of the timer".
      return sent_at + timer + params_.expiry_check_lead;
  }
  return sent_at + timer;
}

void MeshCongestionControl::set_duration(RadioState& s, Time d, Time now) {
  // The field's range: 100 us units up to 6.5535 s (mac/congestion_notification.hpp).
  d = std::clamp(d, mac::CongestionNotification::kDurationUnit, mac::CongestionNotification::kMaxDuration);
  if (d != s.duration) tell({ControllerAction::duration, s.node, s.mac->address(), kNoNode, kNoNode, d.picoseconds()});
  s.duration = d;
  if (keep()) s.duration_series.emplace_back(now, d);
}

void MeshCongestionControl::on_departure(RadioState& s, Time now) {
  const double cap = static_cast<double>(capacity(s));
  const double forwarded = static_cast<double>(forward_bytes(s));
  // Too long (Sec. 3.1): a data packet left and the forwarding part is nearly empty.
  // 004: "the last congestion control duration has been too long. In this case, the
  // congestion duration variable is slightly decreased. If the congestion control
  // expiration timer is still active, a congestion control notification packet with
  // the expiration timer set to 0 is transmitted." So D decreases while the period
  // lasts, i.e. while a neighbour is under control (running()), and the timer-0
  // frame goes only to the neighbours whose timer still runs. The two differ only
  // where a check outlives every timer: after_expiry's lag. (Under last_used an
  // earlier neighbour's timer may have ended, but the last one's runs while its
  // check is pending; under the default reading a pending check always precedes its
  // own timer's end.)
  if (s.adapting && forwarded < params_.too_long_threshold * cap) {
    std::vector<std::uint32_t> lift;
    bool under_control = false;
    for (const Notified& n : s.notified) {
      if (n.until > now) lift.push_back(n.radio);
      if (n.until > now || n.check_pending()) under_control = true;
    }
    if (under_control) {
      set_duration(s, Time::from_seconds(s.duration.to_seconds() * params_.decrease_factor), now);
      ++s.decreases;
      notify(s, lift, Time::zero(), now, Reason::lift);
      // The period ends here: no notification is checked for being too short.
      sim().scheduler().cancel(s.check);
      for (Notified& n : s.notified) n.check_at = Time::max();
      s.last_used_check_at = Time::max();
    }
  }
}

void MeshCongestionControl::on_length(RadioState& s, Time now) {
  // The buffer as the departure's check left it: a notification goes to the MAC's
  // management queue, never into this buffer.
  const double cap = static_cast<double>(capacity(s));
  const double held = static_cast<double>(held_bytes(s));
  const double forwarded = static_cast<double>(forward_bytes(s));
  // What the congestion and look-ahead tests see (exclude_blocked_packets: not the
  // packets only another station's notification keeps here).
  const double held_tested = held - static_cast<double>(blocked_bytes(s, now, false));
  const double forwarded_tested = forwarded - static_cast<double>(blocked_bytes(s, now, true));
  // Congestion (Sec. 3.1, 4.1): more than 60 % of the buffer occupied.
  if (held_tested > params_.congestion_threshold * cap) {
    std::vector<std::uint32_t> to;
    for (const std::uint32_t r : s.tree_neighbours) {
      if (!running(s, r, now)) to.push_back(r);
    }
    if (!to.empty()) {
      notify(s, to, s.duration, now, Reason::congestion);
      ++s.congested_detections;
    }
  }
  // Look-ahead (LSCC, Sec. 3.3, 4.1): the neighbours whose packets hold too much.
  if (params_.link_selective && forwarded_tested > params_.look_ahead_threshold * cap) {
    std::vector<std::uint32_t> to;
    for (const link::MeshBuffer* b : s.buffers) {
      for (const auto& [radio, bytes] : b->holders()) {
        if (radio >= link::MeshBuffer::kLocal - 1) continue;  // not a radio neighbour
        if (static_cast<double>(bytes) > params_.look_ahead_share * held && !running(s, radio, now) &&
            std::find(to.begin(), to.end(), radio) == to.end()) {
          to.push_back(radio);
        }
      }
    }
    if (!to.empty()) notify(s, to, s.duration, now, Reason::look_ahead);
  }
}

const char* MeshCongestionControl::reason_name(Reason r) {
  switch (r) {
    case Reason::congestion: return "congestion";
    case Reason::look_ahead: return "look-ahead";
    case Reason::renewal: return "renewal, too short";
    case Reason::lift: return "lift, too long";
  }
  return "?";
}

void MeshCongestionControl::notify(RadioState& s, const std::vector<std::uint32_t>& radios, Time duration, Time now,
                                   Reason reason) {
  if (radios.empty()) return;  // (an empty group would address every receiver)
  const bool look_ahead = reason == Reason::look_ahead;
  const auto frame = [&] {
    auto body = std::make_shared<mac::CongestionNotification>();
    body->set_duration(kCategory, duration);
    return body;
  };
  Time sent = Time::zero();
  if (params_.delivery == NotificationDelivery::group) {
    // One group-addressed frame for all of them (no ACK, no retry).
    auto body = frame();
    body->set_addressees(radios);
    sent = body->duration(kCategory);  // in the field's units
    s.mac->send_management(body, kBroadcastRadio);
  }
  for (const std::uint32_t radio : radios) {
    if (params_.delivery == NotificationDelivery::unicast) {
      auto body = frame();
      sent = body->duration(kCategory);
      s.mac->send_management(body, radio);
    }
    tell({ControllerAction::notify, s.node, s.mac->address(), radio, kNoNode, sent.picoseconds()});
    auto it = std::find_if(s.notified.begin(), s.notified.end(), [radio](const Notified& n) { return n.radio == radio; });
    // A timer of 0 lifts a block: nothing to check.
    const Time check_at = sent > Time::zero() ? check_time(now, sent) : Time::max();
    if (sent > Time::zero()) s.last_used_check_at = check_at;
    if (it == s.notified.end()) {
      s.notified.push_back(Notified{radio, now + sent, check_at});
    } else {
      it->until = now + sent;
      it->check_at = check_at;
    }
    if (duration > Time::zero()) {
      ++s.sent;
      if (look_ahead) ++s.sent_look_ahead;
    } else {
      ++s.sent_zero;
    }
  }
  WMNSIM_LOG(sim().scheduler().log(), spdlog::level::debug, s.node,
             "controller {}: notify {} radio(s) [{}], timer {:.4f} s ({}); buffer {:.1f} % held, {:.1f} % forwarded",
             id(), radios.size(), radio_list(sim().scheduler().log(), radios),
             sent.to_seconds(), reason_name(reason),
             100.0 * static_cast<double>(held_bytes(s)) / static_cast<double>(capacity(s)),
             100.0 * static_cast<double>(forward_bytes(s)) / static_cast<double>(capacity(s)));
  if (duration > Time::zero()) {
    s.adapting = true;
    schedule_check(s);
  }
}

void MeshCongestionControl::schedule_check(RadioState& s) {
  Time at = Time::max();
  if (params_.renewal_checks == RenewalChecks::last_used) {
    // 004 Sec. 3.1: the check of "the last used" notification only.
    at = s.last_used_check_at;
  } else {
    // The next notification to check, each on its own timer. One due now (a
    // notification sent at the very instant of a pending check, before the check's
    // event ran and was cancelled here) is checked now, not skipped.
    for (const Notified& n : s.notified) {
      if (n.check_pending()) at = std::min(at, n.check_at);
    }
  }
  sim().scheduler().cancel(s.check);
  if (at == Time::max()) return;
  RadioState* state = &s;
  s.check = sim().scheduler().schedule_at(at, [this, state] { check_expiry(*state); }, s.mac->radio().node());
}

void MeshCongestionControl::check_expiry(RadioState& s) {
  const Time now = sim().now();
  // The notifications this check covers: those due now (per_neighbour), or every
  // one not checked yet (last_used: one check per period, 004 Sec. 3.1).
  const bool last_used = params_.renewal_checks == RenewalChecks::last_used;
  if (last_used) s.last_used_check_at = Time::max();
  std::vector<std::uint32_t> due;
  for (Notified& n : s.notified) {
    if (n.check_pending() && (last_used || n.check_at <= now)) {
      due.push_back(n.radio);
      n.check_at = Time::max();  // checked: it expires unchecked unless renewed
    }
  }
  // Too short (Sec. 3.1): the buffer is still at least 20 % full at the check: D
  // grows once, and a notification with it goes to the neighbours checked.
  const std::int64_t held = held_bytes(s) - blocked_bytes(s, now, false);
  if (!due.empty() && static_cast<double>(held) >= params_.too_short_threshold * static_cast<double>(capacity(s))) {
    set_duration(s, Time::from_seconds(s.duration.to_seconds() * params_.increase_factor), now);
    ++s.increases;
    notify(s, due, s.duration, now, Reason::renewal);
  }
  schedule_check(s);
}

void MeshCongestionControl::on_management(std::uint32_t node, const ManagementBody& body, const PrevHop& from) {
  const auto* ccn = dynamic_cast<const mac::CongestionNotification*>(&body);
  if (ccn == nullptr || ccn->action() != mac::CongestionNotification::kActionCongestionControlNotification) return;
  const ControlContext& ctx = context();
  if (from.interface >= ctx.macs[node].size()) return;
  const std::uint32_t me = ctx.macs[node][from.interface]->address();
  if (!ccn->addressed_to(me)) return;  // a group notification for other neighbours
  RadioState* s = state_of_radio(me);
  if (s == nullptr) return;
  const Time now = sim().now();
  const Time d = ccn->duration(kCategory);
  const Time until = now + d;
  ++s->received;
  if (d == Time::zero()) ++s->received_zero;
  tell({ControllerAction::blocked, s->node, me, from.address, kNoNode, until.picoseconds()});
  if (d == Time::zero()) {
    WMNSIM_LOG(sim().scheduler().log(), spdlog::level::debug, s->node, "controller {}: notified by {}: block lifted",
               id(), sim().scheduler().log().radio_label(from.address));
  } else {
    WMNSIM_LOG(sim().scheduler().log(), spdlog::level::debug, s->node,
               "controller {}: notified by {}: data to it blocked for {:.4f} s", id(),
               sim().scheduler().log().radio_label(from.address), d.to_seconds());
  }
  // Time blocked: closed blocks summed, the current one [since, until).
  const auto update = [now](BlockedBy& b, Time u) {
    if (b.until > now) {  // a block stands
      if (u <= now) {
        b.total += now - b.since;
        b.since = b.until = now;
      } else {
        b.until = u;
      }
    } else {
      b.total += b.until - b.since;
      b.since = now;
      b.until = std::max(u, now);
    }
  };
  auto it = std::find_if(s->blocked_by.begin(), s->blocked_by.end(),
                         [&](const BlockedBy& b) { return b.radio == from.address; });
  if (it == s->blocked_by.end()) {
    s->blocked_by.push_back(BlockedBy{from.address, now, now, Time::zero()});
    it = s->blocked_by.end() - 1;
  }
  update(*it, until);
  Time any_until = now;
  for (const BlockedBy& b : s->blocked_by) any_until = std::max(any_until, b.until);
  update(s->blocked_any, any_until);
  for (link::MeshBuffer* b : s->buffers) b->block(from.address, until, now);
}

void MeshCongestionControl::report_state() {
  for (const auto& s : radios_) {
    tell({ControllerAction::duration, s->node, s->mac->address(), kNoNode, kNoNode, s->duration.picoseconds()});
  }
}

nlohmann::ordered_json MeshCongestionControl::statistics() const {
  const ControlContext& ctx = context();
  const Time now = ctx.sim.now();
  nlohmann::ordered_json out;
  out["scheme"] = params_.link_selective ? "lscc" : "tcc";
  std::uint64_t sent = 0, zero = 0, look = 0, received = 0;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& sp : radios_) {
    const RadioState& s = *sp;
    sent += s.sent;
    zero += s.sent_zero;
    look += s.sent_look_ahead;
    received += s.received;
    nlohmann::ordered_json r;
    r["node"] = ctx.node_info.at(s.node).id;
    r["radio"] = s.mac->address();
    r["tree_neighbours"] = s.tree_neighbours;
    r["congestion_detections"] = s.congested_detections;
    r["notifications_sent"] = s.sent;
    r["notifications_sent_look_ahead"] = s.sent_look_ahead;
    r["notifications_sent_zero"] = s.sent_zero;
    r["notifications_received"] = s.received;
    r["notifications_received_zero"] = s.received_zero;
    r["duration_increases"] = s.increases;
    r["duration_decreases"] = s.decreases;
    r["duration_s"] = seconds(s.duration);
    nlohmann::ordered_json series = nlohmann::ordered_json::array();
    for (const auto& [t, d] : s.duration_series) series.push_back({seconds(t), seconds(d)});
    r["duration_over_time"] = std::move(series);
    r["blocked_s"] = seconds(s.blocked_any.held(now));
    nlohmann::ordered_json links = nlohmann::ordered_json::object();
    for (const BlockedBy& b : s.blocked_by) links[std::to_string(b.radio)] = seconds(b.held(now));
    r["blocked_by_radio_s"] = std::move(links);
    std::int64_t local_drops = 0;
    for (const link::MeshBuffer* b : s.buffers) local_drops += static_cast<std::int64_t>(b->counters().dropped_total());
    r["buffer_drops"] = local_drops;
    rows.push_back(std::move(r));
  }
  out["notifications_sent"] = sent;
  out["notifications_sent_look_ahead"] = look;
  out["notifications_sent_zero"] = zero;
  out["notifications_received"] = received;
  out["radios"] = std::move(rows);
  return out;
}

}  // namespace wmnsim::control
