// AODV (core/aodv.hpp): route discovery, maintenance and errors per RFC 3561.

#include "core/aodv.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/node.hpp"
#include "core/sim_log.hpp"

namespace wmnsim::aodv {

namespace {

std::size_t sent_index(const Packet& p) {
  switch (type_of(p)) {
    case MessageType::rreq: return 0;
    case MessageType::rrep: return p.dst == kBroadcastAddress ? 3 : 1;  // a broadcast RREP is a HELLO
    case MessageType::rerr: return 2;
  }
  return 2;
}

std::uint8_t hop_byte(std::int64_t hops) { return static_cast<std::uint8_t>(std::clamp<std::int64_t>(hops, 0, 255)); }

}  // namespace

Aodv::Aodv(Scheduler& scheduler, PacketPool& pool, const AodvParams& params, std::span<Node* const> nodes,
           std::vector<RandomStream> jitter)
    : scheduler_(scheduler), pool_(pool), params_(params), nodes_(nodes.begin(), nodes.end()), state_(nodes.size()) {
  if (jitter.size() != nodes.size()) throw std::invalid_argument("Aodv: one jitter stream per node");
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i]->index() != i) throw std::invalid_argument("Aodv: nodes out of index order");
    state_[i].jitter = jitter[i];
    nodes_[i]->set_route_agent(this);
  }
  if (params_.hello) {
    // RFC 6.9: every HELLO_INTERVAL; each node starts at a random phase so that
    // neighbours do not send their HELLOs in the same slot.
    for (std::uint32_t i = 0; i < nodes_.size(); ++i) {
      const Time phase = Time::from_seconds(state_[i].jitter.uniform01() * params_.hello_interval.to_seconds());
      scheduler_.schedule_in(phase, [this, i] { hello_tick(i); }, i);
    }
  }
}

Aodv::~Aodv() {
  for (Node* n : nodes_) n->set_route_agent(nullptr);
}

const Route* Aodv::route(std::uint32_t node, std::uint32_t dst) const {
  const auto& routes = state_.at(node).routes;
  const auto it = routes.find(dst);
  return it == routes.end() ? nullptr : &it->second;
}

bool Aodv::active(std::uint32_t node, std::uint32_t dst) const {
  const Route* r = route(node, dst);
  return r != nullptr && is_active(*r);
}

Route* Aodv::find(std::uint32_t node, std::uint32_t dst) {
  auto& routes = state_[node].routes;
  const auto it = routes.find(dst);
  return it == routes.end() ? nullptr : &it->second;
}

bool Aodv::better(const Route& r, bool valid_seq, std::uint32_t seq, std::uint8_t hops, bool active) {
  // RFC 6.2: the new information replaces the entry when the entry's sequence
  // number is unknown, the new one is newer, or they are equal and the new route
  // is shorter or the entry is not active.
  if (!valid_seq) return !active || !r.valid_seq;
  if (!r.valid_seq) return true;
  if (seq_newer(seq, r.seq)) return true;
  return seq == r.seq && (!active || hops < r.hops);
}

void Aodv::add_precursor(Route& r, std::uint32_t node) {
  const auto at = std::lower_bound(r.precursors.begin(), r.precursors.end(), node);
  if (at == r.precursors.end() || *at != node) r.precursors.insert(at, node);
}

void Aodv::heard_neighbour(std::uint32_t node, std::uint32_t neighbour, const PrevHop& from, Time lifetime) {
  // RFC 6.5 (and 6.7): a route to the previous hop, without a valid sequence
  // number unless one is already known.
  Route& r = state_[node].routes[neighbour];
  const ShownRoute was = shown(r);
  r.valid = true;
  r.hops = 1;
  r.next = NextHop{neighbour, from.interface, from.address};
  r.lifetime = std::max(r.lifetime, lifetime);
  route_changed(node, neighbour, was, r);
}

void Aodv::route_changed(std::uint32_t node, std::uint32_t dst, ShownRoute was, const Route& r) {
  if (observer_ == nullptr) return;
  const ShownRoute now_shown = shown(r);
  if (now_shown != was) observer_->on_route(node, dst, now_shown.node, now_shown.interface);
}

// ---- data packets --------------------------------------------------------------------

const NextHop* Aodv::next_hop(std::uint32_t node, const Packet& packet, const PrevHop* from) {
  Route* r = find(node, packet.dst);
  if (r == nullptr || !r->valid) return nullptr;
  if (!is_active(*r)) {
    // RFC 6.11: an expired route is invalid; its sequence number is kept.
    const ShownRoute was = shown(*r);
    r->valid = false;
    route_changed(node, packet.dst, was, *r);
    return nullptr;
  }
  // RFC 6.2: forwarding keeps the route to the destination, to its next hop and,
  // for a forwarded packet, the route back to the source alive.
  const Time keep = now() + params_.active_route_timeout;
  r->lifetime = std::max(r->lifetime, keep);
  if (Route* next = find(node, r->next.node); next != nullptr && next->valid) next->lifetime = std::max(next->lifetime, keep);
  if (from != nullptr) {
    if (Route* back = find(node, packet.src); back != nullptr && is_active(*back)) back->lifetime = std::max(back->lifetime, keep);
    // RFC 6.9: any packet from a neighbour whose HELLOs are heard shows the link alive.
    if (params_.hello) {
      const auto heard = state_[node].hello_heard.find(from->address);
      if (heard != state_[node].hello_heard.end()) heard->second = now();
    }
  }
  return &r->next;
}

void Aodv::no_route(std::uint32_t node, PacketPtr packet, const PrevHop* from) {
  NodeState& s = state_[node];
  if (from != nullptr) {
    // RFC 6.11 (ii): a data packet to forward without an active route is dropped
    // and the destination reported unreachable to the neighbours.
    const std::uint32_t dst = packet->dst;
    ++s.stats.data_drops[static_cast<std::size_t>(DataDrop::forward_no_route)];
    nodes_[node]->on_drop(std::move(packet), DropCause::no_route, now());
    const Route* r = find(node, dst);
    std::vector<Rerr::Unreachable> lost{{dst, r != nullptr && r->valid_seq ? r->seq : 0}};
    send_rerr(node, lost, {});
    return;
  }
  // RFC 6.3: the source holds the packet while it discovers a route. A full
  // buffer gives up its oldest packet (ns-2's aodv_rqueue does the same).
  const std::uint32_t dst = packet->dst;
  if (s.buffer.size() >= static_cast<std::size_t>(params_.buffer_packets)) {
    PacketPtr oldest = std::move(s.buffer.front().packet);
    s.buffer.pop_front();
    ++s.stats.data_drops[static_cast<std::size_t>(DataDrop::buffer_full)];
    nodes_[node]->on_drop(std::move(oldest), DropCause::no_route, now());
  }
  ++s.stats.held;
  s.buffer.push_back(Held{std::move(packet), now() + params_.buffer_timeout});
  arm_buffer_timer(node);
  if (!s.discoveries.contains(dst)) start_discovery(node, dst);
}

void Aodv::arm_buffer_timer(std::uint32_t node) {
  NodeState& s = state_[node];
  if (s.buffer.empty() || scheduler_.is_pending(s.buffer_timer)) return;
  // Packets join at the back with the same timeout, so the front expires first.
  s.buffer_timer = scheduler_.schedule_at(s.buffer.front().expires, [this, node] { expire_held(node); }, node);
}

void Aodv::expire_held(std::uint32_t node) {
  NodeState& s = state_[node];
  while (!s.buffer.empty() && s.buffer.front().expires <= now()) {
    PacketPtr p = std::move(s.buffer.front().packet);
    s.buffer.pop_front();
    ++s.stats.data_drops[static_cast<std::size_t>(DataDrop::buffer_timeout)];
    nodes_[node]->on_drop(std::move(p), DropCause::no_route, now());
  }
  arm_buffer_timer(node);
}

void Aodv::release_held(std::uint32_t node, std::uint32_t dst) {
  NodeState& s = state_[node];
  std::vector<PacketPtr> ready;
  for (auto it = s.buffer.begin(); it != s.buffer.end();) {
    if (it->packet->dst == dst) {
      ready.push_back(std::move(it->packet));
      it = s.buffer.erase(it);
    } else {
      ++it;
    }
  }
  // In the order they came; routing one may not find the route any more (a MAC
  // drop in between breaks it), and then it is held again.
  for (PacketPtr& p : ready) nodes_[node]->route_held(std::move(p), nullptr);
  if (s.buffer.empty() && scheduler_.is_pending(s.buffer_timer)) scheduler_.cancel(s.buffer_timer);
}

void Aodv::drop_held(std::uint32_t node, std::uint32_t dst, DataDrop why) {
  NodeState& s = state_[node];
  std::vector<PacketPtr> lost;
  for (auto it = s.buffer.begin(); it != s.buffer.end();) {
    if (it->packet->dst == dst) {
      lost.push_back(std::move(it->packet));
      it = s.buffer.erase(it);
    } else {
      ++it;
    }
  }
  for (PacketPtr& p : lost) {
    ++s.stats.data_drops[static_cast<std::size_t>(why)];
    nodes_[node]->on_drop(std::move(p), DropCause::no_route, now());
  }
  if (s.buffer.empty() && scheduler_.is_pending(s.buffer_timer)) scheduler_.cancel(s.buffer_timer);
}

// ---- discovery ----------------------------------------------------------------------

void Aodv::start_discovery(std::uint32_t node, std::uint32_t dst) {
  NodeState& s = state_[node];
  Discovery d;
  d.started = now();
  // RFC 6.4: the first TTL is the last known hop count plus TTL_INCREMENT, or
  // TTL_START without one.
  const Route* r = find(node, dst);
  d.ttl = r != nullptr && r->hops > 0 ? r->hops + params_.ttl_increment : params_.ttl_start;
  if (d.ttl > params_.ttl_threshold) d.ttl = params_.net_diameter;
  d.ttl = std::min(d.ttl, params_.net_diameter);
  ++s.stats.discoveries;
  auto [it, inserted] = s.discoveries.emplace(dst, d);
  send_rreq(node, dst, it->second);
}

void Aodv::send_rreq(std::uint32_t node, std::uint32_t dst, Discovery& d) {
  NodeState& s = state_[node];
  // RFC 6.1: a node increments its own sequence number before it originates a RREQ.
  ++s.seq;
  ++s.rreq_id;
  Rreq m;
  m.rreq_id = s.rreq_id;
  m.dst = dst;
  m.orig = node;
  m.orig_seq = s.seq;
  const Route* r = find(node, dst);
  if (r != nullptr && r->valid_seq) {
    m.dst_seq = r->seq;
  } else {
    m.flags |= Rreq::kUnknownSeq;
  }
  // RFC 6.5: the originator keeps the RREQ's ID so that it discards the copies
  // its neighbours rebroadcast.
  seen_before(node, node, m.rreq_id);
  ++s.stats.rreq_attempts;
  PacketPtr p = control_packet(node, kBroadcastAddress, hop_byte(d.ttl));
  encode(*p, m);
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node, "aodv: RREQ {} for node {}, ttl {}", m.rreq_id, dst, d.ttl);
  // RFC 6.4: RING_TRAVERSAL_TIME for a ring; network-wide attempts wait
  // NET_TRAVERSAL_TIME, doubled at each retry (6.3, binary exponential backoff).
  const Time wait = d.ttl < params_.net_diameter ? params_.ring_traversal_time(d.ttl)
                                                  : params_.net_traversal_time() * (std::int64_t{1} << std::min<std::int64_t>(d.retries, 20));
  d.timer = scheduler_.schedule_in(wait, [this, node, dst] { discovery_timeout(node, dst); }, node);
  broadcast(node, std::move(p), false);
}

void Aodv::discovery_timeout(std::uint32_t node, std::uint32_t dst) {
  NodeState& s = state_[node];
  const auto it = s.discoveries.find(dst);
  if (it == s.discoveries.end()) return;
  Discovery& d = it->second;
  if (d.ttl < params_.net_diameter) {
    d.ttl += params_.ttl_increment;
    if (d.ttl > params_.ttl_threshold) d.ttl = params_.net_diameter;
    send_rreq(node, dst, d);
    return;
  }
  if (d.retries < params_.rreq_retries) {
    ++d.retries;
    send_rreq(node, dst, d);
    return;
  }
  // RFC 6.3: no route after RREQ_RETRIES network-wide attempts: the held packets
  // for the destination are dropped (the RFC's Destination Unreachable message to
  // the application is not modelled).
  ++s.stats.discoveries_failed;
  s.discoveries.erase(it);
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node, "aodv: discovery of node {} failed", dst);
  drop_held(node, dst, DataDrop::discovery_failed);
}

bool Aodv::seen_before(std::uint32_t node, std::uint32_t orig, std::uint32_t rreq_id) {
  NodeState& s = state_[node];
  while (!s.seen_order.empty() && s.seen_order.front().first <= now()) {
    const auto key = s.seen_order.front().second;
    const auto at = s.seen.find(key);
    if (at != s.seen.end() && at->second <= now()) s.seen.erase(at);
    s.seen_order.pop_front();
  }
  const std::pair key{orig, rreq_id};
  if (s.seen.contains(key)) return true;
  // RFC 6.5: kept for PATH_DISCOVERY_TIME.
  const Time until = now() + params_.path_discovery_time();
  s.seen.emplace(key, until);
  s.seen_order.emplace_back(until, key);
  return false;
}

// ---- control packets ----------------------------------------------------------------

PacketPtr Aodv::control_packet(std::uint32_t node, std::uint32_t dst, std::uint8_t ttl) {
  PacketPtr p = pool_.make(now());
  p->src = node;
  p->dst = dst;
  p->ttl = ttl;
  return p;
}

void Aodv::count_sent(std::uint32_t node, const Packet& packet) {
  AodvStats& st = state_[node].stats;
  const std::size_t i = sent_index(packet);
  ++st.sent_frames[i];
  st.sent_bytes[i] += packet.size_bytes;
}

void Aodv::broadcast_now(std::uint32_t node, const PacketPtr& packet) {
  Node& n = *nodes_[node];
  // Every interface: each radio's neighbours, and each wired link's far end.
  for (std::uint32_t i = 0; i < n.interface_count(); ++i) {
    count_sent(node, *packet);
    n.send_control(pool_.clone(*packet), i, kBroadcastRadio);
  }
}

void Aodv::broadcast(std::uint32_t node, PacketPtr packet, bool jitter) {
  const Time delay = jitter && params_.broadcast_jitter > Time::zero()
                         ? Time::from_seconds(state_[node].jitter.uniform01() * params_.broadcast_jitter.to_seconds())
                         : Time::zero();
  if (delay == Time::zero()) {
    broadcast_now(node, packet);
    return;
  }
  const std::uint64_t key = next_pending_++;
  pending_.emplace(key, std::move(packet));
  scheduler_.schedule_in(delay, [this, node, key] {
    const auto it = pending_.find(key);
    broadcast_now(node, it->second);
    pending_.erase(it);
  }, node);
}

void Aodv::unicast(std::uint32_t node, PacketPtr packet, const NextHop& to) {
  packet->dst = to.node;
  count_sent(node, *packet);
  nodes_[node]->send_control(std::move(packet), to.interface, to.address);
}

void Aodv::control_dropped(std::uint32_t node, const Packet& /*packet*/, DropCause /*cause*/) {
  ++state_.at(node).stats.control_dropped;
}

void Aodv::receive_control(std::uint32_t node, PacketPtr packet, const PrevHop& from) {
  ++state_.at(node).stats.received;
  switch (type_of(*packet)) {
    case MessageType::rreq: on_rreq(node, *packet, from); break;
    case MessageType::rrep: on_rrep(node, *packet, from); break;
    case MessageType::rerr: on_rerr(node, *packet, from); break;
  }
}

void Aodv::on_rreq(std::uint32_t node, const Packet& packet, const PrevHop& from) {
  NodeState& s = state_[node];
  Rreq m = decode<Rreq>(packet);
  heard_neighbour(node, packet.src, from, now() + params_.active_route_timeout);
  WMNSIM_LOG(scheduler_.log(), spdlog::level::trace, node, "aodv: RREQ {} of node {} for node {} from node {}, ttl {}",
             m.rreq_id, m.orig, m.dst, packet.src, packet.ttl);
  if (m.orig == node || seen_before(node, m.orig, m.rreq_id)) return;  // RFC 6.5: a duplicate
  m.hop_count = hop_byte(std::int64_t{m.hop_count} + 1);

  // RFC 6.5: the reverse route to the originator, living at least
  // 2 * NET_TRAVERSAL_TIME - 2 * HopCount * NODE_TRAVERSAL_TIME.
  Route& back = s.routes[m.orig];
  const ShownRoute back_was = shown(back);
  if (better(back, true, m.orig_seq, m.hop_count, is_active(back))) {
    back.seq = m.orig_seq;
    back.valid_seq = true;
    back.hops = m.hop_count;
    back.next = NextHop{packet.src, from.interface, from.address};
  }
  back.valid = true;
  route_changed(node, m.orig, back_was, back);
  const Time minimal = now() + params_.net_traversal_time() * 2 - params_.node_traversal_time * (2 * std::int64_t{m.hop_count});
  back.lifetime = std::max(back.lifetime, minimal);
  const NextHop to_orig = back.next;

  if (m.dst == node) {
    // RFC 6.1: the destination answers with its own sequence number, first raised
    // to the RREQ's if that is newer (6.6.1's "incremented value" is its usual case:
    // an originator that lost the route asks for one more than it knew).
    if ((m.flags & Rreq::kUnknownSeq) == 0 && seq_newer(m.dst_seq, s.seq)) s.seq = m.dst_seq;
    Rrep reply;
    reply.dst = node;
    reply.dst_seq = s.seq;
    reply.orig = m.orig;
    reply.lifetime = params_.my_route_timeout();
    WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node, "aodv: RREP for RREQ {} of node {}, seq {}", m.rreq_id,
               m.orig, s.seq);
    PacketPtr p = control_packet(node, to_orig.node, 1);
    encode(*p, reply);
    unicast(node, std::move(p), to_orig);
    return;
  }
  Route* fwd = find(node, m.dst);
  const bool fresh = fwd != nullptr && is_active(*fwd) && fwd->valid_seq &&
                     ((m.flags & Rreq::kUnknownSeq) != 0 || !seq_newer(m.dst_seq, fwd->seq));
  if (fresh && (m.flags & Rreq::kDestinationOnly) == 0) {
    // RFC 6.6.2: an intermediate node with a fresh enough route answers; the
    // previous hop becomes a precursor of the forward route, and the forward
    // route's next hop a precursor of the reverse route.
    add_precursor(*fwd, packet.src);
    add_precursor(s.routes[m.orig], fwd->next.node);
    Rrep reply;
    reply.hop_count = fwd->hops;
    reply.dst = m.dst;
    reply.dst_seq = fwd->seq;
    reply.orig = m.orig;
    reply.lifetime = fwd->lifetime - now();
    PacketPtr p = control_packet(node, to_orig.node, 1);
    encode(*p, reply);
    unicast(node, std::move(p), to_orig);
    return;
  }
  // RFC 6.5: rebroadcast while the IP TTL allows, asking for the freshest
  // sequence number this node knows.
  if (packet.ttl <= 1) return;
  if (fwd != nullptr && fwd->valid_seq) {
    if ((m.flags & Rreq::kUnknownSeq) != 0 || seq_newer(fwd->seq, m.dst_seq)) {
      m.dst_seq = fwd->seq;
      m.flags = static_cast<std::uint8_t>(m.flags & ~Rreq::kUnknownSeq);
    }
  }
  PacketPtr p = control_packet(node, kBroadcastAddress, static_cast<std::uint8_t>(packet.ttl - 1));
  encode(*p, m);
  broadcast(node, std::move(p), true);
}

void Aodv::on_rrep(std::uint32_t node, const Packet& packet, const PrevHop& from) {
  NodeState& s = state_[node];
  Rrep m = decode<Rrep>(packet);
  if (packet.dst == kBroadcastAddress) {
    on_hello(node, packet, m, from);
    return;
  }
  heard_neighbour(node, packet.src, from, now() + params_.active_route_timeout);
  m.hop_count = hop_byte(std::int64_t{m.hop_count} + 1);

  // RFC 6.7: the forward route to the destination.
  Route& fwd = s.routes[m.dst];
  if (better(fwd, true, m.dst_seq, m.hop_count, is_active(fwd))) {
    const ShownRoute was = shown(fwd);
    fwd.seq = m.dst_seq;
    fwd.valid_seq = true;
    fwd.valid = true;
    fwd.hops = m.hop_count;
    fwd.next = NextHop{packet.src, from.interface, from.address};
    fwd.lifetime = now() + m.lifetime;
    route_changed(node, m.dst, was, fwd);
  }

  if (m.orig == node) {
    // A RREP older than what this node knows (it asked for a newer sequence
    // number) does not end the discovery: the next attempt may bring a fresh one.
    if (!is_active(fwd)) return;
    const auto it = s.discoveries.find(m.dst);
    if (it != s.discoveries.end()) {
      scheduler_.cancel(it->second.timer);
      const double latency = (now() - it->second.started).to_seconds();
      ++s.stats.discoveries_found;
      s.stats.discovery_latency_sum_s += latency;
      s.stats.discovery_latency_max_s = std::max(s.stats.discovery_latency_max_s, latency);
      s.discoveries.erase(it);
      WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node, "aodv: route to node {} found, {} hops", m.dst, fwd.hops);
    }
    release_held(node, m.dst);
    return;
  }
  // RFC 6.7: on towards the originator along the reverse route; the next hop
  // towards the originator becomes a precursor of the forward route and of the
  // route to the neighbour the RREP came from, and that neighbour a precursor of
  // the reverse route, whose life is extended.
  Route* back = find(node, m.orig);
  if (back == nullptr || !is_active(*back)) return;
  back->lifetime = std::max(back->lifetime, now() + params_.active_route_timeout);
  add_precursor(fwd, back->next.node);
  if (Route* prev = find(node, packet.src)) add_precursor(*prev, back->next.node);
  add_precursor(*back, packet.src);
  PacketPtr p = control_packet(node, back->next.node, 1);
  encode(*p, m);
  unicast(node, std::move(p), back->next);
}

void Aodv::on_hello(std::uint32_t node, const Packet& packet, const Rrep& m, const PrevHop& from) {
  // RFC 6.9: a HELLO makes or refreshes the route to its sender, for
  // ALLOWED_HELLO_LOSS * HELLO_INTERVAL, with its sequence number.
  NodeState& s = state_[node];
  heard_neighbour(node, packet.src, from, now() + m.lifetime);
  Route& r = s.routes[packet.src];
  if (!r.valid_seq || seq_newer(m.dst_seq, r.seq)) {
    r.seq = m.dst_seq;
    r.valid_seq = true;
  }
  s.hello_heard[from.address] = now();
}

void Aodv::on_rerr(std::uint32_t node, const Packet& packet, const PrevHop& from) {
  const Rerr m = decode<Rerr>(packet);
  std::vector<Rerr::Unreachable> lost;
  std::vector<std::uint32_t> precursors;
  for (std::size_t i = 0; i < m.count; ++i) {
    const Rerr::Unreachable u = m.unreachable[i];
    Route* r = find(node, u.dst);
    // RFC 6.11: only the routes whose next hop is the RERR's sender.
    if (r == nullptr || !r->valid || r->next.node != packet.src || r->next.interface != from.interface) continue;
    const ShownRoute was = shown(*r);
    r->valid = false;
    route_changed(node, u.dst, was, *r);
    if (!r->valid_seq || seq_newer(u.seq, r->seq)) r->seq = u.seq;
    r->valid_seq = true;
    r->lifetime = now() + params_.delete_period();
    lost.push_back({u.dst, r->seq});
    for (const std::uint32_t p : r->precursors) {
      if (std::find(precursors.begin(), precursors.end(), p) == precursors.end()) precursors.push_back(p);
    }
  }
  if (!lost.empty() && !precursors.empty()) {
    std::sort(precursors.begin(), precursors.end());
    send_rerr(node, lost, precursors);
  }
}

// ---- link breaks and errors ---------------------------------------------------------

void Aodv::link_failed(std::uint32_t node, std::uint32_t address) {
  // Told from inside the MAC's drop: act at the same instant but after it, so the
  // RERR does not enter a MAC that is still finishing the failed exchange.
  scheduler_.schedule_in(Time::zero(), [this, node, address] { link_break(node, address); }, node);
}

void Aodv::link_break(std::uint32_t node, std::uint32_t address) {
  NodeState& s = state_[node];
  ++s.stats.link_failures;
  std::vector<Rerr::Unreachable> lost;
  std::vector<std::uint32_t> precursors;
  for (auto& [dst, r] : s.routes) {
    if (!r.valid || r.next.address != address) continue;
    // RFC 6.11 (i): the routes through the lost neighbour become invalid, their
    // destination sequence numbers incremented, kept for DELETE_PERIOD.
    const ShownRoute was = shown(r);
    r.valid = false;
    route_changed(node, dst, was, r);
    if (r.valid_seq) ++r.seq;
    r.lifetime = now() + params_.delete_period();
    lost.push_back({dst, r.seq});
    for (const std::uint32_t p : r.precursors) {
      if (std::find(precursors.begin(), precursors.end(), p) == precursors.end()) precursors.push_back(p);
    }
  }
  s.hello_heard.erase(address);
  if (lost.empty()) return;
  ++s.stats.route_breaks;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, node, "aodv: link to radio {} broke, {} routes lost", address,
             lost.size());
  if (!precursors.empty()) {
    std::sort(precursors.begin(), precursors.end());
    send_rerr(node, lost, precursors);
  }
}

void Aodv::send_rerr(std::uint32_t node, const std::vector<Rerr::Unreachable>& lost,
                     const std::vector<std::uint32_t>& precursors) {
  // One precursor with an active route to it: unicast; otherwise (several, or the
  // neighbours of 6.11 (ii)) a broadcast with TTL 1, jittered.
  const Route* only = precursors.size() == 1 ? find(node, precursors.front()) : nullptr;
  const bool to_one = only != nullptr && is_active(*only) && only->hops == 1;
  for (std::size_t first = 0; first < lost.size(); first += Rerr::kMaxUnreachable) {
    Rerr m;
    m.count = static_cast<std::uint8_t>(std::min(Rerr::kMaxUnreachable, lost.size() - first));
    for (std::size_t i = 0; i < m.count; ++i) m.unreachable[i] = lost[first + i];
    PacketPtr p = control_packet(node, to_one ? only->next.node : kBroadcastAddress, 1);
    encode(*p, m);
    if (to_one) {
      unicast(node, std::move(p), only->next);
    } else {
      broadcast(node, std::move(p), true);
    }
  }
}

void Aodv::hello_tick(std::uint32_t node) {
  NodeState& s = state_[node];
  const Time allowed = params_.hello_interval * params_.allowed_hello_loss;
  // RFC 6.9: a neighbour not heard for ALLOWED_HELLO_LOSS * HELLO_INTERVAL is lost.
  std::vector<std::uint32_t> lost;
  for (const auto& [address, heard] : s.hello_heard) {
    if (now() - heard > allowed) lost.push_back(address);
  }
  for (const std::uint32_t address : lost) link_break(node, address);
  // RFC 6.9: only a node that is part of an active route sends HELLOs.
  const bool on_route = std::any_of(s.routes.begin(), s.routes.end(), [&](const auto& e) { return is_active(e.second); });
  if (on_route) {
    Rrep m;
    m.dst = node;
    m.dst_seq = s.seq;
    m.orig = node;
    m.lifetime = allowed;
    PacketPtr p = control_packet(node, kBroadcastAddress, 1);
    encode(*p, m);
    broadcast(node, std::move(p), false);
  }
  scheduler_.schedule_in(params_.hello_interval, [this, node] { hello_tick(node); }, node);
}

}  // namespace wmnsim::aodv
