#include "core/radix_queue.hpp"

namespace wmnsim {

void RadixQueue::grow_pool() {
  blocks_.emplace_back(kChunksPerBlock);
  for (Chunk& c : blocks_.back()) free_chunk(&c);
}

void RadixQueue::find_min() {
  const int b = lowest_bucket();
  if (b < 0) throw std::logic_error("RadixQueue::min on an empty queue");
  Key best = ~Key{0};
  for (const Chunk* c = buckets_[b].head; c != nullptr; c = c->next) {
    for (std::uint64_t i = 0; i < c->count; ++i) best = c->keys[i] < best ? c->keys[i] : best;
  }
  min_ = best;
  min_bucket_ = static_cast<unsigned>(b);
  min_known_ = true;
}

void RadixQueue::pop_min() {
  if (!min_known_) find_min();
  const unsigned b = min_bucket_;
  if (free_count_ <= b) reserve_for_refiling();
  Chunk* c = buckets_[b].head;
  buckets_[b] = Bucket{};
  clear_bit(b);
  last_ = min_;
  min_known_ = false;
  --size_;
  // File the bucket's other keys again relative to the new last key: each now
  // differs from it in a lower digit, so it lands in a lower bucket, never in b.
  // (Noting the lowest bucket's minimum on the way, to spare the next min() its
  // scan, cost more instructions than it saved.)
  while (c != nullptr) {
    Chunk* next = c->next;
    const std::uint64_t count = c->count;
    for (std::uint64_t i = 0; i < count; ++i) {
      const Key key = c->keys[i];
      if (key != last_) append(bucket_of(key), key);
    }
    free_chunk(c);  // reused first, while still in cache
    c = next;
  }
}

bool RadixQueue::erase(Key key) {
  // A key at or below the last one popped is not here (popped, or never pushed).
  if (size_ == 0 || key <= last_) return false;
  const unsigned b = bucket_of(key);
  Bucket& bucket = buckets_[b];
  Chunk* before_tail = nullptr;  // the chunk whose next is the tail, once passed
  unsigned chunks = 0;
  // The scheduler's keys are unique in their low 64 bits (the sequence number):
  // one 64-bit comparison a key, the high half checked on a match.
  const auto low = static_cast<std::uint64_t>(key);
  for (Chunk* c = bucket.head; c != nullptr; c = c->next) {
    if (c->next == bucket.tail) before_tail = c;
    if (++chunks > kMaxEraseChunks) return false;  // a crowded bucket: the caller skips it when popped
    for (std::uint64_t i = 0; i < c->count; ++i) {
      if (static_cast<std::uint64_t>(c->keys[i]) != low || c->keys[i] != key) continue;
      // Buckets are unordered: the bucket's last key takes this one's place.
      Chunk* tail = bucket.tail;
      c->keys[i] = tail->keys[--tail->count];
      if (tail->count == 0) {
        if (tail == bucket.head) {
          bucket = Bucket{};
          clear_bit(b);
        } else {
          if (before_tail == nullptr) {  // the key was found before the chunk ahead of the tail
            before_tail = c;
            while (before_tail->next != tail) before_tail = before_tail->next;
          }
          before_tail->next = nullptr;
          bucket.tail = before_tail;
        }
        free_chunk(tail);
      }
      --size_;
      if (min_known_ && key == min_) min_known_ = false;
      return true;
    }
  }
  return false;
}

void RadixQueue::reserve_for_refiling() {
  // Refiling bucket b opens at most one new tail chunk in each bucket it files
  // into (all below b, so fewer than kBuckets), and beyond that needs one chunk
  // per 15 keys, which the bucket's own chunks supply as each is emptied and
  // freed. So b + 1 free chunks up front suffice, and a failed allocation
  // happens here, before anything has moved. Keeping more than kBuckets spare
  // makes the caller's check fail rarely.
  while (free_count_ <= kBuckets) grow_pool();
}

std::vector<RadixQueue::Key> RadixQueue::take_all() {
  std::vector<Key> keys;
  keys.reserve(size_);
  for (Bucket& bucket : buckets_) {
    for (Chunk* c = bucket.head; c != nullptr;) {
      keys.insert(keys.end(), c->keys, c->keys + c->count);
      Chunk* next = c->next;
      free_chunk(c);
      c = next;
    }
    bucket = Bucket{};
  }
  for (auto& w : nonempty_) w = 0;
  summary_ = 0;
  last_ = 0;
  min_known_ = false;
  size_ = 0;
  return keys;
}

}  // namespace wmnsim
