#include "phy/frame_success.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace wmnsim::phy {
namespace {

// The grid: SINRs 2^k (1 + j/64), k from -20 to 19, j from 0 to 63, i.e. the
// doubles whose bits below the top 6 mantissa bits are zero; a positive double's
// bits grow with its value, so the grid point at or below an SINR is its bits
// shifted down.
constexpr int kFractionBits = 6;  // 64 points per octave
constexpr int kShift = 52 - kFractionBits;
constexpr int kMinExponent = -20, kMaxExponent = 20;  // -60.2 dB .. +60.2 dB
constexpr std::size_t kPoints = static_cast<std::size_t>(kMaxExponent - kMinExponent) << kFractionBits;  // + 1 below
constexpr std::uint64_t kMinBits = static_cast<std::uint64_t>(1023 + kMinExponent) << 52;
constexpr std::uint64_t kMaxBits = static_cast<std::uint64_t>(1023 + kMaxExponent) << 52;
constexpr std::size_t kTables = kDsssMcs.size() + kOfdmMcs.size();

// Rounding: the closed forms compute a unit's error u and then log1p(-u); near
// u = 1 the result is limited by u's rounding (about 1e-16 absolute; the Viterbi
// bound's D^26 term multiplies erfc's rounding by up to 26), an error of about
// 1e-16 / exp(f) to 5e-15 / exp(f) in f = log(1 - u). 1e-12 exp(-f) is two hundred
// times the larger, and 1e-9 |f| covers the rounding of units * f and of the sums
// (relative, 1e-16 a step). Below f = -30 (a unit fails with probability 1 - 1e-13) the
// values are too noisy to bound tightly and too small to matter: the lower bound
// is -inf there and the upper bound that of -30. Simpson's truncation error in
// the CCK quadrature (relative 1e-7) changes smoothly with the SINR and does not
// reverse the order of neighbouring grid points.
constexpr double kFloor = -30.0;
double margin(double f) { return 1e-9 * std::fabs(f) + 1e-12 * std::exp(-f); }
double lower_of(double f) { return f >= kFloor ? f - margin(f) : -std::numeric_limits<double>::infinity(); }
double upper_of(double f) {
  const double g = std::max(f, kFloor);
  return std::min(g + margin(g), 0.0);
}

// Filled lazily, shared by every radio and thread: an entry is the bits of a
// value complemented, 0 while not yet computed (no value's complement is 0). Two
// threads filling one entry store the same value.
struct Entry {
  std::atomic<std::uint64_t> lower{0}, upper{0};
};
std::array<std::array<Entry, kPoints + 1>, kTables> g_tables;

int table_of(const Mcs& mcs) {
  // Addresses compared as integers: one subtraction and one unsigned comparison
  // per table (an Mcs outside both arrays, a caller's own, has no table; an Mcs
  // inside one is one of its elements). OFDM first: every rate of 802.11a/g.
  const auto at = reinterpret_cast<std::uintptr_t>(&mcs);
  const auto ofdm = at - reinterpret_cast<std::uintptr_t>(kOfdmMcs.data());
  if (ofdm < sizeof(kOfdmMcs)) return static_cast<int>(kDsssMcs.size() + ofdm / sizeof(Mcs));
  const auto dsss = at - reinterpret_cast<std::uintptr_t>(kDsssMcs.data());
  if (dsss < sizeof(kDsssMcs)) return static_cast<int>(dsss / sizeof(Mcs));
  return -1;
}

double point_sinr(std::size_t i) { return std::bit_cast<double>(kMinBits + (static_cast<std::uint64_t>(i) << kShift)); }

[[gnu::noinline]] void fill(const Mcs& mcs, std::size_t i, Entry& e) {
  const double f = unit_log_success(mcs, point_sinr(i));
  e.lower.store(~std::bit_cast<std::uint64_t>(lower_of(f)), std::memory_order_relaxed);
  e.upper.store(~std::bit_cast<std::uint64_t>(upper_of(f)), std::memory_order_relaxed);
}

// One bound at grid point i (the lower or the upper), computing the point first
// if nobody has yet.
inline double bound_at(const Mcs& mcs, int table, std::size_t i, std::atomic<std::uint64_t> Entry::*bound) {
  Entry& e = g_tables[static_cast<std::size_t>(table)][i];
  std::uint64_t v = (e.*bound).load(std::memory_order_relaxed);
  if (v == 0) [[unlikely]] {
    fill(mcs, i, e);
    v = (e.*bound).load(std::memory_order_relaxed);
  }
  return std::bit_cast<double>(~v);
}
double lower_at(const Mcs& mcs, int table, std::size_t i) { return bound_at(mcs, table, i, &Entry::lower); }
double upper_at(const Mcs& mcs, int table, std::size_t i) { return bound_at(mcs, table, i, &Entry::upper); }

[[noreturn, gnu::noinline, gnu::cold]] void throw_bad_sinr(double sinr) {
  throw std::invalid_argument("SINR must be >= 0 (linear), got " + std::to_string(sinr));
}
// Inline, the message apart: every decision checks its SINRs (decide_by_floor two).
inline void check_sinr(double sinr) {
  if (!(sinr >= 0.0)) [[unlikely]] throw_bad_sinr(sinr);  // also catches NaN
}

}  // namespace

namespace {

// Where a checked SINR lies on the grid, for either bound: below the grid, above
// it, or else the grid point at or below it and whether it is that point.
struct GridPlace {
  std::uint64_t bits;
  bool below() const { return bits < kMinBits; }
  bool above() const { return bits >= kMaxBits; }
  std::size_t point() const { return static_cast<std::size_t>((bits - kMinBits) >> kShift); }
  bool on_point() const { return ((bits - kMinBits) & ((std::uint64_t{1} << kShift) - 1)) == 0; }
};
inline GridPlace grid_place(double sinr) {
  return {std::bit_cast<std::uint64_t>(sinr + 0.0)};  // -0.0 would read as a huge SINR
}

// The two sides of unit_log_success_bounds, for a table (table_of >= 0) and a
// checked SINR.
inline double lower_bound_at(const Mcs& mcs, int table, GridPlace g) {
  if (g.below()) return -std::numeric_limits<double>::infinity();
  if (g.above()) return lower_at(mcs, table, kPoints);
  return lower_at(mcs, table, g.point());
}
inline double upper_bound_at(const Mcs& mcs, int table, GridPlace g) {
  if (g.below()) return upper_at(mcs, table, 0);
  if (g.above()) return 0.0;
  // An SINR on a grid point is bounded by that point alone.
  return upper_at(mcs, table, g.on_point() ? g.point() : g.point() + 1);
}
double lower_bound_of(const Mcs& mcs, int table, double sinr) { return lower_bound_at(mcs, table, grid_place(sinr)); }
double upper_bound_of(const Mcs& mcs, int table, double sinr) { return upper_bound_at(mcs, table, grid_place(sinr)); }

// Decoding units in `d` at `mcs`, as the chunks of that duration would count them.
inline double units_in(const Mcs& mcs, Time d) { return decoding_units(mcs, SinrChunk::from_duration(mcs, 0.0, d).bits); }

// The draw u survives for certain: `lower` is a lower bound of the frame's log
// success. exp(x) >= 1 + x: a clean frame is decided without exp. The lower bound
// sits at least 1e-12 a unit below the log success, far more than 1 + x's
// rounding. exp is not promised monotone to the last bit: a relative 2^-50 either
// way. (exp(-40) < 1e-17: no need to compute it for a larger draw.)
inline bool survives_below(double lower, double u) {
  if (u < (1.0 + lower) * (1.0 - 0x1p-50)) return true;
  return (lower > -40.0 || u < 1e-17) && u < std::exp(lower) * (1.0 - 0x1p-50);
}
// The draw u is lost for certain: `upper` is an upper bound of the log success.
inline bool lost_above(double upper, double u) {
  if (upper < -40.0 && u >= 1e-17) return true;
  return u >= std::exp(upper) * (1.0 + 0x1p-50);
}

}  // namespace

LogSuccessBounds unit_log_success_bounds(const Mcs& mcs, double sinr) {
  check_sinr(sinr);
  const int table = table_of(mcs);
  if (table < 0) return {};
  return {lower_bound_of(mcs, table, sinr), upper_bound_of(mcs, table, sinr), true};
}

void FrameSuccess::add(const Mcs& mcs, double sinr, Time duration) {
  if (exact_) {
    log_success_ += cache().chunk_log_success(mcs, sinr, duration);
    return;
  }
  check_sinr(sinr);
  if (table_of(mcs) < 0) {  // no table: the exact path from here on
    go_exact();
    log_success_ += cache().chunk_log_success(mcs, sinr, duration);
    return;
  }
  const double bits = SinrChunk::from_duration(mcs, sinr, duration).bits;
  if (!(bits > 0.0)) return;  // adds 0 on the exact path
  const double units = decoding_units(mcs, bits);
  chunks_.push_back(Chunk{&mcs, sinr, duration, units});
}

int FrameSuccess::decide_by_worst(std::span<const WorstChunk> worst, double u) const {
  if (always_exact_) return -1;
  // Lower bound: every unit of a part at its floor SINR. Units of the whole
  // duration rather than summed chunk by chunk: a rounding difference of about
  // 1e-16, far inside the bounds' margin (1e-9 of the value and 1e-12 a unit,
  // margin() above).
  std::array<int, 4> tables{};
  if (worst.size() > tables.size()) return -1;
  double lower = 0.0;
  for (std::size_t k = 0; k < worst.size(); ++k) {
    const WorstChunk& w = worst[k];
    check_sinr(w.sinr_floor);
    check_sinr(w.worst_sinr);
    tables[k] = table_of(*w.mcs);
    if (tables[k] < 0) return -1;
    if (w.duration > Time()) lower += units_in(*w.mcs, w.duration) * lower_bound_of(*w.mcs, tables[k], w.sinr_floor);
  }
  if (survives_below(lower, u)) return 1;
  // Upper bound: each part's worst stretch alone (every chunk's log success is <= 0).
  double upper = 0.0;
  for (std::size_t k = 0; k < worst.size(); ++k) {
    const WorstChunk& w = worst[k];
    if (w.worst_duration > Time()) {
      upper += units_in(*w.mcs, w.worst_duration) * upper_bound_of(*w.mcs, tables[k], w.worst_sinr);
    }
  }
  return lost_above(upper, u) ? 0 : -1;
}

int FrameSuccess::decide_by_floor(const FrameBounds& b, double u) const {
  // decide_by_worst's steps for its two parts, in its order (its comments say why
  // each holds); only the SINRs' grid places are shared. The two parts' checks of
  // one SINR are one check, and looking a part's table up before the other's
  // table_of changes nothing but which table entry is filled first.
  if (always_exact_) return -1;
  check_sinr(b.sinr_floor);
  check_sinr(b.worst_sinr);
  const int header_table = table_of(*b.header_mcs);
  if (header_table < 0) return -1;
  const int payload_table = table_of(*b.payload_mcs);
  if (payload_table < 0) return -1;
  const GridPlace floor = grid_place(b.sinr_floor);
  double lower = 0.0;
  if (b.header > Time()) lower += units_in(*b.header_mcs, b.header) * lower_bound_at(*b.header_mcs, header_table, floor);
  if (b.payload > Time()) {
    lower += units_in(*b.payload_mcs, b.payload) * lower_bound_at(*b.payload_mcs, payload_table, floor);
  }
  if (survives_below(lower, u)) return 1;
  const GridPlace worst = grid_place(b.worst_sinr);
  double upper = 0.0;
  if (b.header_worst > Time()) {
    upper += units_in(*b.header_mcs, b.header_worst) * upper_bound_at(*b.header_mcs, header_table, worst);
  }
  if (b.payload_worst > Time()) {
    upper += units_in(*b.payload_mcs, b.payload_worst) * upper_bound_at(*b.payload_mcs, payload_table, worst);
  }
  return lost_above(upper, u) ? 0 : -1;
}

int FrameSuccess::decide_by_chunks(double u) const {
  double lower = 0.0, upper = 0.0;
  for (const Chunk& c : chunks_) {
    const LogSuccessBounds b = unit_log_success_bounds(*c.mcs, c.sinr);
    lower += c.units * b.lower;
    upper += c.units * b.upper;
  }
  if (u < std::exp(lower) * (1.0 - 0x1p-50)) return 1;
  if (u >= std::exp(upper) * (1.0 + 0x1p-50)) return 0;
  return -1;
}

void FrameSuccess::go_exact() {
  if (exact_) return;
  exact_ = true;
  log_success_ = 0.0;
  for (const Chunk& c : chunks_) log_success_ += cache().chunk_log_success(*c.mcs, c.sinr, c.duration);
}

bool FrameSuccess::survives(double u) {
  if (!exact_) {
    const int decided = decide_by_chunks(u);
    if (decided >= 0) return decided == 1;
    go_exact();  // the draw fell between the bounds
  }
  return u < std::exp(log_success_);
}

}  // namespace wmnsim::phy
