#pragma once
// A monotone priority queue of unique 128-bit keys: the scheduler's future-event set.
//
// A discrete-event simulation never schedules before now, so every key pushed is
// larger than the last key popped (an empty queue takes any key). A radix heap (Ahuja, Mehlhorn, Orlin, Tarjan,
// "Faster algorithms for the shortest path problem", JACM 37(2), 1990) exploits
// exactly that: a key is filed in a bucket by the highest digit in which it
// differs from the last key popped, and only the lowest bucket is ever sorted out.
// Here the digits are 4 bits wide (16 buckets per digit position, 32 positions):
// push is O(1), and a key moves down a few buckets over its life (typically
// log16 of the number pending; never more than 31 times), each move a sequential
// read and append instead of the random probes of a comparison heap. Popping takes the smallest key of
// the lowest bucket and files the rest of that bucket again relative to it; each
// of them lands in a lower bucket.
//
// Buckets are linked lists of 256-byte chunks from one pool, so memory stays
// O(keys + buckets) however the keys move (a vector per bucket was faster with
// 10^6 keys pending but held 7 to 20 times the keys in capacity, each bucket
// keeping its largest size ever), and a freed chunk is reused at once, while it
// is still in cache. The pool never shrinks and grows only when more chunks are
// needed than ever before, so a steady state allocates nothing. If growing it
// fails (std::bad_alloc), the queue is left as it was.

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/cache_line_allocator.hpp"

namespace wmnsim {

class RadixQueue {
 public:
  __extension__ using Key = unsigned __int128;

  RadixQueue() = default;
  RadixQueue(const RadixQueue&) = delete;  // buckets point into the pool
  RadixQueue& operator=(const RadixQueue&) = delete;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // `key` must be greater than every key popped so far, unless the queue is
  // empty (std::logic_error).
  void push(Key key) {
    if (key <= last_) [[unlikely]] {
      // An empty queue constrains nothing. The scheduler needs this: at the end
      // of run() the last keys popped may be cancelled events later than now.
      if (size_ != 0) throw std::logic_error("RadixQueue: key not above the last key popped");
      last_ = 0;
    }
    const unsigned b = bucket_of(key);
    append(b, key);
    ++size_;
    if (min_known_ && key < min_) {  // a known minimum stays known
      min_ = key;
      min_bucket_ = b;
    }
  }

  // The smallest key. Requires !empty(). Does not change what later pushes may
  // hold: a key below it may still be pushed as long as it is above the last one
  // popped (the scheduler looks at the next event without committing to run it).
  // Cheap to call again: the minimum is remembered until it is popped.
  Key min() {
    if (!min_known_) find_min();
    return min_;
  }

  // Removes min(). From now on every push must be above it.
  void pop_min();

  // Removes `key` if it is here and its bucket is short (at most kMaxEraseChunks
  // chunks are searched), and returns whether it did. A key's bucket follows from
  // the key and the last key popped, and buckets are unordered, so removal is a
  // search of one bucket and a swap with its last key: the order of every other
  // key is untouched. In small networks the scheduler's cancelled timers are
  // nearly always due soon, in a bucket of a few keys; in large ones many meet
  // crowded buckets (10,000 nodes: 44 % beyond 240 keys). A key not removed stays,
  // for the caller to skip when popped.
  bool erase(Key key);

  // Empties the queue and returns its keys (unordered); afterwards any key may be
  // pushed again. Used to renumber keys, so rare. Throws std::bad_alloc before
  // changing anything if the returned vector cannot be allocated.
  std::vector<Key> take_all();

  // Bytes held by the chunk pool (for tests and benchmarks).
  std::size_t pool_bytes() const { return blocks_.size() * kChunksPerBlock * sizeof(Chunk); }

 private:
  static constexpr unsigned kDigitBits = 4;
  static constexpr unsigned kDigits = 1u << kDigitBits;
  static constexpr unsigned kPositions = 128 / kDigitBits;
  static constexpr unsigned kBuckets = kPositions * kDigits;
  static constexpr unsigned kWords = kBuckets / 64;
  // 15 keys per chunk: a 256-byte chunk, four cache lines. Larger chunks were
  // no faster in bench_scheduler and waste more in partly filled tails.
  static constexpr std::uint32_t kChunkKeys = 15;
  static constexpr std::size_t kChunksPerBlock = 64;
  // erase() gives up beyond this many chunks (60 keys) of one bucket: a search
  // of four chunks costs about what a key left to be skipped costs later (refiled,
  // popped). In larger networks a timer's bucket holds more keys (at 10,000 nodes
  // 44 % of the cancels met more than 240), and a longer search was mostly wasted:
  // 16 chunks cost 4 % more instructions per event there; in 004's mesh and the
  // benchmarks' cells 99 % of the keys erased are in the first four chunks
  // (docs/performance.md, "City scale").
  static constexpr unsigned kMaxEraseChunks = 4;

  struct Chunk {
    Chunk* next;
    std::uint64_t count;
    Key keys[kChunkKeys];
  };
  static_assert(sizeof(Chunk) == 256);
  struct Bucket {
    Chunk* head = nullptr;
    Chunk* tail = nullptr;  // only the tail chunk can be partly filled
  };

  // Bucket of a key: (position of the highest digit where it differs from the
  // last key popped, its value of that digit). Bucket order is key order: a key
  // differing in a lower digit is smaller, and within one position a smaller
  // digit is smaller, since the digits above are the last key's.
  unsigned bucket_of(Key key) const {
    // On 64-bit halves: 128-bit variable shifts cost several instructions each,
    // and this runs for every key moved.
    const auto key_hi = static_cast<std::uint64_t>(key >> 64);
    const auto key_lo = static_cast<std::uint64_t>(key);
    const std::uint64_t diff_hi = key_hi ^ static_cast<std::uint64_t>(last_ >> 64);
    if (diff_hi != 0) {
      const unsigned position = (63u - static_cast<unsigned>(__builtin_clzll(diff_hi))) / kDigitBits;
      return (kPositions / 2 + position) * kDigits + static_cast<unsigned>((key_hi >> (position * kDigitBits)) & (kDigits - 1));
    }
    const unsigned position = (63u - static_cast<unsigned>(__builtin_clzll(key_lo ^ static_cast<std::uint64_t>(last_)))) / kDigitBits;
    return position * kDigits + static_cast<unsigned>((key_lo >> (position * kDigitBits)) & (kDigits - 1));
  }

  int lowest_bucket() const {
    if (summary_ == 0) return -1;
    const auto w = static_cast<unsigned>(__builtin_ctzll(summary_));
    return static_cast<int>(w * 64 + static_cast<unsigned>(__builtin_ctzll(nonempty_[w])));
  }
  void set_bit(unsigned b) {
    nonempty_[b / 64] |= std::uint64_t{1} << (b % 64);
    summary_ |= std::uint64_t{1} << (b / 64);
  }
  void clear_bit(unsigned b) {
    nonempty_[b / 64] &= ~(std::uint64_t{1} << (b % 64));
    if (nonempty_[b / 64] == 0) summary_ &= ~(std::uint64_t{1} << (b / 64));
  }

  void append(unsigned b, Key key) {
    Bucket& bucket = buckets_[b];
    Chunk* tail = bucket.tail;
    if (tail == nullptr || tail->count == kChunkKeys) {
      Chunk* c = allocate_chunk();
      if (tail == nullptr) {
        bucket.head = c;
        set_bit(b);
      } else {
        tail->next = c;
      }
      bucket.tail = tail = c;
    }
    tail->keys[tail->count++] = key;
  }

  Chunk* allocate_chunk() {
    if (free_chunk_ == nullptr) grow_pool();
    Chunk* c = free_chunk_;
    free_chunk_ = c->next;
    --free_count_;
    c->next = nullptr;
    c->count = 0;
    return c;
  }
  void free_chunk(Chunk* c) {
    c->next = free_chunk_;
    free_chunk_ = c;
    ++free_count_;
  }
  void grow_pool();
  void reserve_for_refiling();

  void find_min();

  Bucket buckets_[kBuckets];
  std::uint64_t nonempty_[kWords] = {};  // bit b: bucket b holds a key
  std::uint64_t summary_ = 0;            // bit w: nonempty_[w] != 0
  static_assert(kWords <= 64);
  std::vector<std::vector<Chunk, CacheLineAllocator<Chunk>>> blocks_;  // chunks never move
  Chunk* free_chunk_ = nullptr;
  std::size_t free_count_ = 0;
  Key last_ = 0;  // the last key popped (0 before the first pop)
  Key min_ = 0;
  unsigned min_bucket_ = 0;
  bool min_known_ = false;
  std::size_t size_ = 0;
};

}  // namespace wmnsim
