#pragma once
// The event-trace fingerprint: one 64-bit hash folded, in order, over what a run
// did, as OMNeT++'s fingerprint tests do (cfingerprint.h): two runs with equal
// fingerprints executed the same trace, not merely reached the same statistics.
// tests/fingerprints/ stores one per shipped scenario (docs/fingerprints.md).
//
// The trace, record by record, each folded when it happens:
//   event     every executed event: its time and context (the node), except the
//             events of observers (samplers, kObserverContext), so output options
//             do not move it;
//   frame     every MAC frame put on the air: time, transmitter (MAC address, the
//             network-wide radio index), kind, MPDU bytes, airtime;
//   delivery  every packet delivered to an endpoint: time, node, flow, IP bytes;
//   drop      every packet dropped: time, node, cause, flow, IP bytes.
//
// Portable by construction: only integers are folded (times in picoseconds,
// indices, sizes), names (frame kinds, drop causes) as their FNV-1a hash rather
// than an enum's position, so reordering an enum moves nothing. The fold is
// SplitMix64's finaliser over state ^ word (Steele, Lea, Flood 2014): a bijection,
// so a single changed word always changes the result. No std::hash, no pointers,
// no floating point.
//
// Cost: two multiply-xorshift rounds per word, two words per event; nothing at all
// when fingerprinting is off (the scheduler then runs a loop without it, and the
// layers test a null pointer per frame or packet).

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/time.hpp"

namespace wmnsim {

// FNV-1a, 64 bits (Fowler, Noll, Vo): how names enter the fingerprint.
constexpr std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : text) {
    h ^= static_cast<std::uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

class Fingerprint {
 public:
  // How many records of each kind went in: a moved fingerprint with moved counts
  // says where to look.
  struct Counts {
    std::uint64_t events = 0;
    std::uint64_t frames = 0;
    std::uint64_t deliveries = 0;
    std::uint64_t drops = 0;
    bool operator==(const Counts&) const = default;
  };

  void event(Time at, std::uint32_t context) {
    fold(word(Record::event, context));
    fold(static_cast<std::uint64_t>(at.picoseconds()));
    ++counts_.events;
  }
  void frame(Time at, std::uint32_t transmitter, std::string_view kind, std::uint32_t bytes, Time airtime) {
    fold(word(Record::frame, transmitter));
    fold(static_cast<std::uint64_t>(at.picoseconds()));
    fold(fnv1a64(kind));
    fold(bytes);
    fold(static_cast<std::uint64_t>(airtime.picoseconds()));
    ++counts_.frames;
  }
  void delivery(Time at, std::uint32_t node, std::uint32_t flow, std::uint32_t bytes) {
    fold(word(Record::delivery, node));
    fold(static_cast<std::uint64_t>(at.picoseconds()));
    fold((static_cast<std::uint64_t>(flow) << 32) | bytes);
    ++counts_.deliveries;
  }
  void drop(Time at, std::uint32_t node, std::string_view cause, std::uint32_t flow, std::uint32_t bytes) {
    fold(word(Record::drop, node));
    fold(static_cast<std::uint64_t>(at.picoseconds()));
    fold(fnv1a64(cause));
    fold((static_cast<std::uint64_t>(flow) << 32) | bytes);
    ++counts_.drops;
  }

  // The fingerprint of the trace so far.
  std::uint64_t value() const { return state_; }
  // As written in results files and tests/fingerprints: 16 lowercase hex digits.
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(state_));
    return buf;
  }
  const Counts& counts() const { return counts_; }

 private:
  // Each record starts with its kind and its subject (node, radio) in one word,
  // so records of different kinds never read alike.
  enum class Record : std::uint64_t { event = 1, frame = 2, delivery = 3, drop = 4 };
  static constexpr std::uint64_t word(Record r, std::uint32_t subject) {
    return (static_cast<std::uint64_t>(r) << 32) | subject;
  }
  void fold(std::uint64_t w) {
    std::uint64_t z = state_ ^ w;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    state_ = z ^ (z >> 31);
  }

  std::uint64_t state_ = 0x9e3779b97f4a7c15ull;  // the golden ratio, SplitMix64's increment
  Counts counts_;
};

}  // namespace wmnsim
