#include "core/scheduler.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wmnsim {

namespace {
constexpr std::size_t kArity = 4;

// SplitMix64's finaliser (Steele, Lea, Flood 2014): a cheap, well-mixing step for
// folding the event trace into the fingerprint.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

std::uint32_t Scheduler::allocate_slot() {
  if (free_head_ != kNoSlot) {
    const std::uint32_t s = free_head_;
    free_head_ = slots_[s].context_or_next_free;
    return s;
  }
  if (slots_.size() > kSlotMask) {
    throw std::length_error("more than 16.7 million events pending at once");
  }
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

void Scheduler::free_slot(std::uint32_t slot) {
  Slot& s = slots_[slot];
  ++s.generation;
  s.context_or_next_free = free_head_;
  free_head_ = slot;
}

EventId Scheduler::schedule_at(Time at, Callback cb, ContextId context) {
  if (at < now_) {
    throw std::logic_error("event scheduled in the past: " + at.to_string() + " < now " + now_.to_string());
  }
  if (!cb) throw std::logic_error("event scheduled without a callback");
  if (next_sequence_ > kMaxSequence) renumber();
  const std::uint32_t slot = allocate_slot();
  Slot& s = slots_[slot];
  s.callback = std::move(cb);
  s.context_or_next_free = context;
  const Entry e{at.picoseconds(), (next_sequence_++ << kSlotBits) | slot};
  if (root_vacant_) {
    // The executing event's entry is still at the root: overwrite it and sift
    // down once instead of popping it and pushing this one separately.
    heap_[0] = e;
    root_vacant_ = false;
    sift_down(0);
  } else {
    push(e);
  }
  ++live_;
  return EventId{slot, s.generation};
}

bool Scheduler::cancel(EventId id) {
  if (!is_pending(id)) return false;
  Slot& s = slots_[id.slot];
  s.callback.reset();  // releases captured state now; the entry is skipped when popped
  ++s.generation;      // the handle goes stale at once
  --live_;
  return true;
}

bool Scheduler::is_pending(EventId id) const {
  return id.slot < slots_.size() && slots_[id.slot].generation == id.generation &&
         static_cast<bool>(slots_[id.slot].callback);
}

void Scheduler::run_until(Time end) {
  if (running_) throw std::logic_error("Scheduler::run_until called from inside an event");
  running_ = true;
  stop_requested_ = false;
  const std::int64_t end_ps = end.picoseconds();
  while (!heap_.empty() && !stop_requested_) {
    const Entry top = heap_[0];
    if (top.time > end_ps) break;
    const std::uint32_t slot = top.slot();
    Slot& s = slots_[slot];
    if (!s.callback) {  // cancelled: its generation was bumped at cancel time
      s.context_or_next_free = free_head_;
      free_head_ = slot;
      pop_root();
      continue;
    }
    now_ = Time::ps(top.time);
    current_context_ = s.context_or_next_free;
    Callback cb = std::move(s.callback);  // the slot vector may grow during cb()
    free_slot(slot);
    --live_;
    ++executed_;
    fingerprint_ = mix64(fingerprint_ ^ static_cast<std::uint64_t>(top.time)) ^ current_context_;
    root_vacant_ = true;
    try {
      cb();
    } catch (...) {
      if (root_vacant_) pop_root();
      root_vacant_ = false;
      running_ = false;
      throw;
    }
    if (root_vacant_) {
      root_vacant_ = false;
      pop_root();
    }
  }
  current_context_ = kNoContext;
  if (!stop_requested_ && end < Time::max() && now_ < end) now_ = end;
  running_ = false;
}

void Scheduler::push(Entry e) {
  heap_.push_back(e);
  sift_up(heap_.size() - 1);
}

void Scheduler::pop_root() {
  heap_[0] = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
}

void Scheduler::sift_up(std::size_t i) {
  const Entry e = heap_[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / kArity;
    if (!(e < heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void Scheduler::sift_down(std::size_t i) {
  const std::size_t n = heap_.size();
  const Entry e = heap_[i];
  for (;;) {
    const std::size_t first = i * kArity + 1;
    if (first >= n) break;
    const std::size_t last = std::min(first + kArity, n);
    std::size_t best = first;
    for (std::size_t c = first + 1; c < last; ++c) {
      if (heap_[c] < heap_[best]) best = c;
    }
    if (!(heap_[best] < e)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = e;
}

void Scheduler::renumber() {
  // 2^40 events scheduled in one run: give the pending ones fresh sequence
  // numbers 0..n-1 in their current order. Order is preserved exactly.
  std::vector<Entry> sorted = heap_;
  if (root_vacant_) sorted.erase(sorted.begin());
  std::sort(sorted.begin(), sorted.end());
  std::uint64_t seq = 0;
  for (Entry& e : sorted) e.order = (seq++ << kSlotBits) | e.slot();
  if (root_vacant_) sorted.insert(sorted.begin(), heap_[0]);  // stays at the root until replaced
  heap_ = std::move(sorted);  // a sorted array is a valid heap
  next_sequence_ = seq;
}

}  // namespace wmnsim
