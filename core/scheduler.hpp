#pragma once
// The future-event set.
//
// Events are kept in a RadixQueue (core/radix_queue.hpp) keyed by (time,
// sequence): schedule is O(1), pop typically O(log16 of the events pending),
// cancel O(keys in one short bucket): the entry leaves the queue at once
// (RadixQueue::erase), or, in the rare crowded bucket, is dropped when its time
// comes. The radix queue
// needs every key pushed to be above the last one popped: a new event's time is
// >= now (schedule_at enforces it) and its sequence number is the highest yet, so
// its key is above every event that ran; cancelled entries popped after the last
// event that ran can lie later than now only when run() emptied the queue, and an
// empty queue takes any key.
//
// Ordering: by time, then by a sequence number assigned at scheduling, so equal
// times leave in FIFO order and a run is repeatable. No heap allocation per event
// in steady state: callbacks live inline in a slot pool that grows only when more
// events are pending than ever before (a cancelled event left in a crowded
// bucket keeps its slot until its time comes).

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/cache_line_allocator.hpp"
#include "core/fingerprint.hpp"
#include "core/sim_log.hpp"
#include "core/inline_function.hpp"
#include "core/radix_queue.hpp"
#include "core/time.hpp"

namespace wmnsim {

// Thrown by the scheduler when the events stop looking like a simulation of a real
// network: more than Scheduler::kMaxEventsPerInstant events at one simulated
// instant (time has stopped advancing: a rate or an interval too small for the
// engine, which the scenario loader's limits should have refused), or more events
// pending at once than the event set holds. The command line reports it as invalid
// input (exit code 2), Python as ScenarioError.
class EventFlood : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Identifies an entity (usually a node) an event belongs to; tags log lines and
// goes into the event-trace fingerprint.
using ContextId = std::uint32_t;
inline constexpr ContextId kNoContext = 0xffffffffu;
// The context of observers' events (samplers of time series): they run like any
// other but stay out of the fingerprint, so what a run records never moves it.
// An observer only reads; its events take sequence numbers, which leaves the order
// of all the other events as it was.
inline constexpr ContextId kObserverContext = 0xfffffffeu;

// Handle to a scheduled event: its key in the event set (its time, and its
// sequence number and slot), so that cancel can take it out. Cancelling through a
// handle whose event already ran or was cancelled is harmless: the slot it names
// no longer holds a callback, or holds another event, scheduled under another
// sequence number. 16 bytes: a radio's MAC and PHY hold 6 to 9 of them (24 before
// issue 43 §3, when the handle also carried a 64-bit generation of its slot).
struct EventId {
  std::int64_t time_ps = 0;
  // The sequence number (bits 63..24) and the slot (bits 23..0). Sequence numbers
  // are unique among the events scheduled since the last renumbering
  // (Scheduler::kMaxSequence, 2^40 of them), so (sequence, slot) names one event:
  // the slot remembers the order it was scheduled under. The default names slot
  // 0xffffff, which the scheduler never creates, so it matches nothing.
  std::uint64_t order = ~std::uint64_t{0};
  std::uint32_t slot() const { return static_cast<std::uint32_t>(order & 0xffffffu); }
};
static_assert(sizeof(EventId) == 16);

class Scheduler {
 public:
  // 40 bytes of capture: a `this` pointer plus a few values.
  using Callback = InlineFunction<void(), 40>;

  // Sequence numbers have 40 bits; past that the pending events are renumbered
  // (order preserved). `first_sequence` lets a test start near that limit.
  static constexpr std::uint64_t kMaxSequence = (std::uint64_t{1} << 40) - 1;
  // A real network runs O(radios) events at one instant (a frame ending at every
  // receiver, flows starting together); ten million is far beyond any scenario the
  // loader accepts and about a second of work, so a stalled run ends quickly.
  static constexpr std::uint64_t kMaxEventsPerInstant = 10'000'000;
  explicit Scheduler(std::uint64_t first_sequence = 0) : next_sequence_(first_sequence) {}
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Schedules `callback` (any callable of up to 40 bytes, or a Callback) at
  // absolute time `at` (>= now(), else std::logic_error). Templates, so that a
  // lambda is constructed straight into its slot: scheduling is on every
  // event's path.
  template <typename F>
  EventId schedule_at(Time at, F&& callback, ContextId context = kNoContext) {
    if (at < now_) [[unlikely]] throw_in_the_past(at);
    if constexpr (std::is_same_v<std::decay_t<F>, Callback>) {
      if (!callback) throw_without_callback();
    }
    if (next_sequence_ > kMaxSequence) [[unlikely]] renumber();
    const std::uint32_t slot = allocate_slot();
    Slot& s = slots_[slot];
    try {
      s.callback.emplace(std::forward<F>(callback));  // copying an lvalue callable may throw
      queue_.push(make_key(at.picoseconds(), (next_sequence_ << kSlotBits) | slot));
    } catch (...) {
      s.callback.reset();
      free_slot(slot);
      throw;
    }
    const std::uint64_t order = (next_sequence_ << kSlotBits) | slot;
    ++next_sequence_;
    s.order = order;
    s.context_or_next_free = context;
    ++live_;
    return EventId{at.picoseconds(), order};
  }
  // Batched events: a producer of many events known in advance (a frame's arrival
  // at each of its receivers, phy/medium.cpp) reserves their sequence numbers at
  // once and keeps one of them in the queue at a time; the event, when it runs,
  // handles the next ones inline while advance_inline says nothing else comes
  // first, and otherwise files itself again with schedule_reserved. The order of
  // everything, and so every event trace and fingerprint, is that of scheduling
  // each event on its own.
  //
  // Reserves `n` consecutive sequence numbers and returns the first; they are
  // valid while reservation_epoch() stays the same (a renumbering, after 2^40
  // events, invalidates them).
  std::uint64_t reserve_sequences(std::uint64_t n) {
    if (next_sequence_ + n > kMaxSequence) [[unlikely]] renumber();
    const std::uint64_t first = next_sequence_;
    next_sequence_ += n;
    return first;
  }
  std::uint64_t reservation_epoch() const { return renumberings_; }
  // schedule_at under a reserved sequence number (or a fresh one when the epoch
  // moved since the reservation: then the event takes its turn among equal times
  // as a newly scheduled one).
  template <typename F>
  EventId schedule_reserved(Time at, std::uint64_t sequence, std::uint64_t epoch, F&& callback,
                            ContextId context = kNoContext) {
    if (epoch != renumberings_) [[unlikely]] return schedule_at(at, std::forward<F>(callback), context);
    if (at < now_) [[unlikely]] throw_in_the_past(at);
    const std::uint32_t slot = allocate_slot();
    Slot& s = slots_[slot];
    try {
      s.callback.emplace(std::forward<F>(callback));
      queue_.push(make_key(at.picoseconds(), (sequence << kSlotBits) | slot));
    } catch (...) {
      s.callback.reset();
      free_slot(slot);
      throw;
    }
    s.order = (sequence << kSlotBits) | slot;
    s.context_or_next_free = context;
    ++live_;
    return EventId{at.picoseconds(), s.order};
  }
  // From inside a running event: if the event (at, sequence) of context `context`
  // would run next (nothing pending before it, within the running run_until's end
  // and event budget, no stop requested), makes it the current event (now() = at,
  // counted, fingerprinted) and returns true; the caller then does its work.
  // Otherwise returns false and changes nothing.
  bool advance_inline(Time at, std::uint64_t sequence, std::uint64_t epoch, ContextId context) {
    const std::int64_t t = at.picoseconds();
    // inline_end_ps_ holds "running, no stop requested, and at or before the end" in
    // one comparison (issue 43 §4: 1.2 million calls in 5 s of 004's mesh).
    if (t > inline_end_ps_ || executed_ == budget_end_ || epoch != renumberings_) return false;
    if (!queue_.empty() && queue_.min() <= make_key(t, (sequence << kSlotBits) | kSlotMask)) return false;
    if (t != instant_ps_) [[likely]] {
      instant_ps_ = t;
      instant_events_ = 0;
    } else if (++instant_events_ >= max_events_per_instant_) [[unlikely]] {
      now_ = at;
      current_context_ = context;
      throw_flood();
    }
    now_ = at;
    current_context_ = context;
    ++executed_;
    if (fingerprint_in_run_ && context != kObserverContext) fingerprint_.event(now_, context);
    return true;
  }

  // `delay` must be >= 0 and now() + delay must not pass Time::max()
  // (std::logic_error otherwise).
  template <typename F>
  EventId schedule_in(Time delay, F&& callback, ContextId context = kNoContext) {
    // A delay past the last representable instant (a long period near the end of a
    // long run) is an event no run reaches: it waits at Time::max, still pending.
    if (delay > Time::max() - now_) [[unlikely]] return schedule_at(Time::max(), std::forward<F>(callback), context);
    return schedule_at(now_ + delay, std::forward<F>(callback), context);
  }

  // Returns true if the event was pending and is now cancelled. Inline: MAC
  // timers are cancelled and re-armed on every change of the medium.
  //
  // The entry leaves the event set at once and its slot is free for the next
  // event (issue 17 found 31 % of the pops in 004's mesh to be cancelled timers,
  // each filed down the buckets and popped for nothing). The order of the other
  // events does not change, nor does any trace: a cancelled event never ran.
  bool cancel(EventId id) {
    if (!is_pending(id)) return false;
    Slot& s = slots_[id.slot()];
    s.callback.reset();  // releases captured state now, and the handle goes stale
    --live_;
    // Left in a crowded bucket (RadixQueue::erase), the entry is skipped when popped.
    if (queue_.erase(make_key(id.time_ps, id.order))) free_slot(id.slot());
    return true;
  }
  bool is_pending(EventId id) const {
    const std::uint32_t slot = id.slot();
    return slot < slots_.size() && slots_[slot].order == id.order && static_cast<bool>(slots_[slot].callback);
  }

  // Lowers the limit on events at one instant (tests).
  void set_max_events_per_instant(std::uint64_t n) { max_events_per_instant_ = n; }

  // Runs events in order while their time is <= `end`, then sets now() = end
  // (unless stop() was called, which leaves now() at the last event's time).
  // With `max_events`, returns false early (now() at the last event run) once
  // that many events ran, so a caller can check a clock or a cancel flag between
  // slices; returns true when it reached `end` or stop() was called.
  bool run_until(Time end, std::uint64_t max_events = ~std::uint64_t{0});
  // Runs until no event is pending or stop() is called.
  void run() { run_until(Time::max()); }
  // Requests the running loop to return after the current event.
  void stop() {
    stop_requested_ = true;
    inline_end_ps_ = kNoInline;
  }
  bool stopped() const { return stop_requested_; }

  Time now() const { return now_; }
  ContextId current_context() const { return current_context_; }
  std::size_t pending() const { return live_; }
  std::uint64_t executed() const { return executed_; }

  // The event-trace fingerprint (core/fingerprint.hpp). Off unless enabled; while
  // off, run_until runs a loop compiled without it, so the engine pays nothing.
  // Enable before the first event to cover the whole trace.
  void enable_fingerprint() { fingerprinting_ = true; }
  // nullptr while off. The scheduler folds in every event; the layers fold in
  // their own records (frames, deliveries, drops) through it.
  Fingerprint* fingerprint() { return fingerprinting_ ? &fingerprint_ : nullptr; }
  const Fingerprint* fingerprint() const { return fingerprinting_ ? &fingerprint_ : nullptr; }
  // What the layers log (core/sim_log.hpp); off until a Simulation configures it.
  SimLog& log() { return log_; }
  const SimLog& log() const { return log_; }

 private:
  // A queue key is one 128-bit unsigned integer:
  //   bits 127..64  the time in picoseconds with its sign bit flipped (so the
  //                 unsigned order is the signed order),
  //   bits  63..24  the sequence number (unique: FIFO among equal times),
  //   bits  23..0   the slot holding the callback (never decides the order).
  using Key = RadixQueue::Key;
  static Key make_key(std::int64_t time, std::uint64_t order) {
    return (static_cast<Key>(static_cast<std::uint64_t>(time) ^ kSignBit) << 64) | order;
  }
  static std::int64_t key_time(Key k) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(k >> 64) ^ kSignBit); }
  static std::uint32_t key_slot(Key k) { return static_cast<std::uint32_t>(static_cast<std::uint64_t>(k) & kSlotMask); }
  struct Slot {
    Callback callback;  // empty once the event ran or was cancelled
    // The order (sequence and slot) the event was scheduled under, which its
    // handle carries: a handle matches only the event it was given for. A
    // renumbering leaves it as it was, so handles given before it still match
    // their pending events (their keys in the queue then differ: cancel leaves
    // the entry to be dropped when popped). Sequence numbers restart at a
    // renumbering (2^40 events into a run, days of computing), from the number of
    // events then pending, so a stale handle kept across one (a timer's handle
    // kept since early in the run, say) could match a later event of its slot that
    // draws its old sequence number, as soon as the counter passes it again; before
    // the first renumbering none can. The 64-bit generation this replaced had no
    // such case: the price of 8 bytes per handle (issue 43 §3).
    std::uint64_t order = ~std::uint64_t{0};
    std::uint32_t context_or_next_free = kNoContext;
  };

  static constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;
  static constexpr int kSlotBits = 24;
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  static_assert(kMaxSequence == (std::uint64_t{1} << (64 - kSlotBits)) - 1);
  static_assert(kSlotMask == 0xffffffu, "EventId::slot() reads the same low bits");
  // Slots 0 .. kSlotMask - 1: slot kSlotMask is the default handle's.
  static constexpr std::uint32_t kNoSlot = 0xffffffffu;

  std::uint32_t allocate_slot() {
    if (free_head_ == kNoSlot) [[unlikely]] return add_slot();
    const std::uint32_t s = free_head_;
    free_head_ = slots_[s].context_or_next_free;
    return s;
  }
  std::uint32_t add_slot();
  void free_slot(std::uint32_t slot);
  [[noreturn]] void throw_in_the_past(Time at) const;
  [[noreturn]] static void throw_without_callback();
  template <bool kFingerprint>
  bool run_loop(Time end, std::uint64_t max_events);
  [[noreturn]] void throw_flood();
  void prefetch_next_slot();
  // run_until returns or throws: no event runs inline any more.
  void stop_running();
  void renumber();

  RadixQueue queue_;  // pending and cancelled-but-not-yet-due events
  // A slot is 64 bytes; aligned, it is one cache line (one miss per event).
  static_assert(sizeof(Slot) == 64);
  std::vector<Slot, CacheLineAllocator<Slot>> slots_;
  std::uint32_t free_head_ = kNoSlot;
  bool running_ = false;
  bool stop_requested_ = false;
  bool fingerprinting_ = false;
  Time now_;
  ContextId current_context_ = kNoContext;
  std::uint64_t next_sequence_ = 0;
  std::uint64_t renumberings_ = 0;
  std::uint64_t executed_ = 0;
  // The running run_until's bounds and fingerprint choice, for advance_inline: its
  // end, or kNoInline while no run_until runs or a stop was requested (below every
  // event's time: events are at or after now(), which starts at 0 and only grows).
  bool fingerprint_in_run_ = false;
  static constexpr std::int64_t kNoInline = std::numeric_limits<std::int64_t>::min();
  std::int64_t inline_end_ps_ = kNoInline;
  std::uint64_t budget_end_ = 0;
  std::size_t live_ = 0;
  Fingerprint fingerprint_;  // after the hot members: touched only when enabled
  // Events run at the instant instant_ps_, against max_events_per_instant_.
  std::int64_t instant_ps_ = -1;
  std::uint64_t instant_events_ = 0;
  std::uint64_t max_events_per_instant_ = kMaxEventsPerInstant;
  SimLog log_;  // last: read only at log sites, never by the event loop
};

}  // namespace wmnsim
