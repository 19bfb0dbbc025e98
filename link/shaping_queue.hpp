#pragma once
// Non-work-conserving rate shaping, 001 Sec. 4.3 (Fig. 2): the MAC stays idle while
// no token is there, even with packets queued.
//
//  - AggregateShaper (`token_bucket`): one token bucket for everything the
//    interface sends, over one shared FIFO (Fig. 2a, 001's "interface aggregate rate
//    limit") or over fair queueing (Fig. 2b, "aggregate rate limit with FQ").
//  - PerClassShaper (`per_class_token_bucket`): a bucket and a FIFO per class, each
//    drained at its own rate (Fig. 2c, "per-flow rate limit"); classes ready at
//    once take turns (round robin), so none waits behind another's backlog.
//
// Packets of no flow (routing, control: kControlClass) are not shaped: "we are
// proposing rate-limiting data traffic only" (001 Sec. 4.3.3). They wait in a FIFO
// of their own, served before shaped traffic, and count against the capacity.
//
// Rates change at run time (set_rate, set_class_rate: the gateway controller's
// fair shares); the discipline then calls notify_ready() so the owner re-dates its
// wait. ready_at() is exact (link/token_bucket.hpp).

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

#include "link/deficit_round_robin.hpp"
#include "link/fair_queue.hpp"
#include "link/packet_classifier.hpp"
#include "link/packet_fifo.hpp"
#include "link/queue_discipline.hpp"
#include "link/queue_discipline_entry.hpp"
#include "link/queue_limit.hpp"
#include "link/token_bucket.hpp"

namespace wmnsim::link {

struct TokenBucketParams {
  double rate_bps = 0;                // required in a scenario; a controller may set it
  std::int64_t burst_bytes = TokenBucket::kDefaultDepthBytes;  // bucket depth
  enum class Inner { fifo, fq } inner = Inner::fifo;
  FairQueueParams fq;                 // inner fq only
};

struct PerClassTokenBucketParams {
  double rate_bps = 0;              // every class's rate, unless set_class_rate() says otherwise
  std::int64_t burst_bytes = TokenBucket::kDefaultDepthBytes;  // each class's bucket depth
  FairQueueParams classes;          // per_class_packets and classify (quantum unused)
};

class AggregateShaper final : public QueueDiscipline {
 public:
  AggregateShaper(QueueLimit limit, const TokenBucketParams& params, PacketClassifier classifier, DropSink& drops,
                  Time now = Time::zero());

  std::size_t length_packets() const override;
  std::int64_t length_bytes() const override;
  Time ready_at(Time now) const override;

  void set_rate(Time now, double rate_bps);
  const TokenBucket& bucket() const { return bucket_; }
  // Inner fq keeps classes (class_length); a shared FIFO does not.
  bool has_classes() const { return fq_.has_value(); }
  std::optional<std::size_t> packets_of_class(std::uint32_t cls) const override {
    return has_classes() ? std::optional<std::size_t>(class_length(cls)) : std::nullopt;
  }
  std::size_t class_length(std::uint32_t cls) const;

 private:
  EnqueueResult do_enqueue(PacketPtr& packet, Time now) override;
  PacketPtr do_dequeue(Time now) override;
  const Packet* do_peek() const override;
  const Packet* shaped_head() const;

  QueueLimit limit_;
  PacketClassifier classifier_;
  TokenBucket bucket_;
  PacketFifo control_;
  std::optional<PacketFifo> fifo_;       // inner fifo
  std::optional<DeficitRoundRobin> fq_;  // inner fq
};

class PerClassShaper final : public QueueDiscipline {
 public:
  PerClassShaper(QueueLimit limit, const PerClassTokenBucketParams& params, PacketClassifier classifier,
                 DropSink& drops);

  std::size_t length_packets() const override { return packets_; }
  std::int64_t length_bytes() const override { return bytes_; }
  std::optional<std::size_t> packets_of_class(std::uint32_t cls) const override { return class_length(cls); }
  Time ready_at(Time now) const override;

  // Class `cls`'s rate from `now` on (a class not seen yet starts with it).
  void set_class_rate(Time now, std::uint32_t cls, double rate_bps);
  // The rate of classes without their own.
  void set_default_rate(Time now, double rate_bps);
  // Class `cls`'s bucket, or null before its first packet or rate.
  const TokenBucket* bucket(std::uint32_t cls) const;
  std::size_t class_length(std::uint32_t cls) const;

 private:
  struct Class {
    TokenBucket bucket;
    PacketFifo fifo;
    bool own_rate = false;  // set by set_class_rate: default-rate changes pass it by
  };
  EnqueueResult do_enqueue(PacketPtr& packet, Time now) override;
  PacketPtr do_dequeue(Time now) override;
  const Packet* do_peek() const override { return do_peek_at(last_now_); }
  const Packet* do_peek_at(Time now) const override;
  using ClassIt = std::map<std::uint32_t, Class>::const_iterator;
  Class& class_for(std::uint32_t cls, Time now);
  // The class to serve at `now`: the first ready one after the last served, in id
  // order, cyclically; end() when none is ready.
  ClassIt next_ready(Time now) const;
  // The class whose head is ready first (peek() when none is ready now).
  const Class* earliest(Time now) const;

  QueueLimit limit_;
  PerClassTokenBucketParams params_;
  PacketClassifier classifier_;
  PacketFifo control_;
  std::map<std::uint32_t, Class> classes_;  // by id: the round-robin order
  std::optional<std::uint32_t> last_served_;
  // The latest time any call told: peek() has no time and answers for this one.
  Time last_now_;
  std::size_t packets_ = 0;
  std::int64_t bytes_ = 0;
};

// Source rate limiting (001 Sec. 5.3.1, Table 2 "source rate limit"): a node's own
// flows are paced, each by its token bucket, before they join the node's one
// drop-tail FIFO, where relayed traffic queues as without the limit. A paced packet
// joins the FIFO the instant its tokens are complete, behind whatever arrived
// before that instant and ahead of what arrived after: every call first moves the
// packets whose time has come, in the order of their times (ties: class id), so the
// FIFO's order is the one an application pacing its own sends would give. A packet
// whose time comes while the FIFO is full is dropped (queue_overflow), as the
// FIFO would drop the application's send. Classes without a rate are not paced.
class SourcePacer final : public QueueDiscipline {
 public:
  // `fifo`: the node's queue (capacity); `pacer_packets`: each paced class's buffer.
  SourcePacer(QueueLimit fifo, std::int64_t burst_bytes, std::size_t pacer_packets, PacketClassifier classifier,
              DropSink& drops);

  std::size_t length_packets() const override;
  std::int64_t length_bytes() const override;
  Time ready_at(Time now) const override;

  // Paces class `cls` at `rate_bps` from `now` on.
  void set_class_rate(Time now, std::uint32_t cls, double rate_bps);
  std::size_t paced_length(std::uint32_t cls) const;

 private:
  struct Paced {
    TokenBucket bucket;
    PacketFifo fifo;
  };
  EnqueueResult do_enqueue(PacketPtr& packet, Time now) override;
  PacketPtr do_dequeue(Time now) override;
  const Packet* do_peek() const override { return fifo_.front(); }
  // Moves every paced packet whose tokens are complete by `now` into the FIFO, in
  // the order of those instants.
  void release_due(Time now);

  QueueLimit limit_;
  std::int64_t burst_bytes_;
  std::size_t pacer_packets_;
  PacketClassifier classifier_;
  PacketFifo fifo_;
  std::map<std::uint32_t, Paced> paced_;
};

// The bucket's keys, declared once (config/parameter_table.hpp) for both shapers and
// for gateway_rate_control's shapers (burst_bytes).
struct ShaperKeys {
  NumberParameter rate_bps;
  IntegerParameter burst_bytes;
};
const ShaperKeys& shaper_keys();

// Registry entries (link/queue_discipline_entry.hpp): `token_bucket`, `per_class_token_bucket`.
QueueDisciplineEntry token_bucket_entry();
QueueDisciplineEntry per_class_token_bucket_entry();

}  // namespace wmnsim::link
