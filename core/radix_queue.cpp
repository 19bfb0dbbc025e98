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
