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

EventId Scheduler::schedule_in(Time delay, Callback cb, ContextId context) {
  if (delay > Time::max() - now_) {
    throw std::logic_error("event delay " + delay.to_string() + " runs past the end of simulated time");
  }
  return schedule_at(now_ + delay, std::move(cb), context);
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
  const Entry e = Entry::make(at.picoseconds(), (next_sequence_++ << kSlotBits) | slot);
  if (root_vacant_) {
    // The executing event's entry is still at the root: overwrite it and sift
    // down once instead of popping it and pushing this one separately.
    heap()[0] = e;
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

bool Scheduler::run_until(Time end, std::uint64_t max_events) {
  if (running_) throw std::logic_error("Scheduler::run_until called from inside an event");
  running_ = true;
  stop_requested_ = false;
  const std::int64_t end_ps = end.picoseconds();
  const std::uint64_t budget_end = max_events > ~executed_ ? ~std::uint64_t{0} : executed_ + max_events;
  while (heap_size() > 0 && !stop_requested_) {
    if (executed_ == budget_end) {
      running_ = false;
      return false;
    }
    const Entry top = heap()[0];
    if (top.time() > end_ps) break;
    const std::uint32_t slot = top.slot();
    Slot& s = slots_[slot];
    if (!s.callback) {  // cancelled: its generation was bumped at cancel time
      s.context_or_next_free = free_head_;
      free_head_ = slot;
      pop_root();
      continue;
    }
    now_ = Time::ps(top.time());
    current_context_ = s.context_or_next_free;
    Callback cb = std::move(s.callback);  // the slot vector may grow during cb()
    free_slot(slot);
    --live_;
    ++executed_;
    fingerprint_ = mix64(fingerprint_ ^ static_cast<std::uint64_t>(top.time())) ^ current_context_;
    root_vacant_ = true;
    prefetch_next_slot();
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
  return true;
}

void Scheduler::prefetch_next_slot() const {
  // The next event to run is usually the smallest child of the root (or the event
  // the running handler is about to schedule, whose slot is hot anyway). Fetching
  // its slot now overlaps that cache miss with the running handler and the sift.
  const std::size_t n = heap_size();
  if (n < 2) return;
  const Entry* h = heap_.data() + kPad;
  std::size_t best = 1;
  for (std::size_t k = 2; k <= kArity && k < n; ++k) best = h[k] < h[best] ? k : best;
  __builtin_prefetch(&slots_[h[best].slot()]);
}

void Scheduler::push(Entry e) {
  heap_.push_back(e);
  sift_up(heap_size() - 1);
}

void Scheduler::pop_root() {
  const Entry last = heap_.back();
  heap_.pop_back();
  if (heap_size() > 0) {
    heap()[0] = last;
    sift_down(0);
  }
}

void Scheduler::sift_up(std::size_t i) {
  Entry* h = heap();
  const Entry e = h[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / kArity;
    if (!(e < h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

void Scheduler::sift_down(std::size_t i) {
  // Bottom-up (Floyd): move the hole down along the smallest children to a leaf
  // without comparing against the element, then sift the element up from there.
  // A new event usually belongs near the leaves (it is later than most pending
  // events), so this saves a comparison per level.
  Entry* h = heap();
  const std::size_t n = heap_size();
  const Entry e = h[i];
  for (;;) {
    const std::size_t first = i * kArity + 1;
    std::size_t best;
    if (first + kArity <= n) {  // the common case: four children
      // Fetch the four grandchild lines now: the next level's loads then overlap
      // with this level's comparisons instead of stalling one after the other.
      const std::size_t grandchildren = first * kArity + 1;
      if (grandchildren < n) {
        for (std::size_t k = 0; k < kArity; ++k) __builtin_prefetch(h + grandchildren + k * kArity);
      }
      const Entry* c = h + first;
      const std::size_t a = c[1] < c[0] ? 1 : 0;
      const std::size_t b = c[3] < c[2] ? 3 : 2;
      best = first + (c[b] < c[a] ? b : a);
    } else if (first < n) {
      best = first;
      for (std::size_t k = first + 1; k < n; ++k) best = h[k] < h[best] ? k : best;
    } else {
      break;
    }
    h[i] = h[best];
    i = best;
  }
  h[i] = e;
  sift_up(i);
}

void Scheduler::renumber() {
  // 2^40 events scheduled in one run: give the pending ones fresh sequence
  // numbers 0..n-1 in their current order. Order is preserved exactly.
  std::vector<Entry> sorted(heap() + (root_vacant_ ? 1 : 0), heap() + heap_size());
  std::sort(sorted.begin(), sorted.end());
  std::uint64_t seq = 0;
  for (Entry& e : sorted) e = Entry::make(e.time(), (seq++ << kSlotBits) | e.slot());
  // A sorted array is a valid heap. A vacant root stays at the root: the caller
  // overwrites it at once.
  std::copy(sorted.begin(), sorted.end(), heap() + (root_vacant_ ? 1 : 0));
  next_sequence_ = seq;
}

}  // namespace wmnsim
