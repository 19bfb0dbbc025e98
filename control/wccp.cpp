#include "control/wccp.hpp"

#include <algorithm>
#include <cmath>

namespace wmnsim::control {

namespace {

WccpFeedbackParams feedback_params(const WccpControllerParams& p) {
  WccpFeedbackParams f;
  f.busyness_threshold = p.busyness_threshold;
  f.alpha = p.alpha;
  f.initial_control_interval = p.initial_control_interval;
  return f;
}

}  // namespace

Wccp::Wccp(const ControllerConfig& config, ControlContext& context)
    : Controller(config, context), params_(config.params_as<WccpControllerParams>()) {}

Wccp::~Wccp() {
  for (NodeState& s : nodes_) sim().scheduler().cancel(s.timer);
}

void Wccp::start() {
  ControlContext& ctx = context();
  index_.assign(ctx.nodes.size(), -1);
  const Time now = ctx.sim.now();
  for (std::size_t n : config().nodes) {
    if (n >= ctx.macs.size() || ctx.macs[n].empty()) continue;
    NodeState s{static_cast<std::uint32_t>(n), ctx.macs[n], {}, now, WccpFeedback(feedback_params(params_)), {}};
    for (const mac::Mac* m : s.macs) s.busy_at_start.push_back(busy_time(*m));
    index_[n] = static_cast<std::int32_t>(nodes_.size());
    nodes_.push_back(std::move(s));
  }
  for (NodeState& s : nodes_) {
    subscribe(s.node, *this);
    NodeState* state = &s;  // nodes_ no longer grows
    s.timer = sim().scheduler().schedule_in(s.feedback.control_interval(), [this, state] { end_interval(*state); });
  }
}

void Wccp::on_stop() {
  for (NodeState& s : nodes_) sim().scheduler().cancel(s.timer);
}

Time Wccp::busy_time(const mac::Mac& mac) const {
  return params_.busy_time == WccpBusyTime::ns2 ? mac.ns2_busy_time() : mac.channel_busy_time();
}

Wccp::NodeState* Wccp::state_of(std::uint32_t node) {
  if (node >= index_.size() || index_[node] < 0) return nullptr;
  return &nodes_[static_cast<std::size_t>(index_[node])];
}

void Wccp::on_originated(std::uint32_t node, Packet& packet) { on_packet(node, packet, 1); }

void Wccp::on_forwarded(std::uint32_t node, Packet& packet, const PrevHop& /*from*/, const NextHop& /*to*/) {
  on_packet(node, packet, 2);
}

void Wccp::on_delivered(std::uint32_t node, Packet& packet, const PrevHop& /*from*/) { on_packet(node, packet, 1); }

void Wccp::on_packet(std::uint32_t node, Packet& packet, int weight) {
  TransportHeader& t = packet.transport;
  // WCCP data only: an ACK carries the header back to the sender untouched.
  if (!t.has_congestion || t.payload_bytes == 0) return;
  NodeState* s = state_of(node);
  if (s == nullptr) return;
  ++s->packets;
  s->feedback.observe(t.congestion(), packet.size_bytes, weight);
  const double local = s->feedback.feedback(t.congestion(), packet.size_bytes, weight);
  // Sec. III-E: "If pf_k < fb, the node will set fb field ... with the value of pf_k".
  if (local < t.congestion().feedback_pps) {
    t.congestion().feedback_pps = local;
    ++s->lowered;
  }
}

void Wccp::end_interval(NodeState& s) {
  const Time now = sim().now();
  const Time length = now - s.interval_start;
  // Sec. III-B: busy time over the interval, per radio; the busiest radio speaks.
  double busy = 0.0;
  for (std::size_t i = 0; i < s.macs.size(); ++i) {
    const Time total = busy_time(*s.macs[i]);
    if (length > Time::zero()) busy = std::max(busy, (total - s.busy_at_start[i]).to_seconds() / length.to_seconds());
    s.busy_at_start[i] = total;
  }
  busy = std::min(busy, 1.0);
  const WccpInterval& r = s.feedback.end_interval(busy, length);
  s.busy_ratio_sum += busy;
  s.busy_ratio_max = std::max(s.busy_ratio_max, busy);
  if (busy >= params_.busyness_threshold) ++s.saturated_intervals;
  s.interval_start = now;
  NodeState* state = &s;
  s.timer = sim().scheduler().schedule_in(r.next_length, [this, state] { end_interval(*state); });
}

nlohmann::ordered_json Wccp::statistics() const {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const NodeState& s : nodes_) {
    const std::uint64_t n = s.feedback.intervals();
    nlohmann::ordered_json row;
    row["node"] = context().node_info[s.node].id;
    row["intervals"] = n;
    row["busy_ratio_mean"] = n > 0 ? s.busy_ratio_sum / static_cast<double>(n) : 0.0;
    row["busy_ratio_max"] = s.busy_ratio_max;
    row["intervals_at_threshold"] = s.saturated_intervals;
    row["control_interval_s"] = s.feedback.control_interval().to_seconds();
    row["packets"] = s.packets;
    row["feedback_lowered"] = s.lowered;
    const WccpInterval& last = s.feedback.last();
    row["last_flows"] = last.flows;
    row["last_delta_bytes"] = last.delta_bytes;
    rows.push_back(std::move(row));
  }
  nlohmann::ordered_json out;
  out["busyness_threshold"] = params_.busyness_threshold;
  out["alpha"] = params_.alpha;
  out["nodes"] = std::move(rows);
  return out;
}

}  // namespace wmnsim::control
