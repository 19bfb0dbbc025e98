#pragma once
// Random streams: one master seed, many named and independent streams.
//
// Generator: xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom
// number generators", ACM TOMS 2021), 256 bits of state, period 2^256 - 1.
//
// Derivation: a stream is named by a path such as ("node", 7, "backoff"). The
// path is rendered canonically ("node/7/backoff"), hashed with 64-bit FNV-1a,
// and combined with the master seed through SplitMix64:
//     key   = splitmix64_mix(master_seed) ^ splitmix64_mix(fnv1a64(path))
//     state = four successive SplitMix64 outputs seeded with `key`
// A stream depends only on the master seed and its own name, never on how many
// other streams exist or in which order they were created, so adding a node or a
// flow does not change any other stream's draws.
//
// Distributions are implemented here, not taken from <random>, whose
// distributions are implementation-defined: the same seed gives the same draws on
// every standard library.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wmnsim {

// The generator and its uniform draws alone, 32 B: for a stream that never draws a
// normal (a MAC's backoff draws, a radio's error draws), which then carries no spare
// normal beside its state (issue 43 §3, memory per node: 16 B less than a
// RandomStream). The same state gives the same draws as a RandomStream's.
class RandomStream;

class UniformStream {
 public:
  explicit UniformStream(std::uint64_t key);
  // Not from a RandomStream by slicing, which would drop a spare normal unseen:
  // RandomStream::uniform_part() checks there is none.
  UniformStream(const RandomStream&) = delete;
  UniformStream& operator=(const RandomStream&) = delete;
  UniformStream(const UniformStream&) = default;
  UniformStream& operator=(const UniformStream&) = default;

  std::uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
  // Uniform integer in [0, n), unbiased (Lemire 2019, "Fast random integer
  // generation in an interval"). n must be > 0.
  std::uint64_t uniform_int(std::uint64_t n);
  bool bernoulli(double p) { return uniform01() < p; }

 protected:
  std::uint64_t s_[4];
};

class RandomStream : public UniformStream {
 public:
  explicit RandomStream(std::uint64_t key) : UniformStream(key) {}

  // Its uniform draws alone, continuing where this stream stands. Only while it
  // keeps no spare normal (the spare would be lost): std::logic_error otherwise.
  UniformStream uniform_part() const;

  // Exponential with the given mean (inversion).
  double exponential(double mean);
  // Normal by the Marsaglia polar method.
  double normal(double mean, double stddev);
  // No draw of normal(0, 1) exceeds this in magnitude, so |normal(m, s) - m| <= s *
  // kNormalMaxAbs. Derivation: u = 2 uniform01() - 1 = (k - 2^52) 2^-52 for a 53-bit
  // integer k, exactly, so u and v are integer multiples of 2^-52 and an accepted
  // s = u^2 + v^2 (0 < s < 1) is at least 2^-104 (rounding is monotone and a nonzero
  // u has u^2 >= 2^-104). The draw is u f (or v f) with f = sqrt(-2 ln s / s), and
  // |u| <= sqrt(s), so |z| <= sqrt(-2 ln s) <= sqrt(-2 ln 2^-104) = sqrt(208 ln 2)
  // = 12.007273..., reached at u = 2^-52, v = 0. 12.0073 leaves room for the few
  // ulps of rounding in s, ln, sqrt and the products.
  static constexpr double kNormalMaxAbs = 12.0073;
  // For callers that only use a large normal draw (a far link that only a deep fade
  // in its favour would bring in range). NormalTail(t) says which polar-method
  // draws can reach |z| >= t: |z| <= sqrt(-2 ln s) (see kNormalMaxAbs), so only
  // those with s <= exp(-t^2 / 2) (a relative margin of 1e-9 absorbs rounding).
  struct NormalTail {
    explicit NormalTail(double min_abs_z);
    double s_max;
  };
  // Consumes exactly the uniforms normal() would and returns what normal(mean,
  // stddev) would return, unless the draw's |z| is certainly below the tail's t: then
  // nothing, without the logarithm. A returned value may still be below t. Without a
  // value no spare is kept, so use it on a fresh stream (a stream per draw).
  std::optional<double> normal_beyond(double mean, double stddev, NormalTail tail);

 private:
  bool has_spare_normal_ = false;
  double spare_normal_ = 0.0;
};

class RandomStreams {
 public:
  explicit RandomStreams(std::uint64_t master_seed) : master_seed_(master_seed) {}

  std::uint64_t master_seed() const { return master_seed_; }

  // A stream named by `purpose` alone, e.g. stream("shadowing").
  RandomStream stream(std::string_view purpose) const;
  // A stream per entity and purpose, e.g. stream("node", 7, "backoff").
  RandomStream stream(std::string_view kind, std::uint64_t id, std::string_view purpose) const;
  // The same with a string id, e.g. stream("flow", "f3", "arrivals").
  RandomStream stream(std::string_view kind, std::string_view id, std::string_view purpose) const;

  // The key a path maps to (exposed for tests and documentation).
  std::uint64_t key_for(std::string_view canonical_path) const;
  // The same in pieces, for callers naming many streams with shared prefixes (a
  // stream per pair of nodes): key_for(p + q) ==
  // key_for_path_hash(extend_path_hash(extend_path_hash(kEmptyPathHash, p), q)).
  static constexpr std::uint64_t kEmptyPathHash = 0xcbf29ce484222325ull;  // FNV-1a offset basis
  static std::uint64_t extend_path_hash(std::uint64_t hash, std::string_view more);
  std::uint64_t key_for_path_hash(std::uint64_t path_hash) const;

 private:
  std::uint64_t master_seed_;
};

}  // namespace wmnsim
