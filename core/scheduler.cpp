#include "core/scheduler.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wmnsim {

void Scheduler::stop_running() {
  running_ = false;
  inline_end_ps_ = kNoInline;
}

void Scheduler::throw_flood() {
  stop_running();
  throw EventFlood("the simulation stalled: " + std::to_string(max_events_per_instant_) +
                   " events ran at t = " + now_.to_string() + " without time advancing (the last in context " +
                   (current_context_ == kNoContext ? std::string("none") : std::to_string(current_context_)) +
                   "); a rate or an interval in the scenario is too small for the simulator");
}

std::uint32_t Scheduler::add_slot() {
  // More events pending than ever before: the pool grows by one slot.
  if (slots_.size() >= kSlotMask) {
    throw EventFlood("more than 16.7 million events pending at once at t = " + now_.to_string() +
                     "; a rate or an interval in the scenario floods the simulator");
  }
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

void Scheduler::free_slot(std::uint32_t slot) {
  Slot& s = slots_[slot];
  s.context_or_next_free = free_head_;
  free_head_ = slot;
}

void Scheduler::throw_in_the_past(Time at) const {
  throw std::logic_error("event scheduled in the past: " + at.to_string() + " < now " + now_.to_string());
}

void Scheduler::throw_without_callback() { throw std::logic_error("event scheduled without a callback"); }

bool Scheduler::run_until(Time end, std::uint64_t max_events) {
  if (running_) throw std::logic_error("Scheduler::run_until called from inside an event");
  // Chosen once per call, outside the loop: without fingerprinting the loop has
  // no trace of it.
  return fingerprinting_ ? run_loop<true>(end, max_events) : run_loop<false>(end, max_events);
}

template <bool kFingerprint>
bool Scheduler::run_loop(Time end, std::uint64_t max_events) {
  running_ = true;
  stop_requested_ = false;
  const std::int64_t end_ps = end.picoseconds();
  const std::uint64_t budget_end = max_events > ~executed_ ? ~std::uint64_t{0} : executed_ + max_events;
  inline_end_ps_ = end_ps;
  budget_end_ = budget_end;
  fingerprint_in_run_ = kFingerprint;
  while (!queue_.empty() && !stop_requested_) {
    if (executed_ == budget_end) {
      stop_running();
      return false;
    }
    // Look before popping: an event past `end` stays queued, and a caller may
    // still schedule between `end` and it.
    const Key top = queue_.min();
    if (key_time(top) > end_ps) break;
    queue_.pop_min();
    const std::uint32_t slot = key_slot(top);
    Slot& s = slots_[slot];
    if (!s.callback) {  // cancelled: its handle went stale at cancel time
      s.context_or_next_free = free_head_;
      free_head_ = slot;
      continue;
    }
    if (key_time(top) != instant_ps_) [[likely]] {
      instant_ps_ = key_time(top);
      instant_events_ = 0;
    } else if (++instant_events_ >= max_events_per_instant_) [[unlikely]] {
      // The popped slot is not freed: the run is abandoned, and the scheduler with it.
      now_ = Time::ps(key_time(top));
      current_context_ = s.context_or_next_free;
      throw_flood();
    }
    now_ = Time::ps(key_time(top));
    current_context_ = s.context_or_next_free;
    Callback cb = std::move(s.callback);  // the slot vector may grow during cb()
    free_slot(slot);
    --live_;
    ++executed_;
    if constexpr (kFingerprint) {
      if (current_context_ != kObserverContext) fingerprint_.event(now_, current_context_);
    }
    prefetch_next_slot();
    try {
      cb();
    } catch (...) {
      stop_running();  // the event is already out of the queue: nothing to undo
      throw;
    }
  }
  current_context_ = kNoContext;
  if (!stop_requested_ && end < Time::max() && now_ < end) now_ = end;
  stop_running();
  return true;
}

void Scheduler::prefetch_next_slot() {
  // Find the next event now and fetch its slot, so that the cache miss, the main
  // cost with 10^5 events pending, overlaps the running handler. The queue keeps
  // the minimum it found; a handler scheduling an earlier event just replaces it.
  if (!queue_.empty()) __builtin_prefetch(&slots_[key_slot(queue_.min())]);
}

void Scheduler::renumber() {
  // 2^40 events scheduled in one run: give the pending ones fresh sequence
  // numbers 0..n-1 in their current order. Order is preserved exactly.
  std::vector<Key> keys = queue_.take_all();
  std::sort(keys.begin(), keys.end());
  std::uint64_t seq = 0;
  for (const Key k : keys) queue_.push(make_key(key_time(k), (seq++ << kSlotBits) | key_slot(k)));
  next_sequence_ = seq;
  ++renumberings_;  // sequence numbers reserved before are void
}

}  // namespace wmnsim
