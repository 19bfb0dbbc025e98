#include "core/random.hpp"

#include <cmath>
#include <stdexcept>

namespace wmnsim {

namespace {
__extension__ using u128 = unsigned __int128;  // GCC/Clang extension, for Lemire's method

inline std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// SplitMix64 (Steele, Lea, Flood 2014): the increment and the finaliser.
inline std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
inline std::uint64_t splitmix64_next(std::uint64_t& state) {
  state += 0x9e3779b97f4a7c15ull;
  return splitmix64_mix(state);
}

// xoshiro256** 1.0: one step of the state, its output.
inline std::uint64_t xoshiro256ss_next(std::uint64_t (&s)[4]) {
  const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
  const std::uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

}  // namespace

UniformStream::UniformStream(std::uint64_t key) {
  std::uint64_t sm = key;
  for (auto& word : s_) word = splitmix64_next(sm);
  // SplitMix64 output is never all-zero for four consecutive outputs, so the
  // forbidden all-zero xoshiro state cannot occur.
}

std::uint64_t UniformStream::next_u64() { return xoshiro256ss_next(s_); }

UniformStream RandomStream::uniform_part() const {
  if (has_spare_normal_) throw std::logic_error("uniform_part: the stream keeps a spare normal, which would be lost");
  return UniformStream(static_cast<const UniformStream&>(*this));
}

std::uint64_t UniformStream::uniform_int(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("uniform_int: empty range");
  u128 m = static_cast<u128>(next_u64()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<u128>(next_u64()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

double RandomStream::exponential(double mean) {
  // 1 - u lies in (0, 1], so the logarithm is finite.
  return -mean * std::log1p(-uniform01());
}

double RandomStream::normal(double mean, double stddev) {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return mean + stddev * spare_normal_;
  }
  double u, v, s;
  do {
    u = 2.0 * uniform01() - 1.0;
    v = 2.0 * uniform01() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double f = std::sqrt(-2.0 * std::log(s) / s);
  spare_normal_ = v * f;
  has_spare_normal_ = true;
  return mean + stddev * u * f;
}

RandomStream::NormalTail::NormalTail(double min_abs_z) : s_max(1.0) {
  if (min_abs_z > 0.0) {
    const double t = min_abs_z * (1.0 - 1e-9);
    s_max = std::exp(-0.5 * t * t) * (1.0 + 1e-9);
  }
}

std::optional<double> RandomStream::normal_beyond(double mean, double stddev, NormalTail tail) {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return mean + stddev * spare_normal_;
  }
  // normal()'s loop, with uniform01() spelt out on the inlined generator (a hot path:
  // one call per pair of nodes within reach when the PHY is built).
  const auto uniform = [this] { return static_cast<double>(xoshiro256ss_next(s_) >> 11) * 0x1.0p-53; };
  double u, v, s;
  do {
    u = 2.0 * uniform() - 1.0;
    v = 2.0 * uniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  if (s > tail.s_max) return std::nullopt;
  const double f = std::sqrt(-2.0 * std::log(s) / s);
  spare_normal_ = v * f;
  has_spare_normal_ = true;
  return mean + stddev * u * f;
}

std::uint64_t RandomStreams::key_for(std::string_view canonical_path) const {
  return splitmix64_mix(master_seed_) ^ splitmix64_mix(extend_path_hash(kEmptyPathHash, canonical_path));
}

// 64-bit FNV-1a (Fowler, Noll, Vo), continued from `hash`.
std::uint64_t RandomStreams::extend_path_hash(std::uint64_t hash, std::string_view more) {
  for (const char c : more) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::uint64_t RandomStreams::key_for_path_hash(std::uint64_t path_hash) const {
  return splitmix64_mix(master_seed_) ^ splitmix64_mix(path_hash);
}

RandomStream RandomStreams::stream(std::string_view purpose) const {
  return RandomStream(key_for(purpose));
}

RandomStream RandomStreams::stream(std::string_view kind, std::uint64_t id, std::string_view purpose) const {
  return stream(kind, std::string_view(std::to_string(id)), purpose);
}

RandomStream RandomStreams::stream(std::string_view kind, std::string_view id, std::string_view purpose) const {
  std::string path;
  path.reserve(kind.size() + id.size() + purpose.size() + 2);
  path.append(kind).append("/").append(id).append("/").append(purpose);
  return RandomStream(key_for(path));
}

}  // namespace wmnsim
