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
#include <string>
#include <string_view>

namespace wmnsim {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t key);

  std::uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
  // Uniform integer in [0, n), unbiased (Lemire 2019, "Fast random integer
  // generation in an interval"). n must be > 0.
  std::uint64_t uniform_int(std::uint64_t n);
  // Exponential with the given mean (inversion).
  double exponential(double mean);
  // Normal by the Marsaglia polar method.
  double normal(double mean, double stddev);
  bool bernoulli(double p) { return uniform01() < p; }

 private:
  std::uint64_t s_[4];
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

 private:
  std::uint64_t master_seed_;
};

}  // namespace wmnsim
