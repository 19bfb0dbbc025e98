#include "link/shaping_queue.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <vector>
#include <stdexcept>
#include <utility>

namespace wmnsim::link {

// ---- AggregateShaper ----------------------------------------------------------------

AggregateShaper::AggregateShaper(QueueLimit limit, const TokenBucketParams& params, PacketClassifier classifier,
                                 DropSink& drops, Time now)
    : QueueDiscipline(drops),
      limit_(limit),
      classifier_(std::move(classifier)),
      bucket_(params.rate_bps, params.burst_bytes, now) {
  if (limit_.capacity < 1) throw std::invalid_argument("token bucket queue capacity must be at least 1");
  if (params.inner == TokenBucketParams::Inner::fq) {
    fq_.emplace(params.fq.quantum_bytes, static_cast<std::size_t>(params.fq.per_class_packets));
  } else {
    fifo_.emplace();
  }
}

std::size_t AggregateShaper::length_packets() const { return control_.size() + (fq_ ? fq_->size() : fifo_->size()); }
std::int64_t AggregateShaper::length_bytes() const { return control_.bytes() + (fq_ ? fq_->bytes() : fifo_->bytes()); }

const Packet* AggregateShaper::shaped_head() const { return fq_ ? fq_->front() : fifo_->front(); }

const Packet* AggregateShaper::do_peek() const {
  return control_.empty() ? shaped_head() : control_.front();
}

Time AggregateShaper::ready_at(Time now) const {
  if (!control_.empty()) return now;
  const Packet* head = shaped_head();
  return head == nullptr ? Time::max() : bucket_.ready_at(now, head->size_bytes);
}

EnqueueResult AggregateShaper::do_enqueue(PacketPtr& packet, Time /*now*/) {
  if (!fits_limit(limit_, length_packets(), length_bytes(), packet->size_bytes)) {
    return EnqueueResult::dropped(DropCause::queue_overflow);
  }
  const std::uint32_t cls = classifier_.class_of(*packet);
  if (cls == kControlClass) {
    control_.push_back(std::move(packet));
  } else if (fq_) {
    if (!fq_->push(packet, cls)) return EnqueueResult::dropped(DropCause::queue_overflow);
  } else {
    fifo_->push_back(std::move(packet));
  }
  return EnqueueResult::accepted();
}

PacketPtr AggregateShaper::do_dequeue(Time now) {
  if (!control_.empty()) return control_.pop_front();
  const Packet* head = shaped_head();
  if (head == nullptr || bucket_.ready_at(now, head->size_bytes) > now) return nullptr;
  bucket_.take(now, head->size_bytes);
  return fq_ ? fq_->pop() : fifo_->pop_front();
}

void AggregateShaper::set_rate(Time now, double rate_bps) {
  bucket_.set_rate(now, rate_bps);
  notify_ready();  // the head's release may now come earlier: the owner asks again
}

std::size_t AggregateShaper::class_length(std::uint32_t cls) const {
  if (cls == kControlClass) return control_.size();
  if (!fq_) throw std::logic_error("AggregateShaper::class_length: a shared FIFO keeps no classes");
  return fq_->class_length(cls);
}

// ---- PerClassShaper -----------------------------------------------------------------

PerClassShaper::PerClassShaper(QueueLimit limit, const PerClassTokenBucketParams& params, PacketClassifier classifier,
                               DropSink& drops)
    : QueueDiscipline(drops), limit_(limit), params_(params), classifier_(std::move(classifier)) {
  if (limit_.capacity < 1) throw std::invalid_argument("per-class token bucket queue capacity must be at least 1");
  // Checks the rate and depth now rather than at the first packet.
  (void)TokenBucket(params_.rate_bps, params_.burst_bytes, Time::zero());
}

PerClassShaper::Class& PerClassShaper::class_for(std::uint32_t cls, Time now) {
  auto it = classes_.find(cls);
  if (it == classes_.end()) {
    // A new class starts with a full bucket, from now.
    it = classes_.emplace(cls, Class{TokenBucket(params_.rate_bps, params_.burst_bytes, now), PacketFifo(), false})
             .first;
  }
  return it->second;
}

PerClassShaper::ClassIt PerClassShaper::next_ready(Time now) const {
  const auto ready = [now](const Class& c) {
    return !c.fifo.empty() && c.bucket.ready_at(now, c.fifo.front()->size_bytes) <= now;
  };
  // Round robin: from the class after the last served to the end, then from the start.
  const ClassIt after = last_served_ ? classes_.upper_bound(*last_served_) : classes_.begin();
  for (ClassIt it = after; it != classes_.end(); ++it) {
    if (ready(it->second)) return it;
  }
  for (ClassIt it = classes_.begin(); it != after; ++it) {
    if (ready(it->second)) return it;
  }
  return classes_.end();
}

const PerClassShaper::Class* PerClassShaper::earliest(Time now) const {
  const Class* best = nullptr;
  Time best_at = Time::max();
  for (const auto& [id, c] : classes_) {
    if (c.fifo.empty()) continue;
    const Time at = c.bucket.ready_at(now, c.fifo.front()->size_bytes);
    if (best == nullptr || at < best_at) {
      best = &c;
      best_at = at;
    }
  }
  return best;
}

Time PerClassShaper::ready_at(Time now) const {
  if (!control_.empty()) return now;
  const Class* c = earliest(now);
  return c == nullptr ? Time::max() : c->bucket.ready_at(now, c->fifo.front()->size_bytes);
}

const Packet* PerClassShaper::do_peek_at(Time now) const {
  if (!control_.empty()) return control_.front();
  const ClassIt it = next_ready(now);
  const Class* c = it != classes_.end() ? &it->second : earliest(now);
  return c == nullptr ? nullptr : c->fifo.front();
}

EnqueueResult PerClassShaper::do_enqueue(PacketPtr& packet, Time now) {
  last_now_ = std::max(last_now_, now);
  if (!fits_limit(limit_, packets_, bytes_, packet->size_bytes)) return EnqueueResult::dropped(DropCause::queue_overflow);
  const std::uint32_t cls = classifier_.class_of(*packet);
  const std::uint32_t size = packet->size_bytes;
  if (cls == kControlClass) {
    control_.push_back(std::move(packet));
  } else {
    Class& c = class_for(cls, now);
    if (c.fifo.size() >= static_cast<std::size_t>(params_.classes.per_class_packets)) {
      return EnqueueResult::dropped(DropCause::queue_overflow);
    }
    c.fifo.push_back(std::move(packet));
  }
  ++packets_;
  bytes_ += size;
  return EnqueueResult::accepted();
}

PacketPtr PerClassShaper::do_dequeue(Time now) {
  last_now_ = std::max(last_now_, now);
  PacketPtr p;
  if (!control_.empty()) {
    p = control_.pop_front();
  } else if (const ClassIt ready = next_ready(now); ready != classes_.end()) {
    Class& c = classes_.at(ready->first);
    c.bucket.take(now, c.fifo.front()->size_bytes);
    p = c.fifo.pop_front();
    last_served_ = ready->first;
  }
  if (p) {
    --packets_;
    bytes_ -= p->size_bytes;
  }
  return p;
}

void PerClassShaper::set_class_rate(Time now, std::uint32_t cls, double rate_bps) {
  last_now_ = std::max(last_now_, now);
  Class& c = class_for(cls, now);
  c.bucket.set_rate(now, rate_bps);
  c.own_rate = true;
  notify_ready();
}

void PerClassShaper::set_default_rate(Time now, double rate_bps) {
  last_now_ = std::max(last_now_, now);
  (void)TokenBucket(rate_bps, params_.burst_bytes, now);  // checks it
  params_.rate_bps = rate_bps;
  for (auto& [id, c] : classes_) {
    if (!c.own_rate) c.bucket.set_rate(now, rate_bps);
  }
  notify_ready();
}

const TokenBucket* PerClassShaper::bucket(std::uint32_t cls) const {
  const auto it = classes_.find(cls);
  return it == classes_.end() ? nullptr : &it->second.bucket;
}

std::size_t PerClassShaper::class_length(std::uint32_t cls) const {
  if (cls == kControlClass) return control_.size();
  const auto it = classes_.find(cls);
  return it == classes_.end() ? 0 : it->second.fifo.size();
}

}  // namespace wmnsim::link

namespace wmnsim::link {

// ---- SourcePacer ----------------------------------------------------------------------

SourcePacer::SourcePacer(QueueLimit fifo, std::int64_t burst_bytes, std::size_t pacer_packets,
                         PacketClassifier classifier, DropSink& drops)
    : QueueDiscipline(drops),
      limit_(fifo),
      burst_bytes_(burst_bytes),
      pacer_packets_(pacer_packets),
      classifier_(std::move(classifier)) {
  if (limit_.capacity < 1) throw std::invalid_argument("source pacer FIFO capacity must be at least 1");
  if (pacer_packets_ < 1) throw std::invalid_argument("source pacer buffer must be at least 1 packet");
  (void)TokenBucket(0, burst_bytes_, Time::zero());  // checks the depth
}

std::size_t SourcePacer::length_packets() const {
  std::size_t n = fifo_.size();
  for (const auto& [id, p] : paced_) n += p.fifo.size();
  return n;
}

std::int64_t SourcePacer::length_bytes() const {
  std::int64_t n = fifo_.bytes();
  for (const auto& [id, p] : paced_) n += p.fifo.bytes();
  return n;
}

void SourcePacer::release_due(Time now) {
  std::vector<PacketPtr> overflow;
  for (;;) {
    Paced* next = nullptr;
    Time next_at = Time::max();
    for (auto& [id, p] : paced_) {
      if (p.fifo.empty()) continue;
      const Time at = p.bucket.ready_at(now, p.fifo.front()->size_bytes);
      if (at > now) continue;
      // The instant it could go: its tokens complete and it queued (the MAC stamps
      // queued_at). Earlier ones joined the FIFO first.
      const Time since = std::max(p.bucket.complete_at(p.fifo.front()->size_bytes), p.fifo.front()->queued_at);
      if (next == nullptr || since < next_at) {
        next = &p;
        next_at = since;
      }
    }
    if (next == nullptr) break;
    next->bucket.take(next_at, next->fifo.front()->size_bytes);
    PacketPtr packet = next->fifo.pop_front();
    if (fits_limit(limit_, fifo_.size(), fifo_.bytes(), packet->size_bytes)) {
      fifo_.push_back(std::move(packet));
    } else {
      overflow.push_back(std::move(packet));
    }
  }
  // Handed over after the moves: a drop may make a saturated source enqueue again.
  for (PacketPtr& p : overflow) drop(std::move(p), DropCause::queue_overflow, now);
}

Time SourcePacer::ready_at(Time now) const {
  if (!fifo_.empty()) return now;
  Time first = Time::max();
  for (const auto& [id, p] : paced_) {
    if (!p.fifo.empty()) first = std::min(first, p.bucket.ready_at(now, p.fifo.front()->size_bytes));
  }
  return first;
}

EnqueueResult SourcePacer::do_enqueue(PacketPtr& packet, Time now) {
  release_due(now);
  const auto it = paced_.find(classifier_.class_of(*packet));
  if (it == paced_.end()) {
    if (!fits_limit(limit_, fifo_.size(), fifo_.bytes(), packet->size_bytes)) {
      return EnqueueResult::dropped(DropCause::queue_overflow);
    }
    fifo_.push_back(std::move(packet));
    return EnqueueResult::accepted();
  }
  Paced& p = it->second;
  if (p.fifo.size() >= pacer_packets_) return EnqueueResult::dropped(DropCause::queue_overflow);
  p.fifo.push_back(std::move(packet));
  release_due(now);  // its tokens may be there already
  return EnqueueResult::accepted();
}

PacketPtr SourcePacer::do_dequeue(Time now) {
  release_due(now);
  return fifo_.pop_front();
}

void SourcePacer::set_class_rate(Time now, std::uint32_t cls, double rate_bps) {
  release_due(now);
  const auto [it, inserted] = paced_.try_emplace(cls, Paced{TokenBucket(rate_bps, burst_bytes_, now), PacketFifo()});
  if (!inserted) it->second.bucket.set_rate(now, rate_bps);
  notify_ready();
}

std::size_t SourcePacer::paced_length(std::uint32_t cls) const {
  const auto it = paced_.find(cls);
  return it == paced_.end() ? 0 : it->second.fifo.size();
}

}  // namespace wmnsim::link

// ---- registry entries ---------------------------------------------------------------

namespace wmnsim::link {

namespace {

constexpr std::array<EnumName<TokenBucketParams::Inner>, 2> kInner{
    {{"fifo", TokenBucketParams::Inner::fifo}, {"fq", TokenBucketParams::Inner::fq}}};

const ChoiceParameter<TokenBucketParams::Inner>& inner_key() {
  static const ChoiceParameter<TokenBucketParams::Inner> key({
      .key = "inner",
      .names = std::span<const EnumName<TokenBucketParams::Inner>>(kInner),
      .fallback = TokenBucketParams{}.inner,
      .description = "under the bucket: one shared FIFO (Fig. 2a) or fair queueing (Fig. 2b, then the fq keys "
                     "apply too)",
      .source = "001 Sec. 4.3.1-4.3.2",
  });
  return key;
}

}  // namespace

const ShaperKeys& shaper_keys() {
  static const ShaperKeys keys{
      // At least 1 bit/s: buckets keep whole bit/s; at most the bucket's fastest
      // rate, so that rate x elapsed picoseconds stays in int64 (link/token_bucket.hpp).
      NumberParameter({.key = "rate_bps",
                       .unit = "bit/s",
                       .range = NumberRange::closed(1, TokenBucket::kMaxRateBps),
                       .description = "the rate tokens accrue at: the aggregate's (token_bucket) or each "
                                      "class's (per_class_token_bucket)",
                       .source = "001 Sec. 4.3",
                       .required = true,
                       .example = "125000"}),
      IntegerParameter({.key = "burst_bytes",
                        .unit = "bytes",
                        .min = 1,
                        .max = TokenBucket::kMaxDepthBytes,
                        .fallback = TokenBucket::kDefaultDepthBytes,
                        .description = "bucket depth; a bucket starts full",
                        .source = "ours: one full-size packet"}),
  };
  return keys;
}

namespace {

// rate_bps: required, unless a per-node override inherits it.
double parse_rate(JsonReader& queue, double inherited, bool has_base) {
  return shaper_keys().rate_bps.read_or(queue, inherited, has_base);
}

std::int64_t parse_burst(JsonReader& queue, std::int64_t inherited) {
  return shaper_keys().burst_bytes.read_or(queue, inherited);
}

}  // namespace

QueueDisciplineEntry token_bucket_entry() {
  QueueDisciplineEntry e;
  e.name = "token_bucket";
  e.parse = [](JsonReader& queue, const std::any* base) {
    TokenBucketParams p = base != nullptr ? std::any_cast<TokenBucketParams>(*base) : TokenBucketParams{};
    p.rate_bps = parse_rate(queue, p.rate_bps, base != nullptr);
    p.burst_bytes = parse_burst(queue, p.burst_bytes);
    p.inner = inner_key().read_or(queue, p.inner);
    // Fair-queueing keys only with fair queueing inside; otherwise finish() reports them.
    if (p.inner == TokenBucketParams::Inner::fq) p.fq = parse_fair_queue_params(queue, p.fq);
    return std::any(p);
  };
  e.build = [](const QueueLimit& limit, const std::any& params, DropSink& drops,
               const QueueContext& context) -> std::unique_ptr<QueueDiscipline> {
    if (!params.has_value()) throw std::invalid_argument("token_bucket: no rate_bps was given");
    const auto& p = std::any_cast<const TokenBucketParams&>(params);
    return std::make_unique<AggregateShaper>(limit, p, PacketClassifier(p.fq.classify, context.flow_subscriber),
                                             drops);
  };
  e.summary = "non-work-conserving shaping of the aggregate: a packet leaves only when the bucket holds its "
              "size in tokens, the MAC idles meanwhile; packets of no flow bypass it; exact token times "
              "(docs/queues.md)";
  e.source = "001 Sec. 4.3.1-4.3.2, Fig. 2a/2b";
  const PerClassKeys& k = per_class_keys();
  // The fair-queueing keys, as fq declares them, read only under inner fq.
  const auto inner_fq_only = [](ParameterSpec s) {
    s.description = "inner fq only: " + s.description;
    return s;
  };
  e.parameters = {shaper_keys().rate_bps, shaper_keys().burst_bytes,           inner_key(),
                  inner_fq_only(k.per_class_packets), inner_fq_only(k.quantum_bytes), inner_fq_only(k.classify)};
  return e;
}

QueueDisciplineEntry per_class_token_bucket_entry() {
  QueueDisciplineEntry e;
  e.name = "per_class_token_bucket";
  e.parse = [](JsonReader& queue, const std::any* base) {
    PerClassTokenBucketParams p =
        base != nullptr ? std::any_cast<PerClassTokenBucketParams>(*base) : PerClassTokenBucketParams{};
    p.rate_bps = parse_rate(queue, p.rate_bps, base != nullptr);
    p.burst_bytes = parse_burst(queue, p.burst_bytes);
    const PerClassKeys& k = per_class_keys();
    p.classes.per_class_packets = static_cast<int>(k.per_class_packets.read_or(queue, p.classes.per_class_packets));
    p.classes.classify = k.classify.read_or(queue, p.classes.classify);
    return std::any(p);
  };
  e.build = [](const QueueLimit& limit, const std::any& params, DropSink& drops,
               const QueueContext& context) -> std::unique_ptr<QueueDiscipline> {
    if (!params.has_value()) throw std::invalid_argument("per_class_token_bucket: no rate_bps was given");
    const auto& p = std::any_cast<const PerClassTokenBucketParams&>(params);
    return std::make_unique<PerClassShaper>(limit, p, PacketClassifier(p.classes.classify, context.flow_subscriber),
                                            drops);
  };
  e.summary = "a token bucket and a FIFO per class, each drained at its own rate; classes ready at once take "
              "turns; packets of no flow bypass it";
  e.source = "001 Sec. 4.3.3, Fig. 2c: per-flow rate limit";
  const PerClassKeys& k = per_class_keys();
  e.parameters = {shaper_keys().rate_bps, shaper_keys().burst_bytes, k.per_class_packets, k.classify};
  return e;
}

}  // namespace wmnsim::link
