#include "control/edca_txop.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/sim_log.hpp"

namespace wmnsim::control {

namespace {

constexpr std::size_t kListedChanges = 10'000;  // the rest are counted, not listed

}  // namespace

EdcaTxop::EdcaTxop(const ControllerConfig& config, ControlContext& context)
    : Controller(config, context), params_(config.params_as<EdcaTxopParams>()) {}

EdcaParams EdcaTxop::scaled(const EdcaParams& own, double flows, TxopScaling scaling) {
  const auto n = flows <= 0 ? 0 : std::max<std::int64_t>(1, std::llround(flows));
  // One flow or none: nothing to share out, its own parameters (one frame per
  // access by default; a time limit of its own stays).
  if (n <= 1) return own;
  EdcaParams p = own;
  if (scaling == TxopScaling::flows) {
    p.txop = {Time::zero(), n};
  } else {
    // 002 Sec. IV-A: twice the accesses (CWmin / 2), each half as long.
    p.txop = {Time::zero(), (n + 1) / 2};
    p.cw_min = std::max(1, own.cw_min / 2);
  }
  return p;
}

void EdcaTxop::start() {
  ControlContext& ctx = context();
  index_.assign(ctx.macs.size(), {});
  for (const std::size_t n : config().nodes) {
    const auto& macs = ctx.macs.at(n);
    index_[n].assign(macs.size(), -1);
    for (std::size_t r = 0; r < macs.size(); ++r) {
      if (macs[r]->type() != MacType::edca) throw std::logic_error("edca_txop: the MAC is not EDCA");
      index_[n][r] = static_cast<int>(radios_.size());
      RadioState s;
      s.node = n;
      s.radio = r;
      s.mac = macs[r];
      s.own = macs[r]->params(params_.category);
      radios_.push_back(std::move(s));
    }
  }
  if (params_.dynamic) {
    for (const std::size_t n : config().nodes) subscribe(static_cast<std::uint32_t>(n), *this);
    // Expired flows are noticed between one and 1.5 timeouts after their last packet.
    every(params_.flow_idle_timeout / 2, [this] { sweep(); });
  }
}

void EdcaTxop::on_started_together() {
  if (!params_.dynamic) count_static();
}

EdcaTxop::RadioState* EdcaTxop::state_of(std::uint32_t node, std::uint32_t interface) {
  if (node >= index_.size() || interface >= index_[node].size()) return nullptr;
  const int i = index_[node][interface];
  return i < 0 ? nullptr : &radios_[static_cast<std::size_t>(i)];
}

std::uint64_t EdcaTxop::key_of(const Packet& p) const {
  if (params_.flow_definition == FlowDefinition::source_node) return p.src;
  // A flow and its reverse (ACK) stream are two 5-tuples.
  const bool forward = p.flow < context().flows.size() && context().flows[p.flow].src == p.src;
  return (static_cast<std::uint64_t>(p.flow) << 1) | (forward ? 0u : 1u);
}

double EdcaTxop::weight_of(const Packet& p) const {
  if (params_.weights.empty()) return 1.0;
  const std::size_t i = params_.flow_definition == FlowDefinition::source_node ? p.src : p.flow;
  return i < params_.weights.size() ? params_.weights[i] : 1.0;
}

void EdcaTxop::count_static() {
  const ControlContext& ctx = context();
  const Time now = ctx.sim.now();
  // Every scenario flow, data one way and (if it has them) ACKs the other, along
  // its route; each radio it leaves by counts it if its MAC files it under the
  // category.
  const auto walk = [&](const Packet& p) {
    std::uint32_t at = p.src;
    for (std::size_t hops = 0; at != p.dst && hops < ctx.node_info.size(); ++hops) {
      const NextHop* hop = ctx.routing.tables.next_hop(at, p.dst);
      if (hop == nullptr) return;
      if (RadioState* s = state_of(at, hop->interface)) {
        if (s->mac->classifier().classify(p) == params_.category) s->seen[key_of(p)] = {now, weight_of(p)};
      }
      at = hop->node;
    }
  };
  for (std::size_t f = 0; f < ctx.flows.size(); ++f) {
    const ControlContext::FlowInfo& info = ctx.flows[f];
    Packet data;
    data.src = info.src;
    data.dst = info.dst;
    data.flow = static_cast<std::uint32_t>(f);
    data.user_priority = info.user_priority;
    data.transport.payload_bytes = 1;
    walk(data);
    if (!info.sends_acks) continue;
    Packet ack;
    ack.src = info.dst;
    ack.dst = info.src;
    ack.flow = static_cast<std::uint32_t>(f);
    ack.user_priority = info.ack_user_priority;
    ack.transport.ack_valid = true;  // a pure ACK
    walk(ack);
  }
  for (RadioState& s : radios_) apply(s);
}

void EdcaTxop::on_originated(std::uint32_t node, Packet& packet) {
  // Fired before the route lookup: the node's table says where it goes.
  if (const NextHop* hop = context().routing.tables.next_hop(node, packet.dst)) {
    on_packet(node, hop->interface, packet);
  }
}

void EdcaTxop::on_forwarded(std::uint32_t node, Packet& packet, const PrevHop& /*from*/, const NextHop& to) {
  on_packet(node, to.interface, packet);
}

void EdcaTxop::on_packet(std::uint32_t node, std::uint32_t interface, const Packet& packet) {
  if (packet.flow == kNoFlow) return;
  RadioState* s = state_of(node, interface);
  if (s == nullptr || s->mac->classifier().classify(packet) != params_.category) return;
  const Time now = context().sim.now();
  const auto [it, inserted] = s->seen.try_emplace(key_of(packet), RadioState::Seen{now, weight_of(packet)});
  if (!inserted) {
    const bool had_ended = now - it->second.last > params_.flow_idle_timeout;
    it->second.last = now;
    if (!had_ended) return;
  }
  apply(*s);  // a new flow (or one back from silence) counts at once
}

void EdcaTxop::sweep() {
  const Time now = context().sim.now();
  for (RadioState& s : radios_) {
    const std::size_t before = s.seen.size();
    std::erase_if(s.seen, [&](const auto& kv) { return now - kv.second.last > params_.flow_idle_timeout; });
    if (s.seen.size() != before) apply(s);
  }
}

void EdcaTxop::apply(RadioState& s) {
  const Time now = context().sim.now();
  double flows = 0;
  for (const auto& [key, seen] : s.seen) {
    if (!params_.dynamic || now - seen.last <= params_.flow_idle_timeout) flows += seen.weight;
  }
  s.flows = flows;
  // Only the TXOP and CWmin are this controller's: other fields (the AIFSN that
  // edca_ack_priority raised, in whichever order the two started) stay as they are.
  const EdcaParams target = scaled(s.own, flows, params_.scaling);
  EdcaParams next = s.mac->params(params_.category);
  next.txop = target.txop;
  if (params_.scaling == TxopScaling::half_txop_half_cw) next.cw_min = target.cw_min;
  const EdcaParams before = s.mac->params(params_.category);
  if (next == before) return;
  s.mac->set_params(params_.category, next);
  if (next.txop != before.txop) tell_txop(s);
  ++s.changes;
  WMNSIM_LOG(context().sim.scheduler().log(), spdlog::level::debug, static_cast<std::uint32_t>(s.node),
             "controller {}: radio {}: {} flows -> TXOP {} frames, CWmin {}", id(), s.radio, flows, next.txop.frames,
             next.cw_min);
  if (changes_.size() < kListedChanges) {
    changes_.push_back({now, static_cast<std::size_t>(&s - radios_.data()), flows, next});
  } else {
    ++changes_not_listed_;
  }
}

void EdcaTxop::on_stop() {
  for (RadioState& s : radios_) {
    EdcaParams p = s.mac->params(params_.category);
    p.txop = s.own.txop;
    if (params_.scaling == TxopScaling::half_txop_half_cw) {
      p.cw_min = s.own.cw_min;
      p.cw_max = std::max(p.cw_max, p.cw_min);
    }
    const bool txop_changes = p.txop != s.mac->params(params_.category).txop;
    s.mac->set_params(params_.category, p);
    if (txop_changes) tell_txop(s);
  }
}

void EdcaTxop::tell_txop(const RadioState& s) {
  // The controller sets a count of frames (002 Sec. III); a limit in time is the
  // scenario's own, which it never sets, so it is not told.
  const EdcaParams& p = s.mac->params(params_.category);
  if (p.txop.time > Time::zero()) return;
  tell({ControllerAction::txop, static_cast<std::uint32_t>(s.node), s.mac->address(), kNoNode, kNoNode,
        p.txop.frames});
}

void EdcaTxop::report_state() {
  for (const RadioState& s : radios_) tell_txop(s);
}

nlohmann::ordered_json EdcaTxop::statistics() const {
  const auto& nodes = context().node_info;
  // A limit in time (a scenario's own txop_limit_us) has no frame count: null.
  const auto txop_frames = [](const EdcaParams& p) -> nlohmann::ordered_json {
    if (p.txop.frames > 0) return p.txop.frames;
    if (p.txop.time > Time::zero()) return nullptr;
    return 1;  // one frame per access
  };
  nlohmann::ordered_json radios = nlohmann::ordered_json::array();
  for (const RadioState& s : radios_) {
    const EdcaParams& now = s.mac->params(params_.category);
    radios.push_back({{"node", nodes[s.node].id},
                      {"radio", s.radio},
                      {"channel", s.mac->radio().channel()},
                      {"flows", s.flows},
                      {"txop_limit_frames", txop_frames(now)},
                      {"cw_min", now.cw_min},
                      {"changes", s.changes}});
  }
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const Change& c : changes_) {
    const RadioState& s = radios_[c.state];
    changes.push_back({{"t_s", c.at.to_seconds()},
                       {"node", nodes[s.node].id},
                       {"radio", s.radio},
                       {"flows", c.flows},
                       {"txop_limit_frames", txop_frames(c.params)},
                       {"cw_min", c.params.cw_min}});
  }
  return {{"access_category", to_string(params_.category)},
          {"radios", radios},
          {"changes", changes},
          {"changes_not_listed", changes_not_listed_}};
}

}  // namespace wmnsim::control
