#include "control/gateway_rate_control.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "config/limits.hpp"
#include "link/drop_tail_queue.hpp"
#include "link/fair_queue.hpp"
#include "link/fred_queue.hpp"
#include "link/shaping_queue.hpp"

namespace wmnsim::control {

namespace {

// The rate of a class the model does not bound.
constexpr double kUnbounded = link::TokenBucket::kMaxRateBps;

// A per-class discipline's whole-queue bound: the per-class buffers are the limit.
constexpr link::QueueLimit kPerClassOnly{link::QueueLimit::Unit::packets, 1'000'000};

std::vector<AccessCategory> access_functions(const mac::Mac& m) {
  if (m.type() == MacType::dcf) return {AccessCategory::ac_be};
  return {AccessCategory::ac_bk, AccessCategory::ac_be, AccessCategory::ac_vi, AccessCategory::ac_vo};
}

bool shapes(GatewayScheme s) {
  return s == GatewayScheme::aggregate_rate_limit || s == GatewayScheme::aggregate_rate_limit_fq ||
         s == GatewayScheme::per_flow_rate_limit || s == GatewayScheme::source_rate_limit;
}

}  // namespace

GatewayRateControl::GatewayRateControl(const ControllerConfig& config, ControlContext& context)
    : Controller(config, context), params_(config.params_as<GatewayRateControlParams>()) {
  gateway_ = static_cast<std::uint32_t>(params_.gateway);
  macs_ = context.macs.at(gateway_);
  if (macs_.empty()) throw std::invalid_argument("gateway_rate_control: the gateway has no radio");

  // Each flow's subscriber: its end with role "mesh" (the source when both or
  // neither is one), as scenario/mac_builder.hpp queue_context says.
  std::vector<std::uint32_t> subscriber;
  for (const ControlContext::FlowInfo& f : context.flows) {
    const bool src_mesh = context.node_info.at(f.src).role == NodeRole::mesh;
    const bool dst_mesh = context.node_info.at(f.dst).role == NodeRole::mesh;
    subscriber.push_back(src_mesh || !dst_mesh ? f.src : f.dst);
  }
  classifier_ = link::PacketClassifier(params_.classify, subscriber);
  flows_.resize(context.flows.size());
  class_of_flow_.resize(context.flows.size());

  // The classes: flows whose data path crosses the gateway.
  for (std::uint32_t i = 0; i < context.flows.size(); ++i) {
    const ControlContext::FlowInfo& f = context.flows[i];
    // Its data or its ACKs cross the gateway.
    const std::vector<std::uint32_t> path = context.routing.tables.path(f.src, f.dst);
    const std::vector<std::uint32_t> back = context.routing.tables.path(f.dst, f.src);
    if (std::find(path.begin(), path.end(), gateway_) == path.end() &&
        std::find(back.begin(), back.end(), gateway_) == back.end()) {
      continue;
    }
    Packet probe;
    probe.flow = i;
    const std::uint32_t cls = classifier_.class_of(probe);
    class_of_flow_[i] = cls;
    ClassState& c = classes_[cls];
    c.name = params_.classify == link::ClassifyBy::flow ? f.id : context.node_info.at(cls).id;
    c.flows.push_back(i);
    if (params_.fair_rate_bps) {
      c.share_bps = *params_.fair_rate_bps;
    } else if (f.fair_share_bps) {
      c.share_bps += *f.fair_share_bps;
    } else {
      from_model_ = true;  // a flow without a share: every share from the model
    }
  }
  if (from_model_ && !context.fair_shares) {
    throw std::invalid_argument("gateway_rate_control: no capacity model in this context; give fair_rate_bps");
  }
  if (from_model_ && params_.mac_capacity == MacCapacitySource::measured && !params_.mac_capacity_bps &&
      !context.measured_mac_capacity_bps) {
    throw std::invalid_argument("gateway_rate_control: no one-hop measurement in this context; give mac_capacity_bps");
  }
}

GatewayRateControl::~GatewayRateControl() = default;

std::unique_ptr<link::QueueDiscipline> GatewayRateControl::make_queue() {
  ++queues_built_;
  DropSink& drops = *context().nodes.at(gateway_);
  const link::QueueLimit shared{link::QueueLimit::Unit::packets, params_.buffer_packets};
  link::FairQueueParams fq;
  fq.per_class_packets = params_.per_flow_buffer_packets;
  fq.classify = params_.classify;
  switch (params_.scheme) {
    case GatewayScheme::fifo:
      return std::make_unique<link::DropTailQueue>(shared, drops);
    case GatewayScheme::fq:
      return std::make_unique<link::FairQueue>(kPerClassOnly, fq, classifier_, drops);
    case GatewayScheme::aggregate_rate_limit:
    case GatewayScheme::aggregate_rate_limit_fq: {
      link::TokenBucketParams tb;
      tb.burst_bytes = params_.burst_bytes;
      const bool with_fq = params_.scheme == GatewayScheme::aggregate_rate_limit_fq;
      tb.inner = with_fq ? link::TokenBucketParams::Inner::fq : link::TokenBucketParams::Inner::fifo;
      tb.fq = fq;
      auto q = std::make_unique<link::AggregateShaper>(with_fq ? kPerClassOnly : shared, tb, classifier_, drops,
                                                      sim().now());
      aggregate_shapers_.push_back(q.get());
      return q;
    }
    case GatewayScheme::per_flow_rate_limit: {
      link::PerClassTokenBucketParams pc;
      pc.rate_bps = kUnbounded;  // a class the controller does not know is not held back
      pc.burst_bytes = params_.burst_bytes;
      pc.classes = fq;
      auto q = std::make_unique<link::PerClassShaper>(kPerClassOnly, pc, classifier_, drops);
      class_shapers_.push_back(q.get());
      return q;
    }
    case GatewayScheme::source_rate_limit:
      // The gateway is left alone (001 Table 2) unless flows start there or beyond
      // it (downstream): those are paced here, "akin to per-flow gateway rate limit".
      if (paced_at(gateway_).empty()) return std::make_unique<link::DropTailQueue>(shared, drops);
      pacer_node_ = gateway_;
      return make_pacer(shared, drops);
    case GatewayScheme::fred: {
      // Its own draws, named per queue (docs/random.md).
      const std::string name = "queue/gateway_rate_control/" + std::to_string(queues_built_);
      auto q = std::make_unique<link::FredQueue>(shared, params_.fred, classifier_,
                                                sim().random().stream("node", context().node_info.at(gateway_).id, name),
                                                drops);
      fred_queues_.push_back(q.get());
      return q;
    }
  }
  throw std::logic_error("gateway_rate_control: no queue for this scheme");
}

std::vector<std::uint32_t> GatewayRateControl::paced_at(std::uint32_t node) const {
  std::vector<std::uint32_t> out;
  for (const auto& [id, c] : classes_) {
    for (const std::uint32_t f : c.flows) {
      std::uint32_t src = context().flows.at(f).src;
      if (context().macs.at(src).empty()) src = gateway_;  // a host beyond the gateway
      if (src == node) {
        out.push_back(id);
        break;
      }
    }
  }
  return out;
}

std::unique_ptr<link::QueueDiscipline> GatewayRateControl::make_pacer(link::QueueLimit fifo, DropSink& drops) {
  auto q = std::make_unique<link::SourcePacer>(fifo, params_.burst_bytes,
                                              static_cast<std::size_t>(params_.per_flow_buffer_packets), classifier_,
                                              drops);
  pacers_.push_back(q.get());
  pacer_classes_.push_back(paced_at(pacer_node_));
  return q;
}

void GatewayRateControl::install_source_pacers() {
  for (std::uint32_t n = 0; n < context().macs.size(); ++n) {
    if (n == gateway_ || paced_at(n).empty()) continue;
    pacer_node_ = n;
    for (mac::Mac* m : context().macs[n]) {
      for (const AccessCategory ac : access_functions(*m)) {
        // The node's own queue's capacity (drop tail unless the scenario chose otherwise).
        const auto* own = dynamic_cast<const link::DropTailQueue*>(&m->queue(ac));
        const link::QueueLimit fifo = own != nullptr ? own->limit() : link::QueueLimit{};
        m->set_queue(ac, make_pacer(fifo, *context().nodes.at(n)));
      }
    }
  }
}

void GatewayRateControl::start() {
  // Before any packet: replacing the gateway's queues moves nothing.
  // Every access function's queue: DCF's one, or EDCA's four, each its own
  // discipline (under EDCA an aggregate limit holds per access category).
  for (mac::Mac* m : macs_) {
    for (const AccessCategory ac : access_functions(*m)) m->set_queue(ac, make_queue());
  }
  // Its wired links carry the upstream data: shaping them delays or drops it at the
  // gateway (001 Sec. 5.3.4: "we can limit the goodput of f_1 to its fair share by
  // dropping its excess traffic at the gateway"), and a delayed TCP segment delays
  // its ACK. The baseline and source limiting leave them alone.
  if (params_.scheme != GatewayScheme::fifo && params_.scheme != GatewayScheme::source_rate_limit) {
    for (link::WiredLink* l : context().wired.at(gateway_)) l->set_queue(make_queue());
  }
  if (params_.scheme == GatewayScheme::source_rate_limit) install_source_pacers();
  subscribe(gateway_, *this);
  if (params_.share_mode == ShareMode::offline) {
    plan_declared_shares();
    apply_declared(0);
  } else {
    apply_rates();
    if (params_.flow_idle_timeout_intervals) {
      arm_idle_check();
    } else {
      every(params_.flow_idle_timeout / 4, [this] { look_for_idle(); });
    }
  }
  every(params_.report_interval, [this] { report(); });
}

void GatewayRateControl::on_stop() {
  sim().scheduler().cancel(epoch_event_);
  sim().scheduler().cancel(idle_event_);
}

ControlContext::MacCapacityChoice GatewayRateControl::model_mac_capacity() {
  if (params_.mac_capacity_bps) return {params_.mac_capacity_bps, std::nullopt};
  if (params_.mac_capacity == MacCapacitySource::bianchi) return {};
  // Measured once, at the first model call: runs of their own, no draw from this one.
  if (!mac_capacity_bps_) mac_capacity_bps_ = context().measured_mac_capacity_bps(params_.measured_b_counts);
  return {std::nullopt, params_.measured_b_counts};
}

void GatewayRateControl::plan_declared_shares() {
  // The scenario's own changes of activity: its classes' flows' starts and stops.
  const Time now = sim().now();
  std::vector<Time> changes{now};
  for (std::uint32_t i = 0; i < context().flows.size(); ++i) {
    if (!class_of_flow_[i]) continue;
    const ControlContext::FlowInfo& f = context().flows[i];
    if (f.start > now) changes.push_back(f.start);
    if (f.stop && *f.stop > now) changes.push_back(*f.stop);
  }
  std::sort(changes.begin(), changes.end());
  changes.erase(std::unique(changes.begin(), changes.end()), changes.end());
  const ControlContext::MacCapacityChoice b = from_model_ ? model_mac_capacity() : ControlContext::MacCapacityChoice{};
  for (const Time at : changes) {
    DeclaredEpoch e{at, std::vector<bool>(context().flows.size(), false), {}};
    // 001 App. A.3: the streams sending then (G(s) = infinity), one per class along
    // the route of its first sending flow (as model_shares).
    std::map<std::uint32_t, std::uint32_t> stream_of;
    for (std::uint32_t i = 0; i < context().flows.size(); ++i) {
      if (!class_of_flow_[i]) continue;
      const ControlContext::FlowInfo& f = context().flows[i];
      if (f.start > at || (f.stop && *f.stop <= at)) continue;
      e.flows_active[i] = true;
      stream_of.emplace(*class_of_flow_[i], i);
    }
    std::vector<double> rates;
    if (from_model_) {
      std::vector<bool> streams(context().flows.size(), false);
      for (const auto& [cls, flow] : stream_of) streams[flow] = true;
      rates = context().fair_shares(params_.capacity_model, streams, b);
    }
    for (const auto& [cls, flow] : stream_of) {
      // A flow that crosses no wireless link has no bound in the model (infinity).
      e.shares[cls] = from_model_ ? std::min(rates.at(flow), kUnbounded) : classes_.at(cls).share_bps;
    }
    epochs_.push_back(std::move(e));
  }
}

void GatewayRateControl::apply_declared(std::size_t epoch) {
  const DeclaredEpoch& e = epochs_.at(epoch);
  for (std::uint32_t i = 0; i < flows_.size(); ++i) flows_[i].active = e.flows_active[i];
  for (auto& [id, c] : classes_) {
    const auto share = e.shares.find(id);
    const bool active = share != e.shares.end();
    if (active != c.active) ++activity_changes_;
    c.active = active;
    if (active) {
      c.share_bps = share->second;
      continue;
    }
    // Not sending now: the share of its next interval, ready for its first packet.
    for (std::size_t k = epoch + 1; k < epochs_.size(); ++k) {
      const auto next = epochs_[k].shares.find(id);
      if (next != epochs_[k].shares.end()) {
        c.share_bps = next->second;
        break;
      }
    }
  }
  apply_rates();
  if (epoch + 1 < epochs_.size()) {
    epoch_event_ = sim().scheduler().schedule_at(epochs_[epoch + 1].at, [this, epoch] { apply_declared(epoch + 1); });
  }
}

Time GatewayRateControl::idle_timeout(const ClassState& c) const {
  if (!params_.flow_idle_timeout_intervals) return params_.flow_idle_timeout;
  // One data packet's bits over the class's token rate, both in whole IP packets.
  const ControlContext::FlowInfo& f = context().flows.at(c.flows.front());
  const double packet_bits = 8.0 * static_cast<double>(f.payload_bytes) * f.packet_per_payload;
  const double rate = token_rate(c);
  // A class the model does not bound (it crosses no wireless link) or gives nothing
  // has no pace to count intervals of: a packet interval at kUnbounded is
  // microseconds, which would mark it idle between any two packets. It keeps the
  // fixed timeout.
  if (!(rate > 0.0) || rate >= kUnbounded) return params_.flow_idle_timeout;
  const double seconds = *params_.flow_idle_timeout_intervals * packet_bits / rate;
  return Time::from_seconds(std::clamp(seconds, kMinPeriodS, Time::max().to_seconds() / 2));
}

void GatewayRateControl::arm_idle_check() {
  // The next look at a quarter of the shortest timeout among the active classes;
  // with none active, the next class to turn active arms it (seen()).
  std::optional<Time> shortest;
  for (const auto& [id, c] : classes_) {
    if (c.active) shortest = shortest ? std::min(*shortest, idle_timeout(c)) : idle_timeout(c);
  }
  idle_check_armed_ = shortest.has_value();
  if (!shortest) return;
  const Time period = std::max(*shortest / 4, Time::from_seconds(kMinPeriodS));
  idle_event_ = sim().scheduler().schedule_in(period, [this] {
    look_for_idle();
    arm_idle_check();
  });
}

void GatewayRateControl::seen(const Packet& packet, bool into_queue) {
  const auto it = classes_.find(classifier_.class_of(packet));
  if (it == classes_.end()) return;  // not a class this controller shapes (or control traffic)
  ClassState& c = it->second;
  if (into_queue) {
    ++c.packets;
    c.bytes += packet.size_bytes;
    if (packet.transport.carries_data()) {
      ++c.data_packets;
      c.data_bytes += packet.size_bytes;
    }
  }
  if (params_.share_mode == ShareMode::offline) return;  // the scenario says who is active
  const Time now = sim().now();
  c.last_seen = now;
  FlowActivity& flow = flows_.at(packet.flow);
  flow.last_seen = now;
  const bool flow_was_active = flow.active;
  flow.active = true;
  if (!c.active) {
    c.active = true;  // before the packet reaches the queue (the signal comes first)
    ++activity_changes_;
    apply_rates();
    if (params_.flow_idle_timeout_intervals && !idle_check_armed_) arm_idle_check();
  } else if (!flow_was_active && from_model_) {
    apply_rates();  // the class's model stream may now follow another route
  }
}

void GatewayRateControl::on_originated(std::uint32_t /*node*/, Packet& packet) { seen(packet, true); }

void GatewayRateControl::on_forwarded(std::uint32_t /*node*/, Packet& packet, const PrevHop& /*from*/,
                                      const NextHop& /*to*/) {
  seen(packet, true);
}

void GatewayRateControl::on_delivered(std::uint32_t /*node*/, Packet& packet, const PrevHop& /*from*/) {
  seen(packet, false);  // an upstream flow ending here is active too
}

void GatewayRateControl::on_dropped(std::uint32_t /*node*/, const Packet& packet, DropCause cause) {
  const auto it = classes_.find(classifier_.class_of(packet));
  if (it != classes_.end()) ++it->second.drops[std::string(to_string(cause))];
}

void GatewayRateControl::look_for_idle() {
  const Time now = sim().now();
  bool changed = false;
  for (std::uint32_t i = 0; i < flows_.size(); ++i) {
    FlowActivity& f = flows_[i];
    if (!f.active) continue;
    // A flow's timeout is its class's (the fixed one without intervals).
    const Time timeout = params_.flow_idle_timeout_intervals && class_of_flow_[i]
                             ? idle_timeout(classes_.at(*class_of_flow_[i]))
                             : params_.flow_idle_timeout;
    if (now - f.last_seen >= timeout) {
      f.active = false;
      changed = changed || from_model_;
    }
  }
  for (auto& [id, c] : classes_) {
    if (c.active && now - c.last_seen >= idle_timeout(c)) {
      c.active = false;
      changed = true;
      ++activity_changes_;
    }
  }
  if (changed) apply_rates();
}

void GatewayRateControl::model_shares() {
  // 001 App. A.3: the max-min shares of the streams active now (G(s) = infinity),
  // the others silent (G(s) = 0). A class is one stream, whatever its flow count
  // (001 Sec. 5.3.2: "per-subscriber fairness irrespective of their flow count"),
  // along the route of its first active flow.
  std::vector<bool> active(context().flows.size(), false);
  std::map<std::uint32_t, std::uint32_t> stream_of;  // class -> its representative flow
  for (const auto& [id, c] : classes_) {
    if (!c.active) continue;
    for (const std::uint32_t f : c.flows) {
      if (flows_.at(f).active) {
        active[f] = true;
        stream_of[id] = f;
        break;
      }
    }
  }
  const std::vector<double> rates = context().fair_shares(params_.capacity_model, active, model_mac_capacity());
  for (auto& [id, c] : classes_) {
    const auto s = stream_of.find(id);
    if (s == stream_of.end()) continue;  // inactive: keeps its last share for its first packet back
    // A flow that crosses no wireless link has no bound in the model (infinity):
    // its class is not held back.
    c.share_bps = std::min(rates.at(s->second), kUnbounded);
  }
}

double GatewayRateControl::token_rate(const ClassState& c) const {
  return std::min(c.share_bps * context().flows.at(c.flows.front()).packet_per_payload, kUnbounded);
}

void GatewayRateControl::apply_rates() {
  const Time now = sim().now();
  // Offline, the shares were set from the declared plan (apply_declared).
  if (from_model_ && params_.share_mode == ShareMode::activity) model_shares();
  // Shares are goodput rates; the shapers count whole IP packets (the header
  // bytes on top of the payload), so their token rates are scaled up to match.
  double aggregate = 0.0;
  for (const auto& [id, c] : classes_) {
    if (c.active) aggregate += token_rate(c);
  }
  aggregate = std::min(aggregate, kUnbounded);
  for (link::AggregateShaper* q : aggregate_shapers_) q->set_rate(now, aggregate);
  // An inactive class keeps its share: its first packet back should not wait for
  // a rate (it is recomputed as the class turns active, before the packet queues).
  for (link::PerClassShaper* q : class_shapers_) {
    for (const auto& [id, c] : classes_) q->set_class_rate(now, id, token_rate(c));
  }
  // A pacer paces only the classes set here: its node's own (paced_at).
  for (std::size_t i = 0; i < pacers_.size(); ++i) {
    for (const std::uint32_t id : pacer_classes_[i]) pacers_[i]->set_class_rate(now, id, token_rate(classes_.at(id)));
  }
  aggregate_rate_bps_ = aggregate;
  if (context().decisions != nullptr) tell_rates(false);
}

void GatewayRateControl::report_state() { tell_rates(true); }

void GatewayRateControl::tell_rates(bool all) {
  // The rates that shape something, as decisions at the gateway: the aggregate
  // (no flow) under the aggregate schemes, each class's (its first flow) where
  // per-class shapers or pacers hold them. A class that crosses no wireless link
  // is not held back (kUnbounded): no record.
  if (!aggregate_shapers_.empty() && (all || aggregate_rate_bps_ != told_aggregate_bps_) &&
      aggregate_rate_bps_ < kUnbounded) {
    tell({ControllerAction::rate, gateway_, kNoNode, kNoNode, kNoNode, std::llround(aggregate_rate_bps_)});
  }
  told_aggregate_bps_ = aggregate_rate_bps_;
  if (class_shapers_.empty() && pacers_.empty()) return;
  for (auto& [id, c] : classes_) {
    const double rate = token_rate(c);
    if ((all || rate != c.told_bps) && rate < kUnbounded) {
      tell({ControllerAction::rate, gateway_, kNoNode, kNoNode, c.flows.front(), std::llround(rate)});
    }
    c.told_bps = rate;
  }
}

void GatewayRateControl::report() {
  const double seconds = params_.report_interval.to_seconds();
  // Two values per class and the aggregate per report: all kept, or none.
  if (!keep(2.0 * static_cast<double>(classes_.size()) + 1.0)) return;
  for (auto& [id, c] : classes_) {
    c.data_rate_bps.push_back(static_cast<double>(c.data_bytes - c.data_bytes_at_report) * 8.0 / seconds);
    c.data_bytes_at_report = c.data_bytes;
    c.share_series_bps.push_back(c.active ? c.share_bps : 0.0);
  }
  aggregate_series_bps_.push_back(aggregate_rate_bps_);
}

nlohmann::ordered_json GatewayRateControl::statistics() const {
  nlohmann::ordered_json out;
  out["gateway"] = context().node_info.at(gateway_).id;
  out["scheme"] = std::string(to_string(params_.scheme));
  out["classify"] = params_.classify == link::ClassifyBy::flow ? "flow" : "subscriber";
  out["shares_from"] = params_.fair_rate_bps ? "fair_rate_bps"
                       : from_model_        ? std::string(to_string(params_.capacity_model))
                                            : "fair_share_bps";
  out["aggregate_rate_bps"] = shapes(params_.scheme) && params_.scheme != GatewayScheme::per_flow_rate_limit
                                  ? nlohmann::ordered_json(aggregate_rate_bps_)
                                  : nlohmann::ordered_json(nullptr);
  out["share_mode"] = std::string(to_string(params_.share_mode));
  // What a measured B counts; only when measured (the other runs' statistics as before).
  if (mac_capacity_bps_) out["measured_b_counts"] = std::string(to_string(params_.measured_b_counts));
  // B, when the model's is not Bianchi's: given or measured.
  out["mac_capacity_bps"] = params_.mac_capacity_bps ? nlohmann::ordered_json(*params_.mac_capacity_bps)
                            : mac_capacity_bps_      ? nlohmann::ordered_json(*mac_capacity_bps_)
                                                     : nlohmann::ordered_json(nullptr);
  out["activity_changes"] = activity_changes_;
  out["report_interval_s"] = params_.report_interval.to_seconds();
  nlohmann::ordered_json classes = nlohmann::ordered_json::array();
  for (const auto& [id, c] : classes_) {
    nlohmann::ordered_json row;
    row["class"] = c.name;
    nlohmann::ordered_json flows = nlohmann::ordered_json::array();
    for (const std::uint32_t f : c.flows) flows.push_back(context().flows.at(f).id);
    row["flows"] = flows;
    row["share_bps"] = c.share_bps;
    row["active"] = c.active;
    row["packets_in"] = c.packets;
    row["bytes_in"] = c.bytes;
    row["data_packets_in"] = c.data_packets;
    row["data_bytes_in"] = c.data_bytes;
    row["drops"] = c.drops;
    if (!fred_queues_.empty()) {
      // FRED's own split of its drops (001 Sec. 5.2): over its per-flow cap (maxq,
      // 2 avgcq or strikes; counted queue_overflow), early (RED's random and forced
      // drops; queue_early_drop), the buffer full (queue_overflow).
      std::uint64_t cap = 0, early = 0, full = 0;
      for (const link::FredQueue* q : fred_queues_) {
        const auto it = q->class_stats().find(id);
        if (it == q->class_stats().end()) continue;
        cap += it->second.flow_limit_drops;
        early += it->second.early_drops();
        full += it->second.buffer_drops;
      }
      row["fred_drops"] = {{"per_flow_cap", cap}, {"early", early}, {"full_buffer", full}};
    }
    std::size_t queued = 0;
    // Every queue the controller shapes: each radio's access functions and the wired links.
    for (mac::Mac* m : macs_) {
      for (const AccessCategory ac : access_functions(*m)) queued += m->queue(ac).packets_of_class(id).value_or(0);
    }
    for (link::WiredLink* l : context().wired.at(gateway_)) queued += l->queue().packets_of_class(id).value_or(0);
    row["queued_at_end"] = queued;
    row["data_arrival_rate_bps"] = c.data_rate_bps;
    row["share_series_bps"] = c.share_series_bps;
    classes.push_back(std::move(row));
  }
  out["classes"] = std::move(classes);
  out["aggregate_rate_series_bps"] = aggregate_series_bps_;
  return out;
}

std::unique_ptr<Controller> make_gateway_rate_control(const ControllerConfig& config, ControlContext& context) {
  return std::make_unique<GatewayRateControl>(config, context);
}

}  // namespace wmnsim::control
