#include "link/fred_queue.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace wmnsim::mac {

FredQueue::FredQueue(QueueLimit limit, FredParams params, PacketClassifier classifier, RandomStream random,
                     DropSink& drops, QueueObserver* observer)
    : QueueDiscipline(drops, observer),
      limit_(limit),
      params_(params),
      classifier_(std::move(classifier)),
      random_(random) {
  const auto bad = [](const std::string& what) { throw std::invalid_argument("FRED queue: " + what); };
  if (limit_.capacity < 1) bad("capacity must be at least 1, got " + std::to_string(limit_.capacity));
  if (params_.min_th_packets < 1) bad("min_th_packets must be at least 1");
  if (params_.max_th_packets <= params_.min_th_packets) bad("max_th_packets must exceed min_th_packets");
  if (!(params_.max_p > 0 && params_.max_p <= 1)) bad("max_p must be in (0, 1]");
  if (!(params_.queue_weight > 0 && params_.queue_weight <= 1)) bad("queue_weight must be in (0, 1]");
  if (params_.min_q_packets < 1) bad("min_q_packets must be at least 1");
  if (params_.mean_packet_time < Time::zero()) bad("mean_packet_time must not be negative");
}

double FredQueue::average_per_class() const {
  const double per_class = active_.empty() ? avg_ : avg_ / static_cast<double>(active_.size());
  return std::max(per_class, 1.0);
}

std::size_t FredQueue::class_length(std::uint32_t class_id) const {
  const auto it = active_.find(class_id);
  return it == active_.end() ? 0 : it->second.qlen;
}

int FredQueue::class_strikes(std::uint32_t class_id) const {
  const auto it = active_.find(class_id);
  return it == active_.end() ? 0 : it->second.strike;
}

bool FredQueue::fits(const Packet& packet) const {
  if (limit_.unit == QueueLimit::Unit::packets) return static_cast<std::int64_t>(fifo_.size()) < limit_.capacity;
  return fifo_.bytes() + static_cast<std::int64_t>(packet.size_bytes) <= limit_.capacity;
}

void FredQueue::decay_idle(Time now) {
  // The paper: avg = (1 - w)^m avg, m = f(time - q_time); ns-2 takes m = int(ptc *
  // idle time). The decay is then accounted up to now: an arrival dropped here
  // leaves the queue empty, and the next must not decay the same idle time again.
  if (params_.mean_packet_time > Time::zero() && now > idle_since_) {
    const std::int64_t m = (now - idle_since_) / params_.mean_packet_time;
    avg_ *= std::pow(1.0 - params_.queue_weight, static_cast<double>(m));
  }
  idle_since_ = now;
}

bool FredQueue::random_drop() {
  const double th_min = params_.min_th_packets;
  const double th_max = params_.max_th_packets;
  const double pb = params_.max_p * (avg_ - th_min) / (th_max - th_min);
  const double c = static_cast<double>(count_) * pb;
  // Spread drops by the arrivals since the last one (RED's count; ns-2 modify_p()).
  double pa = 1.0;
  if (params_.wait) {
    pa = c < 1.0 ? 0.0 : c < 2.0 ? pb / (2.0 - c) : 1.0;
  } else if (c < 1.0) {
    pa = pb / (1.0 - c);
  }
  // Draw only when the outcome is uncertain.
  return pa >= 1.0 || (pa > 0.0 && random_.uniform01() < pa);
}

FredQueue::Verdict FredQueue::judge(const Packet& packet, Active& cls) {
  const double th_min = params_.min_th_packets;
  const double th_max = params_.max_th_packets;
  const double avgcq = average_per_class();
  const double qlen = static_cast<double>(cls.qlen);
  // Non-adaptive flows: a class over its share, or a repeat offender over the mean.
  const double maxq = avg_ >= th_max ? 2.0 : th_min;
  if (qlen >= maxq || (avg_ >= th_max && qlen > 2.0 * avgcq) || (qlen >= avgcq && cls.strike > 1)) {
    ++cls.strike;
    return Verdict::flow_limit;
  }
  if (avg_ < th_min) {
    count_ = -1;  // no-drop mode
  } else if (avg_ < th_max) {
    ++count_;
    // Only classes at or over max(min_q, avgcq) are candidates (robust flows).
    if (qlen >= std::max(static_cast<double>(params_.min_q_packets), avgcq) && random_drop()) {
      count_ = 0;
      return Verdict::random;
    }
  } else {
    count_ = 0;  // drop-tail mode
    return Verdict::forced;
  }
  return fits(packet) ? Verdict::accept : Verdict::buffer;
}

EnqueueResult FredQueue::do_enqueue(PacketPtr& packet, Time now) {
  const std::uint32_t id = classifier_.class_of(*packet);
  FredClassStats& stats = stats_[id];
  ++stats.arrivals;
  if (fifo_.empty()) decay_idle(now);
  Active& cls = active_[id];  // a class without packets has no state: starts at zero
  const Verdict verdict = judge(*packet, cls);
  if (verdict != Verdict::accept) {
    if (cls.qlen == 0) active_.erase(id);  // nothing queued: no state kept (strike is 0 there)
    switch (verdict) {
      case Verdict::flow_limit: ++stats.flow_limit_drops; return EnqueueResult::dropped(DropCause::queue_overflow);
      case Verdict::buffer: ++stats.buffer_drops; return EnqueueResult::dropped(DropCause::queue_overflow);
      case Verdict::random: ++stats.random_drops; return EnqueueResult::dropped(DropCause::queue_early_drop);
      case Verdict::forced: ++stats.forced_drops; return EnqueueResult::dropped(DropCause::queue_early_drop);
      case Verdict::accept: break;
    }
  }
  ++stats.accepted;
  ++cls.qlen;
  fifo_.push_back(std::move(packet));
  sample_average();
  return EnqueueResult::accepted();
}

PacketPtr FredQueue::do_dequeue(Time now) {
  PacketPtr packet = fifo_.pop_front();
  if (!packet) return nullptr;
  const std::uint32_t id = classifier_.class_of(*packet);
  const auto it = active_.find(id);
  if (it == active_.end() || it->second.qlen == 0) throw std::logic_error("FRED queue: a packet of no active class");
  if (--it->second.qlen == 0) active_.erase(it);
  sample_average();
  if (fifo_.empty()) idle_since_ = now;
  return packet;
}

namespace {

// What the registry's parse produces: FRED's parameters and how to classify.
struct FredChoice {
  FredParams fred;
  ClassifyBy classify = ClassifyBy::flow;
};

FredChoice parse(JsonReader& r, const std::any* base) {
  FredChoice c = base != nullptr ? std::any_cast<FredChoice>(*base) : FredChoice{};
  FredParams& f = c.fred;
  f.min_th_packets = static_cast<int>(r.integer_or("min_th_packets", f.min_th_packets, 1, 1'000'000));
  f.max_th_packets = static_cast<int>(r.integer_or("max_th_packets", f.max_th_packets, 1, 1'000'000));
  f.max_p = r.number_or("max_p", f.max_p, NumberRange::open_closed(0, 1));
  f.queue_weight = r.number_or("queue_weight", f.queue_weight, NumberRange::open_closed(0, 1));
  f.min_q_packets = static_cast<int>(r.integer_or("min_q_packets", f.min_q_packets, 1, 1'000'000));
  f.wait = r.boolean_or("wait", f.wait);
  f.mean_packet_time = r.microseconds("mean_packet_time_us", NumberRange::non_negative()).value_or(f.mean_packet_time);
  c.classify = r.choice_or("classify", c.classify, names(kClassifyBy));
  if (f.min_th_packets >= f.max_th_packets) {
    // Named at whichever threshold was given (both: max), so a per-node override
    // that moves one threshold past the inherited other is pointed at the key it set.
    const char* key = r.has("max_th_packets") || !r.has("min_th_packets") ? "max_th_packets" : "min_th_packets";
    r.issues().add(r.path_of(key), "max_th_packets (" + std::to_string(f.max_th_packets) +
                                       ") must exceed min_th_packets (" + std::to_string(f.min_th_packets) + ")");
  }
  return c;
}

}  // namespace

QueueDisciplineEntry fred_entry() {
  QueueDisciplineEntry e;
  e.name = "fred";
  e.parse = [](JsonReader& queue, const std::any* base) { return std::any(parse(queue, base)); };
  e.build = [](const QueueLimit& limit, const std::any& params, DropSink& drops,
               const QueueContext& context) -> std::unique_ptr<QueueDiscipline> {
    const FredChoice c = params.has_value() ? std::any_cast<FredChoice>(params) : FredChoice{};
    return std::make_unique<FredQueue>(limit, c.fred, PacketClassifier(c.classify, context.flow_subscriber),
                                       context.random, drops);
  };
  e.schema = R"json({"properties": {
  "min_th_packets": {"type": "integer", "minimum": 1, "default": 5,
    "description": "fred: average queue (packets) where random drops start; below max_th_packets"},
  "max_th_packets": {"type": "integer", "minimum": 1, "default": 15,
    "description": "fred: average queue (packets) from which arrivals are dropped"},
  "max_p": {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "default": 0.1,
    "description": "fred: drop probability reached at max_th_packets"},
  "queue_weight": {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "default": 0.002,
    "description": "fred: weight of the average queue's EWMA"},
  "min_q_packets": {"type": "integer", "minimum": 1, "default": 2,
    "description": "fred: packets a class may always queue while the average is between the thresholds"},
  "wait": {"type": "boolean", "default": true,
    "description": "fred: ns-2's wait_, spread random drops evenly"},
  "mean_packet_time_us": {"type": "number", "minimum": 0, "default": 4000,
    "description": "fred: idle decay, one mean packet served per this time (us); 0: none"},
  "classify": {"enum": ["flow", "subscriber"], "default": "flow",
    "description": "fq, fred, token_bucket (inner fq), per_class_token_bucket: a class per flow, or per subscriber (the mesh node the flow starts or ends at)"}
}})json";
  e.doc =
      R"md(| `fred` | `min_th_packets` (5), `max_th_packets` (15), `max_p` (0.1), `queue_weight` (0.002), `min_q_packets` (2), `wait` (true), `mean_packet_time_us` (4000), `classify` (`"flow"` or `"subscriber"`) | FRED (Lin and Morris 1997; ns-2's defaults): one FIFO, RED's average with per-class accounting; random drops of classes holding max(`min_q_packets`, average per class) or more between the thresholds, and of every arrival once the average reaches `max_th_packets`, are `queue_early_drop`; a class over its own limit or a full buffer, `queue_overflow` (docs/queues.md) |)md";
  return e;
}

}  // namespace wmnsim::mac
