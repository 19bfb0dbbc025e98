#pragma once
// The queue between a node and one MAC (or one EDCA access category), behind a
// small interface so that controllers can install other disciplines later (fair
// queueing, FRED, token buckets, per-neighbour virtual buffers: papers 001, 004).
//
// Contract
//  - enqueue() takes ownership. The packet is either stored or dropped; a discipline
//    may also drop OTHER packets to make room (push-out) or at dequeue (AQM). Every
//    dropped packet goes to the DropSink with its cause, exactly once, so the owner
//    (which knows the node, radio and hop count) accounts for it.
//  - dequeue() returns the next packet to send, or null. A shaping discipline may
//    hold packets back: ready_at() says when the head becomes sendable, so the MAC
//    can come back then instead of polling. When the head becomes sendable on an
//    event the discipline cannot date in advance (a token refilled by a controller,
//    a blocked class unblocked, a packet arriving in an empty class while the
//    others are held), the discipline calls notify_ready(): its owner (through
//    set_ready_listener) then serves the head at once instead of at some unrelated
//    later event: a MAC contends for it, as for a frame arriving at an idle access
//    function; a wired link puts it on the wire if the wire is free. A discipline
//    whose release date moved earlier without the head being ready now (a token
//    bucket given a higher rate) calls it too: the owner then asks ready_at() again.
//  - The base class keeps the counters and tells its QueueObservers, any number, in
//    the order they subscribed: of each packet dequeue() hands out (004's "a packet
//    leaves the buffer"), and of the length after every operation that changed it
//    (queue-length sampling, 003's and 004's queue-threshold detection).
//    Implementations only store and choose.
// Cost: whatever the discipline costs, plus O(1) bookkeeping per call.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/subscriber_list.hpp"
#include "core/time.hpp"

namespace wmnsim::link {

// Receives every packet a queue drops, with ownership (core/packet_sink.hpp).
using wmnsim::DropSink;

// Told what happens to a queue. For one dequeue(), on_departure comes first, then
// on_queue_length; both after the queue's state and counters are updated.
class QueueObserver {
 public:
  static constexpr const char* kHookName = "a queue observer";  // SubscriberList's messages
  virtual ~QueueObserver() = default;
  // dequeue() handed `departed` to the queue's owner (not a drop: those go to the
  // DropSink).
  virtual void on_departure(Time /*now*/, const Packet& /*departed*/) {}
  // The queue's length after every change.
  virtual void on_queue_length(Time /*now*/, std::size_t /*packets*/, std::int64_t /*bytes*/) {}
};

class QueueDiscipline;

// The owner of a queue (a MAC's access function), told that its head became
// sendable (QueueDiscipline::notify_ready).
class QueueReadyListener {
 public:
  virtual ~QueueReadyListener() = default;
  virtual void on_queue_ready(QueueDiscipline& queue) = 0;
};

// What happened to the packet offered to enqueue().
class EnqueueResult {
 public:
  static constexpr EnqueueResult accepted() { return EnqueueResult(true, DropCause::queue_overflow); }
  static constexpr EnqueueResult dropped(DropCause cause) { return EnqueueResult(false, cause); }
  constexpr bool is_accepted() const { return accepted_; }
  constexpr DropCause cause() const { return cause_; }  // meaningful only when dropped

 private:
  constexpr EnqueueResult(bool accepted, DropCause cause) : accepted_(accepted), cause_(cause) {}
  bool accepted_;
  DropCause cause_;
};

struct QueueCounters {
  std::uint64_t enqueued_packets = 0;
  std::uint64_t enqueued_bytes = 0;
  std::uint64_t dequeued_packets = 0;
  std::uint64_t dequeued_bytes = 0;
  std::array<std::uint64_t, kDropCauseCount> dropped_packets{};  // by DropCause
  std::uint64_t dropped_bytes = 0;
  std::size_t peak_packets = 0;
  std::int64_t peak_bytes = 0;

  std::uint64_t dropped(DropCause c) const { return dropped_packets[static_cast<std::size_t>(c)]; }
  std::uint64_t dropped_total() const;
};

class QueueDiscipline {
 public:
  // `observer`, if given, is the first subscriber.
  explicit QueueDiscipline(DropSink& drops, QueueObserver* observer = nullptr) : drops_(drops) {
    if (observer != nullptr) observers_.subscribe(*observer);
  }
  virtual ~QueueDiscipline() = default;
  QueueDiscipline(const QueueDiscipline&) = delete;
  QueueDiscipline& operator=(const QueueDiscipline&) = delete;

  EnqueueResult enqueue(PacketPtr packet, Time now);
  PacketPtr dequeue(Time now);
  // The packet dequeue() would return if called now, or null.
  const Packet* peek() const { return do_peek(); }
  // The same for a call at `now`: a shaper's choice may depend on the time.
  const Packet* peek_at(Time now) const { return do_peek_at(now); }
  // Drops (lifetime_expired) the packets dequeue() would return next for as long as
  // they have waited more than `lifetime` since Packet::queued_at; returns how many.
  // A drop may make the owner enqueue at once (a saturated source refills).
  std::size_t drop_expired(Time now, Time lifetime);

  virtual std::size_t length_packets() const = 0;
  virtual std::int64_t length_bytes() const = 0;
  bool empty() const { return length_packets() == 0; }
  // When dequeue() can next return a packet: `now` if one is ready, Time::max() when
  // empty. Only shaping disciplines say anything else.
  virtual Time ready_at(Time now) const { return empty() ? Time::max() : now; }
  // mac.dequeue "ns3" (mac/mac_params.hpp Dequeue::ns3): the packet its owner took
  // for service keeps its place against the capacity until the service ends, as
  // ns-3's WifiMacQueue keeps an MPDU until it is acknowledged or dropped. Only a
  // discipline with one capacity for all its packets counts it (drop_tail, ns-3's
  // FIFO); the others keep their own limits (the loader refuses them with "ns3").
  // length_packets() and length_bytes() stay what the queue holds.
  virtual void hold_place(const Packet& /*in_service*/) {}
  virtual void release_place(const Packet& /*in_service*/) {}

  // Packets of class `cls` (link/packet_classifier.hpp) held here, for a discipline
  // that keeps classes; nullopt for one that does not (drop_tail, a shaper over one FIFO).
  virtual std::optional<std::size_t> packets_of_class(std::uint32_t /*cls*/) const { return std::nullopt; }

  // Zeros until the queue first takes, passes or drops a packet: the counters are a
  // block of their own, allocated then, since most queues of a large network never
  // see a packet (issue 43 §3, memory per node). A reference taken before that stays
  // on the zeros: ask again.
  const QueueCounters& counters() const { return counters_ ? *counters_ : no_counters(); }
  // Whether that block exists (tests).
  bool holds_counters() const { return counters_ != nullptr; }

  // The owner installs itself (null: nobody listens). One listener per queue.
  void set_ready_listener(QueueReadyListener* listener) { ready_listener_ = listener; }
  // Observers are told in the order they subscribed. Not from inside an observer's
  // call: unsubscribing then would skip another observer (std::logic_error).
  void subscribe(QueueObserver& observer) { observers_.subscribe(observer); }
  void unsubscribe(QueueObserver& observer) { observers_.unsubscribe(observer); }
  std::size_t observer_count() const { return observers_.size(); }

 protected:
  // For shaping disciplines: the head became sendable now (ready_at(now) == now),
  // on an event ready_at() could not announce. Call it after the change; a call
  // when the owner already serves the queue, or with nothing ready, is harmless,
  // also from inside do_enqueue()/do_dequeue() (a MAC only starts contending; a
  // wired link ignores it there and asks ready_at() when the call returns). (A packet accepted while the
  // others are held and sendable at once needs no call: the owners ask ready_at()
  // after every enqueue into a held queue.)
  void notify_ready() {
    if (ready_listener_ != nullptr) ready_listener_->on_queue_ready(*this);
  }

  // Store `packet` (moving it out) and return accepted, or leave it in place and
  // return dropped(cause): the base class then hands it to the sink.
  virtual EnqueueResult do_enqueue(PacketPtr& packet, Time now) = 0;
  virtual PacketPtr do_dequeue(Time now) = 0;
  virtual const Packet* do_peek() const = 0;
  virtual const Packet* do_peek_at(Time /*now*/) const { return do_peek(); }

  // For implementations that drop a packet already stored (push-out, AQM at
  // dequeue): counts it and hands it to the sink.
  void drop(PacketPtr packet, DropCause cause, Time now);

 private:
  // `departed`: the packet dequeue() hands out, if any.
  void after_change(Time now, std::size_t packets_before, std::int64_t bytes_before,
                    const Packet* departed = nullptr);
  [[gnu::noinline]] void tell_observers(Time now, std::size_t packets, std::int64_t bytes, bool changed,
                                        const Packet* departed);

  // For counting: the counters, allocated at the first call.
  QueueCounters& tally() {
    if (!counters_) counters_ = std::make_unique<QueueCounters>();
    return *counters_;
  }
  static const QueueCounters& no_counters();

  DropSink& drops_;
  SubscriberList<QueueObserver> observers_;
  QueueReadyListener* ready_listener_ = nullptr;
  std::unique_ptr<QueueCounters> counters_;  // tally(): null until the first packet
};

}  // namespace wmnsim::link
