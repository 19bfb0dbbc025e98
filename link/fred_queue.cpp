#include "link/fred_queue.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "config/limits.hpp"

namespace wmnsim::link {

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

// The paper is Lin and Morris, "Dynamics of Random Early Detection", SIGCOMM 1997
// (its FRED pseudo-code); the defaults are ns-2's FRED module's (FredParams).
const FredKeys& fred_keys() {
  static const FredKeys keys{
      IntegerParameter({.key = "min_th_packets",
                        .unit = "packets",
                        .min = 1,
                        .max = kMaxBufferPackets,
                        .fallback = FredParams{}.min_th_packets,
                        .description = "RED's min_th: average queue where random drops start; also maxq, the "
                                       "most one class may hold; below max_th_packets",
                        .source = "Lin and Morris 1997; ns-2 thresh_"}),
      IntegerParameter({.key = "max_th_packets",
                        .unit = "packets",
                        .min = 1,
                        .max = kMaxBufferPackets,
                        .fallback = FredParams{}.max_th_packets,
                        .description = "RED's max_th: average queue from which every arrival is dropped and "
                                       "maxq falls to 2",
                        .source = "Lin and Morris 1997; ns-2 maxthresh_"}),
      NumberParameter({.key = "max_p",
                       .range = NumberRange::open_closed(0, 1),
                       .fallback = FredParams{}.max_p,
                       .description = "RED's max_p: the random drop probability reached at max_th_packets",
                       .source = "Lin and Morris 1997; ns-2 1/linterm_"}),
      NumberParameter({.key = "queue_weight",
                       .range = NumberRange::open_closed(0, 1),
                       .fallback = FredParams{}.queue_weight,
                       .description = "RED's w_q: weight of a new sample in the average queue (EWMA)",
                       .source = "Lin and Morris 1997; ns-2 q_weight_"}),
      IntegerParameter({.key = "min_q_packets",
                        .unit = "packets",
                        .min = 1,
                        .max = kMaxBufferPackets,
                        .fallback = FredParams{}.min_q_packets,
                        .description = "minq: packets a class may always queue while the average is between "
                                       "the thresholds (fragile flows)",
                        .source = "Lin and Morris 1997: 2 for small buffers"}),
      BooleanParameter({.key = "wait",
                        .fallback = FredParams{}.wait,
                        .description = "spread random drops evenly: none until count x pb reaches 1",
                        .source = "ns-2 wait_"}),
      TimeParameter({.key = "mean_packet_time_us",
                     .unit = TimeParameter::Unit::microseconds,
                     .range = NumberRange::non_negative(),
                     .fallback = FredParams{}.mean_packet_time,
                     .description = "idle decay: an arrival to an empty queue first decays the average as if "
                                    "one packet had been served per this time; 0: no decay",
                     .source = "ns-2 red.cc (1/ptc); ours: a 500-byte packet at 001's 1 Mb/s"}),
  };
  return keys;
}

namespace {

// What the registry's parse produces: FRED's parameters and how to classify.
struct FredChoice {
  FredParams fred;
  ClassifyBy classify = ClassifyBy::flow;
};

FredChoice parse(JsonReader& r, const std::any* base) {
  const FredKeys& k = fred_keys();
  FredChoice c = base != nullptr ? std::any_cast<FredChoice>(*base) : FredChoice{};
  FredParams& f = c.fred;
  f.min_th_packets = static_cast<int>(k.min_th_packets.read_or(r, f.min_th_packets));
  f.max_th_packets = static_cast<int>(k.max_th_packets.read_or(r, f.max_th_packets));
  f.max_p = k.max_p.read_or(r, f.max_p);
  f.queue_weight = k.queue_weight.read_or(r, f.queue_weight);
  f.min_q_packets = static_cast<int>(k.min_q_packets.read_or(r, f.min_q_packets));
  f.wait = k.wait.read_or(r, f.wait);
  f.mean_packet_time = k.mean_packet_time.read_or(r, f.mean_packet_time);
  c.classify = per_class_keys().classify.read_or(r, c.classify);
  if (f.min_th_packets >= f.max_th_packets) {
    // Named at whichever threshold was given (both: max), so a per-node override
    // that moves one threshold past the inherited other is pointed at the key it set.
    const std::string& max_th = k.max_th_packets.key;
    const std::string& min_th = k.min_th_packets.key;
    const std::string& key = r.has(max_th) || !r.has(min_th) ? max_th : min_th;
    r.issues().add(r.path_of(key), max_th + " (" + std::to_string(f.max_th_packets) + ") must exceed " + min_th +
                                       " (" + std::to_string(f.min_th_packets) + ")");
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
  e.summary = "FRED: one FIFO, RED's average with per-class accounting; random drops of classes holding "
              "max(`min_q_packets`, average per class) or more between the thresholds, and of every arrival once "
              "the average reaches `max_th_packets`, are `queue_early_drop`; a class over its own limit or a full "
              "buffer, `queue_overflow` (docs/queues.md)";
  e.source = "Lin and Morris 1997; ns-2's defaults; 001 Sec. 4.2";
  const FredKeys& k = fred_keys();
  e.parameters = {k.min_th_packets, k.max_th_packets, k.max_p, k.queue_weight, k.min_q_packets, k.wait,
                  k.mean_packet_time, per_class_keys().classify};
  return e;
}

}  // namespace wmnsim::link
